"""Pure-Python twin of the four-player kernel: the rules on a grid of cells.

Cells hold the role of the player a cube's dot points at (0 own ... 3 last, see notation.py)
or BLANK; a push really slides a list, and handing the turn on really relabels the cells.
Same functions as `_team_rules`: role masks in and out. A move is (source, target, to_mate);
None is a pass.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, cast

from ..rules._rules_twin import checked_depth, count_sequences
from ..errors import PositionError
from ..rules.geometry import check_size

if TYPE_CHECKING:
    from ._team_rules import Move, Roles

BLANK = -1
OWN, NEXT, MATE, LAST = range(4)


def _grid(size: int, roles: Roles) -> list[list[int]]:
    check_size(size)
    check_roles(size, roles)
    grid = [[BLANK] * size for _ in range(size)]
    for role, cubes in enumerate(roles):
        for sq in range(size * size):
            if cubes >> sq & 1:
                rank, col = divmod(sq, size)
                grid[size - 1 - rank][col] = role
    return grid


def _roles(grid: list[list[int]]) -> Roles:
    size = len(grid)
    masks = [0, 0, 0, 0]
    for row in range(size):
        for col in range(size):
            if grid[row][col] != BLANK:
                masks[grid[row][col]] |= 1 << ((size - 1 - row) * size + col)
    return cast("Roles", tuple(masks))


def check_roles(size: int, roles: Sequence[object]) -> None:
    full = (1 << (size * size)) - 1
    if len(roles) != 4:
        raise PositionError("a four-player position has four masks")
    seen = 0
    for cubes in roles:
        if isinstance(cubes, bool) or not isinstance(cubes, int) or cubes < 0 or cubes & ~full:
            raise PositionError(f"mask {cubes!r} is not a set of squares of a {size}x{size} board")
        if seen & cubes:
            raise PositionError("two masks share a square")
        seen |= cubes


def _lines(grid: list[list[int]]) -> Iterator[list[int]]:
    size = len(grid)
    yield from grid
    yield from ([grid[r][c] for r in range(size)] for c in range(size))
    yield [grid[i][i] for i in range(size)]
    yield [grid[i][size - 1 - i] for i in range(size)]


def _team_shows_line(grid: list[list[int]], team_roles: tuple[int, int]) -> bool:
    return any(all(cell in team_roles for cell in line) for line in _lines(grid))


def _status(grid: list[list[int]]) -> int:
    """+1 when the team to move shows a line, -1 when only the other team does, else 0."""
    if _team_shows_line(grid, (OWN, MATE)):
        return 1
    if _team_shows_line(grid, (NEXT, LAST)):
        return -1
    return 0


def _grid_moves(grid: list[list[int]]) -> list[Move]:
    size = len(grid)
    if _status(grid) != 0:
        return []
    result: list[tuple[int, int, bool]] = []
    for row in range(size):
        for col in range(size):
            on_edge = row in (0, size - 1) or col in (0, size - 1)
            if not on_edge or grid[row][col] not in (BLANK, OWN):
                continue
            ends = {(row, 0), (row, size - 1), (0, col), (size - 1, col)} - {(row, col)}
            for end_row, end_col in ends:
                source = (size - 1 - row) * size + col
                target = (size - 1 - end_row) * size + end_col
                result += [(source, target, False), (source, target, True)]
    result.sort()
    return cast("list[Move]", result) if result else [None]


def _grid_play(grid: list[list[int]], move: Move) -> list[list[int]]:
    size = len(grid)
    new = [list(cells) for cells in grid]
    if move is not None:
        source, target, to_mate = move
        (rank, col), (end_rank, end_col) = divmod(source, size), divmod(target, size)
        row, end_row = size - 1 - rank, size - 1 - end_rank
        if row == end_row:
            path = [(row, c) for c in _walk(end_col, col)]
        else:
            path = [(r, col) for r in _walk(end_row, row)]
        values = [new[r][c] for r, c in path]
        shifted = [MATE if to_mate else OWN] + values[:-1]
        for (r, c), value in zip(path, shifted):
            new[r][c] = value
    # the next player moves: role r becomes r - 1
    return [[BLANK if cell == BLANK else (cell - 1) % 4 for cell in cells] for cells in new]


def _walk(start: int, stop: int) -> range:
    step = 1 if stop >= start else -1
    return range(start, stop + step, step)


def legal_moves(size: int, roles: Roles) -> list[Move]:
    """Every legal move, sorted by (source, target, to_mate); [None] when the player must
    pass; [] when the game is over."""
    return _grid_moves(_grid(size, roles))


def play_move(size: int, roles: Roles, move: Move) -> Roles:
    return _roles(_grid_play(_grid(size, roles), move))


def position_status(size: int, roles: Roles) -> int:
    return _status(_grid(size, roles))


def perft(size: int, roles: Roles, depth: int, threads: int = 0) -> int:
    return count_sequences(_grid(size, roles), checked_depth(depth),
                           lambda grid: (_grid_play(grid, move) for move in _grid_moves(grid)),
                           _status)
