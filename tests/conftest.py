import pytest
from hypothesis import settings
from hypothesis import strategies as st

from quixo_solver.rules import _rules, _rules_twin
from quixo_solver.teams import _team_rules
from quixo_solver.teams import _team_rules_twin

settings.register_profile("default", deadline=None, max_examples=150)
settings.load_profile("default")

RULES = {"cython": (_rules, _team_rules), "twin": (_rules_twin, _team_rules_twin)}


@pytest.fixture(params=sorted(RULES))
def rules(request, monkeypatch):
    """Each test that takes ``rules`` runs twice: the Board and TeamBoard APIs (and so perft)
    on the compiled kernels, then on the pure-Python twins (as QUIXO_PURE_PYTHON=1 selects)."""
    import quixo_solver.rules.board
    import quixo_solver.teams.board

    two_players, four_players = RULES[request.param]
    monkeypatch.setattr(quixo_solver.rules.board, "rules", two_players)
    monkeypatch.setattr(quixo_solver.teams.board, "rules", four_players)
    return two_players


@st.composite
def positions(draw, sizes=(3, 4, 5)):
    """(size, mover, opponent) with every cell blank, the mover's or the opponent's."""
    size = draw(st.sampled_from(sizes))
    cells = draw(st.lists(st.sampled_from((0, 1, 2)), min_size=size * size,
                          max_size=size * size))
    mover = sum(1 << sq for sq, c in enumerate(cells) if c == 1)
    opponent = sum(1 << sq for sq, c in enumerate(cells) if c == 2)
    return size, mover, opponent


@pytest.fixture(scope="session", autouse=True)
def private_tablebase_folder(tmp_path_factory):
    """No test reads or writes the user's own tablebase folder (the default, in their cache):
    the commands run by the tests, in process or as children, use a fresh one."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("QUIXO_TABLEBASE_DIR", str(tmp_path_factory.mktemp("default-tables")))
        yield


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
def small_tables(tmp_path_factory):
    """The whole 3x3 game and the 4x4 classes with <= 5 blanks (a few seconds): 142 files of
    176 bytes to 91 KB."""
    from quixo_solver.tablebase import build

    directory = tmp_path_factory.mktemp("small-tables")
    build(directory, 3)
    build(directory, 4, max_blanks=5)
    return directory


@pytest.fixture(scope="session")
def team_tables_4x4(tmp_path_factory):
    """A folder with one tier of the four-player 4x4 game, built here: the full boards whose
    teams hold 11 and 5 cubes (a tier without blanks needs no other; about 20 s and 3 GB)."""
    from quixo_solver.teams.tables import builder, tiers

    directory = tmp_path_factory.mktemp("team-tables-4x4")
    builder.solve_in_folder(directory, tiers.Tier(4, 11, 5), threads=0)
    return directory


@pytest.fixture(scope="session")
def qwixx_table_dir(tmp_path_factory):
    """A folder holding the solved single-player Qwixx table (solved once per session)."""
    from qwixx_stats.tables.solitaire import ExpectedValues

    directory = tmp_path_factory.mktemp("qwixx")
    ExpectedValues.load(directory)
    return directory


@pytest.fixture(scope="session")
def qwixx_values(qwixx_table_dir):
    from qwixx_stats.tables.solitaire import ExpectedValues

    return ExpectedValues.load(qwixx_table_dir, build=False)


@pytest.fixture(scope="session")
def qwixx_values_lock4(qwixx_table_dir):
    """The single-player table of the lock-after-4 variant (solved once per session)."""
    from qwixx_stats.tables.solitaire import ExpectedValues

    return ExpectedValues.load(qwixx_table_dir, lock_after=4)


@pytest.fixture(scope="session")
def qwixx_race2(qwixx_table_dir):
    """The 2-player race table of the `win` strategy (solved once per session)."""
    from qwixx_stats.tables.race import RaceTable

    return RaceTable.load(qwixx_table_dir, players=2)


@pytest.fixture(scope="module")
def qwixx_zero_table(tmp_path_factory):
    """A folder holding a well-formed single-player table of zeros (expected future points 0
    everywhere), written in a fraction of a second: for tests that read a table but need no
    true value."""
    import numpy as np
    from qwixx_stats.tables import solitaire

    folder = tmp_path_factory.mktemp("zero-table")
    solitaire.write_table(folder / solitaire.TABLE_NAME,
                          np.zeros((solitaire.SHEET_STATES, solitaire.PENALTY_STATES)))
    return folder


@pytest.fixture
def qwixx_no_solving(monkeypatch):
    """Fail the test at once if anything starts the minute-long single-player solve."""
    from qwixx_stats.tables import solitaire

    def refuse(*args, **kwargs):
        pytest.fail("the table solve was started")
    monkeypatch.setattr(solitaire, "solve_table", refuse)


@pytest.fixture
def browser():
    """A headless Chromium for the explorer's page tests (tests/explorer_browser.py)."""
    from .explorer_browser import new_browser

    driver = new_browser()
    yield driver
    driver.quit()

