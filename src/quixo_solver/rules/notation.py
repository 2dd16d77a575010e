"""Position, square and move notation of the conventions (docs/conventions.md, "SPEC").

A position string is ``XX..O/...../...../...../..... X``: rows from the top, then the
player to move. Input is case-insensitive and the slashes may be left out.
"""
from __future__ import annotations

import re

from solverkit.messages import clip

from ..errors import MoveError, PositionError

from .geometry import FILES, SIZES

_SIZE_OF_CELLS = {size * size: size for size in SIZES}
_SQUARE = re.compile(r"([a-e])([1-5])")
_MOVE = re.compile(r"([a-e][1-5])([a-e][1-5])")


def parse_position(text: str) -> tuple[int, int, int, str]:
    """(size, X cubes, O cubes, player to move) of a position string."""
    if not isinstance(text, str):
        raise PositionError(f"a position must be a string, not {type(text).__name__}")
    parts = text.split()
    if len(parts) != 2:
        raise PositionError(
            f"position {clip(text)} must be the rows, a space and the player to move (X or O)")
    rows_text, turn = parts[0].upper(), parts[1].upper()
    if turn not in ("X", "O"):
        raise PositionError(f"player to move must be X or O, not {clip(parts[1])} (four-player "
                            "positions name the player: X1, O1, X2 or O2, case-sensitive)")
    size, cells = read_cells(rows_text, parts[0], "XO.", "X, O or .")
    x_cubes = o_cubes = 0
    for index, cell in enumerate(cells):
        row, col = divmod(index, size)
        sq = (size - 1 - row) * size + col
        if cell == "X":
            x_cubes |= 1 << sq
        elif cell == "O":
            o_cubes |= 1 << sq
    return size, x_cubes, o_cubes, turn


def read_cells(rows_text: str, shown: str, alphabet: str, described: str) -> tuple[int, str]:
    """(size, cells row by row) of the board part of a position; `shown` is how the message
    quotes it, `alphabet` the cell characters allowed (`described` in words)."""
    cells = rows_text.replace("/", "")
    size = _SIZE_OF_CELLS.get(len(cells))
    if size is None:
        raise PositionError(f"position {clip(shown)} has {len(cells)} cells; a board has 9, 16 or 25")
    if "/" in rows_text:
        rows = rows_text.split("/")
        if len(rows) != size or any(len(row) != size for row in rows):
            raise PositionError(f"position {clip(shown)} must have {size} rows of {size} cells")
    bad = sorted(set(cells) - set(alphabet))
    if bad:
        raise PositionError(f"position {clip(shown)} has unknown characters {clip(''.join(bad))}; "
                            f"cells are {described}")
    return size, cells


def format_position(size: int, x_cubes: int, o_cubes: int, turn: str) -> str:
    rows = []
    for row in range(size):
        cells = []
        for col in range(size):
            sq = (size - 1 - row) * size + col
            cells.append("X" if x_cubes >> sq & 1 else "O" if o_cubes >> sq & 1 else ".")
        rows.append("".join(cells))
    return "/".join(rows) + " " + turn


def square_name(size: int, sq: int) -> str:
    rank_index, file_index = divmod(sq, size)
    return f"{FILES[file_index]}{rank_index + 1}"


def parse_square(size: int, name: str) -> int:
    match = _SQUARE.fullmatch(name.lower()) if isinstance(name, str) else None
    if match is None:
        raise MoveError(f"{clip(name)} is not a square name such as a1")
    file_index, rank_index = FILES.index(match.group(1)), int(match.group(2)) - 1
    if file_index >= size or rank_index >= size:
        raise MoveError(f"square {name} is off a {size}x{size} board")
    return rank_index * size + file_index


def split_move(text: str) -> tuple[str, str]:
    """The two square names of a move string such as ``a1e1``."""
    match = _MOVE.fullmatch(text.strip().lower()) if isinstance(text, str) else None
    if match is None:
        raise MoveError(f"{clip(text)} is not a move; write the two squares, such as a1e1")
    return match.group(1), match.group(2)
