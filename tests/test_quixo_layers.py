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
    {"frameworks"},                         # what the game-AI framework adapters share
    {"pettingzoo", "gymnasium", "openspiel"},   # the adapters (the extra rl)
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


# tablebase/'s own layers, lowest first: the format below reading, reading below verifying,
# and nothing but the generator's own modules and the face import the generator
TABLEBASE = PACKAGE / "tablebase"
TABLEBASE_LAYERS = [
    {"errors", "values"},
    {"format"},
    {"pairs", "probe", "traps", "sample", "stats"},     # reading
    {"verify", "_verify"},
    {"web"},
    {"generator"},
    {"__init__"},
]


def test_the_tablebase_layers_import_only_below_or_beside_them():
    modules = sorted(TABLEBASE.rglob("*.py"))
    assert {path.parent.name for path in modules} >= {"format", "generator", "web"}
    upward = []
    for path in modules:
        own = layer_of(TABLEBASE_LAYERS, path.relative_to(TABLEBASE).parts)
        for target in imported(PACKAGE, path):     # (what lies outside tablebase/ is not its)
            if target[0] == "tablebase" and len(target) > 1 and \
                    layer_of(TABLEBASE_LAYERS, target[1:]) > own:
                upward.append(f"{path.relative_to(TABLEBASE)} imports {'.'.join(target)}")
    assert upward == []


def test_only_the_generator_and_the_face_import_the_generator():
    """(and the four-player builder and its checkpoints, which keep their journal, clock and
    saved state as the generator does)"""
    importers = {path.relative_to(PACKAGE) for path in PACKAGE.rglob("*.py")
                 if path.parent.name != "generator"
                 and any("generator" in target for target in imported(PACKAGE, path))}
    assert importers <= {Path("tablebase/__init__.py"), Path("frontends/tablebase_commands.py"),
                         Path("teams/tables/builder.py"), Path("teams/tables/checkpoint.py")}


def test_a_probe_loads_no_module_of_the_generator(tmp_path):
    """`import quixo_solver.tablebase` and a probe stay light: no generator module, and no
    HTTP client, is imported (checked in a fresh interpreter)."""
    import subprocess
    import sys
    code = f"""
import sys
from quixo_solver import Board
from quixo_solver.tablebase import Tablebase, MissingTableError
try:
    Tablebase({str(tmp_path)!r}).probe(Board(size=4))
except MissingTableError:
    pass
print(sorted(name for name in sys.modules
             if name.startswith(("quixo_solver.tablebase.generator", "quixo_solver.tablebase.web",
                                 "http.client", "urllib.request"))))
"""
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True)
    assert found.stdout.strip() == "[]"
