"""Builds tables: solves the units of plan.units in order, one file per class.

A build can be stopped at any point (Ctrl-C, kill, power cut) and run again: every finished
class is a complete file (written under a temporary name, then renamed), the rerun skips the
units whose files are there and continues with the first one that is not.
"""
from __future__ import annotations

import os
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .. import _retro
from ..progress import Progress
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


def available_memory() -> int:
    try:
        with open("/proc/meminfo") as handle:
            for line in handle:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")


def is_built(directory: Path, unit: plan.Unit) -> bool:
    for a, b in unit.classes:
        path = Path(directory) / files.table_name(unit.size, a, b)
        if not path.exists():
            return False
        try:
            files.read_header(path)
        except TablebaseError:
            return False
    return True


def check_resources(directory: Path, todo: list[plan.Unit]) -> tuple[int, int]:
    """(memory, disk) the remaining units need; InsufficientResourcesError if the machine
    lacks either."""
    memory, disk = plan.memory_bytes(todo), plan.disk_bytes(todo)
    free_memory = available_memory()
    free_disk = shutil.disk_usage(directory).free
    if memory > free_memory:
        raise InsufficientResourcesError(
            f"this build needs {memory / 2**30:.1f} GiB of memory and {free_memory / 2**30:.1f}"
            " GiB are available (use --force to try anyway)")
    if disk > free_disk:
        raise InsufficientResourcesError(
            f"this build needs up to {disk / 2**30:.1f} GiB of disk in {directory} and "
            f"{free_disk / 2**30:.1f} GiB are free (use --force to try anyway)")
    return memory, disk


def solve_unit(unit: plan.Unit, inputs: dict[tuple[int, int], np.ndarray], threads: int,
               on_step=None) -> dict[tuple[int, int], np.ndarray]:
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


def build(directory, size: int, max_blanks: int | None = None, *, jobs: int = 0,
          force: bool = False, progress: bool | None = None) -> BuildReport:
    """Build every class of ``size`` with at most ``max_blanks`` blanks into ``directory``.
    ``jobs`` is the number of threads (0: every core); ``force`` skips the resource check;
    ``progress`` None draws a bar only on a terminal."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    files.remove_partial_files(directory)
    threads = jobs if jobs > 0 else (os.cpu_count() or 1)
    units = plan.units(size, max_blanks)
    report = BuildReport(size, directory)
    todo = [unit for unit in units if not is_built(directory, unit)]
    report.skipped = [unit for unit in units if unit not in todo]
    if not force:
        check_resources(directory, todo)
    bar = Progress(sum(unit.positions for unit in todo), f"{size}x{size} tables",
                   enabled=progress)
    started = time.perf_counter()
    try:
        for unit in todo:
            inputs = {cls: files.load_values(directory / files.table_name(size, *cls))
                      for cls in unit.needs}
            bar.advance(0, f"{unit}")

            def show_ply(plies: int, longest: int, unit=unit) -> None:
                bar.advance(0, f"{unit} ply {plies}/{longest}")

            solved = solve_unit(unit, inputs, threads, on_step=show_ply)
            for (a, b), values in solved.items():
                files.write_table(directory, size, a, b, values)
            report.solved.append(unit)
            bar.advance(unit.positions, f"{unit} done")
    finally:
        bar.close()
    report.seconds = time.perf_counter() - started
    return report
