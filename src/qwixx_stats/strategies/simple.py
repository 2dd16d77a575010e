"""Players for the simulator, in pure Python (the reference the Cython simulator is tested
against; `_simple.pxd` mirrors every rule and tie-break here).

- greedy: the option that gains the most points this turn, then the one that skips the fewest
  boxes; it therefore marks whenever it can.
- cautious k: marks only numbers that leave at most k empty boxes behind; the most marks, then
  the fewest boxes skipped; the active player takes a penalty when nothing qualifies.
- random: uniformly among the legal choices (a penalty included for the active player).
- optimal: the exact single-player optimum (`solitaire.OptimalPlayer`).
Ties go to the first option in `game.active_options` order.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Optional, TypeVar, cast

from solverkit.messages import clip

from ..errors import SimulationError, StrategyError
from ..rules.game import (Option, SecondMark, active_options, apply_option, colour_marks,
                          skipped_boxes, white_sum_rows)
from ..rules.sheet import Dice, Sheet, is_whole
from ..rules.stream import SplitMix64

T = TypeVar("T")


def _second_options(sheet: Sheet, dice: Dice) -> list[SecondMark]:
    return [None, *colour_marks(sheet, dice)]


def _first_options(sheet: Sheet, dice: Dice) -> list[Optional[str]]:
    return [None, *white_sum_rows(sheet, dice)]


def _marks_of(sheet: Sheet, dice: Dice, option: Option) -> list[tuple[Sheet, str, int]]:
    """(sheet before the mark, row, number) for each mark of an option, in order."""
    first, second = option
    marks: list[tuple[Sheet, str, int]] = []
    if first is not None:
        marks.append((sheet, first, dice.white_sum))
        sheet = sheet.mark(first, dice.white_sum)
    if second is not None:
        marks.append((sheet, *second))
    return marks


def _best(options: Iterable[T], key: Callable[[T], Any]) -> T:
    """The first option with the largest key; the callers never pass an empty list."""
    best: T | None = None
    best_key: Any = None
    for option in options:
        k = key(option)
        if best_key is None or k > best_key:
            best, best_key = option, k
    return cast(T, best)


class GreedyPlayer:

    def _key(self, sheet: Sheet, dice: Dice, option: Option) -> tuple[int, int]:
        gain = apply_option(sheet, dice, option).score() - sheet.score()
        skipped = sum(skipped_boxes(s, c, n) for s, c, n in _marks_of(sheet, dice, option))
        return (gain, -skipped)

    def first_action(self, sheet: Sheet, dice: Dice, active: bool) -> Optional[str]:
        if active:
            return _best(active_options(sheet, dice), lambda o: self._key(sheet, dice, o))[0]
        return _best(_first_options(sheet, dice),
                     lambda c: self._key(sheet, dice, (c, None)) if c else (0, 0))

    def second_action(self, sheet: Sheet, dice: Dice, marked_first: bool) -> SecondMark:
        def key(option: SecondMark) -> tuple[int, int]:
            if option is None:
                return (0 if marked_first else -5, 0)
            return self._key(sheet, dice, (None, option))
        return _best(_second_options(sheet, dice), key)


class CautiousPlayer:
    def __init__(self, skip: int):
        if not is_whole(skip) or not 0 <= skip <= 10:
            raise StrategyError(f"cautious skip limit must be 0..10, not {clip(skip)}")
        self.skip = skip

    def _key(self, sheet: Sheet, dice: Dice, option: Option) -> Optional[tuple[int, int]]:
        marks = _marks_of(sheet, dice, option)
        skips = [skipped_boxes(s, c, n) for s, c, n in marks]
        if any(k > self.skip for k in skips):
            return None
        return (len(marks), -sum(skips))

    def first_action(self, sheet: Sheet, dice: Dice, active: bool) -> Optional[str]:
        if active:
            options = [o for o in active_options(sheet, dice)
                       if self._key(sheet, dice, o) is not None]
            return _best(options, lambda o: self._key(sheet, dice, o))[0]
        choices = [c for c in _first_options(sheet, dice)
                   if c is None or self._key(sheet, dice, (c, None)) is not None]
        return _best(choices, lambda c: self._key(sheet, dice, (c, None)) if c else (0, 0))

    def second_action(self, sheet: Sheet, dice: Dice, marked_first: bool) -> SecondMark:
        options = [o for o in _second_options(sheet, dice)
                   if o is None or self._key(sheet, dice, (None, o)) is not None]
        return _best(options, lambda o: (0, 0) if o is None else self._key(sheet, dice, (None, o)))


class RandomPlayer:

    def __init__(self, rng: SplitMix64):
        if not isinstance(rng, SplitMix64):
            raise SimulationError(f"a random player draws from a SplitMix64, not {clip(rng)}")
        self.rng = rng

    def first_action(self, sheet: Sheet, dice: Dice, active: bool) -> Optional[str]:
        if active:
            options = active_options(sheet, dice)
            return options[self.rng.below(len(options))][0]
        choices = _first_options(sheet, dice)
        return choices[self.rng.below(len(choices))]

    def second_action(self, sheet: Sheet, dice: Dice, marked_first: bool) -> SecondMark:
        options = _second_options(sheet, dice)
        return options[self.rng.below(len(options))]
