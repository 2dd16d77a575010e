"""The per-unit step of every build: solve one class pair in a folder.

Both builders run it, unit after unit: the local one (builder.py) in this process, the Dask
one (cluster.py) as one task per unit on its workers. A unit reads the compressed tables of
the classes it needs (where taking a blank leads) from the folder, mapped, never decompressed
whole; solves its pair in memory (two bytes per entry, _retro.pyx); and writes each class's
compressed file atomically. Several processes may share a folder: a unit is solved under a lock
file, and a process that finds a unit built (by another one) leaves it.
"""
from __future__ import annotations

import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from types import ModuleType

fcntl: ModuleType | None
try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: builds sharing a folder are not coordinated
    fcntl = None

import numpy as np
import numpy.typing as npt

from . import _retro, journal
from .. import pairs
from ..format import files
from ..format._compressed_table import CompressedTable
from .checkpoint import (DEFAULT_SECONDS, START, BudgetSpent, CheckpointError, Checkpoints,
                         Place, Spent, Stopwatch, inputs_identity)
from .checkpoint import path_of as checkpoint_path


def is_built(directory: Path, unit: pairs.Unit, *, check_data: bool = True) -> bool:
    """Whether every table of the unit is there and complete, and with `check_data`
    undamaged (every block checked: a damaged file is solved again). A file of an older
    format raises files.OldFormatError (it is converted, not rebuilt)."""
    return all(files.is_intact(Path(directory) / files.table_name(unit.size, a, b),
                               (unit.size, a, b), check_data=check_data)
               for a, b in unit.classes)


# Chunks of one kernel call run between two looks at the clock (checkpoints, the time
# budget, progress): 2**26 entries, about half a minute of the heaviest pass of a large pair.
SLICE_CHUNKS = 1 << 14


def solve_unit(unit: pairs.Unit, inputs: dict[tuple[int, int], CompressedTable],
               threads: int, on_step: Callable[[Place, int, int], None] | None = None, *,
               checkpoints: Checkpoints | None = None, slice_chunks: int = SLICE_CHUNKS,
               on_resume: Callable[[Place], None] | None = None
               ) -> dict[tuple[int, int], npt.NDArray[np.uint16]]:
    """Solve one pair in memory, given the tables it needs (opened, files.open_table);
    returns each class's values. The kernel calls run `slice_chunks` chunks at a time; after
    each slice `on_step` hears where the solve stands, the most plies so far and the chunks of
    the kernel call under way, and
    `checkpoints` may save the state (or stop the solve: checkpoint.BudgetSpent). A solve
    with `checkpoints` resumes from the state they hold (and tells `on_resume` where)."""
    def new_sides() -> list[_retro.ClassSide]:
        return [_retro.ClassSide(unit.size, a, b, inputs.get((b, a + 1)))
                for a, b in unit.classes]

    sides, place, longest = new_sides(), START, -1
    if checkpoints is not None:
        try:
            restored = checkpoints.restore(sides)
        except CheckpointError as error:
            warnings.warn(f"{error}; solving {unit} from its start", stacklevel=2)
            checkpoints.discard()
            sides, restored = new_sides(), None
        if restored is not None:
            place, longest = restored
            if on_resume is not None:
                on_resume(place)
    mirror = {0: sides[-1], 1: sides[0]}

    def run(kernel: str, side: int, plies: int, chunks: int,
            call: Callable[[int, int], int]) -> None:
        """One kernel call, slice by slice, from where the solve stands."""
        nonlocal place, longest
        here = Place.of(kernel, side, plies, 0)
        if here.call() < place.call():
            return                                   # done before the checkpoint
        first = place.chunk if here.call() == place.call() else 0
        for start in range(first, chunks, slice_chunks):
            stop = min(start + slice_chunks, chunks)
            longest = max(longest, call(start, stop))
            place = Place.of(kernel, side, plies, stop)
            if checkpoints is not None:
                checkpoints.reached(sides, place, longest)
            if on_step is not None:
                on_step(place, longest, chunks)

    for kernel, chunks_of in (("mark", "chunks"), ("pull", "external_chunks"),
                              ("settle", "chunks")):
        for i, side in enumerate(sides):      # (each kernel on both classes, as Place orders)
            run(kernel, i, 0, getattr(side, chunks_of),
                partial(getattr(_retro, kernel), side, threads))
    plies = _retro.FIRST_PASS
    while True:
        # the entries left for `resolve` settle before any pass could read them: at
        # LAST_RESOLVE_PASS, or where the passes would end before it (_retro.pyx's notes)
        if plies == _retro.LAST_RESOLVE_PASS or (plies - 1 > longest
                                                 and plies < _retro.LAST_RESOLVE_PASS):
            for i, side in enumerate(sides):
                run("resolve", i, plies, side.chunks, partial(_retro.resolve, side, threads))
        if plies - 1 > longest:
            break
        for i, side in enumerate(sides):
            run("propagate", i, plies, side.chunks,
                partial(_retro.propagate, side, mirror[i], plies, threads))
        plies += 1
    return {(side.mover_count, side.opponent_count): side.values() for side in sides}


def solve_in_folder(directory: Path, unit: pairs.Unit, threads: int, *, recheck: bool = False,
                    on_step: Callable[[Place, int, int], None] | None = None,
                    checkpoint_seconds: float | None = DEFAULT_SECONDS,
                    deadline: float | None = None, slice_chunks: int = SLICE_CHUNKS,
                    on_resume: Callable[[Place], None] | None = None) -> bool:
    """Solve one unit from the tables in `directory` into it, under the unit's lock; False if
    the unit turned out to be built already (by another build, or a task that ran twice).
    Its files, if new, were checked when written; `recheck` checks them whole (files that
    were there before the build began were found damaged). The solve saves its state in the
    folder every `checkpoint_seconds` (None: never) and resumes from a saved state; at the
    `deadline` (time.monotonic()) it saves and raises checkpoint.BudgetSpent
    (`slice_chunks`, `on_step`, `on_resume`: solve_unit's)."""
    with unit_lock(directory, unit):
        saved_state = checkpoint_path(directory, unit)
        if is_built(directory, unit, check_data=recheck):
            saved_state.unlink(missing_ok=True)
            return False
        if deadline is not None and time.monotonic() >= deadline:
            raise BudgetSpent(f"the time budget ran out before {unit}")
        stopwatch = Stopwatch()
        journal.reset_peak_memory()
        inputs = {cls: files.open_table(directory / files.table_name(unit.size, *cls),
                                        (unit.size, *cls))
                  for cls in unit.needs}
        checkpoints = None
        if checkpoint_seconds is not None:
            checkpoints = Checkpoints(saved_state, unit, inputs_identity(inputs),
                                      every=checkpoint_seconds, deadline=deadline)
        solved = solve_unit(unit, inputs, threads, on_step=on_step, checkpoints=checkpoints,
                            slice_chunks=slice_chunks, on_resume=on_resume)
        inputs.clear()
        for (a, b), values in solved.items():
            files.write_table(directory, unit.size, a, b, values, threads)
        saved_state.unlink(missing_ok=True)
        journal.record(directory, unit, threads=threads,
                       spent=stopwatch.spent() + (checkpoints.earlier if checkpoints
                                                  else Spent()),
                       resumed=checkpoints is not None and checkpoints.resumed,
                       peak_memory=journal.peak_memory_bytes())
    return True


@contextmanager
def unit_lock(directory: Path, unit: pairs.Unit) -> Iterator[None]:
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
