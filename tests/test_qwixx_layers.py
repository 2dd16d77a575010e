"""qwixx_stats's folders are its layers, and imports run one way: from a layer to the layers
below it, never up (and so never in a circle)."""
import ast
from pathlib import Path

import qwixx_stats

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


def layer_of(parts):
    name = parts[0].removesuffix(".py")
    return next(level for level, names in enumerate(LAYERS) if name in names)


def imported(path):
    """The qwixx_stats modules (as paths of parts under the package) that `path` imports."""
    parts = path.relative_to(PACKAGE).parts
    here = list(parts[:-1])
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[:len(here) - (node.level - 1)] if node.level > 1 else here
                target = base + (node.module.split(".") if node.module else [])
            elif node.module and node.module.split(".")[0] == "qwixx_stats":
                target = node.module.split(".")[1:]
            else:
                continue
            if target:
                yield target
            else:                                   # from . import a, b
                yield from ([alias.name] for alias in node.names)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "qwixx_stats" and "." in alias.name:
                    yield alias.name.split(".")[1:]


def test_every_module_has_a_layer_and_imports_only_below_or_beside_it():
    modules = sorted(PACKAGE.rglob("*.py"))
    assert len(modules) > 25
    upward = []
    for path in modules:
        own = layer_of(path.relative_to(PACKAGE).parts)
        for target in imported(path):
            if layer_of(target) > own:
                upward.append(f"{path.relative_to(PACKAGE)} imports {'.'.join(target)}")
    assert upward == []


def test_the_rules_import_nothing_above_them():
    for path in (PACKAGE / "rules").glob("*.py"):
        assert all(layer_of(target) <= 1 for target in imported(path)), path
