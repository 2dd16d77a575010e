"""quixo_solver's folders are its layers, and imports run one way: from a layer to the layers
below it, never up (and so never in a circle)."""
import ast
from pathlib import Path

import quixo_solver

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


def layer_of(parts):
    name = parts[0].removesuffix(".py")
    return next(level for level, names in enumerate(LAYERS) if name in names)


def imported(path):
    """The quixo_solver modules (as paths of parts under the package) that `path` imports."""
    parts = path.relative_to(PACKAGE).parts
    here = list(parts[:-1])
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[:len(here) - (node.level - 1)] if node.level > 1 else here
                target = base + (node.module.split(".") if node.module else [])
            elif node.module and node.module.split(".")[0] == "quixo_solver":
                target = node.module.split(".")[1:]
            else:
                continue
            if target:
                yield target
            else:                                   # from . import a, b
                yield from ([alias.name] for alias in node.names)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "quixo_solver" and "." in alias.name:
                    yield alias.name.split(".")[1:]


def test_every_module_has_a_layer_and_imports_only_below_or_beside_it():
    modules = sorted(PACKAGE.rglob("*.py"))
    assert len(modules) > 70
    upward = []
    for path in modules:
        own = layer_of(path.relative_to(PACKAGE).parts)
        for target in imported(path):
            if layer_of(target) > own:
                upward.append(f"{path.relative_to(PACKAGE)} imports {'.'.join(target)}")
    assert upward == []


def test_the_root_holds_only_the_bottom_and_the_top():
    """The root keeps what every layer needs (errors, limits, Ctrl-C), the one place that
    knows the variants, and the package's entry points; everything else is in a folder."""
    root = sorted(path.stem for path in PACKAGE.glob("*.py"))
    assert root == ["__init__", "__main__", "errors", "limits", "variants"]


def test_the_rules_import_nothing_above_them():
    for path in (PACKAGE / "rules").glob("*.py"):
        assert all(layer_of(target) <= 1 for target in imported(path)), path
