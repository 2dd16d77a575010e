"""Builds tables: solves the units of plan.units, one file per class.

A build can be stopped at any point (Ctrl-C, kill, power cut) and run again: every finished
class is a complete file (written under a temporary name, then renamed), the rerun skips the
units whose files are there and continues with those that are not. Each unit is solved by
the per-unit step (pair_solver.py), which the Dask builder (cluster.py) runs too.

Schedule. A large unit runs alone, on every thread: its kernels split it into chunks over
the cores. Small units (plan.runs_side_by_side) run side by side, one thread each, as many
at once as there are threads: a small unit has too few chunks to keep the cores busy, and
much of its time goes to Python (opening, choosing a model, writing), which the other units'
kernels (they release the GIL) overlap. A unit starts once the units it needs are done, as
on a cluster; the files do not depend on the schedule.
"""
from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait

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
    directory, report, todo, damaged = prepare(directory, size, max_blanks, force=force,
                                               threads=threads)
    bar = Progress(sum(unit.entries for unit in todo), f"{size}x{size} tables",
                   enabled=progress)

    def solve(unit: plan.Unit, unit_threads: int) -> bool:
        def show_ply(plies: int, longest: int) -> None:
            bar.advance(0, f"{unit} ply {plies}/{longest}")

        alone = unit_threads == threads      # (the bar is drawn from one unit at a time)
        if alone:
            bar.advance(0, f"{unit}")
        return solve_in_folder(directory, unit, unit_threads, recheck=unit in damaged,
                               on_step=show_ply if alone else None)

    started = time.perf_counter()
    try:
        with ThreadPoolExecutor(max_workers=threads) as pool:
            for unit, future in _schedule(pool, todo, threads, solve):
                if future.result():
                    report.solved.append(unit)
                    bar.advance(unit.entries, f"{unit} done")
                else:
                    report.skipped.append(unit)
                    bar.advance(unit.entries, f"{unit} built by another process")
    finally:
        bar.close()
    report.solved.sort(key=todo.index)
    report.seconds = time.perf_counter() - started
    return report


def _schedule(pool: ThreadPoolExecutor, todo: list[plan.Unit], threads: int,
              solve: Callable[[plan.Unit, int], bool]
              ) -> Iterator[tuple[plan.Unit, Future[bool]]]:
    """Run the units on `pool` (see the module's notes) and yield each (unit, future) as it
    finishes. A unit that fails stops the schedule: the ones not started are never run."""
    producer = {cls: unit for unit in todo for cls in unit.classes}
    waiting, done = list(todo), set[plan.Unit]()
    running: dict[Future[bool], plan.Unit] = {}
    try:
        while waiting or running:
            for unit in [u for u in waiting if all(
                    producer[cls] in done for cls in u.needs if cls in producer)]:
                alone = threads == 1 or not plan.runs_side_by_side(unit)
                if len(running) == threads or (running and alone) or any(
                        not plan.runs_side_by_side(u) for u in running.values()):
                    break
                waiting.remove(unit)
                running[pool.submit(solve, unit, threads if alone else 1)] = unit
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                unit = running.pop(future)
                done.add(unit)
                yield unit, future
    finally:
        for future in running:
            future.cancel()
