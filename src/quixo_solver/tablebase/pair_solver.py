"""The per-unit step of every build: solve one class pair in a folder.

Both builders run it, unit after unit: the local one (builder.py) in this process, the Dask
one (cluster.py) as one task per unit on its workers. A unit reads the compressed tables of
the classes it needs (where taking a blank leads) from the folder, mapped, never decompressed
whole; solves its pair in memory (two bytes per entry, _retro.pyx); and writes each class's
compressed file atomically. Several processes may share a folder: a unit is solved under a lock
file, and a process that finds a unit built (by another one) leaves it.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

fcntl: ModuleType | None
try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: builds sharing a folder are not coordinated
    fcntl = None

import numpy as np
import numpy.typing as npt

from . import _retro, files, plan
from ._table import CompressedTable


def is_built(directory: Path, unit: plan.Unit, *, check_data: bool = True) -> bool:
    """Whether every table of the unit is there and complete, and with `check_data`
    undamaged (every block checked: a damaged file is solved again). A file of an older
    format raises files.OldFormatError (it is converted, not rebuilt)."""
    return all(files.is_intact(Path(directory) / files.table_name(unit.size, a, b),
                               (unit.size, a, b), check_data=check_data)
               for a, b in unit.classes)


def solve_unit(unit: plan.Unit, inputs: dict[tuple[int, int], CompressedTable],
               threads: int, on_step: Callable[[int, int], None] | None = None
               ) -> dict[tuple[int, int], npt.NDArray[np.uint16]]:
    """Solve one pair in memory, given the tables it needs (opened, files.open_table);
    returns each class's values."""
    sides = [_retro.ClassSide(unit.size, a, b, inputs.get((b, a + 1)))
             for a, b in unit.classes]
    longest = max(_retro.initialise(side, threads) for side in sides)
    mirror = {0: sides[-1], 1: sides[0]}
    plies = 1
    while plies - 1 <= longest:
        for i, side in enumerate(sides):
            longest = max(longest, _retro.propagate(side, mirror[i], plies, threads))
        if on_step is not None:
            on_step(plies, longest)
        plies += 1
    return {(side.mover_count, side.opponent_count): side.values() for side in sides}


def solve_in_folder(directory: Path, unit: plan.Unit, threads: int, *, recheck: bool = False,
                    on_step: Callable[[int, int], None] | None = None) -> bool:
    """Solve one unit from the tables in `directory` into it, under the unit's lock; False if
    the unit turned out to be built already (by another build, or a task that ran twice).
    Its files, if new, were checked when written; `recheck` checks them whole (files that
    were there before the build began were found damaged)."""
    with unit_lock(directory, unit):
        if is_built(directory, unit, check_data=recheck):
            return False
        inputs = {cls: files.open_table(directory / files.table_name(unit.size, *cls),
                                        (unit.size, *cls))
                  for cls in unit.needs}
        solved = solve_unit(unit, inputs, threads, on_step=on_step)
        inputs.clear()
        for (a, b), values in solved.items():
            files.write_table(directory, unit.size, a, b, values, threads)
    return True


@contextmanager
def unit_lock(directory: Path, unit: plan.Unit) -> Iterator[None]:
    """Hold the folder's lock on one unit (an advisory lock on a small file, released by the
    system if the process dies), so that two builds never solve the same unit at once."""
    path = directory / f".lock-{unit.size}-{unit.mover_count:02d}-{unit.opponent_count:02d}"
    with open(path, "a+b") as handle:
        if fcntl is not None:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            if fcntl is not None:
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
