"""Issue 3's speed and size figures: a from-scratch build in a temporary folder.

    python benchmarks/quixo/tablebase/tablebase_build.py --size 4 --repeat 3
    python benchmarks/quixo/tablebase/tablebase_build.py --size 5 --max-blanks 2 --repeat 1

Prints the median wall time, the positions solved, bytes per position on disk, and the peak
resident memory of the process (the solver holds 2 bytes per position of the pair being
solved, plus the tables it reads, as uint16).
"""
import argparse
import resource
import statistics
import tempfile
import time
from pathlib import Path

from quixo_solver.tablebase import build, verify
from quixo_solver.tablebase.generator import plan
from quixo_solver.tablebase import pairs


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=4)
    parser.add_argument("--max-blanks", type=int, default=None)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=0)
    parser.add_argument("--verify", action="store_true", help="also time the verifier")
    args = parser.parse_args()
    units = pairs.units(args.size, args.max_blanks)
    positions = sum(unit.positions for unit in units)
    times, disk = [], 0
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory() as tmp:
            started = time.perf_counter()
            build(tmp, args.size, args.max_blanks, jobs=args.jobs, progress=False)
            times.append(time.perf_counter() - started)
            disk = sum(path.stat().st_size for path in Path(tmp).glob("*.qtb"))
            if args.verify:
                started = time.perf_counter()
                report = verify(tmp, args.size, jobs=args.jobs, progress=False)
                print(f"verify: {time.perf_counter() - started:.2f} s, "
                      f"{report.mismatches} mismatches")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(f"{args.size}x{args.size} max_blanks={args.max_blanks}: {len(units)} pairs, "
          f"{positions} positions")
    print(f"build: median {statistics.median(times):.2f} s over {len(times)} "
          f"(runs: {', '.join(f'{t:.2f}' for t in times)})")
    print(f"disk: {disk} bytes, {disk / positions:.3f} bytes per position")
    print(f"peak resident memory: {peak / 2**20:.0f} MiB; largest pair in memory: "
          f"{plan.memory_bytes(units) / 2**20:.0f} MiB planned")


if __name__ == "__main__":
    main()
