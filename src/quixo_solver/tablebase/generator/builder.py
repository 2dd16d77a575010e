"""Builds tables: solves the units of pairs.units, one file per class.

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

from functools import partial

from ...limits import check_seconds, check_threads
from . import plan
from .. import pairs
from .prepare import BuildReport, InsufficientResourcesError, prepare
from .progress import BuildProgress
from .checkpoint import DEFAULT_SECONDS, BudgetSpent
from .pair_solver import SLICE_CHUNKS, is_built, solve_in_folder

__all__ = ["BuildReport", "InsufficientResourcesError", "build"]


def build(directory: str | os.PathLike[str], size: int, max_blanks: int | None = None, *,
          jobs: int = 0, force: bool = False, progress: bool | None = None,
          client: object = None, stop_after: float | None = None,
          checkpoint_seconds: float = DEFAULT_SECONDS,
          slice_chunks: int = SLICE_CHUNKS) -> BuildReport:
    """Build every class of ``size`` with at most ``max_blanks`` blanks into ``directory``.
    ``jobs`` is the number of threads (0: every core; on a cluster, per unit); ``force``
    skips the resource check; ``progress`` None draws a bar only on a terminal; ``client``, a
    ``dask.distributed.Client``, runs the units on its cluster (tablebase.cluster).

    A long pair saves its state every ``checkpoint_seconds`` of solving (checkpoint.py), so
    that a build stopped at any moment loses at most that much work. With ``stop_after``
    (seconds), the build saves and ends once that much time has passed: the report's ``left``
    lists the units still to solve, and the same call resumes them. The report's `resumed`
    gives each unit resumed from a saved state and where. (``slice_chunks``: how much of a
    kernel call runs between two looks at the clock, pair_solver.SLICE_CHUNKS; smaller
    slices let tests stop a small pair anywhere.)

    Several builds may share a folder: each unit is solved under a lock file, and a build
    that finds a unit locked waits for it, then uses the finished files."""
    threads = check_threads(jobs, "jobs")
    started = time.perf_counter()
    deadline = None if stop_after is None else time.monotonic() + check_seconds(
        "stop_after", stop_after)
    checkpoint_seconds = check_seconds("checkpoint_seconds", checkpoint_seconds,
                                       zero_allowed=True)
    if client is not None:
        from . import cluster

        return cluster.build_on(client, directory, size, max_blanks, jobs=jobs, force=force,
                                progress=progress, deadline=deadline,
                                checkpoint_seconds=checkpoint_seconds,
                                slice_chunks=slice_chunks)
    directory, report, todo, damaged = prepare(directory, size, max_blanks, force=force,
                                               threads=threads)
    bar = BuildProgress(todo, f"{size}x{size} tables", enabled=progress)

    def solve(unit: pairs.Unit, unit_threads: int) -> bool:
        alone = unit_threads == threads      # (the bar is drawn from one unit at a time)
        if alone:
            bar.start(unit)
        return solve_in_folder(directory, unit, unit_threads, recheck=unit in damaged,
                               on_step=partial(bar.step, unit) if alone else None,
                               checkpoint_seconds=checkpoint_seconds, deadline=deadline,
                               slice_chunks=slice_chunks,
                               on_resume=partial(report.resumed.__setitem__, unit))

    try:
        with ThreadPoolExecutor(max_workers=threads) as pool:
            for unit, future in _schedule(pool, todo, threads, solve):
                try:
                    solved = future.result()
                except BudgetSpent:
                    break           # the units still running save their state and stop too
                (report.solved if solved else report.skipped).append(unit)
                bar.finish(unit, solved)
    finally:
        bar.close()
    done = set(report.solved) | set(report.skipped)
    for unit in todo:           # after a stop: what the units still running then did
        if unit not in done:
            (report.solved if is_built(directory, unit, check_data=False)
             else report.left).append(unit)
    report.solved.sort(key=todo.index)
    report.seconds = time.perf_counter() - started
    return report


def _schedule(pool: ThreadPoolExecutor, todo: list[pairs.Unit], threads: int,
              solve: Callable[[pairs.Unit, int], bool]
              ) -> Iterator[tuple[pairs.Unit, Future[bool]]]:
    """Run the units on `pool` (see the module's notes) and yield each (unit, future) as it
    finishes. A unit that fails stops the schedule: the ones not started are never run."""
    producer = {cls: unit for unit in todo for cls in unit.classes}
    waiting, done = list(todo), set[pairs.Unit]()
    running: dict[Future[bool], pairs.Unit] = {}
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
