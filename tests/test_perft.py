"""Perft from the empty board: the published counts, exactly, on both engines."""
import pytest

from quixo_solver import Board, DepthError, perft, perft_divide

EMPTY_BOARD_PERFT = {
    5: [44, 1836, 76596, 3018100, 118928388, 4422929160],
    4: [32, 952, 28312, 778744, 21428048],
    3: [20, 356, 6332, 99648, 1572096, 20919432],
}


@pytest.mark.parametrize("size", sorted(EMPTY_BOARD_PERFT))
def test_cython_perft_matches_known_counts(size):
    counts = [_perft_cython(size, depth) for depth in range(1, len(EMPTY_BOARD_PERFT[size]) + 1)]
    assert counts == EMPTY_BOARD_PERFT[size]


def _perft_cython(size, depth):
    from quixo_solver import _rules

    return _rules.perft(size, 0, 0, depth)


# The twin is slow: it checks the shallower counts, which the Cython kernel must also match.
@pytest.mark.parametrize("size, depth", [(3, 4), (4, 3), (5, 3)])
def test_twin_perft_matches_known_counts(size, depth):
    from quixo_solver import _twin

    assert _twin.perft(size, 0, 0, depth) == EMPTY_BOARD_PERFT[size][depth - 1]


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
