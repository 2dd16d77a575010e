"""The test oracle of the single-player optimum and of the paced model of race.py: plain
Bellman equations over whole rolls.

Nothing here is shared with the kernel: sheets are `Sheet` objects with real numbers, every
one of the 6^6 rolls is enumerated with every legal (action 1, action 2) pair of the rules
engine, and no symmetry or expectation trick is used. Slow (about a second per sheet), so
the tests use it on endgames and on single Bellman steps.
"""
from __future__ import annotations

import itertools
from functools import lru_cache
from typing import Callable

from ..rules.game import active_options, apply_option
from ..rules.sheet import Dice, Sheet

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


def paced_bellman(sheet: Sheet, active_share: float, continuation: float,
                  mean_of: Callable[[Sheet], float],
                  second_of: Callable[[Sheet], float]) -> tuple[float, float]:
    """The right-hand sides (mean, second moment of the points to come) of the paced model's
    equations at `sheet` (race.py): active with chance `active_share` (every roll, every
    option), otherwise only the white sum or nothing (every white pair); the game goes on after
    the turn with chance `continuation`. The values after the turn come from mean_of and
    second_of, the sheet itself included (a non-active turn that marks nothing). Each turn
    plays the option of the highest mean (the first such; a non-active player keeps its sheet
    on a tie), and the second moment is that option's."""
    q = continuation

    def rated(after: Sheet) -> tuple[float, float]:
        gain = float(after.score() - sheet.score())
        if after.is_finished():
            return gain, gain * gain
        mean, second = q * mean_of(after), q * second_of(after)
        return gain + mean, gain * gain + 2.0 * gain * mean + second

    def best(choices: list[tuple[float, float]]) -> tuple[float, float]:
        top = choices[0]
        for choice in choices[1:]:
            if choice[0] > top[0]:
                top = choice
        return top

    active_mean = active_second = 0.0
    for dice in ALL_ROLLS:
        mean, second = best([rated(apply_option(sheet, dice, option))
                             for option in active_options(sheet, dice)])
        active_mean += mean / len(ALL_ROLLS)
        active_second += second / len(ALL_ROLLS)
    passive_mean = passive_second = 0.0
    for w1, w2 in itertools.product(range(1, 7), repeat=2):
        choices = [rated(sheet)]
        for colour in ("red", "yellow", "green", "blue"):
            if sheet.can_mark(colour, w1 + w2):
                choices.append(rated(sheet.mark(colour, w1 + w2)))
        mean, second = best(choices)
        passive_mean += mean / 36
        passive_second += second / 36
    a = active_share
    return (a * active_mean + (1 - a) * passive_mean,
            a * active_second + (1 - a) * passive_second)
