"""The tablebase service under load (issue 39's goals), on a folder of 5x5 tables.

    python benchmarks/explorer/tablebase_service_load.py --dir TABLES [--seconds 60]
          [--requests 100000] [--processes N] [--evict]
          [--out benchmarks/results/tablebase-service-load.json]

Starts `quixo serve --dir TABLES --check-tables [--processes N]` (without --processes, the
server's default: one process per core; the number served is recorded) on a free loopback
port (its rate limit raised so that the load from this one client goes through, its access
log written to a file: both stay on and cost what they cost) and waits for the check of the
tables (the seconds from the start are recorded: a server of several processes checks them
before it answers), then asks `GET /api/v1/quixo/analyze?position=P` (gzip accepted) with
wrk (wrk_paths.lua, beside this script) for random positions drawn from every built 5x5 class:
a class chosen uniformly, then a uniformly random arrangement of its cubes that is not a
finished game.
Every request of the whole run is a position not asked before (more than the server's answer
cache holds), so every answer is probed and built afresh; `--evict` first drops the table files
from the page cache (posix_fadvise DONTNEED), as cold as the machine allows. Three runs, one
after the other on the same server:
- `warm-up`: 10 s at 32 connections (the tables opened, the first pages read);
- `rate`: --seconds at 32 connections. Goal: >= 1,000 analyses/s with p99 < 50 ms;
- `many`: --requests requests from 200 connections (wrk stops there; its requests a second
  count the time it then waits for the end of its duration). Goal: no 5xx.
Meanwhile the server's memory is read every second, summed over its processes with each page
counted once (/proc/PID/smaps_rollup: Pss, and its parts Pss_Anon with Pss_Shmem, the heap and
the memory the processes share, and Pss_File, the mapped tables). Goal: flat after the first
minute (the heap's growth from then on, and its slope, are reported).

Run it with the machine otherwise quiet, and read the figures of one run.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import subprocess
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

from explorer_load import report, start_server, stop_server

GOAL_RATE, GOAL_P99_MS, GOAL_REQUESTS = 1000, 50, 100_000
SCRIPT = Path(__file__).resolve().parent / "wrk_paths.lua"
TABLE_NAME = re.compile(r"quixo5x5-(\d\d)-(\d\d)\.qtb")


def built_classes(directory: Path) -> list[tuple[int, int]]:
    return sorted((int(found.group(1)), int(found.group(2))) for name in os.listdir(directory)
                  if (found := TABLE_NAME.fullmatch(name)))


def random_positions(classes: list[tuple[int, int]], count: int, seed: int) -> list[str]:
    """`count` distinct unfinished positions: a built class chosen uniformly, then a random
    arrangement of its cubes and a random player to move (classes with no unfinished
    position in 200 tries are left out)."""
    from quixo_solver.rules._backend import rules
    from quixo_solver.rules.notation import format_position

    rng = random.Random(seed)
    found: dict[str, None] = {}
    barren: set[tuple[int, int]] = set()
    misses: dict[tuple[int, int], int] = {}
    fertile: set[tuple[int, int]] = set()
    while len(found) < count and len(barren) < len(classes):
        mover_count, opponent_count = pair = rng.choice(classes)
        if pair in barren:
            continue
        cells = rng.sample(range(25), mover_count + opponent_count)
        mover = sum(1 << cell for cell in cells[:mover_count])
        opponent = sum(1 << cell for cell in cells[mover_count:])
        if rules.position_status(5, mover, opponent):
            misses[pair] = misses.get(pair, 0) + 1
            if misses[pair] >= 200 and pair not in fertile:
                barren.add(pair)
            continue
        fertile.add(pair)
        turn = rng.choice("XO")
        x_cubes, o_cubes = (mover, opponent) if turn == "X" else (opponent, mover)
        found[format_position(5, x_cubes, o_cubes, turn)] = None
    return list(found)


def evict(directory: Path) -> int:
    """Drop the table files of the folder from the page cache; the bytes dropped."""
    dropped = 0
    for name in os.listdir(directory):
        if name.endswith(".qtb"):
            with open(directory / name, "rb") as handle:
                os.posix_fadvise(handle.fileno(), 0, 0, os.POSIX_FADV_DONTNEED)
                dropped += os.fstat(handle.fileno()).st_size
    return dropped


def process_tree(pid: int) -> list[int]:
    """The process and its children (the server's processes)."""
    children = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if parent == pid:
                children.append(int(entry.name))
    return [pid, *children]


def proportional_memory(pid: int) -> dict[str, int]:
    """A process's share of its memory (kB): each page shared by k processes counts 1/k, so
    that the shares of a server's processes add up to what the server holds. (Without
    smaps_rollup, the whole resident set: shared pages counted in each process.)"""
    try:
        rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
        keys = {"VmRSS": "Pss", "RssAnon": "Pss_Anon", "RssShmem": "Pss_Shmem",
                "RssFile": "Pss_File"}
    except OSError:
        rollup = Path(f"/proc/{pid}/status").read_text()
        keys = {"VmRSS": "VmRSS", "RssAnon": "RssAnon", "RssShmem": "RssShmem",
                "RssFile": "RssFile"}
    found = {name: re.search(rf"^{key}:\s+(\d+) kB", rollup, re.M)
             for name, key in keys.items()}
    return {name: int(match.group(1)) if match else 0 for name, match in found.items()}


class MemorySampler(threading.Thread):
    """The server's memory every second (kB, summed over its processes: see
    proportional_memory): VmRSS, RssAnon (the heap, with RssShmem, the memory its processes
    share) and RssFile (the mapped tables)."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid = pid
        self.samples: list[dict[str, float]] = []
        self.started = time.monotonic()
        self.halt = threading.Event()

    def run(self) -> None:
        while not self.halt.wait(1.0):
            sample = {"t": round(time.monotonic() - self.started, 1), "processes": 0,
                      "VmRSS": 0, "RssAnon": 0, "RssFile": 0}
            for pid in process_tree(self.pid):
                try:
                    memory = proportional_memory(pid)
                except OSError:
                    continue
                sample["processes"] += 1
                sample["VmRSS"] += memory["VmRSS"]
                sample["RssAnon"] += memory["RssAnon"] + memory["RssShmem"]
                sample["RssFile"] += memory["RssFile"]
            if not sample["processes"]:
                return
            self.samples.append(sample)


def memory_summary(samples: list[dict[str, float]], after: float) -> dict[str, object]:
    """The memory at `after` seconds and at the end, and the heap's slope from then on."""
    later = [sample for sample in samples if sample["t"] >= after]
    if len(later) < 2:
        return {"note": "too short a run to tell"}
    times = [sample["t"] for sample in later]
    heap = [sample["RssAnon"] for sample in later]
    mean_t, mean_h = sum(times) / len(times), sum(heap) / len(heap)
    slope = sum((t - mean_t) * (h - mean_h) for t, h in zip(times, heap)) / max(
        1e-9, sum((t - mean_t) ** 2 for t in times))
    first, last = later[0], later[-1]
    return {"from_second": first["t"], "to_second": last["t"],
            "rss_mib_then": round(first["VmRSS"] / 1024, 1),
            "rss_mib_end": round(last["VmRSS"] / 1024, 1),
            "heap_mib_then": round(first["RssAnon"] / 1024, 1),
            "heap_mib_end": round(last["RssAnon"] / 1024, 1),
            "heap_mib_max": round(max(heap) / 1024, 1),
            "heap_slope_mib_per_minute": round(slope * 60 / 1024, 2),
            "mapped_tables_mib_then": round(first["RssFile"] / 1024, 1),
            "mapped_tables_mib_end": round(last["RssFile"] / 1024, 1)}


def server_status(url: str) -> dict[str, object]:
    with urllib.request.urlopen(f"{url}/api/v1/status") as answer:
        return dict(json.load(answer))


def wrk(url: str, paths: list[str], connections: int, seconds: float,
        limit: int = 0) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        listing = Path(folder) / "paths.txt"
        listing.write_text("\n".join(paths) + "\n")
        run = subprocess.run(["wrk", "-t1", f"-c{connections}", f"-d{math.ceil(seconds)}s", "--timeout",
                              "10s", "-s", str(SCRIPT), url, "--", str(listing), str(limit),
                              "1"], capture_output=True, text=True, check=False)
    found = re.search(r"^JSON (.*)$", run.stdout, re.M)
    if run.returncode or not found:
        raise SystemExit(f"wrk failed: {run.stderr.strip()[-500:]}\n{run.stdout[-1000:]}")
    raw = json.loads(found.group(1))
    return {"connections": connections, "requests": raw["requests"],
            "seconds": round(raw["seconds"], 2),
            "requests_per_second": round(raw["requests"] / raw["seconds"], 1),
            "p50_ms": raw["p50_us"] / 1000, "p90_ms": raw["p90_us"] / 1000,
            "p99_ms": raw["p99_us"] / 1000, "max_ms": raw["max_us"] / 1000,
            **{key: raw[key] for key in ("status_2xx", "status_3xx", "status_4xx",
                                          "status_429", "status_5xx", "socket_errors",
                                          "timeouts")}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", type=Path, required=True,
                        help="the tables (5x5 classes; the 3x3 and 4x4 tables are built "
                        "there first when missing)")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--requests", type=int, default=GOAL_REQUESTS)
    parser.add_argument("--evict", action="store_true",
                        help="drop the table files from the page cache first")
    parser.add_argument("--no-check-tables", dest="check_tables", action="store_false",
                        help="serve without --check-tables (each block is checked when "
                        "first probed)")
    parser.add_argument("--processes", type=int, default=None,
                        help="the server's processes (default: the server's, one per core)")
    parser.add_argument("--seed", type=int, default=39)
    parser.add_argument("--out", type=Path, default=None, help="write the figures as JSON")
    args = parser.parse_args()
    classes = built_classes(args.dir)
    # enough distinct positions for every request of the three runs (at up to 2,500 a second)
    needed = int(2500 * (10 + args.seconds)) + args.requests + 10_000
    began = time.perf_counter()
    positions = random_positions(classes, needed, args.seed)
    paths = ["/api/v1/quixo/analyze?" + urllib.parse.urlencode({"position": position})
             for position in positions]
    results: dict[str, object] = {
        "machine": f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start",
        "classes": len(classes), "largest_blanks": max(25 - a - b for a, b in classes),
        "distinct_positions": len(paths),
        "positions_made_seconds": round(time.perf_counter() - began, 1)}
    if args.evict:
        results["evicted_mib"] = round(evict(args.dir) / 2**20)
    with tempfile.TemporaryDirectory() as scratch:
        access_log = Path(scratch) / "access.log"
        began = time.perf_counter()     # a server of several processes checks, then answers
        process, url = start_server(args.dir, "--rate-limit", "1000000", "--burst", "1000000",
                                    "--access-log", str(access_log),
                                    *(["--check-tables"] if args.check_tables else []),
                                    *(["--processes", str(args.processes)]
                                      if args.processes else []))
        sampler = MemorySampler(process.pid)
        sampler.start()
        try:
            results["server_answered_seconds"] = round(time.perf_counter() - began, 1)
            while args.check_tables and not server_status(url)["tables_checked"]:
                time.sleep(0.5)
            results["tables_checked_seconds"] = round(time.perf_counter() - began, 1)
            results["processes"] = server_status(url).get("processes", 1)
            warm = int(2500 * 10)
            results["warm-up"] = wrk(url, paths[:warm], 32, 10)
            rate_paths = int(2500 * args.seconds)
            results["rate"] = wrk(url, paths[warm:warm + rate_paths], 32, args.seconds)
            # wrk stops at --requests (its duration, a bound: half again the time the rate run's
            # pace would take)
            pace = max(100.0, float(results["rate"]["requests_per_second"]))  # type: ignore[index]
            # (wrk counts the answers: the requests still under way on each of the 200
            # connections when it stops at its limit are not answered, so it is sent that many
            # more)
            results["many"] = wrk(url, paths[warm + rate_paths:], 200,
                                  1.5 * args.requests / pace + 10, args.requests + 200)
            results["server_status"] = server_status(url)
        finally:
            sampler.halt.set()
            stop_server(process)
        results["access_log_lines"] = sum(1 for _ in open(access_log, encoding="utf-8"))
    results["memory"] = memory_summary(sampler.samples, 60.0)
    results["memory_samples"] = sampler.samples[::5]
    results["goals"] = {"analyses_per_second": GOAL_RATE, "p99_ms": GOAL_P99_MS,
                        "many_requests": args.requests, "status_5xx": 0,
                        "memory": "flat after the first minute"}
    report(results, args.out)


if __name__ == "__main__":
    main()
