"""What a build will take: every unit's cost, the critical path, the wall time on W workers.

A unit's time is its entries over a throughput (entries per second per core), measured by a
short calibration build (`calibrate`) or given, times what an entry of the unit costs against
an entry of the calibration (`relative_cost`). That is measured for every 5x5 pair of a
million entries or more: the whole-game build's CPU seconds per entry, against the calibration
of its machine (pair-costs-5x5.json, benchmarks/quixo/tablebase/pair_costs.py), since an
entry's cost follows the length of its class's games, which neither its size nor its blanks
tell. Other units take the slowdown of large units (`size_slowdown`): the calibration's pairs
are small, and an entry of a large pair costs more.
The wall time on W workers, each running one unit at a time on `cores` cores, is that of a
list schedule: units in plan order, each started as soon as the units it needs are finished
and a worker whose memory fits it is free, which is what the Dask scheduler does with the tasks
of tablebase.cluster. The critical path is the longest chain of units that need one another: no
number of workers does better.
"""
from __future__ import annotations

import functools
import heapq
import json
import math
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from . import plan
from .. import pairs

CALIBRATION = (5, 1)     # the calibration build: the 5x5 classes with at most 1 blank

# An entry of a pair of 2**KNEE_LOG2 entries or fewer costs what the calibration measured; each
# doubling of a pair beyond that adds SLOWDOWN_PER_DOUBLING of it (its arrays leave the caches, and
# larger pairs have longer games: more passes). Fitted to the CPU seconds of the six 5x5 pairs of 7
# blanks of 1e8-3.9e9 entries that the whole-game build of 2026-12-05 solved unstopped, against the
# calibration on both cores of the same machine. It predicted the CPU seconds of every pair of 1e9
# entries or more of 4 to 6 and 8 to 9 blanks, which it was not fitted to, within 25%. On another
# machine, with its own calibration, over the whole game built there: 20 of the 26 pairs of 1e9
# entries or more it was not fitted to within 25%, the 6 others 27-73% under (at 9 to 12 blanks),
# and the whole build 24% under, each level of 4 to 8 blanks within 8% but each of 9 blanks or more
# under, by 26% (9), 56% (11), 91% (15). An entry's cost follows the length of its class's games
# (every pass reads each chunk that holds a game at least that long), which grows with the blanks
# and which a pair's size does not tell. A term in the blanks, fitted to the large pairs of odd
# blank counts, did no better on those of even counts (11 of 14 within 25%, as now), and fitted to
# the even, 15 of 17 odd (now 14): not worth a third constant
# (benchmarks/quixo/tablebase/plan_from_journal.py, benchmarks/results/plan-from-journal.json).
# Hence the measured costs of relative_cost, which this slowdown only stands in for.
KNEE_LOG2 = 25.8
SLOWDOWN_PER_DOUBLING = 0.30


def size_slowdown(entries: int) -> float:
    """How many times the calibration's cost an entry of a unit of `entries` entries takes."""
    return 1.0 + SLOWDOWN_PER_DOUBLING * max(0.0, math.log2(max(entries, 1)) - KNEE_LOG2)


MEASURED_COSTS = {5: Path(__file__).with_name("pair-costs-5x5.json")}


@functools.cache
def measured_costs(size: int) -> dict[tuple[int, int], float]:
    """The measured relative cost of each pair of the board that a whole-game build solved
    (none for a board without such a record)."""
    path = MEASURED_COSTS.get(size)
    if path is None:
        return {}
    costs = json.loads(path.read_text())["costs"]
    return {(int(a), int(b)): float(cost) for (a, b), cost in
            ((pair.split(","), cost) for pair, cost in costs.items())}


def relative_cost(unit: pairs.Unit) -> float:
    """What an entry of the unit costs, in entries of the calibration: measured for the pair
    where a whole-game build solved it, else the size slowdown."""
    measured = measured_costs(unit.size).get((unit.mover_count, unit.opponent_count))
    return measured if measured is not None else size_slowdown(unit.entries)


def unit_seconds(unit: pairs.Unit, throughput: float, cores: int = 1) -> float:
    """The forecast time of one unit on `cores` cores at `throughput` (per core, as measured
    by the calibration)."""
    return unit.entries * relative_cost(unit) / (throughput * cores)


@dataclass(frozen=True)
class Calibration:
    size: int
    max_blanks: int
    entries: int
    seconds: float
    threads: int

    @property
    def throughput(self) -> float:
        """Entries solved per second per core."""
        return self.entries / self.seconds / self.threads


def calibrate(threads: int = 1) -> Calibration:
    """Time a small build from nothing, in a temporary folder, on `threads` threads."""
    from .builder import build

    size, blanks = CALIBRATION
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        report = build(folder, size, blanks, jobs=threads, progress=False)
        seconds = time.perf_counter() - started
    return Calibration(size, blanks, sum(unit.entries for unit in report.solved), seconds,
                       threads)


@dataclass(frozen=True)
class Forecast:
    units: list[pairs.Unit]
    seconds: dict[pairs.Unit, float]      # each unit's time on one worker
    critical_path: list[pairs.Unit]
    critical_seconds: float
    wall_seconds: float                  # on the workers given
    workers: int
    cores: int
    memory_per_worker: int

    @property
    def disk_bytes(self) -> int:
        return plan.disk_bytes(self.units)

    @property
    def largest_memory(self) -> int:
        return plan.memory_bytes(self.units)


def producers(units: list[pairs.Unit]) -> dict[tuple[int, int], pairs.Unit]:
    return {cls: unit for unit in units for cls in unit.classes}


def needed_units(unit: pairs.Unit, made_by: dict[tuple[int, int], pairs.Unit]) -> list[pairs.Unit]:
    return list(dict.fromkeys(made_by[cls] for cls in unit.needs if cls in made_by))


def forecast(units: list[pairs.Unit], throughput: float, *, workers: int = 1, cores: int = 1,
             memory_per_worker: int | None = None) -> Forecast:
    """The costs of `units` (plan order) at `throughput` entries per second per core (that of
    small units: unit_seconds), on `workers` workers of `cores` cores and `memory_per_worker`
    bytes (None: enough)."""
    if throughput <= 0 or workers < 1 or cores < 1:
        raise ValueError("a forecast needs a positive throughput, workers and cores")
    seconds = {unit: unit_seconds(unit, throughput, cores) for unit in units}
    made_by = producers(units)
    # critical path: the longest chain, in plan order (a unit's needs come before it)
    finish: dict[pairs.Unit, float] = {}
    before: dict[pairs.Unit, pairs.Unit | None] = {}
    for unit in units:
        needs = needed_units(unit, made_by)
        last = max(needs, key=lambda u: finish[u], default=None)
        before[unit] = last
        finish[unit] = (finish[last] if last else 0.0) + seconds[unit]
    path, tail = [], max(units, key=lambda u: finish[u], default=None)
    while tail is not None:
        path.append(tail)
        tail = before[tail]
    memory = memory_per_worker if memory_per_worker is not None else plan.memory_bytes(units)
    return Forecast(units, seconds, path[::-1], max(finish.values(), default=0.0),
                    _list_schedule(units, seconds, made_by, workers, memory), workers, cores,
                    memory)


def _list_schedule(units: list[pairs.Unit], seconds: dict[pairs.Unit, float],
                   made_by: dict[tuple[int, int], pairs.Unit], workers: int,
                   memory: int) -> float:
    """Wall time of running the units on `workers` identical workers, one unit at a time
    each, a unit starting once its needs are done and a worker is free (plan order breaks
    ties). A unit larger than a worker's memory cannot run: ValueError."""
    too_large = [unit for unit in units if unit.memory_bytes > memory]
    if too_large:
        raise ValueError(f"{too_large[0]} needs {too_large[0].memory_bytes / 2**30:.2f} GiB, "
                         f"more than a worker's {memory / 2**30:.2f} GiB")
    free_at = [0.0] * workers            # a heap of the times the workers become free
    done: dict[pairs.Unit, float] = {}
    for unit in units:
        ready = max((done[u] for u in needed_units(unit, made_by)), default=0.0)
        worker_free = heapq.heappop(free_at)
        done[unit] = max(ready, worker_free) + seconds[unit]
        heapq.heappush(free_at, done[unit])
    return max(done.values(), default=0.0)
