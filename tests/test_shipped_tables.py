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


def one_blank_positions():
    """Every unfinished 3x3 position with one blank, X to move."""
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
    """Only the classes of one blank shipped: a move that takes the blank (and does not end
    the game) leaves them. The line of best play takes the first best move the tables reach
    and stops where none is: every move of it is best by the whole tables. A solver gives the
    tables' value there, with no move where the line is empty, and `solve` then searches for
    one."""
    from quixo_solver.search.solver import Solver

    edge = tmp_path / "edge"
    edge.mkdir()
    for a in range(9):
        shutil.copy(tables / files.table_name(3, a, 8 - a), edge / files.table_name(3, a, 8 - a))
    monkeypatch.setattr(probe, "SHIPPED_FOLDER", edge)
    (tmp_path / "mine").mkdir()
    whole = Tablebase(tables, shipped=False)
    stopped = through_the_edge = 0
    with Tablebase(tmp_path / "mine") as shipped_only:
        solver = Solver(tablebase=shipped_only)
        for board in one_blank_positions()[::5]:
            assert shipped_only.probe(board) == whole.probe(board)
            line = shipped_only.best_line(board)
            child = board.copy(stack=False)
            for move in line:                       # each move best by the whole tables
                assert dict(whole.probe_moves(child))[move] == whole.probe_moves(child)[0][1]
                try:
                    shipped_only.children(3, child.mover_cubes, child.opponent_cubes)
                except MissingTableError:
                    through_the_edge += 1           # a move found beside moves that leave
                child.push(move)
            result = solver.tablebase_result(board, line=1)
            assert (result.value, result.plies) == (whole.probe(board).value,
                                                    whole.probe(board).plies)
            if not line:
                stopped += 1
                assert result.best_move is None and result.principal_variation == []
                searched = solver.solve(board, depth=2)
                assert searched.best_move in list(board.legal_moves)
            else:
                assert dict(whole.probe_moves(board))[result.best_move] == \
                    whole.probe_moves(board)[0][1]
    assert stopped > 0 and through_the_edge > 0


@pytest.mark.parametrize("position, reached", [(".OXX/XX.X/.XO./.OOO X", 1),
                                               ("XXO./O.OX/.OOO/..XX X", 2)])
def test_a_won_line_stops_where_the_shipped_tables_end(tables, tmp_path, monkeypatch,
                                                       position, reached):
    """The 4x4 classes of 4 and 5 blanks shipped alone: a won line goes through them by best
    moves and stops short of the win, where no best move stays in them."""
    edge = tmp_path / "edge"
    edge.mkdir()
    for cubes in (11, 12):
        for a in range(cubes + 1):
            name = files.table_name(4, a, cubes - a)
            shutil.copy(tables / name, edge / name)
    monkeypatch.setattr(probe, "SHIPPED_FOLDER", edge)
    (tmp_path / "mine").mkdir()
    whole = Tablebase(tables, shipped=False)
    board = Board(position)
    with Tablebase(tmp_path / "mine") as shipped_only:
        line = shipped_only.best_line(board)
    assert len(line) == reached < len(whole.best_line(board))
    child = board.copy(stack=False)
    for move in line:
        assert dict(whole.probe_moves(child))[move] == whole.probe_moves(child)[0][1]
        child.push(move)
