"""Tablebase builds on a Dask cluster: one task per unit (class pair), data through the folder.

Each unit of pairs.units becomes one Dask task that reads its input tables from the shared
folder, solves the pair (pair_solver.solve_in_folder, the very step of the local build) and writes
its files atomically. A task's arguments include the futures of the units it needs, so Dask
starts it only once they are finished, and units with the same number of cubes run at once on
different workers. Only small summaries travel through the scheduler.

Memory: every worker declares, as the Dask resource MEMORY, the bytes it gives to units; a
task asks for its unit's planned memory (pairs.Unit.memory_bytes), so a worker never runs more
units at once than fit. A unit larger than every worker is refused before anything runs.

Faults: a worker that dies (killed, out of memory, preempted) loses at most the work of its
unit since the unit's last checkpoint (checkpoint.py, in the shared folder): its temporary
files are never read (files are renamed into place only when complete), its unit lock is
released by the system, and the scheduler runs the task again on another worker, which
resumes from the checkpoint. A build whose cluster goes away resumes the same way when run
again, as the local build does.

Dask is an optional extra (``pip install "quixo-solver[cluster]"``); nothing here is imported
by a local build.
"""
from __future__ import annotations

import importlib.util
import os
import time
from pathlib import Path
from typing import Any

from solverkit.arrayfile import remove_temporaries
from solverkit.progress import Progress

from ...limits import available_memory, check_threads, whole_number
from .. import pairs
from .prepare import BuildReport, InsufficientResourcesError, prepare
from .checkpoint import DEFAULT_SECONDS, BudgetSpent, Place
from ..errors import TablebaseError
from .pair_solver import SLICE_CHUNKS, solve_in_folder

MEMORY = "MEMORY"   # the worker resource: bytes of memory a worker gives to units at once
EXTRA = ('a build on a Dask cluster needs Dask: pip install "quixo-solver[cluster]" '
         "(dask[distributed] and dask-jobqueue)")


class MissingDaskError(TablebaseError):
    """--workers or --scheduler without the cluster extra installed."""


def _distributed() -> Any:
    try:
        import distributed
    except ImportError as error:
        raise MissingDaskError(EXTRA) from error
    return distributed


def local_client(workers: int, memory_per_worker: int | None = None) -> Any:
    """A Client of a new local cluster: `workers` processes of one thread each, each giving
    `memory_per_worker` bytes (default: this machine's available memory, shared) to units."""
    workers = whole_number("workers", workers, 1, 1024)
    distributed = _distributed()
    memory = memory_per_worker or available_memory() // workers
    cluster = distributed.LocalCluster(
        n_workers=workers, threads_per_worker=1, processes=True, resources={MEMORY: memory},
        memory_limit=0,            # units are admitted by MEMORY; Dask must not kill them
        dashboard_address=":0",    # a free port: two clusters may run at once
        silence_logs=40)
    return distributed.Client(cluster)


def remote_client(address: str) -> Any:
    """A Client of a running cluster (its scheduler's address)."""
    distributed = _distributed()
    try:
        return distributed.Client(address, timeout="20s")
    except (OSError, TimeoutError) as error:
        raise TablebaseError(f"cannot reach the Dask scheduler at {address}: {error}") from None


def dashboard_link(client: Any) -> str | None:
    """The address of the cluster's dashboard, if it serves one (Dask needs bokeh for it)."""
    link = getattr(client, "dashboard_link", None)
    return link if link and importlib.util.find_spec("bokeh") is not None else None


def worker_memory(client: Any) -> dict[str, int]:
    """The MEMORY each worker of the cluster declares; TablebaseError if one declares none."""
    workers = client.scheduler_info(n_workers=-1)["workers"]
    if not workers:
        raise TablebaseError("the Dask cluster has no workers")
    memory = {}
    for address, info in workers.items():
        declared = info.get("resources", {}).get(MEMORY)
        if declared is None:
            raise TablebaseError(
                f"Dask worker {address} does not say how much memory units may use: start "
                f'workers with --resources "{MEMORY}=BYTES"')
        memory[address] = int(declared)
    return memory


def solve_task(directory: str, unit: pairs.Unit, threads: int, recheck: bool,
               checkpoint_seconds: float, stop_at: float | None, slice_chunks: int,
               *finished_needs: object) -> tuple[pairs.Unit, bool | None, Place | None]:
    """One unit on a worker (the needed units' results only order the tasks): (unit, whether
    this task solved it (None: the budget ran out, its state saved), where it resumed from a
    saved state (None: it did not)). The unit saves
    its state in the shared folder every `checkpoint_seconds`, so that a task run again on
    another worker (this one died) resumes from it; `stop_at` is the budget's end as a wall
    clock time (time.time(): the workers' monotonic clocks are not the client's)."""
    deadline = None if stop_at is None else time.monotonic() + (stop_at - time.time())
    resumed: list[Place] = []
    try:
        solved: bool | None = solve_in_folder(Path(directory), unit, threads, recheck=recheck,
                                              checkpoint_seconds=checkpoint_seconds,
                                              deadline=deadline, slice_chunks=slice_chunks,
                                              on_resume=resumed.append)
    except BudgetSpent:
        solved = None
    return unit, solved, resumed[0] if resumed else None


def build_on(client: Any, directory: str | os.PathLike[str], size: int,
             max_blanks: int | None = None, *, jobs: int = 0, force: bool = False,
             progress: bool | None = None, deadline: float | None = None,
             checkpoint_seconds: float = DEFAULT_SECONDS,
             slice_chunks: int = SLICE_CHUNKS) -> BuildReport:
    """A build (builder.build) on the cluster of `client`. `jobs` is the threads of one unit (0: one;
    start a worker process per unit that should run at once); `deadline` (time.monotonic())
    ends it as builder.build's stop_after does."""
    distributed = _distributed()
    threads = check_threads(jobs, "jobs") or 1
    directory, report, todo, damaged = prepare(directory, size, max_blanks, force=force,
                                               memory_here=False)
    offered = worker_memory(client)
    largest = max(offered.values())
    too_large = [unit for unit in todo if unit.memory_bytes > largest]
    if too_large and not force:
        unit = max(too_large, key=lambda u: u.memory_bytes)
        raise InsufficientResourcesError(
            f"{unit} needs {unit.memory_bytes / 2**30:.2f} GiB and the largest Dask worker "
            f"offers {largest / 2**30:.2f} GiB (use --force to try anyway)")
    stop_at = None if deadline is None else time.time() + (deadline - time.monotonic())
    producer = {cls: unit for unit in todo for cls in unit.classes}
    futures: dict[pairs.Unit, Any] = {}
    for unit in todo:                 # plan order: a unit comes after the units it needs
        needs = list(dict.fromkeys(futures[producer[cls]] for cls in unit.needs
                                   if cls in producer))
        futures[unit] = client.submit(
            solve_task, str(directory), unit, threads, unit in damaged, checkpoint_seconds,
            stop_at, slice_chunks, *needs,
            key=f"quixo-{size}x{size}-{unit.mover_count}-{unit.opponent_count}-"
                f"{os.getpid()}-{time.monotonic_ns()}",
            resources={MEMORY: min(unit.memory_bytes, largest)}, pure=False)
    bar = Progress(sum(unit.entries for unit in todo), f"{size}x{size} tables on Dask",
                   enabled=progress)
    started = time.perf_counter()
    try:
        for future in distributed.as_completed(list(futures.values())):
            try:
                unit, solved, resumed = future.result()
            except distributed.KilledWorker as error:
                raise TablebaseError(f"Dask workers died again and again on a unit ({error}); "
                                     "the finished classes are kept") from None
            if resumed is not None:
                report.resumed[unit] = resumed
            if solved is None:
                report.left.append(unit)
                continue
            (report.solved if solved else report.skipped).append(unit)
            bar.advance(unit.entries, f"{unit} done")
    finally:
        bar.close()
        for future in futures.values():
            future.cancel()
    remove_temporaries(directory)     # what workers that died left behind
    finished = set(report.solved) | set(report.skipped)
    report.left = [unit for unit in todo if unit not in finished]
    report.solved.sort(key=todo.index)
    report.seconds = time.perf_counter() - started
    return report
