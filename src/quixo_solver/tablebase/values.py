"""The Python twin of _value_code.pxd, the one definition of how a table stores a value
(0 draw, 2k + 1 win in k plies, 2k + 2 loss in k plies, for the player to move);
tests/test_value_code.py checks that the two agree."""
from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar, cast

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
Position = TypeVar("Position", bound=Hashable)


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


def by_rounds(children: Mapping[Position, Sequence[Position]], code: dict[Position, int],
              outside: Mapping[Position, int]) -> dict[Position, int]:
    """The rule of SPEC "Plies" applied as written, for the twins of the generators: round n
    gives "win in n" to every undecided position with a child lost in n - 1, and "loss in n"
    to every undecided position whose children are all known wins, the longest in n - 1.
    `code` holds the positions decided already (the rules' 0-ply ones), and is completed;
    `children` are the other positions' children, whose codes come from `code` or, for
    children outside the set solved, from `outside`. Rounds go on while they decide
    something, and at least past the plies of the children outside (which may decide a
    position in any round up to 1 + their longest). Positions never decided are draws."""
    longest_outside = max((plies_of(c) or 0 for c in outside.values()), default=0)
    plies = 0
    while True:
        plies += 1
        decided = {}
        for position, kids in children.items():
            if position in code:
                continue
            codes = [code.get(kid, outside.get(kid)) for kid in kids]
            if encode(LOSS, plies - 1) in codes:
                decided[position] = encode(WIN, plies)
            elif all(c is not None and is_win(c) for c in codes) and \
                    max(plies_of(cast(int, c)) or 0 for c in codes) == plies - 1:
                decided[position] = encode(LOSS, plies)
        if not decided and plies > longest_outside:
            break
        code.update(decided)
    return code
