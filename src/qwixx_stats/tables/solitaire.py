"""The exact optimal single-player strategy: a player who is always the active player and
maximises the expected final score.

`ExpectedValues` holds, for every sheet state (rows up to the symmetries of rules/_rows.pxd, and
0..3 penalties), the expected points still to come under optimal play; the expected final
score of a sheet is its score plus that. The table is solved by the Cython kernel
(`_solitaire.solve`, a few seconds on two cores) and kept in a file so later calls load it.
Each lock rule (`lock_after` 5 or 4) has its own table.

The file is a `solverkit.arrayfile` (checksummed header, atomic write) of float64 values; its
magic names the lock rule, so a table is never read for the other rule.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Callable, Optional

import numpy as np

from solverkit.arrayfile import read_array, write_array
from solverkit.messages import clip, cut_path

from ..rules import _rows
from . import _solitaire
from ..errors import TableError
from ..rules.game import (Option, SecondMark, active_options, apply_option, colour_marks,
                          white_sum_rows)
from ..rules.constants import CLOSED_ROWS_TO_END, MARKS_TO_LOCK, PENALTIES_TO_END
from ..rules.sheet import COLOURS, Dice, Sheet, check_lock_after, check_sheet, position

ROW_STATES = 57
CLOSED = 56
SHEET_STATES = 1367031
PENALTY_STATES = PENALTIES_TO_END      # the penalty counts of a game still going: 0..3
VERSION = 3


def magic(lock_after: int = MARKS_TO_LOCK) -> bytes:
    """The file magic of the single-player table of a lock rule."""
    return b"QWIXSOL" + str(check_lock_after(lock_after)).encode()


def table_name(lock_after: int = MARKS_TO_LOCK) -> str:
    return f"qwixx-solitaire-lock{check_lock_after(lock_after)}-v{VERSION}.qev"


TABLE_NAME = table_name()          # the table of the printed rules


def default_directory() -> Path:
    """$QWIXX_TABLE_DIR, else the user's cache folder ($XDG_CACHE_HOME or ~/.cache); a
    leading ~ is expanded."""
    override = os.environ.get("QWIXX_TABLE_DIR")
    if override:
        return _expand(override, "QWIXX_TABLE_DIR ")
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join("~", ".cache")
    return _expand(base, "the cache folder ") / "qwixx_stats"


def _expand(text: str, what: str = "") -> Path:
    try:
        return Path(text).expanduser()
    except RuntimeError as error:         # ~user for an unknown user, or no home folder
        raise TableError(f"{what}{clip(text)}: cannot expand ~ ({error})") from None


def table_directory(directory: Path | str | None = None) -> Path:
    """The folder `directory` names (~ expanded), or `default_directory()` for None."""
    if directory is None:
        return default_directory()
    if not isinstance(directory, (str, os.PathLike)):
        raise TableError(f"a table folder is a path, not {type(directory).__name__}")
    text = os.fspath(directory)
    if not isinstance(text, str):
        text = os.fsdecode(text)
    if not text:
        raise TableError("the table folder is an empty path")
    if "\0" in text:
        raise TableError(f"the table folder {clip(text)} holds a NUL character")
    if len(text) > 4096:
        raise TableError(f"the table folder {clip(text)} is too long a path")
    return _expand(text, "table folder ")


def table_path(directory: Path | str | None = None, lock_after: int = MARKS_TO_LOCK) -> Path:
    """Where `ExpectedValues.load(directory, lock_after=...)` keeps the table."""
    return table_directory(directory) / table_name(lock_after)


def check_writable_directory(directory: Path) -> Path:
    """Make sure the table can be written into `directory` (creating it if need be), before
    spending a minute solving it: TableError naming the folder and the cause otherwise."""
    if directory.exists() and not directory.is_dir():
        raise TableError(f"table folder {cut_path(directory)} exists and is not a folder")
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise TableError(f"cannot create the table folder {cut_path(directory)}: "
                         f"{error.strerror or error}") from None
    try:
        with tempfile.TemporaryFile(dir=directory, prefix=".qwixx-write-test-"):
            pass
    except OSError as error:
        raise TableError(f"cannot write in the table folder {cut_path(directory)}: "
                         f"{error.strerror or error}") from None
    return directory


def check_table_array(table: object) -> np.ndarray:
    if not isinstance(table, np.ndarray) or table.dtype != np.float64:
        raise TableError(f"a table is a float64 numpy array, not {type(table).__name__}")
    if table.shape != (SHEET_STATES, PENALTY_STATES):
        raise TableError(f"a table has shape {(SHEET_STATES, PENALTY_STATES)}")
    return table


def sheet_state(sheet: Sheet) -> tuple[int, int]:
    """The (sheet state, penalties) entry of a sheet that is not finished, in every table."""
    rows = [row_state(sheet, colour) for colour in COLOURS]
    return _rows.sheet_index(*rows), sheet.penalties


def row_state(sheet: Sheet, colour: str) -> int:
    if colour in sheet.closed:
        return CLOSED
    marks = sheet.marks(colour)
    if not marks:
        return 0
    return _rows.row_state(position(colour, marks[-1]), len(marks))


def solve_order() -> tuple[np.ndarray, np.ndarray]:
    """Every sheet state of a game still going (one closed row at most), grouped by the sum of
    its row states
    (a mark always raises it), the most advanced level first; returns the states packed 6
    bits per row and the start of each level."""
    xs, ys = np.tril_indices(ROW_STATES)                 # one pair of rows, x >= y
    pair_level = xs + ys
    pair_closed = (xs == CLOSED).astype(np.int64) + (ys == CLOSED)
    first, second = np.tril_indices(len(xs))             # a pair of pairs
    keep = pair_closed[first] + pair_closed[second] < CLOSED_ROWS_TO_END
    first, second = first[keep], second[keep]
    level = pair_level[first] + pair_level[second]
    order = np.argsort(-level, kind="stable")
    first, second, level = first[order], second[order], level[order]
    packed = ((xs[first] << 18) | (ys[first] << 12) | (xs[second] << 6) | ys[second])
    starts = np.flatnonzero(np.diff(level)) + 1
    level_starts = np.concatenate([[0], starts, [len(level)]]).astype(np.int64)
    return packed.astype(np.int32), level_starts


def states_to_solve() -> int:
    """How many sheet states `solve_table` solves (those with at most one closed row)."""
    return len(solve_order()[0])


def solve_table(progress: Optional[Callable[[int], None]] = None, *,
                lock_after: int = MARKS_TO_LOCK) -> np.ndarray:
    """Solve every state: an array (SHEET_STATES, 4) of expected future points."""
    check_lock_after(lock_after)
    packed, level_starts = solve_order()
    future = np.zeros((SHEET_STATES, PENALTY_STATES), dtype=np.float64)
    _solitaire.solve(future, packed, level_starts, progress, lock_after=lock_after)
    return future


def write_table(path: Path, future: np.ndarray, lock_after: int = MARKS_TO_LOCK) -> Path:
    return write_array(path, magic(lock_after), VERSION, future.astype(np.float64))


def read_table(path: Path, lock_after: int = MARKS_TO_LOCK,
               shape: tuple[int, ...] = (SHEET_STATES, PENALTY_STATES),
               file_magic: bytes | None = None, version: int = VERSION) -> np.ndarray:
    """The array of a table file, once its magic (which names the lock rule), version, shape
    and checksums are right."""
    array = read_array(path, file_magic or magic(lock_after), version, TableError)
    if array.shape != shape:
        raise TableError(f"{path}: a table of shape {array.shape}, expected {shape}")
    return array


def load_or_solve(directory: Path | str | None, name: str, solve: Callable[[], np.ndarray],
                  write: Callable[[Path, np.ndarray], Path], read: Callable[[Path], np.ndarray],
                  build: bool) -> np.ndarray:
    """The table `name` in `directory`, solved and written first when missing and `build`."""
    if not isinstance(build, bool):
        raise TableError(f"build must be True or False, not {clip(build)}")
    folder = table_directory(directory)
    path = folder / name
    if not path.exists() and build:
        check_writable_directory(folder)
        write(path, solve())
    return read(path)


class ExpectedValues:
    """Values of the optimal single-player strategy, with the best decisions for a roll."""

    def __init__(self, future: np.ndarray, lock_after: int = MARKS_TO_LOCK):
        check_table_array(future)
        self.future = future
        self.lock_after = check_lock_after(lock_after)

    @classmethod
    def load(cls, directory: Path | str | None = None, *, build: bool = True,
             progress: Optional[Callable[[int], None]] = None,
             lock_after: int = MARKS_TO_LOCK) -> "ExpectedValues":
        """Load the table of the lock rule `lock_after` from `directory` (default:
        `default_directory()`), solving and saving it first if it is not there and `build` is
        true."""
        if progress is not None and not callable(progress):
            raise TableError(f"progress must be a function or None, not {clip(progress)}")
        check_lock_after(lock_after)
        future = load_or_solve(directory, table_name(lock_after),
                               lambda: solve_table(progress, lock_after=lock_after),
                               lambda path, table: write_table(path, table, lock_after),
                               lambda path: read_table(path, lock_after), build)
        return cls(future, lock_after)

    def future_points(self, sheet: Sheet) -> float:
        """Expected points still to come from `sheet` at the start of a turn."""
        check_sheet(sheet, self.lock_after)
        return float(self.future[sheet_state(sheet)]) if not sheet.is_finished() else 0.0

    def value(self, sheet: Sheet) -> float:
        """The expected final score from `sheet` at the start of a turn."""
        return sheet.score() + self.future_points(sheet)

    def active_options(self, sheet: Sheet, dice: Dice) -> list[tuple[Option, float]]:
        """Every option of the active player for this roll with its expected final score,
        best first (ties keep the order of `game.active_options`)."""
        sheet, dice = check_sheet(sheet, self.lock_after), Dice.parse(dice)
        scored = [(option, self.value(apply_option(sheet, dice, option)))
                  for option in active_options(sheet, dice)]
        return sorted(scored, key=lambda item: -item[1])

    def passive_options(self, sheet: Sheet, dice: Dice) -> list[tuple[Optional[str], float]]:
        """Action 1 choices of a non-active player (no penalty), valued as the sheet at the
        start of a turn."""
        sheet, dice = check_sheet(sheet, self.lock_after), Dice.parse(dice)
        total = dice.white_sum
        choices: list[tuple[Optional[str], float]] = [(None, self.value(sheet))]
        for colour in white_sum_rows(sheet, dice):
            choices.append((colour, self.value(sheet.mark(colour, total))))
        return sorted(choices, key=lambda item: -item[1])


class OptimalPlayer:
    """Plays the single-player optimum on its own sheet (a `game.Player`)."""

    def __init__(self, values: ExpectedValues):
        if not isinstance(values, ExpectedValues):
            raise TableError(f"an optimal player needs an ExpectedValues table, not "
                             f"{type(values).__name__}")
        self.values = values

    def first_action(self, sheet: Sheet, dice: Dice, active: bool) -> Optional[str]:
        if active:
            return self.values.active_options(sheet, dice)[0][0][0]
        return self.values.passive_options(sheet, dice)[0][0]

    def second_action(self, sheet: Sheet, dice: Dice, marked_first: bool) -> SecondMark:
        best, best_value = None, self.values.value(sheet if marked_first else sheet.add_penalty())
        for second in colour_marks(sheet, dice):
            value = self.values.value(sheet.mark(*second))
            if value > best_value:
                best, best_value = second, value
        return best
