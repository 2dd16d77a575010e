"""One generic test that every board variant passes (as OpenSpiel runs one basic test over
every game), on the compiled kernels and on the pure-Python twins (the `rules` fixture)."""
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quixo_solver import BaseBoard, Board, PositionError, parse_board, perft
from quixo_solver.errors import QuixoError
from quixo_solver.teams import TeamBoard
from quixo_solver.teams import notation as team_notation
from quixo_solver.teams.solve import TeamSolver
from quixo_solver.variants import VARIANTS as ALL_VARIANTS
from quixo_solver.variants import VariantError, find_variant, variant_of

VARIANTS = [(variant.board_type, size) for variant in ALL_VARIANTS for size in (3, 4, 5)]


def check_invariants(board: BaseBoard) -> None:
    assert parse_board(str(board)) == board                   # notation round trip
    assert type(parse_board(str(board))) is type(board)
    assert board.copy() == board and board.copy().move_stack == board.move_stack
    moves = list(board.legal_moves)
    assert len(moves) == board.legal_moves.count() == len(set(moves))
    assert perft(board, 1) == len(moves)
    assert all(move in board.legal_moves for move in moves)
    if board.is_game_over():
        assert not moves and board.result() != "*" and board.winner() in ("X", "O")
    else:
        assert moves and board.result() == "*" and board.winner() is None
    for image in board.symmetries():
        assert type(image) is type(board)
        assert image.status() == board.status()
        assert image.legal_moves.count() == len(moves)


@pytest.mark.parametrize("variant, size", VARIANTS,
                         ids=[f"{v.__name__}-{s}x{s}" for v, s in VARIANTS])
def test_random_play_with_undo(rules, variant, size):
    rng = random.Random(size * 10 + variant.players)
    for game in range(3):
        board = variant(size=size)
        start = board.copy()
        seen = [board.copy(stack=False)]
        while not board.is_game_over() and len(board.move_stack) < 60:
            check_invariants(board)
            move = rng.choice(list(board.legal_moves))
            before = board.copy()
            board.push(move)
            assert board.peek() == move and board.move_stack[-1] == move
            assert board.pop() == move and board == before          # push, pop: as before
            board.push(str(move))                                   # by notation too
            seen.append(board.copy(stack=False))
        check_invariants(board)
        for position in reversed(seen[:-1]):                       # undo to the start
            board.pop()
            assert board == position
        assert board == start and not board.move_stack
        with pytest.raises(IndexError):
            board.pop()


@st.composite
def team_positions(draw):
    size = draw(st.sampled_from((3, 4, 5)))
    cells = draw(st.lists(st.sampled_from(".XxOo"), min_size=size * size, max_size=size * size))
    rows = ["".join(cells[r * size:(r + 1) * size]) for r in range(size)]
    return "/".join(rows) + " " + draw(st.sampled_from(team_notation.PLAYERS))


@settings(max_examples=100)
@given(position=team_positions(), data=st.data())
def test_team_board_push_then_pop_restores_it(position, data):
    board = TeamBoard(position)
    assert str(TeamBoard(str(board))) == str(board) == position
    moves = list(board.legal_moves)
    if moves:
        move = data.draw(st.sampled_from(moves))
        board.push(move)
        assert board.pop() == move
    assert str(board) == position and board == TeamBoard(position)


def test_parse_board_chooses_the_variant_from_the_notation():
    assert type(parse_board("...../...../...../...../..... X")) is Board
    assert type(parse_board("xx./.../... o")) is Board                 # case-insensitive
    assert type(parse_board("Xx./.../... O2")) is TeamBoard
    for text in ("Xx./.../... x1", ".../.../... Q", None):
        with pytest.raises(PositionError):
            parse_board(text)
    assert Board(size=3) != TeamBoard(size=3)


def test_the_variants_name_their_board_solver_and_players():
    assert [v.players for v in ALL_VARIANTS] == [2, 4]
    for variant in ALL_VARIANTS:
        board = variant.start(size=4)
        assert type(board) is variant.board_type and find_variant(variant.players) is variant
        assert variant_of(board) is variant and board.turn == variant.player_names[0]
        solver = variant.new_solver(tt_mib=1)
        assert isinstance(solver, variant.solver_type)
        assert solver.solve(board, depth=1).best_move in board.legal_moves
        assert "a1e1" in variant.help_text
    assert isinstance(find_variant(4).new_solver(1), TeamSolver)
    with pytest.raises(VariantError, match="2 or 4 players, not 3"):
        find_variant(3)
    # the four-player solver reads the four-player tables of the folder it is given
    assert find_variant(4).new_solver(1, tablebase="tables").tables.directory == Path("tables")
    with pytest.raises(QuixoError, match="must be a folder"):
        find_variant(4).new_solver(1, tablebase=42)
    with pytest.raises(PositionError):
        variant_of("a board")
