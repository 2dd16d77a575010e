"""What a build starts with, locally or on a cluster: the folder, the units left to solve,
and a check that the machine (or the cluster) has the memory and disk they need."""
from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from solverkit.arrayfile import remove_temporaries

from ...rules.geometry import check_size
from ...limits import available_memory, whole_number
from ..format import files
from . import plan
from .. import pairs
from .checkpoint import Place
from .checkpoint import path_of as checkpoint_path
from ..errors import TablebaseError
from .pair_solver import is_built


class InsufficientResourcesError(TablebaseError):
    """The machine has less memory or disk than the build needs."""


@dataclass
class BuildReport:
    size: int
    directory: Path
    solved: list[pairs.Unit] = field(default_factory=list)
    skipped: list[pairs.Unit] = field(default_factory=list)
    seconds: float = 0.0
    # units not finished when the time budget ran out (their state saved): run again
    left: list[pairs.Unit] = field(default_factory=list)
    # units resumed from a saved state (checkpoint.py), and where their solve stood
    resumed: dict[pairs.Unit, Place] = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        return not self.left


def check_resources(directory: Path, todo: list[pairs.Unit], *, threads: int = 1,
                    memory_here: bool = True) -> tuple[int, int]:
    """(memory, disk) the remaining units need, built on `threads` threads;
    InsufficientResourcesError if the folder's disk lacks room, or with `memory_here` this
    machine lacks memory (a cluster build checks its workers' instead)."""
    memory, disk = plan.memory_bytes(todo, threads), plan.disk_bytes(todo)
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


def prepare(directory: str | os.PathLike[str], size: int, max_blanks: int | None, *,
            force: bool, threads: int = 1, memory_here: bool = True
            ) -> tuple[Path, BuildReport, list[pairs.Unit], set[pairs.Unit]]:
    """What a build (in this process or on a cluster) starts with: the folder, cleared of killed
    writers' temporary files and of the saved states of units already built; the report listing
    the units already built; the units to solve, in order; and those of them whose files are
    there but damaged. Refuses a build that lacks memory (with `memory_here`, on this machine)
    or disk, unless `force`, and a folder holding tables of an older format
    (files.OldFormatError: convert them first)."""
    directory = files.folder_to_write(directory)
    size = check_size(size)
    if max_blanks is not None:
        max_blanks = whole_number("max_blanks", max_blanks, 0, size * size)
    remove_temporaries(directory)
    units = pairs.units(size, max_blanks)
    report = BuildReport(size, directory)
    todo = [unit for unit in units if not is_built(directory, unit)]
    report.skipped = [unit for unit in units if unit not in todo]
    for unit in report.skipped:
        # a build killed after writing a unit's files, before removing its saved state
        checkpoint_path(directory, unit).unlink(missing_ok=True)
    damaged = {unit for unit in todo if any(
        (directory / files.table_name(size, *cls)).exists() for cls in unit.classes)}
    if not force:
        check_resources(directory, todo, threads=threads, memory_here=memory_here)
    return directory, report, todo, damaged
