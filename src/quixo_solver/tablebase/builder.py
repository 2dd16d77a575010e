"""Builds tables: solves the units of plan.units in order, one file per class.

A build can be stopped at any point (Ctrl-C, kill, power cut) and run again: every finished
class is a complete file (written under a temporary name, then renamed), the rerun skips the
units whose files are there and continues with the first one that is not.
"""
from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

fcntl: ModuleType | None
try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: builds sharing a folder are not coordinated
    fcntl = None

import numpy as np
import numpy.typing as npt
from solverkit.arrayfile import remove_temporaries
from solverkit.progress import Progress

from . import _retro
from ..geometry import check_size
from ..limits import available_memory, check_threads, whole_number
from . import files, plan
from .files import TablebaseError


class InsufficientResourcesError(TablebaseError):
    """The machine has less memory or disk than the build needs."""


@dataclass
class BuildReport:
    size: int
    directory: Path
    solved: list[plan.Unit] = field(default_factory=list)
    skipped: list[plan.Unit] = field(default_factory=list)
    seconds: float = 0.0


def is_built(directory: Path, unit: plan.Unit, *, check_data: bool = True) -> bool:
    """Whether every table of the unit is there and complete, and with `check_data`
    undamaged (every block checked: a damaged file is solved again)."""
    return all(files.is_intact(Path(directory) / files.table_name(unit.size, a, b),
                               (unit.size, a, b), check_data=check_data)
               for a, b in unit.classes)


def check_resources(directory: Path, todo: list[plan.Unit], *,
                    memory_here: bool = True) -> tuple[int, int]:
    """(memory, disk) the remaining units need; InsufficientResourcesError if the folder's
    disk lacks room, or with `memory_here` this machine lacks memory (a cluster build checks
    its workers' instead)."""
    memory, disk = plan.memory_bytes(todo), plan.disk_bytes(todo)
    free_memory = available_memory()
    free_disk = shutil.disk_usage(directory).free
    if memory_here and memory > free_memory:
        raise InsufficientResourcesError(
            f"this build needs {memory / 2**30:.1f} GiB of memory and {free_memory / 2**30:.1f}"
            " GiB are available (use --force to try anyway)")
    if disk > free_disk:
        raise InsufficientResourcesError(
            f"this build needs up to {disk / 2**30:.1f} GiB of disk in {directory} and "
            f"{free_disk / 2**30:.1f} GiB are free (use --force to try anyway)")
    return memory, disk


def solve_unit(unit: plan.Unit, inputs: dict[tuple[int, int], npt.NDArray[np.uint16]],
               threads: int, on_step: Callable[[int, int], None] | None = None
               ) -> dict[tuple[int, int], npt.NDArray[np.uint16]]:
    """Solve one pair in memory, given the tables it needs; returns each class's values."""
    sides = [_retro.ClassSide(unit.size, a, b,
                              inputs.get((b, a + 1), np.zeros(0, dtype=np.uint16)))
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
        inputs = {cls: files.load_values(directory / files.table_name(unit.size, *cls),
                                         (unit.size, *cls))
                  for cls in unit.needs}
        solved = solve_unit(unit, inputs, threads, on_step=on_step)
        for (a, b), values in solved.items():
            files.write_table(directory, unit.size, a, b, values)
    return True


def prepare(directory: str | os.PathLike[str], size: int, max_blanks: int | None, *,
            force: bool, memory_here: bool = True
            ) -> tuple[Path, BuildReport, list[plan.Unit], set[plan.Unit]]:
    """What a build (in this process or on a cluster) starts with: the folder, cleared of
    killed writers' temporary files; the report listing the units already built; the units
    to solve, in order; and those of them whose files are there but damaged. Refuses a build
    that lacks memory (with `memory_here`, on this machine) or disk, unless `force`."""
    directory = files.folder_to_write(directory)
    size = check_size(size)
    if max_blanks is not None:
        max_blanks = whole_number("max_blanks", max_blanks, 0, size * size)
    remove_temporaries(directory)
    units = plan.units(size, max_blanks)
    report = BuildReport(size, directory)
    todo = [unit for unit in units if not is_built(directory, unit)]
    report.skipped = [unit for unit in units if unit not in todo]
    damaged = {unit for unit in todo if any(
        (directory / files.table_name(size, *cls)).exists() for cls in unit.classes)}
    if not force:
        check_resources(directory, todo, memory_here=memory_here)
    return directory, report, todo, damaged


def build(directory: str | os.PathLike[str], size: int, max_blanks: int | None = None, *,
          jobs: int = 0, force: bool = False, progress: bool | None = None,
          client: object = None) -> BuildReport:
    """Build every class of ``size`` with at most ``max_blanks`` blanks into ``directory``.
    ``jobs`` is the number of threads (0: every core; on a cluster, per unit); ``force``
    skips the resource check; ``progress`` None draws a bar only on a terminal; ``client``, a
    ``dask.distributed.Client``, runs the units on its cluster (tablebase.cluster).

    Several builds may share a folder: each unit is solved under a lock file, and a build
    that finds a unit locked waits for it, then uses the finished files."""
    threads = check_threads(jobs, "jobs")
    if client is not None:
        from . import cluster

        return cluster.build_on(client, directory, size, max_blanks, jobs=jobs, force=force,
                                progress=progress)
    directory, report, todo, damaged = prepare(directory, size, max_blanks, force=force)
    bar = Progress(sum(unit.entries for unit in todo), f"{size}x{size} tables",
                   enabled=progress)
    started = time.perf_counter()
    try:
        for unit in todo:
            bar.advance(0, f"{unit}")

            def show_ply(plies: int, longest: int, unit: plan.Unit = unit) -> None:
                bar.advance(0, f"{unit} ply {plies}/{longest}")

            if solve_in_folder(directory, unit, threads, recheck=unit in damaged,
                               on_step=show_ply):
                report.solved.append(unit)
                bar.advance(unit.entries, f"{unit} done")
            else:
                report.skipped.append(unit)
                bar.advance(unit.entries, f"{unit} built by another process")
    finally:
        bar.close()
    report.seconds = time.perf_counter() - started
    return report


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
