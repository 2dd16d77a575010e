"""The test oracle of the single-player optimum: plain Bellman equations over whole rolls.

Nothing here is shared with the kernel: sheets are `Sheet` objects with real numbers, every
one of the 6^6 rolls is enumerated with every legal (action 1, action 2) pair of the rules
engine, and no symmetry or expectation trick is used. Slow (about a second per sheet), so
the tests use it on endgames and on single Bellman steps.
"""
from __future__ import annotations

import itertools
from functools import lru_cache
from typing import Callable

from .game import active_options, apply_option
from .sheet import Dice, Sheet

ALL_ROLLS = [Dice(*faces) for faces in itertools.product(range(1, 7), repeat=6)]


def bellman_value(sheet: Sheet, value_of: Callable[[Sheet], float]) -> float:
    """E over all rolls of max over options of value_of(sheet after the option); a finished
    sheet is worth its score."""
    def worth(after: Sheet) -> float:
        return float(after.score()) if after.is_finished() else value_of(after)

    total = 0.0
    for dice in ALL_ROLLS:
        total += max(worth(apply_option(sheet, dice, option))
                     for option in active_options(sheet, dice))
    return total / len(ALL_ROLLS)


@lru_cache(maxsize=None)
def exact_value(sheet: Sheet) -> float:
    """The expected final score from `sheet` by full recursion (endgames only)."""
    if sheet.is_finished():
        return float(sheet.score())
    return bellman_value(sheet, exact_value)
