"""Two strategies from outside this project's family, as opponents for `win` (issue 24).

Both were written here from published descriptions of the ideas (no code was taken from
anywhere); their weights were tuned here (benchmarks/qwixx_tune_heuristics.py), on tuning
seeds that the measurements never use.

`weighted`: a weighted evaluation of the sheet, with weights tuned by evolution.
    Source of the idea: the genetic-algorithm Qwixx bots published on GitHub, e.g.
    sjanetzki/qwixx-trainer ("a genetic algorithm that learns to play the game Qwixx"): the
    bot turns the situation after each possible choice into a vector of sheet features, values
    it as a sum of quadratic, linear and constant terms per feature whose factors are the
    genome, plays the choice of the highest value, and the genomes are evolved by playing.
    Here: per row, m = marks (the lock's extra mark included) and k = boxes skipped (empty boxes
    left of the last mark); the value of a sheet is
        sum over rows of  w0 m + w1 m^2 + w2 k + w3 k^2 + w4 m k
        + w5 p + w6 p^2 + w7 (open rows that may already be locked)
    (p: penalties), and a choice is worth value(after) - value(before).

`scored`: a score for each move, tuned by a random walk over its weights.
    Source of the idea: J. W. Blank, "Qwixx Strategies Using Simulation and MCMC Methods",
    Master's thesis, California Polytechnic State University, June 2024: a score-based
    strategy that rates each possible mark by a formula of its gap, count, position, skip and
    likelihood scores, with the formula's weights tuned by MCMC random walks over simulated
    games. Here: each row an option marks scores
        w0 + w1 g + w2 g^2 + w3 c + w4 x + w5 l + w6 (the mark locks the row)
    (g: boxes skipped, c: marks the row had, x: the box of the new last mark 0..10, l: the
    chance of one roll of two dice to show one of the numbers passed over, i.e. the boxes
    between the row's old last mark and the new one, a box marked earlier in the same turn
    included), a penalty scores w7, and the choice of the highest total is played (marking
    nothing scores 0).

Shared by both, as any sound bot does: a choice that ends the game (a second closed row, a
fourth penalty) is worth ENDING_VALUE times its exact share of the win (1, 1/k for a tie of k
at the top, 0) minus half of it, so they end a game they lead and never end one they lose.
Ties go to the first choice in the order of game.active_options (nothing first).

The Cython kernel (_heuristics.pxd: weighted_features, scored_change; _judged.pxd:
choice_value and the judged_* decisions) mirrors `HeuristicPlayer` decision for decision (tested).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Optional

from solverkit.messages import clip

from . import _simulate
from ..errors import GameError, StrategyError
from ..rules.game import (Game, SecondMark, active_options, apply_option, colour_marks, final_share,
                          white_sum_rows)
from ..tables.race import SAME_CHANCE
from ..rules.sheet import COLOURS, LAST_BOX, Dice, Sheet, close_all, position

WEIGHT_COUNT = int(_simulate.HEURISTIC_WEIGHT_COUNT)
ENDING_VALUE = float(_simulate.ENDING_VALUE)
Change = Callable[[Sequence[float], Sheet, Sheet], float]   # weighted_change, scored_change

# The tuned weights: benchmarks/qwixx_tune_heuristics.py --generations 35 --offspring 8
# --games 3000 (tuning seeds 1000-1034; its output: benchmarks/results/qwixx-tune-heuristics.log),
# started from hand-set weights (1, .5, -1, 0, 0, -5, 0, 0) and (3, -1.5, 0, .5, 0, 0, 3, -6).
WEIGHTED_WEIGHTS: tuple[float, ...] = (7.899, 1.085, 0.443, -1.053, -1.082, -5.521, -5.74, -2.294)
SCORED_WEIGHTS: tuple[float, ...] = (2.24, -0.57, 0.036, 0.265, -0.287, -3.786, 5.044, -11.228)


def check_weights(weights: object) -> tuple[float, ...]:
    if (not isinstance(weights, (tuple, list)) or len(weights) != WEIGHT_COUNT
            or not all(isinstance(w, (int, float)) and not isinstance(w, bool)
                       and abs(w) < 1e6 for w in weights)):
        raise StrategyError(f"a heuristic has {WEIGHT_COUNT} finite weights (each below "
                            f"10**6 in size), not {clip(weights)}")
    return tuple(float(w) for w in weights)


def _row(sheet: Sheet, colour: str) -> tuple[int, int, int]:
    """(last box or -1, marked numbers, 1 if locked by this sheet) of one row."""
    numbers = sheet.marks(colour)
    last = position(colour, numbers[-1]) if numbers else -1
    return last, len(numbers), int(bool(numbers) and last == LAST_BOX)


def weighted_features(w: Sequence[float], sheet: Sheet, closed: frozenset[str]) -> float:
    """The `weighted` value of a sheet (_heuristics.pxd weighted_features)."""
    total = 0.0
    lockable = 0
    for colour in COLOURS:
        last, marks, locked = _row(sheet, colour)
        m = float(marks + locked)
        k = float(last + 1 - marks)
        total += w[0] * m + w[1] * m * m + w[2] * k + w[3] * k * k + w[4] * m * k
        if colour not in closed and marks >= sheet.lock_after:
            lockable += 1
    p = float(sheet.penalties)
    total += w[5] * p + w[6] * p * p + w[7] * lockable
    return total


def weighted_change(w: Sequence[float], before: Sheet, after: Sheet) -> float:
    """The `weighted` value of going from `before` to `after`: the change of the weighted
    value, both sheets read with the rows closed after the choice."""
    return (weighted_features(w, after, after.closed)
            - weighted_features(w, before, after.closed))


def sum_ways(box: int) -> int:
    """The rolls of two dice (of 36) showing the number of `box` (either row order)."""
    return 6 - abs(box - 5)


def scored_change(w: Sequence[float], before: Sheet, after: Sheet) -> float:
    """The `scored` value of going from `before` to `after` (_heuristics.pxd scored_change)."""
    total = 0.0
    for colour in COLOURS:
        old_last, old_marks, _ = _row(before, colour)
        new_last, new_marks, locked = _row(after, colour)
        if new_marks == old_marks:
            continue
        gap = float(new_last - old_last - (new_marks - old_marks))
        likelihood = sum(sum_ways(box) for box in range(old_last + 1, new_last)) / 36.0
        total += (w[0] + w[1] * gap + w[2] * gap * gap + w[3] * old_marks + w[4] * new_last
                  + w[5] * likelihood + w[6] * locked)
    total += w[7] * (after.penalties - before.penalties)
    return total


def choice_value(change: Change, weights: Sequence[float], before: Sheet, after: Sheet,
                 others: Sequence[Sheet]) -> float:
    """What a heuristic player whose value is `change` (weighted_change or scored_change)
    makes of a choice that takes its sheet from `before` to `after` (with the closed rows
    after the choice), the others' sheets being `others` (_judged.pxd choice_value)."""
    if after.is_finished():
        return ENDING_VALUE * final_share(after, others) - ENDING_VALUE / 2
    return change(weights, before, after)


class HeuristicPlayer:
    """Plays a heuristic at one seat of a game (a `game.Player`): `change` is its value of a
    choice, weighted_change (`weighted`) or scored_change (`scored`)."""

    def __init__(self, change: Change, weights: Sequence[float], game: Game, seat: int):
        if change not in (weighted_change, scored_change):
            raise StrategyError(f"a heuristic's value is weighted_change or scored_change, not "
                                f"{clip(change)}")
        if not isinstance(game, Game):
            raise GameError(f"a heuristic player sits in a Game, not {type(game).__name__}")
        if not isinstance(seat, int) or not 0 <= seat < game.players:
            raise GameError(f"seat must be 0..{game.players - 1}, not {clip(seat)}")
        self.change, self.weights = change, check_weights(weights)
        self.game, self.seat = game, seat

    def _table(self) -> tuple[Sheet, list[Sheet]]:
        sheets = close_all(self.game.sheets)
        return sheets[self.seat], [s for i, s in enumerate(sheets) if i != self.seat]

    def _value(self, before: Sheet, after: Sheet, others: Sequence[Sheet]) -> float:
        closed = after.closed
        return choice_value(self.change, self.weights, before, after,
                            [sheet.close(closed) for sheet in others])

    @staticmethod
    def _first_best(values: Sequence[float]) -> int:
        """The index the kernel's `better` picks: a value higher by more than SAME_CHANCE."""
        best = 0
        for i, value in enumerate(values):
            if value > values[best] + SAME_CHANCE:
                best = i
        return best

    def first_action(self, sheet: Sheet, dice: Dice, active: bool) -> Optional[str]:
        mine, others = self._table()
        if active:
            options = active_options(mine, dice)
            values = [self._value(mine, apply_option(mine, dice, o), others) for o in options]
            return options[self._first_best(values)][0]
        rows: list[Optional[str]] = [None, *white_sum_rows(mine, dice)]
        values = [self._value(mine, mine if row is None else mine.mark(row, dice.white_sum),
                              others) for row in rows]
        return rows[self._first_best(values)]

    def second_action(self, sheet: Sheet, dice: Dice, marked_first: bool) -> SecondMark:
        mine, others = self._table()
        choices: list[SecondMark] = [None, *colour_marks(mine, dice)]
        values = [self._value(mine, (mine if marked_first else mine.add_penalty())
                              if choice is None else mine.mark(*choice), others)
                  for choice in choices]
        return choices[self._first_best(values)]
