import pytest
from hypothesis import settings
from hypothesis import strategies as st

from quixo_solver import _engine, _twin

settings.register_profile("default", deadline=None, max_examples=150)
settings.load_profile("default")

ENGINES = {"cython": _engine, "twin": _twin}


@pytest.fixture(params=sorted(ENGINES))
def engine(request, monkeypatch):
    """Each test that takes ``engine`` runs twice, with the Board API on the Cython kernels
    and on the Python twin (as QUIXO_PURE_PYTHON=1 would select)."""
    import importlib

    chosen = ENGINES[request.param]
    for module in ("quixo_solver.board", "quixo_solver._perft"):
        monkeypatch.setattr(importlib.import_module(module), "engine", chosen)
    return chosen


@st.composite
def positions(draw, sizes=(3, 4, 5)):
    """(size, mover, opponent) with every cell blank, the mover's or the opponent's."""
    size = draw(st.sampled_from(sizes))
    cells = draw(st.lists(st.sampled_from((0, 1, 2)), min_size=size * size,
                          max_size=size * size))
    mover = sum(1 << sq for sq, c in enumerate(cells) if c == 1)
    opponent = sum(1 << sq for sq, c in enumerate(cells) if c == 2)
    return size, mover, opponent


@pytest.fixture(scope="session")
def tables(tmp_path_factory):
    """One folder with the whole 3x3 and 4x4 games and the 5x5 classes with <= 1 blank."""
    from quixo_solver.tablebase import build

    directory = tmp_path_factory.mktemp("tables")
    build(directory, 3)
    build(directory, 4)
    build(directory, 5, max_blanks=1)
    return directory


@pytest.fixture(scope="session")
def qwixx_table_dir(tmp_path_factory):
    """A folder holding the solved single-player Qwixx table (solved once per session)."""
    from qwixx_stats.solitaire import ExpectedValues

    directory = tmp_path_factory.mktemp("qwixx")
    ExpectedValues.load(directory)
    return directory


@pytest.fixture(scope="session")
def qwixx_values(qwixx_table_dir):
    from qwixx_stats.solitaire import ExpectedValues

    return ExpectedValues.load(qwixx_table_dir, build=False)
