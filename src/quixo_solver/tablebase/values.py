"""The Python twin of _value_code.pxd, the one definition of how a table stores a value
(0 draw, 2k + 1 win in k plies, 2k + 2 loss in k plies, for the player to move);
tests/test_value_code.py checks that the two agree."""
from __future__ import annotations

from typing import cast

WIN, DRAW, LOSS = 1, 0, -1

# The generator's working word (_value_code.pxd): SETTLED | code once an entry has a value,
# else the weighted count of internal children still to report and what the external
# children said (HOLE: a slot of no position).
SETTLED = 0x8000
CODE_MASK = 0x7FFF
HOLE = 0x7FFF
WEIGHT_UNIT = 8
LONGEST_PLIES = 16382
COUNT_MASK = 0x1FF          # undecided: what the internal children must still report ...
EXTERNAL_SHIFT = 9          # ... and above it what the external children said:
EXTERNAL_NONE = 0           # nothing yet, 1 + plies of the longest win (below EXTERNAL_LONG),
EXTERNAL_LONG = 62          # a longer win (looked up), or
EXTERNAL_DRAW = 63          # a draw
WDL_NAMES = {WIN: "win", DRAW: "draw", LOSS: "loss"}


def encode(wdl: int, plies: int | None) -> int:
    if wdl == DRAW:
        return 0
    return 2 * cast(int, plies) + (1 if wdl == WIN else 2)   # a win or a loss has plies


def wdl_of(code: int) -> int:
    if code == 0:
        return DRAW
    return WIN if code & 1 else LOSS


def plies_of(code: int) -> int | None:
    return None if code == 0 else (code - 1) >> 1


def is_win(code: int) -> bool:
    return code & 1 == 1


def is_loss(code: int) -> bool:
    return code != 0 and code & 1 == 0
