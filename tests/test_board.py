"""The python-chess style API: Board, Move, legal_moves, push/pop, results, symmetries."""
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quixo_solver import (
    Board,
    BoardSizeError,
    GameOverError,
    IllegalMoveError,
    Move,
    MoveError,
    PositionError,
    QuixoError,
    SymmetryError,
)

from .conftest import positions
from .refusals import returns_or_refuses

EMPTY_5 = "...../...../...../...../..... X"


def test_empty_boards(rules):
    assert str(Board()) == EMPTY_5
    assert str(Board(size=3)) == ".../.../... X"
    assert Board(size=4).legal_moves.count() == 32


def test_position_input_is_case_insensitive_and_slashes_are_optional(rules):
    board = Board("xx..o" + "." * 20 + " x")
    assert str(board) == "XX..O/...../...../...../..... X"
    assert board.cell("a5") == "X" and board.cell("e5") == "O" and board.cell("a1") == "."


def test_push_follows_the_spec_example(rules):
    # a1e1: the cube at a1 re-enters at e1, and row 1 slides left.
    board = Board("...../...../...../...../.X.O. X")
    board.push("a1e1")
    assert str(board) == "...../...../...../...../X.O.X O"
    # c5c1: column c slides up.
    board = Board("..X../..O../...../...../..... X")
    board.push(Move.from_text("c5c1"))
    assert str(board) == "..O../...../...../...../..X.. O"


def test_legal_moves_are_lazy_and_answer_membership(rules):
    board = Board("O..../...../...../...../..... X")
    moves = board.legal_moves
    assert moves.count() == 42
    assert "a1e1" in moves and Move("e5", "a5") in moves
    assert "a5e5" not in moves  # O's cube
    assert "c3c1" not in moves  # not a move at all
    assert "zz" not in moves


def test_a_move_that_completes_a_line_ends_the_game(rules):
    board = Board("X..../X..../X..../X..../..... X")
    board.push("b1a1")  # rank 1 slides right, X enters at a1: file a is X's
    assert board.is_game_over() and board.winner() == "X" and board.result() == "1-0"


def test_a_move_that_completes_the_opponents_line_loses(rules):
    board = Board("OOXOO/..O../...../...../..... X")
    board.push("c5c1")  # file c slides up: O's c4 cube fills rank 5
    assert board.winner() == "O"


def test_the_opponents_line_counts_even_with_the_movers_own(rules):
    board = Board("OOXOO/..O../...../...../XX.XX X")
    board.push("c5c1")  # X completes rank 1, but O's rank 5 too: X loses
    assert board.winner() == "O" and board.result() == "0-1"
    assert board.status() == 1  # O, to move, shows a line: a win in 0 for O


def test_terminal_positions_follow_the_spec(rules):
    assert Board("XXX/OO./... X").status() == 1
    assert Board("XXX/OO./... O").status() == -1
    assert Board("XXX/OOO/... O").status() == 1  # mover shows a line: win in 0
    board = Board("XXX/OO./... O")
    assert board.is_game_over() and board.result() == "1-0"
    assert board.legal_moves.count() == 0
    with pytest.raises(GameOverError):
        board.push("c1a1")


@given(positions(), st.data())
def test_push_then_pop_restores_the_board(position, data):
    size, mover, opponent = position
    board = Board.from_masks(size, mover, opponent, data.draw(st.sampled_from("XO")))
    moves = list(board.legal_moves)
    before = str(board)
    for _ in range(data.draw(st.integers(1, 4))):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(data.draw(st.sampled_from(moves)))
    while board.move_stack:
        board.pop()
    assert str(board) == before


@given(positions(), st.sampled_from("XO"))
def test_notation_round_trips(position, turn):
    board = Board.from_masks(*position, turn)
    text = str(board)
    assert str(Board(text)) == text
    assert str(Board(text.lower().replace("/", ""))) == text
    for move in board.legal_moves:
        assert Move.from_text(str(move)) == move


@given(positions(), st.integers(0, 7))
def test_symmetric_positions_have_the_same_moves_and_results(position, symmetry):
    board = Board.from_masks(*position)
    image = board.transform(symmetry)
    assert image.legal_moves.count() == board.legal_moves.count()
    assert image.status() == board.status()
    children = sorted(_child(board, m).transform(symmetry).key() for m in board.legal_moves)
    image_children = sorted(_child(image, m).key() for m in image.legal_moves)
    assert children == image_children
    assert image.canonical() == board.canonical()


def _child(board, move):
    child = board.copy()
    child.push(move)
    return child


def test_pop_on_a_fresh_board_raises():
    with pytest.raises(IndexError):
        Board().pop()


@pytest.mark.parametrize("text, fragment", [
    ("", "rows, a space"),
    ("XX..O/...../...../...../.....", "rows, a space"),
    ("...../...../...../...../..... Z", "X or O"),
    ("...../...../...../...../.... X", "24 cells"),
    ("...../...../...../...../....# X", "unknown characters"),
    ("..../...../...../...../...... X", "5 rows of 5"),
])
def test_bad_positions_are_refused_with_a_clear_message(text, fragment):
    with pytest.raises(PositionError, match=fragment):
        Board(text)


def test_errors_are_value_errors():
    assert issubclass(QuixoError, ValueError)
    with pytest.raises(BoardSizeError):
        Board(size=6)
    with pytest.raises(PositionError):
        Board(12345)


@pytest.mark.parametrize("move, error", [
    ("a1", MoveError), ("a1a1", MoveError), ("c3c1", MoveError), ("a1f1", MoveError),
    ("a1d1", MoveError), ("e5a5", IllegalMoveError), (42, MoveError),
])
def test_bad_moves_are_refused(move, error):
    board = Board("....O/...../...../...../..... X")
    with pytest.raises(error):
        board.push(move)
    assert str(board) == "....O/...../...../...../..... X"


def test_moves_off_a_small_board_are_refused():
    with pytest.raises(MoveError, match="off a 3x3 board"):
        Board(size=3).push("a1e1")


def test_copy_is_independent_and_renderings_show_the_board(rules):
    board = Board()
    board.push("a1e1")
    other = board.copy()
    other.push("a5e5")
    assert len(board.move_stack) == 1 and len(other.move_stack) == 2
    assert "1 | . . . . X" in board.render()
    svg = board._repr_svg_()
    assert svg.startswith("<svg") and svg.count("<path") == 1 and svg.count("<circle") == 0


# -- bad input, named ----------------------------------------------------------------------
@pytest.mark.parametrize("symmetry", ["1", None, 2**64, 1.5, 8, -1, math.nan, True])
def test_a_bad_symmetry_is_a_symmetry_error(symmetry):
    with pytest.raises(SymmetryError, match="symmetry must be"):
        Board().transform(symmetry)


numbers = st.one_of(st.none(), st.booleans(), st.integers(min_value=-2**70, max_value=2**70),
                    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8))
texts = st.one_of(st.text(max_size=40), st.text(alphabet="XOxo./ 12", max_size=40),
                  st.none(), st.integers())


@settings(max_examples=300)
@given(text=texts, number=numbers)
def test_fuzz_positions_moves_sizes_and_symmetries(text, number):
    if text is not None:            # Board(None) is the empty board
        returns_or_refuses(lambda: Board(text), PositionError)
    returns_or_refuses(lambda: Board().push(text), MoveError)
    returns_or_refuses(lambda: Board(size=number), BoardSizeError)
    returns_or_refuses(lambda: Board().transform(number), SymmetryError)
