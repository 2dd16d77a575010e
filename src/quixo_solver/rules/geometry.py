"""Board geometry of N x N Quixo, derived from coordinates by plain Python.

Everything the Cython kernels need as tables (moves, push masks, lines, symmetries) is built
here once per board size, readably; the engine only copies the numbers into C arrays.

Bit layout (5x5 shown; 3x3 and 4x4 are the same with N = 3, 4). A square is
``rank_index * N + file_index`` with rank 1 at the bottom, as in chess, so a1 is bit 0::

    rank 5 | 20 21 22 23 24        a5 .. e5   (first row of a position string)
    rank 4 | 15 16 17 18 19
    rank 3 | 10 11 12 13 14
    rank 2 |  5  6  7  8  9
    rank 1 |  0  1  2  3  4        a1 .. e1   (last row of a position string)
             a  b  c  d  e

A push slides part of one row or column by one square, which on this layout is a shift of
the slid cubes' bits by 1 (along a rank) or by N (along a file).
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from ..errors import BoardSizeError, PositionError, SymmetryError
from ..limits import whole_number

SIZES = (3, 4, 5)
SYMMETRY_COUNT = 8
FILES = "abcde"


def check_size(size: int) -> int:
    if type(size) is int and size in SIZES:      # the common case first (every kernel call)
        return size
    if isinstance(size, bool) or not isinstance(size, int) or size not in SIZES:
        raise BoardSizeError(f"board size must be 3, 4 or 5, not {size!r}")
    return size


def check_symmetry(symmetry: int) -> int:
    """A symmetry number 0..7 (k % 4 quarter turns clockwise, then a mirror for k >= 4)."""
    return whole_number("symmetry", symmetry, 0, SYMMETRY_COUNT - 1, SymmetryError)


def square(size: int, rank_index: int, file_index: int) -> int:
    return rank_index * size + file_index


def coordinates(size: int, sq: int) -> tuple[int, int]:
    """(rank_index, file_index) of a square; rank_index 0 is rank 1."""
    return divmod(sq, size)


def on_border(size: int, sq: int) -> bool:
    rank_index, file_index = coordinates(size, sq)
    return rank_index in (0, size - 1) or file_index in (0, size - 1)


def border_squares(size: int) -> list[int]:
    return [sq for sq in range(size * size) if on_border(size, sq)]


def move_targets(size: int, source: int) -> list[int]:
    """Where a cube taken at ``source`` may re-enter: the ends of its rank and of its file,
    never ``source`` itself."""
    rank_index, file_index = coordinates(size, source)
    ends = {
        square(size, rank_index, 0),
        square(size, rank_index, size - 1),
        square(size, 0, file_index),
        square(size, size - 1, file_index),
    }
    ends.discard(source)
    return sorted(ends)


@lru_cache(maxsize=None)
def moves(size: int) -> tuple[tuple[int, int], ...]:
    """Every (source, target) pair of the board, ordered by source then target. The engine
    numbers moves in this order, so the index of a move is its place in this tuple."""
    return tuple(
        (source, target)
        for source in border_squares(size)
        for target in move_targets(size, source)
    )


def bit(sq: int) -> int:
    return 1 << sq


def mask_of(squares: Iterable[int]) -> int:
    result = 0
    for sq in squares:
        result |= bit(sq)
    return result


@dataclass(frozen=True)
class Push:
    """A move as mask operations: cubes on ``keep`` stay, cubes on ``slide`` move by
    ``<< left_shift >> right_shift`` (one of them is 0), the mover's cube lands on ``target``."""

    source: int
    target: int
    keep: int
    slide: int
    left_shift: int
    right_shift: int


def push(size: int, source: int, target: int) -> Push:
    source_rank, source_file = coordinates(size, source)
    target_rank, target_file = coordinates(size, target)
    if source_rank == target_rank:
        step = 1  # neighbouring squares along a rank differ by 1
        low, high = sorted((source_file, target_file))
        segment = [square(size, source_rank, f) for f in range(low, high + 1)]
    else:
        step = size  # ... and along a file by N
        low, high = sorted((source_rank, target_rank))
        segment = [square(size, r, source_file) for r in range(low, high + 1)]
    sliding = [sq for sq in segment if sq != source]
    # The cubes between the target and the hole move one square toward the hole.
    toward_higher_squares = source > target
    return Push(
        source=source,
        target=target,
        keep=mask_of(range(size * size)) & ~mask_of(segment),
        slide=mask_of(sliding),
        left_shift=step if toward_higher_squares else 0,
        right_shift=0 if toward_higher_squares else step,
    )


@lru_cache(maxsize=None)
def pushes(size: int) -> tuple[Push, ...]:
    return tuple(push(size, source, target) for source, target in moves(size))


@lru_cache(maxsize=None)
def lines(size: int) -> tuple[int, ...]:
    """Masks of the 2N + 2 lines: ranks, files, the a1 diagonal and the a-N anti-diagonal."""
    ranks = [mask_of(square(size, r, f) for f in range(size)) for r in range(size)]
    files = [mask_of(square(size, r, f) for r in range(size)) for f in range(size)]
    diagonal = mask_of(square(size, i, i) for i in range(size))
    anti_diagonal = mask_of(square(size, size - 1 - i, i) for i in range(size))
    return tuple(ranks + files + [diagonal, anti_diagonal])


def _rotate_clockwise(size: int, sq: int) -> int:
    rank_index, file_index = coordinates(size, sq)
    return square(size, size - 1 - file_index, rank_index)


def _mirror_files(size: int, sq: int) -> int:
    rank_index, file_index = coordinates(size, sq)
    return square(size, rank_index, size - 1 - file_index)


@lru_cache(maxsize=None)
def symmetry_permutations(size: int) -> tuple[tuple[int, ...], ...]:
    """Symmetry k sends square s to ``permutations[k][s]``: k % 4 quarter turns clockwise (as
    the board is drawn), then for k >= 4 a mirror that swaps files a and N."""
    result = []
    for k in range(SYMMETRY_COUNT):
        image = []
        for sq in range(size * size):
            for _ in range(k % 4):
                sq = _rotate_clockwise(size, sq)
            if k >= 4:
                sq = _mirror_files(size, sq)
            image.append(sq)
        result.append(tuple(image))
    return tuple(result)


def check_masks(size: int, mover: int, opponent: int) -> None:
    """Refuse masks that are not a position of this board: negative, too wide, or sharing a
    square."""
    full = (1 << (size * size)) - 1
    # every call of the rules kernel from Python checks its masks: the common case first
    if type(mover) is int and type(opponent) is int and mover >= 0 and opponent >= 0 \
            and not (mover | opponent) & ~full and not mover & opponent:
        return
    for name, cubes in (("mover", mover), ("opponent", opponent)):
        if isinstance(cubes, bool) or not isinstance(cubes, int) or cubes < 0 or cubes & ~full:
            raise PositionError(f"{name} mask {cubes!r} is not a set of squares of a {size}x{size} board")
    if mover & opponent:
        raise PositionError("mover and opponent masks share a square")
