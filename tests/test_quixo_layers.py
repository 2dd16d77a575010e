"""quixo_solver's folders are its layers, and imports run one way: from a layer to the layers
below it, never up; and no modules import each other in a circle, inside a layer either."""
from pathlib import Path

import quixo_solver

from .layers import import_circles, imported, layer_of, upward_imports

PACKAGE = Path(quixo_solver.__file__).parent
# lowest first; a module's layer is its folder, or its own name at the root
LAYERS = [
    {"errors", "limits", "_interrupt"},     # the errors, the bounds of user numbers, Ctrl-C
    {"rules"},
    {"tablebase"},
    {"search"},
    {"teams"},
    {"variants"},
    {"tournament"},
    {"frontends"},
    {"__main__", "__init__"},
]


def test_every_module_has_a_layer_and_imports_only_below_or_beside_it():
    modules = sorted(PACKAGE.rglob("*.py"))
    assert len(modules) > 70
    assert upward_imports(PACKAGE, LAYERS, modules) == []


def test_no_modules_import_each_other_in_a_circle():
    assert import_circles(PACKAGE, sorted(PACKAGE.rglob("*.py"))) == []


def test_the_root_holds_only_the_bottom_and_the_top():
    """The root keeps what every layer needs (errors, limits, Ctrl-C), the one place that
    knows the variants, and the package's entry points; everything else is in a folder."""
    root = sorted(path.stem for path in PACKAGE.glob("*.py"))
    assert root == ["__init__", "__main__", "errors", "limits", "variants"]


def test_the_rules_import_nothing_above_them():
    for path in (PACKAGE / "rules").glob("*.py"):
        assert all(layer_of(LAYERS, target) <= 1 for target in imported(PACKAGE, path)), path
