"""The optimal single-player table: the published optimum, and every checked value equal to
the plain Bellman equations of the pure-Python twin (all 6^6 rolls, every option); its file,
its folder and its arguments."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import qwixx_stats.tables.solitaire as solitaire
from qwixx_stats import Dice, Sheet, SheetError, TableError
from qwixx_stats.tables._solitaire_twin import bellman_value, exact_value
from qwixx_stats.rules.sheet import COLOURS, ROW_NUMBERS
from qwixx_stats.tables.solitaire import TABLE_NAME, ExpectedValues, read_table, write_table

from .qwixx_api import assert_refuses, refusal_cases


def test_published_optimum_from_the_empty_sheet(qwixx_values):
    # 115.4831: the optimum published with the C program qwixx-gen-single-opt
    assert round(qwixx_values.value(Sheet()), 4) == 115.4831


def test_an_endgame_solved_by_full_recursion(qwixx_values):
    sheet = Sheet.parse("red:2,3,4,5,10 yellow:2,3,4,5,6,12 green:12,11,10,4 blue:12,11,3 "
                        "closed:yellow penalties:3")
    assert qwixx_values.value(sheet) == pytest.approx(exact_value(sheet), abs=1e-9)


@st.composite
def late_sheets(draw):
    """Unfinished sheets with at most 3 open boxes per row (so that the twin stays quick)."""
    rows = []
    closed = set()
    locked_row = draw(st.sampled_from((None,) + COLOURS))
    for colour in COLOURS:
        numbers = ROW_NUMBERS[colour]
        if colour == locked_row:
            marks = sorted(draw(st.sets(st.sampled_from(numbers[:10]), min_size=5, max_size=10)),
                           key=numbers.index)
            rows.append(tuple(marks) + (numbers[10],))
            closed.add(colour)
            continue
        last = draw(st.integers(7, 9))
        earlier = draw(st.sets(st.sampled_from(numbers[:last]), max_size=last))
        rows.append(tuple(sorted(earlier, key=numbers.index)) + (numbers[last],))
        if locked_row is None and not closed and draw(st.booleans()):
            closed.add(colour)        # closed by another player
    return Sheet(tuple(rows), draw(st.integers(0, 3)), frozenset(closed))


@settings(max_examples=5, deadline=None)
@given(late_sheets())
def test_table_satisfies_the_bellman_equations(qwixx_values, sheet):
    assert qwixx_values.value(sheet) == pytest.approx(
        bellman_value(sheet, qwixx_values.value), abs=1e-9)


def test_symmetric_sheets_have_equal_values(qwixx_values):
    sheet = Sheet.parse("red:3,5 yellow:2 green:11,9,8 blue: penalties:1")
    mirror = Sheet.parse("red:3,5,6 yellow: green:11,9 blue:12 penalties:1")   # row swaps
    assert qwixx_values.value(sheet) == qwixx_values.value(mirror)


def test_options_are_sorted_and_include_the_penalty(qwixx_values):
    sheet, dice = Sheet.parse("red:2,3 penalties:1"), Dice.parse("3,4,6,1,2,5")
    options = qwixx_values.active_options(sheet, dice)
    values = [value for _, value in options]
    assert values == sorted(values, reverse=True)
    assert ((None, None) in [option for option, _ in options])
    assert options[0][0] == (None, ("yellow", 4))
    passive = qwixx_values.passive_options(sheet, dice)
    assert passive[0][0] is None and len(passive) == 5


def test_table_file_round_trip_and_damage_is_named(tmp_path, qwixx_values):
    path = write_table(tmp_path / TABLE_NAME, qwixx_values.future)
    assert (read_table(path) == qwixx_values.future).all()
    assert not list(tmp_path.glob("*.partial"))
    data = bytearray(path.read_bytes())
    data[1000] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(TableError, match="checksum"):
        ExpectedValues.load(tmp_path, build=False)
    path.write_bytes(bytes(data[:5000]))
    with pytest.raises(TableError, match="truncated"):
        read_table(path)
    path.write_bytes(b"not a table at all, really not at all")
    with pytest.raises(TableError, match=TABLE_NAME):
        read_table(path)
    with pytest.raises(TableError, match="no such"):
        read_table(tmp_path / "missing.qev")


def test_lock_after_four_has_its_own_exact_table(qwixx_values, qwixx_values_lock4):
    assert qwixx_values_lock4.lock_after == 4
    # an earlier lock is worth more: the optimum from the empty sheet rises
    assert qwixx_values_lock4.value(Sheet(lock_after=4)) > qwixx_values.value(Sheet())
    sheet = Sheet.parse("red:2,3,4,8 yellow:2,3,4,5,6,12 green:12,11,10,4 blue:12,11,3 "
                        "closed:yellow penalties:3", lock_after=4)
    assert qwixx_values_lock4.value(sheet) == pytest.approx(exact_value(sheet), abs=1e-9)
    with pytest.raises(SheetError, match="lock after 4 marks.*not 5"):
        qwixx_values.value(sheet)


@settings(max_examples=3, deadline=None)
@given(late_sheets())
def test_lock_after_four_table_satisfies_the_bellman_equations(qwixx_values_lock4, sheet):
    sheet = Sheet(sheet.rows, sheet.penalties, sheet.closed, lock_after=4)
    assert qwixx_values_lock4.value(sheet) == pytest.approx(
        bellman_value(sheet, qwixx_values_lock4.value), abs=1e-9)


def test_table_files_name_their_lock_rule(tmp_path, qwixx_table_dir):
    from qwixx_stats.tables.solitaire import table_name
    assert table_name(4) != table_name(5) == TABLE_NAME
    (tmp_path / table_name(4)).write_bytes((qwixx_table_dir / TABLE_NAME).read_bytes())
    with pytest.raises(TableError):
        ExpectedValues.load(tmp_path, lock_after=4, build=False)


API_CASES = [
    ("ExpectedValues.load(5)", lambda: ExpectedValues.load(5), TableError),
    ("ExpectedValues.load('')", lambda: ExpectedValues.load(""), TableError),
    ("ExpectedValues.load(NUL)", lambda: ExpectedValues.load("a\0b"), TableError),
    ("ExpectedValues.load(~nobody)", lambda: ExpectedValues.load("~no-such-user-qwixx/t"),
     TableError),
    ("ExpectedValues(None)", lambda: ExpectedValues(None), TableError),
    ("ExpectedValues(wrong shape)", lambda: ExpectedValues(np.zeros((3, 4))), TableError),
]


@refusal_cases(API_CASES)
def test_api_refuses_bad_input(call, expected, qwixx_no_solving):
    assert_refuses(call, expected)


def test_tilde_is_expanded(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("QWIXX_TABLE_DIR", "~/tables")
    assert solitaire.default_directory() == tmp_path / "tables"
    monkeypatch.delenv("QWIXX_TABLE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", "~/cache")
    assert solitaire.default_directory() == tmp_path / "cache" / "qwixx_stats"
    assert solitaire.table_path("~/t") == tmp_path / "t" / solitaire.TABLE_NAME


def test_unusable_table_folder_api(tmp_path, qwixx_no_solving):
    (tmp_path / "file").write_text("not a folder")
    with pytest.raises(TableError, match="not a folder"):
        ExpectedValues.load(tmp_path / "file")
    with pytest.raises(TableError, match="cannot create"):
        ExpectedValues.load(tmp_path / "file" / "sub")
