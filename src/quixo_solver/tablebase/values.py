"""How a table stores a value: one unsigned integer per position, seen from the player to
move.

    0 = draw,  2k + 1 = win in k plies,  2k + 2 = loss in k plies.

Even and odd codes never meet, so a win and a loss can share the plies field; 0 is also "not
known yet" while a pair is being solved.
"""
from __future__ import annotations

WIN, DRAW, LOSS = 1, 0, -1
WDL_NAMES = {WIN: "win", DRAW: "draw", LOSS: "loss"}


def encode(wdl: int, plies: int | None) -> int:
    if wdl == DRAW:
        return 0
    return 2 * plies + (1 if wdl == WIN else 2)


def wdl_of(code: int) -> int:
    if code == 0:
        return DRAW
    return WIN if code & 1 else LOSS


def plies_of(code: int) -> int | None:
    return None if code == 0 else (code - 1) >> 1
