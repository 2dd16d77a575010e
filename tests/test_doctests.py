"""The README's examples and the modules' docstring examples, run as doctests.

The modules are imported by name, so the examples run against the installed packages (the
compiled modules may live in site-packages rather than in src/). Every example runs in an
empty temporary folder, and the tables it builds or solves go there, never into the user's
cache.
"""
import doctest
import importlib
import importlib.machinery
import importlib.util
import pkgutil
from pathlib import Path

import pytest

PACKAGES = ("quixo_solver", "qwixx_stats", "solverkit")
README = Path(__file__).resolve().parent.parent / "README.md"
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE

# Modules whose examples probe the 4x4 tables in the default tablebase folder.
NEEDS_TABLES = {"quixo_solver.tablebase.probe"}


def _raise(name: str) -> None:
    raise  # walk_packages calls this inside its except clause: a subpackage failed to import


def python_modules() -> list[str]:
    """Every Python module of the packages, leaving out compiled extensions and __main__."""
    names = []
    for package_name in PACKAGES:
        package = importlib.import_module(package_name)
        names.append(package_name)
        for info in pkgutil.walk_packages(package.__path__, package_name + ".", onerror=_raise):
            if info.name.rpartition(".")[2] == "__main__":
                continue
            spec = importlib.util.find_spec(info.name)
            if isinstance(spec.loader, importlib.machinery.ExtensionFileLoader):
                continue
            names.append(info.name)
    return names


def has_examples(name: str) -> bool:
    module = importlib.import_module(name)
    return any(test.examples for test in doctest.DocTestFinder().find(module))


MODULES = python_modules()
MODULES_WITH_EXAMPLES = [name for name in MODULES if has_examples(name)]


@pytest.fixture
def sandbox(tmp_path, monkeypatch):
    """Run in an empty folder; the default tablebase folder is its "tables" (where the README's
    examples build), the Qwixx table folder and the cache are under it too."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("QUIXO_TABLEBASE_DIR", str(tmp_path / "tables"))
    monkeypatch.setenv("QWIXX_TABLE_DIR", str(tmp_path / "qwixx"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path


def test_modules_are_found():
    assert "quixo_solver.rules.board" in MODULES and "solverkit.arrayfile" in MODULES
    assert not any(name.endswith("__main__") or name.endswith("._rules") for name in MODULES)
    assert {"quixo_solver", "quixo_solver.rules.board", "quixo_solver.teams.board",
            "quixo_solver.tablebase.probe"} <= set(MODULES_WITH_EXAMPLES)


@pytest.mark.parametrize("name", MODULES_WITH_EXAMPLES)
def test_module_examples(name, sandbox, monkeypatch, request):
    if name in NEEDS_TABLES:  # read only: the session's tables hold the whole 4x4 game
        monkeypatch.setenv("QUIXO_TABLEBASE_DIR", str(request.getfixturevalue("tables")))
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=FLAGS, verbose=False, report=False)
    assert result.attempted > 0
    assert result.failed == 0, f"{result.failed} of {name}'s examples failed (output above)"


def test_readme_examples(sandbox, monkeypatch, qwixx_table_dir):
    # The README builds the 4x4 tables into "tables" (the default folder here, which its
    # Search example reads) and loads the Qwixx table solved once for the session.
    monkeypatch.setenv("QWIXX_TABLE_DIR", str(qwixx_table_dir))
    result = doctest.testfile(str(README), module_relative=False, optionflags=FLAGS,
                              verbose=False, report=False, encoding="utf-8")
    assert result.attempted > 0
    assert result.failed == 0, f"{result.failed} of the README's examples failed (output above)"
