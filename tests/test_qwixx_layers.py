"""qwixx_stats's folders are its layers, and imports run one way: from a layer to the layers
below it, never up; and no modules import each other in a circle, inside a layer either."""
from pathlib import Path

import qwixx_stats

from .layers import import_circles, imported, layer_of, upward_imports

PACKAGE = Path(qwixx_stats.__file__).parent
# lowest first; a module's layer is its folder, or its own name at the root
LAYERS = [
    {"errors", "_rows", "_solitaire", "_simulate"},      # the errors and the kernels
    {"rules"},
    {"tables"},
    {"strategies"},
    {"advisor"},
    {"answers", "track"},
    {"cli", "__main__", "__init__"},
]


def test_every_module_has_a_layer_and_imports_only_below_or_beside_it():
    modules = sorted(PACKAGE.rglob("*.py"))
    assert len(modules) > 25
    assert upward_imports(PACKAGE, LAYERS, modules) == []


def test_no_modules_import_each_other_in_a_circle():
    assert import_circles(PACKAGE, sorted(PACKAGE.rglob("*.py"))) == []


def test_the_rules_import_nothing_above_them():
    for path in (PACKAGE / "rules").glob("*.py"):
        assert all(layer_of(LAYERS, target) <= 1 for target in imported(PACKAGE, path)), path
