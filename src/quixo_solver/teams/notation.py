"""Four-player notation of SPEC "Four players (two teams)".

`Xx..o/...../...../...../..... O1`: rows from the top; `.` blank, `X` an X cube whose dot
points at X1, `x` at X2, `O` an O cube pointing at O1, `o` at O2; then the player to move.
Case-sensitive. Moves: `a1e1` (the dot points at the mover), `a1e1+` (at the team-mate),
`pass`.

Players are numbered in turn order: X1 = 0, O1 = 1, X2 = 2, O2 = 3, so the team of player p
is p % 2 (0 = X) and the team-mate is p + 2 (mod 4). Kernels see a position relative to the
player to move: four masks by *role* r = (player the dot points at - player to move) mod 4:
0 the mover's own cubes (it may take them), 1 the next player's, 2 the team-mate's, 3 the
last player's. A move hands the turn on, which turns role r into role r - 1.
"""
from __future__ import annotations

import re
from typing import cast

from solverkit.messages import clip

from ..errors import MoveError, PositionError

from ..rules.notation import read_cells

PLAYERS = ("X1", "O1", "X2", "O2")
CELL_OF_PLAYER = "XOxo"            # the letter of a cube whose dot points at player p
PASS = "pass"
_MOVE = re.compile(r"([a-e][1-5])([a-e][1-5])(\+?)")


def parse_position(text: str) -> tuple[int, tuple[int, int, int, int], int]:
    """(size, cubes by the player their dot points at, player to move)."""
    if not isinstance(text, str):
        raise PositionError(f"a position must be a string, not {type(text).__name__}")
    parts = text.split()
    if len(parts) != 2:
        raise PositionError(f"four-player position {clip(text)} must be the rows, a space and the "
                            "player to move (X1, O1, X2 or O2)")
    rows_text, turn = parts
    if turn not in PLAYERS:
        raise PositionError(f"player to move must be X1, O1, X2 or O2 (case-sensitive), "
                            f"not {clip(turn)}")
    size, cells = read_cells(rows_text, rows_text, "XxOo.", ". X x O o")
    cubes = [0, 0, 0, 0]
    for index, cell in enumerate(cells):
        if cell != ".":
            row, col = divmod(index, size)
            cubes[CELL_OF_PLAYER.index(cell)] |= 1 << ((size - 1 - row) * size + col)
    return size, cast("tuple[int, int, int, int]", tuple(cubes)), PLAYERS.index(turn)


def format_position(size: int, cubes: tuple[int, ...], to_move: int) -> str:
    rows = []
    for row in range(size):
        line = []
        for col in range(size):
            sq = (size - 1 - row) * size + col
            owner = next((p for p in range(4) if cubes[p] >> sq & 1), None)
            line.append("." if owner is None else CELL_OF_PLAYER[owner])
        rows.append("".join(line))
    return "/".join(rows) + " " + PLAYERS[to_move]


def to_roles(cubes: tuple[int, ...], to_move: int) -> tuple[int, int, int, int]:
    """Masks by role (own, next, mate, last) seen from the player to move."""
    return cast("tuple[int, int, int, int]",
                tuple(cubes[(to_move + role) % 4] for role in range(4)))


def from_roles(roles: tuple[int, ...], to_move: int) -> tuple[int, int, int, int]:
    return cast("tuple[int, int, int, int]",
                tuple(roles[(player - to_move) % 4] for player in range(4)))


def parse_move(text: str) -> tuple[str, str, bool] | None:
    """(source, target, dot to the team-mate) of `a1e1` / `a1e1+`, or None for `pass`."""
    if not isinstance(text, str):
        raise MoveError(f"a move is written as text, not {type(text).__name__}")
    if text.strip().lower() == PASS:
        return None
    match = _MOVE.fullmatch(text.strip().lower())
    if match is None:
        raise MoveError(f"{clip(text)} is not a four-player move; write a1e1, a1e1+ (dot to the "
                        "team-mate) or pass")
    return match.group(1), match.group(2), match.group(3) == "+"


__all__ = ["PLAYERS", "PASS", "parse_position", "format_position", "to_roles", "from_roles",
           "parse_move"]
