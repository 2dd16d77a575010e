"""qwixx_stats's folders are its layers, and imports run one way: from a layer to the layers
below it, never up, for the Cython kernels' cimports as for the Python modules' imports; and no
modules import each other in a circle, inside a layer either."""
from pathlib import Path

import qwixx_stats

from .layers import CYTHON_SUFFIXES, import_circles, imported, layer_of, sources, upward_imports

PACKAGE = Path(qwixx_stats.__file__).parent
# lowest first; a module's layer is its folder (a kernel's too), or its own name at the root
LAYERS = [
    {"errors"},
    {"rules"},
    {"tables"},
    {"strategies"},
    {"advisor"},
    {"answers", "track"},
    {"pettingzoo"},                         # the game-AI environment (the extra rl)
    {"cli", "__main__", "__init__"},
]


def test_every_module_has_a_layer_and_imports_only_below_or_beside_it():
    modules = sources(PACKAGE)
    assert len([path for path in modules if path.suffix == ".py"]) > 25
    assert len([path for path in modules if path.suffix in CYTHON_SUFFIXES]) > 15
    assert upward_imports(PACKAGE, LAYERS, modules) == []


def test_the_kernels_lie_in_the_folders_of_what_they_serve():
    assert [path.name for path in PACKAGE.iterdir()
            if path.suffix in (".pyi", *CYTHON_SUFFIXES)] == []


def test_a_kernels_cimports_are_read_bracketed_lists_too():
    # the Cython files are read by a regular expression: one that missed would pass anything
    simulator = PACKAGE / "strategies" / "_simulate.pyx"
    found = {".".join(target) for target in imported(PACKAGE, simulator)}
    assert {"rules._sheet.Option", "tables._race.RaceModel", "strategies._codes.STRATEGIES",
            "strategies._learned.logistic"} <= found


def test_no_modules_import_each_other_in_a_circle():
    assert import_circles(PACKAGE, sorted(PACKAGE.rglob("*.py"))) == []


def test_the_rules_import_nothing_above_them():
    for path in sources(PACKAGE / "rules"):
        assert all(layer_of(LAYERS, target) <= 1 for target in imported(PACKAGE, path)), path
