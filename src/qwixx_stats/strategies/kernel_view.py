"""The kernel's view of a table's sheets: the plain arrays that `_simulate`'s entry points
read (the sheets are Python objects; the kernel plays on integers), the position of a table
before a roll (_simulate.Position) and the race model (_simulate.Race)."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from . import _simulate
from ..rules.sheet import COLOURS, Dice, Sheet, closed_rows, position
from ..tables.race import NODES, WEIGHTS, RaceTable


def sheet_arrays(sheets: Sequence[Sheet]) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                   np.ndarray, int]:
    """The kernel's view of the sheets of a table: last box, marked numbers and locked flag
    per row (players x 4), the penalties, and the rows closed by anyone as a mask (bit i:
    COLOURS[i])."""
    last = np.full((len(sheets), 4), -1, dtype=np.intc)
    marks = np.zeros((len(sheets), 4), dtype=np.intc)
    locked = np.zeros((len(sheets), 4), dtype=np.intc)
    for i, sheet in enumerate(sheets):
        for row, colour in enumerate(COLOURS):
            numbers = sheet.marks(colour)
            if numbers:
                last[i, row] = position(colour, numbers[-1])
                marks[i, row] = len(numbers)
                locked[i, row] = sheet.is_locked(colour)
    penalties = np.array([sheet.penalties for sheet in sheets], dtype=np.intc)
    shut = closed_rows(sheets)
    closed = sum(1 << i for i, colour in enumerate(COLOURS) if colour in shut)
    return last, marks, locked, penalties, closed


def kernel_position(sheets: Sequence[Sheet], active: int, dice: Dice,
                    lock_after: int) -> _simulate.Position:
    """The table of checked `sheets` (every closed row closed on each) before the roll `dice`
    of the player at seat `active`, as the kernel reads it."""
    last, marks, locked, penalties, closed = sheet_arrays(sheets)
    return _simulate.Position(lock_after, last, marks, locked, penalties, closed, active,
                              np.array(dice, dtype=np.intc))


def kernel_race(race: RaceTable) -> _simulate.Race:
    """The race model `race` as the kernel reads it (simulate, rollouts, lookahead); here, not
    in the tables' race.py, because the kernel is the strategies' and a table may not import it."""
    return _simulate.Race(race.mean, race.second, NODES, WEIGHTS, race.correlation,
                          race.late_mean, race.late_second)
