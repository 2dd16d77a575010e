"""Perft through the API: the empty boards' counts of tests/data on the pure-Python twin
(the compiled kernels run every count of the files in test_perft_files.py), threads, depth 0,
finished games, divide, and refusals."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quixo_solver import Board, DepthError, LimitError, PositionError, perft, perft_divide
from quixo_solver.rules import _rules_twin
from quixo_solver.teams import TeamBoard

from .perft_data import counts_of
from .refusals import assert_one_line, returns_or_refuses

EMPTY = {3: ".../.../... X", 4: "..../..../..../.... X", 5: "...../...../...../...../..... X"}


# The twin is slow: it checks the shallower counts, which the Cython kernel must also match.
@pytest.mark.parametrize("size, depth", [(3, 4), (4, 3), (5, 3)])
def test_twin_perft_matches_the_empty_board_counts(size, depth):
    assert _rules_twin.perft(size, 0, 0, depth) == counts_of(EMPTY[size])[depth]


def test_perft_is_the_same_on_one_thread_and_on_all():
    board = Board(size=4)
    assert perft(board, 5, threads=1) == perft(board, 5, threads=0) == 21428048


def test_perft_depth_zero_is_one_and_finished_games_have_no_moves():
    assert perft(Board(), 0) == 1
    finished = Board("XXXXX/OO.../...../...../..... O")
    assert perft(finished, 0) == 1
    assert perft(finished, 3) == 0


def test_perft_divide_sums_to_perft(rules):
    board = Board("X.O../.X.../..O../...../O...X X")
    divide = perft_divide(board, 3)
    assert sum(divide.values()) == perft(board, 3)
    assert set(divide) == set(board.legal_moves)


def test_perft_refuses_bad_depths():
    for depth in (-1, 1.5, "2", True):
        with pytest.raises(DepthError):
            perft(Board(), depth)


@pytest.mark.parametrize("call, error", [
    (lambda: perft(Board(), 10**30), DepthError),
    (lambda: perft(Board(), 2**31), DepthError),
    (lambda: perft(Board(), 1, threads="2"), LimitError),
    (lambda: perft(Board(), 1, threads=-1), LimitError),
    (lambda: perft(Board(), 1, threads=1.5), LimitError),
    (lambda: perft(Board(), 1, threads=2**63), LimitError),
    (lambda: perft("a string", 1), PositionError),
    (lambda: perft_divide(Board(), -1), DepthError),
], ids=["depth 10**30", "depth 2**31", "threads '2'", "threads -1", "threads 1.5",
        "threads 2**63", "a string", "divide depth -1"])
def test_bad_perft_arguments_raise_the_named_error(call, error):
    with pytest.raises(error) as raised:
        call()
    assert_one_line(raised.value)


numbers = st.one_of(st.none(), st.booleans(), st.integers(min_value=-2**70, max_value=2**70),
                    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8))
# Valid large depths would run for ever: the fuzz draws depths only from what must be refused
# or is cheap.
cheap_or_bad_depths = numbers.filter(lambda n: not (isinstance(n, int) and not isinstance(n, bool)
                                                    and 3 <= n <= 64))


@settings(max_examples=200)
@given(depth=cheap_or_bad_depths, threads=numbers)
def test_fuzz_perft_arguments(depth, threads):
    for board in (Board(size=3), TeamBoard(size=3)):
        returns_or_refuses(lambda: perft(board, depth, threads=threads), DepthError, LimitError)
    returns_or_refuses(lambda: perft_divide(Board(size=3), depth, threads=threads), DepthError,
                       LimitError)


# -- perft counts sequences of exactly d moves ---------------------------------------------------
def _ends_the_game(board, move):
    child = board.copy(stack=False)
    child.push(move)
    return child.is_game_over()


def test_perft_counts_only_sequences_of_exactly_the_depth():
    assert perft(Board("O.X/.../OXO X"), 3) == 1789
    assert perft(Board(size=3), 6) == 20919432


def test_perft_dividing_a_position_where_moves_end_the_game():
    board = Board("XX./O../O.. X")
    ending = [move for move in board.legal_moves if _ends_the_game(board, move)]
    assert len(ending) == 3
    assert all(perft_divide(board, 1)[move] == 1 for move in ending)
    divide = perft_divide(board, 3)
    assert all(divide[move] == 0 for move in ending)
    assert sum(divide.values()) == perft(board, 3) == 2130
