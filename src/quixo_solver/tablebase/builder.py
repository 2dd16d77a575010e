"""Builds tables: solves the units of plan.units in order, one file per class.

A build can be stopped at any point (Ctrl-C, kill, power cut) and run again: every finished
class is a complete file (written under a temporary name, then renamed), the rerun skips the
units whose files are there and continues with the first one that is not. Each unit is
solved by the per-unit step (pair_solver.py), which the Dask builder (cluster.py) runs too.
"""
from __future__ import annotations

import os
import time

from solverkit.progress import Progress

from ..limits import check_threads
from . import plan
from .build_setup import BuildReport, InsufficientResourcesError, prepare
from .pair_solver import solve_in_folder

__all__ = ["BuildReport", "InsufficientResourcesError", "build"]


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
