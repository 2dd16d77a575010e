"""Four-player Quixo: the Cython kernel against the pure-Python twin, the dot and pass rules,
notation, the complete 3x3 solution and the search."""
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quixo_solver import Board, SymmetryError
from quixo_solver.errors import (DepthError, GameOverError, IllegalMoveError, LimitError,
                                 MoveError, PositionError)
from quixo_solver.teams import TeamBoard, TeamMove, _team_rules, _team_rules_twin, perft
from quixo_solver.teams import notation
from quixo_solver.teams.solve import TeamSolver, decode, small_board, table_value
from quixo_solver.teams import _solve

from .refusals import assert_one_line, returns_or_refuses


@st.composite
def team_positions(draw, sizes=(3, 4, 5)):
    size = draw(st.sampled_from(sizes))
    cells = draw(st.lists(st.sampled_from(".XxOo"), min_size=size * size,
                          max_size=size * size))
    rows = ["".join(cells[r * size:(r + 1) * size]) for r in range(size)]
    return TeamBoard("/".join(rows) + " " + draw(st.sampled_from(notation.PLAYERS)))


@pytest.mark.parametrize("size, depths", [(3, range(1, 5)), (4, range(1, 4)), (5, range(1, 3))])
def test_perft_of_the_empty_board_equals_the_twin(size, depths):
    for depth in depths:
        assert (_team_rules.perft(size, (0, 0, 0, 0), depth)
                == _team_rules_twin.perft(size, (0, 0, 0, 0), depth))


def test_perft_counts():
    # cross-checked against the twin above and below; no published figures exist
    assert [perft(TeamBoard(size=3), d) for d in range(1, 5)] == [40, 1424, 47360, 1366912]
    assert perft(TeamBoard(size=5), 2) == 7344
    # 6 of X1's 24 moves end the game: they count at depth 1 and add nothing deeper
    near_the_end = TeamBoard("Xx./O../o.. X1")
    assert [perft(near_the_end, d) for d in (1, 2, 3)] == [24, 408, 7820]
    assert [_team_rules_twin.perft(3, near_the_end.roles, d) for d in (1, 2, 3)] == [24, 408, 7820]


@settings(max_examples=200)
@given(team_positions())
def test_kernel_and_twin_agree(board):
    roles = board.roles
    assert (_team_rules.position_status(board.size, roles)
            == _team_rules_twin.position_status(board.size, roles))
    moves = _team_rules.legal_moves(board.size, roles)
    assert moves == _team_rules_twin.legal_moves(board.size, roles)
    for move in moves:
        assert (_team_rules.play_move(board.size, roles, move)
                == _team_rules_twin.play_move(board.size, roles, move))


@settings(max_examples=40)
@given(team_positions(sizes=(3, 4)))
def test_perft_2_agrees(board):
    assert (_team_rules.perft(board.size, board.roles, 2)
            == _team_rules_twin.perft(board.size, board.roles, 2))


@settings(max_examples=100)
@given(team_positions())
def test_pass_only_when_forced(board):
    if board.is_game_over():
        assert board.legal_moves.count() == 0
        return
    border = [name for name in _border_names(board.size)]
    can_take = any(board.cell(sq) in (".", notation.CELL_OF_PLAYER[board.to_move])
                   for sq in border)
    moves = [str(m) for m in board.legal_moves]
    assert (moves == ["pass"]) == (not can_take)
    if can_take:
        with pytest.raises(IllegalMoveError, match="may pass only"):
            board.push("pass")
    else:
        board.push("pass")
        assert board.to_move == (TeamBoard(str(board)).to_move)


@settings(max_examples=100)
@given(team_positions(), st.data())
def test_dot_rules(board, data):
    moves = [m for m in board.legal_moves if not m.is_pass]
    if not moves:
        return
    move = data.draw(st.sampled_from(moves))
    before = board.copy()
    taken = before.cell(move.source)
    board.push(move)
    letter = notation.CELL_OF_PLAYER[(before.to_move + (2 if move.to_mate else 0)) % 4]
    assert board.cell(move.target) == letter
    # pushed cubes keep their dots: the letters are those before, less the taken cube, plus
    # the new one
    count = lambda b: sorted(c for c in str(b).split()[0] if c not in "./")  # noqa: E731
    expected = count(before)
    if taken != ".":
        expected.remove(taken)
    assert count(board) == sorted(expected + [letter])
    assert board.to_move == (before.to_move + 1) % 4


@settings(max_examples=60)
@given(team_positions())
def test_symmetries_keep_status_and_move_count(board):
    for image in board.symmetries():
        assert image.status() == board.status()
        assert image.legal_moves.count() == board.legal_moves.count()


def _border_names(size):
    files = "abcde"[:size]
    return [f"{f}{r}" for f in files for r in range(1, size + 1)
            if f in (files[0], files[-1]) or r in (1, size)]


def test_a_player_takes_only_blanks_and_cubes_pointing_at_them():
    board = TeamBoard("x../.../... X1")
    with pytest.raises(IllegalMoveError, match="dot points at X1"):
        board.push("a3c3")                    # X2's cube
    board = TeamBoard("X../.../... X1")
    board.push("a3c3+")                       # X1's own cube, now pointing at X2
    assert str(board) == "..x/.../... O1"


def test_notation_round_trip_and_refusals():
    text = "Xx..o/...../..O../...../..... O2"
    assert str(TeamBoard(text)) == text
    for bad, fragment in [("Xx..o/...../...../...../..... x1", "X1, O1, X2 or O2"),
                          ("Xq./.../... X1", "unknown characters"),
                          ("XX../.../... X1", "9, 16 or 25"),
                          ("X../... X1", "cells"),
                          ("..../..../..../.... X3", "X1, O1, X2 or O2")]:
        with pytest.raises(PositionError, match=fragment):
            TeamBoard(bad)
    for bad in ("a1e1++", "pas", "a1", "a1e1-"):
        with pytest.raises(MoveError):
            TeamMove.from_text(bad)
    assert str(TeamMove.from_text("A1C1+")) == "a1c1+"
    assert TeamMove.from_text("PASS").is_pass


def test_game_over_and_winner():
    board = TeamBoard("XxX/.../... O1")
    assert board.is_game_over() and board.winner() == "X" and board.result() == "1-0"
    with pytest.raises(GameOverError):
        board.push("a1c1")
    # completing the other team's line loses, even with one's own
    board = TeamBoard("Oo./XxX/Oo. O1")
    assert board.winner() == "X"


def test_the_3x3_game_is_a_first_team_win_in_7():
    assert table_value(TeamBoard(size=3)) == ("win", 7)
    codes = small_board()
    assert codes.size == 5 ** 9
    assert int((codes == 0).sum()) == 0          # no draws on 3x3


@settings(max_examples=300)
@given(team_positions(sizes=(3,)))
def test_3x3_solution_follows_from_the_children(board):
    """The verifier's rule: every value re-derived from the children's values (via the twin's
    moves); this fixes every win and loss and its plies."""
    value, plies = table_value(board)
    status = board.status()
    if status:
        assert (value, plies) == ("win" if status > 0 else "loss", 0)
        return
    children = [decode(int(small_board()[_solve.position_index(
                    3, _team_rules_twin.play_move(3, board.roles, m))]))
                for m in _team_rules_twin.legal_moves(3, board.roles)]
    losses = [n for v, n in children if v == "loss"]
    if losses:
        assert (value, plies) == ("win", 1 + min(losses))
    elif all(v == "win" for v, _ in children):
        assert (value, plies) == ("loss", 1 + max(n for _, n in children))
    else:
        assert value == "draw"


def test_search_proofs_match_the_3x3_solution():
    solver = TeamSolver(tt_mib=16)
    rng = random.Random(2026)
    proven = 0
    for _ in range(120):
        board = TeamBoard(size=3)
        for _ in range(rng.randrange(12)):
            if board.is_game_over():
                break
            board.push(rng.choice(list(board.legal_moves)))
        if board.is_game_over():
            continue
        result = solver._iterate(board, 12, None, None)
        if result.value != "unknown":
            proven += 1
            assert (result.value, result.plies) == table_value(board), str(board)
    assert proven > 50


def test_search_finds_a_team_win_and_avoids_a_loss_on_5x5():
    solver = TeamSolver(tt_mib=16)
    # X2 completes rank 5 with a cube pointing at X1 or X2
    result = solver.solve(TeamBoard("XxXx./...../...../...../..... X2"), depth=4)
    assert (result.value, result.plies) == ("win", 1)
    assert str(result.best_move).startswith("e")
    result = solver.solve(TeamBoard("XxXx./...../...../...../..... O1"), depth=4)
    assert result.value in ("unknown", "loss")
    assert result.best_move is not None


def test_analyze_on_3x3_lists_every_move_best_first():
    rows = TeamSolver().analyze(TeamBoard(size=3))
    assert len(rows) == 40
    assert rows[0][1].value == "win" and rows[0][1].plies == 7


# -- bad input, named ----------------------------------------------------------------------
@pytest.mark.parametrize("call, error", [
    (lambda: TeamBoard().transform("1"), SymmetryError),
    (lambda: perft(TeamBoard(size=3), "2"), DepthError),
    (lambda: perft(TeamBoard(size=3), None), DepthError),
    (lambda: perft(TeamBoard(size=3), 1.5), DepthError),
    (lambda: perft(TeamBoard(size=3), 1, threads=-2), LimitError),
    (lambda: TeamSolver(tt_mib=1e30), LimitError),
    (lambda: TeamSolver().solve(Board(size=3)), PositionError),
], ids=["transform '1'", "perft '2'", "perft None", "perft 1.5", "perft threads -2",
        "tt_mib 1e30", "solve a Board"])
def test_bad_team_input_raises_the_named_error(call, error):
    with pytest.raises(error) as raised:
        call()
    assert_one_line(raised.value)


@settings(max_examples=200)
@given(text=st.one_of(st.text(max_size=40), st.text(alphabet="XOxo./ 12", max_size=40),
                      st.integers()),
       symmetry=st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70),
                          st.floats(allow_nan=True), st.text(max_size=4)))
def test_fuzz_team_positions_moves_and_symmetries(text, symmetry):
    returns_or_refuses(lambda: TeamBoard(text), PositionError)
    returns_or_refuses(lambda: TeamBoard(size=3).push(text), MoveError)
    returns_or_refuses(lambda: TeamBoard(size=3).transform(symmetry), SymmetryError)
