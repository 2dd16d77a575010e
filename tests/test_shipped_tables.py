"""Tables shipped with the package (SPEC "Tables in the install"): read wherever the folder
given lacks a class, the folder's own read first, checked like any other, and counted by
stats. The package ships no table yet (the 5x5 opening comes from the rebuild), so these
tests point the shipped folder at tables of their own."""
import shutil

import pytest

from quixo_solver import Board
from quixo_solver.tablebase import MissingTableError, Tablebase, probe, stats
from quixo_solver.tablebase.errors import CorruptTableError
from quixo_solver.tablebase.format import files


@pytest.fixture
def shipped(tables, tmp_path, monkeypatch):
    """A shipped folder holding the 3x3 classes of 0 and 1 blank (from the test tables)."""
    folder = tmp_path / "opening"
    folder.mkdir()
    for a in range(10):
        for b in (9 - a, 8 - a):
            if b >= 0:
                name = files.table_name(3, a, b)
                shutil.copy(tables / name, folder / name)
    monkeypatch.setattr(probe, "SHIPPED_FOLDER", folder)
    return folder


def test_a_class_missing_from_the_folder_is_read_from_the_shipped_tables(shipped, tmp_path):
    empty = tmp_path / "mine"
    empty.mkdir()
    with Tablebase(empty) as tablebase:
        board = Board("XOX/OXO/OX. X")
        assert tablebase.probe(board).value in ("win", "draw", "loss")
        assert tablebase.path(3, 4, 4).parent == shipped
        with pytest.raises(MissingTableError):
            tablebase.probe(Board("XO./.../... X"))        # 7 blanks: not shipped
    with Tablebase(empty, shipped=False) as tablebase:
        with pytest.raises(MissingTableError):
            tablebase.probe(board)


def test_the_folder_given_is_read_first_and_a_damaged_install_is_named(shipped, tables,
                                                                      tmp_path):
    name = files.table_name(3, 4, 4)
    data = (shipped / name).read_bytes()
    (shipped / name).write_bytes(data[:len(data) // 2])      # a damaged install
    mine = tmp_path / "mine"
    mine.mkdir()
    board = Board("XOX/OXO/OX. X")
    with Tablebase(mine) as tablebase:
        with pytest.raises(CorruptTableError, match="reinstall quixo-solver"):
            tablebase.probe(board)
    shutil.copy(tables / name, mine / name)                  # the folder's own copy wins
    with Tablebase(mine) as tablebase:
        assert tablebase.path(3, 4, 4).parent == mine
        assert tablebase.probe(board) == Tablebase(tables).probe(board)


def test_stats_count_the_shipped_classes(shipped, tmp_path):
    rows = stats.class_counts(tmp_path / "not-made-yet", 3)
    assert {(row["mover"], row["opponent"]) for row in rows} == {
        (a, b) for a in range(10) for b in (9 - a, 8 - a) if b >= 0}


def one_blank_positions(size=3):
    """Every unfinished 3x3 position with one blank, X to move (from the raw positions)."""
    import itertools
    found = []
    for cells in itertools.product("XO", repeat=8):
        for blank in range(9):
            text = "".join(cells[:blank]) + "." + "".join(cells[blank:])
            board = Board("/".join(text[i:i + 3] for i in range(0, 9, 3)) + " X")
            if not board.is_game_over():
                found.append(board)
    return found


def test_at_the_edge_of_the_shipped_tables_the_line_stops_and_its_moves_stay_best(
        tables, tmp_path, monkeypatch):
    """Only the classes of one blank shipped: a move that takes the blank leaves them. The
    line of best play takes the first best move the tables reach and stops where none is;
    every move it gives is best by the whole tables; a solver asked for a move gets one or is
    told to search (MissingTableError), never a worse move."""
    from quixo_solver.search.solver import Solver

    edge = tmp_path / "edge"
    edge.mkdir()
    for a in range(9):
        shutil.copy(tables / files.table_name(3, a, 8 - a), edge / files.table_name(3, a, 8 - a))
    monkeypatch.setattr(probe, "SHIPPED_FOLDER", edge)
    (tmp_path / "mine").mkdir()
    whole = Tablebase(tables, shipped=False)
    stopped = moved = refused = 0
    with Tablebase(tmp_path / "mine") as shipped_only:
        solver = Solver(tablebase=shipped_only)
        for board in one_blank_positions()[::7]:
            assert shipped_only.probe(board) == whole.probe(board)
            line = shipped_only.best_line(board, 1)
            if not line:
                stopped += 1
            else:
                best = whole.probe_moves(board)[0][1]
                assert dict(whole.probe_moves(board))[line[0]] == best
            try:
                result = solver.tablebase_result(board, line=1)
            except MissingTableError:
                refused += 1
                continue
            moved += 1
            assert dict(whole.probe_moves(board))[result.best_move] == \
                whole.probe_moves(board)[0][1]
            assert (result.value, result.plies) == (whole.probe(board).value,
                                                    whole.probe(board).plies)
    assert stopped == refused and stopped > 0 and moved > 0
