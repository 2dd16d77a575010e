"""Pure-Python twin of the Cython rules kernel (_rules.pyx): the rules on a grid of cells, no bit
tricks.

It is the test oracle for ``_rules`` and the fallback when ``QUIXO_PURE_PYTHON=1``. It
speaks the same functions as ``_rules`` (masks in and out, so callers need not care which
one they have), but converts the masks to a grid at once and plays on the grid: rows are
lists read top to bottom, as a position string is written, and a push really slides a list.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from ..errors import DepthError
from .geometry import check_masks, check_size, check_symmetry

G = TypeVar("G")   # a grid of cells, as each twin keeps it

BLANK, MOVER, OPPONENT = 0, 1, 2


def _grid(size: int, mover: int, opponent: int) -> list[list[int]]:
    """Rows from the top (rank N) down; cell (row, col) is square (N-1-row)*N + col."""
    check_size(size)
    check_masks(size, mover, opponent)
    grid = []
    for row in range(size):
        cells = []
        for col in range(size):
            sq = (size - 1 - row) * size + col
            if mover >> sq & 1:
                cells.append(MOVER)
            elif opponent >> sq & 1:
                cells.append(OPPONENT)
            else:
                cells.append(BLANK)
        grid.append(cells)
    return grid


def _masks(grid: list[list[int]]) -> tuple[int, int]:
    size = len(grid)
    masks = {MOVER: 0, OPPONENT: 0, BLANK: 0}
    for row in range(size):
        for col in range(size):
            masks[grid[row][col]] |= 1 << ((size - 1 - row) * size + col)
    return masks[MOVER], masks[OPPONENT]


def _square(size: int, row: int, col: int) -> int:
    return (size - 1 - row) * size + col


def _cell(size: int, sq: int) -> tuple[int, int]:
    rank_index, col = divmod(sq, size)
    return size - 1 - rank_index, col


def _shows_line(grid: list[list[int]], who: int) -> bool:
    size = len(grid)
    candidates = [row for row in grid]
    candidates += [[grid[r][c] for r in range(size)] for c in range(size)]
    candidates.append([grid[i][i] for i in range(size)])
    candidates.append([grid[i][size - 1 - i] for i in range(size)])
    return any(all(cell == who for cell in line) for line in candidates)


def _status(grid: list[list[int]]) -> int:
    if _shows_line(grid, MOVER):
        return 1
    if _shows_line(grid, OPPONENT):
        return -1
    return 0


def _grid_moves(grid: list[list[int]]) -> list[tuple[int, int]]:
    size = len(grid)
    if _status(grid) != 0:
        return []
    result = []
    for row in range(size):
        for col in range(size):
            on_edge = row in (0, size - 1) or col in (0, size - 1)
            if not on_edge or grid[row][col] == OPPONENT:
                continue
            ends = {(row, 0), (row, size - 1), (0, col), (size - 1, col)} - {(row, col)}
            for end in ends:
                result.append((_square(size, row, col), _square(size, *end)))
    return sorted(result)


def _grid_play(grid: list[list[int]], source: int, target: int) -> list[list[int]]:
    """The grid after the move, with the roles swapped (the opponent is now to move)."""
    size = len(grid)
    (row, col), (end_row, end_col) = _cell(size, source), _cell(size, target)
    new = [list(cells) for cells in grid]
    if row == end_row:
        path = [(row, c) for c in _walk(end_col, col)]
    else:
        path = [(r, col) for r in _walk(end_row, row)]
    # path runs from the target end to the hole: each cube moves one step along it
    values = [new[r][c] for r, c in path]
    shifted = [MOVER] + values[:-1]
    for (r, c), value in zip(path, shifted):
        new[r][c] = value
    swap = {MOVER: OPPONENT, OPPONENT: MOVER, BLANK: BLANK}
    return [[swap[cell] for cell in cells] for cells in new]


def _walk(start: int, stop: int) -> range:
    step = 1 if stop >= start else -1
    return range(start, stop + step, step)


def legal_moves(size: int, mover: int, opponent: int) -> list[tuple[int, int]]:
    return _grid_moves(_grid(size, mover, opponent))


def play_move(size: int, mover: int, opponent: int, source: int,
              target: int) -> tuple[int, int]:
    return _masks(_grid_play(_grid(size, mover, opponent), source, target))


def children(size: int, mover: int, opponent: int) -> list[tuple[int, int, int, int, int]]:
    found = []
    for source, target in legal_moves(size, mover, opponent):
        child = play_move(size, mover, opponent, source, target)
        found.append((source, target, *child, position_status(size, *child)))
    return found


def position_status(size: int, mover: int, opponent: int) -> int:
    return _status(_grid(size, mover, opponent))


def _rotate_clockwise(grid: list[list[int]]) -> list[list[int]]:
    return [list(row) for row in zip(*grid[::-1])]


def _mirror(grid: list[list[int]]) -> list[list[int]]:
    return [row[::-1] for row in grid]


def _symmetric_grid(grid: list[list[int]], symmetry: int) -> list[list[int]]:
    for _ in range(symmetry % 4):
        grid = _rotate_clockwise(grid)
    return _mirror(grid) if symmetry >= 4 else grid


def transform_mask(size: int, symmetry: int, cubes: int) -> int:
    check_symmetry(symmetry)
    return _masks(_symmetric_grid(_grid(size, cubes, 0), symmetry))[0]


def canonical_position(size: int, mover: int, opponent: int) -> tuple[int, int, int]:
    grid = _grid(size, mover, opponent)
    images = []
    for symmetry in range(8):
        m, o = _masks(_symmetric_grid(grid, symmetry))
        images.append((m | o << (size * size), symmetry, m, o))
    packed, symmetry, m, o = min(images)
    return m, o, symmetry


def position_key(size: int, mover: int, opponent: int) -> int:
    check_size(size)
    check_masks(size, mover, opponent)
    x = (mover | (opponent << (size * size))) ^ (size << 56)
    mask = (1 << 64) - 1
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & mask
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & mask
    return x ^ (x >> 31)


def perft(size: int, mover: int, opponent: int, depth: int, threads: int = 0) -> int:
    return count_sequences(_grid(size, mover, opponent), checked_depth(depth),
                           lambda grid: (_grid_play(grid, *move) for move in _grid_moves(grid)),
                           _status)


def checked_depth(depth: object) -> int:
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise DepthError(f"depth must be a non-negative integer, not {depth!r}")
    return depth


def count_sequences(grid: G, depth: int, children: Callable[[G], Iterable[G]],
                    status: Callable[[G], int]) -> int:
    """Perft on any grid of cells (both twins): the move sequences of exactly `depth` moves,
    where a move that ends the game has no continuations."""
    if depth == 0:
        return 1
    total = 0
    for child in children(grid):
        if depth == 1:
            total += 1
        elif status(child) == 0:
            total += count_sequences(child, depth - 1, children, status)
    return total
