"""Issue 11's scale figures: a 5x5 build of the classes with at most K blanks, from an empty
folder, in one command, then (optionally) the verifier, each as its own process.

    python benchmarks/quixo/tablebase/tablebase_scale.py --max-blanks 3 --dir /tmp/tables5
    python benchmarks/quixo/tablebase/tablebase_scale.py --max-blanks 5 --dir /tmp/tables5 \
        --verify --results benchmarks/results/5x5-up-to-5-blanks.json

Prints wall time, peak resident memory and disk of the build (and of the verifier), the raw
positions and the table entries (one per symmetry class, holes included) with their ratio,
and bytes per entry and per position on disk. With --results, writes what
`quixo tablebase stats --size 5 --json` prints, with these figures, to that file.
"""
import argparse
import json
import os
import shutil
import sys
from pathlib import Path

from whole_game import timed_child

from quixo_solver.tablebase import pairs


def run(arguments: list[str]) -> tuple[float, int, str]:
    """Wall seconds, peak resident bytes and standard output of `python -m quixo_solver ...`
    (verify exits 1 on mismatches)."""
    return timed_child([sys.executable, "-m", "quixo_solver", *arguments], may_fail=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--max-blanks", type=int, required=True)
    parser.add_argument("--dir", required=True, help="an empty (or absent) folder")
    parser.add_argument("--verify", action="store_true")
    parser.add_argument("--results", help="write the per-class counts and figures here")
    args = parser.parse_args()
    folder = Path(args.dir)
    if folder.exists() and any(folder.iterdir()):
        sys.exit(f"{folder} is not empty: the build must start from nothing")
    units = pairs.units(5, args.max_blanks)
    positions = sum(unit.positions for unit in units)
    entries = sum(unit.entries for unit in units)
    figures = {"max_blanks": args.max_blanks, "cores": os.cpu_count(), "positions": positions,
               "entries": entries, "entries_per_position": round(entries / positions, 4)}
    seconds, peak, _ = run(["tablebase", "build", "--size", "5", "--max-blanks",
                            str(args.max_blanks), "--dir", str(folder), "--json"])
    disk = sum(path.stat().st_size for path in folder.glob("*.qtb"))
    figures.update(build_seconds=round(seconds, 1), build_peak_bytes=peak, disk_bytes=disk,
                   disk_bytes_per_entry=round(disk / entries, 3),
                   disk_bytes_per_position=round(disk / positions, 4))
    print(f"5x5 <= {args.max_blanks} blanks: {len(units)} pairs, {positions:,} positions, "
          f"{entries:,} entries ({entries / positions:.4f} of the positions)")
    print(f"build: {seconds:.1f} s wall, peak resident {peak / 2**30:.2f} GiB, disk "
          f"{disk / 2**30:.2f} GiB ({disk / entries:.3f} bytes/entry, "
          f"{disk / positions:.4f} bytes/position); free disk after: "
          f"{shutil.disk_usage(folder).free / 2**30:.1f} GiB", flush=True)
    if args.verify:
        seconds, peak, output = run(["tablebase", "verify", "--size", "5", "--dir",
                                     str(folder), "--json"])
        report = json.loads(output)
        figures.update(verify_seconds=round(seconds, 1), verify_peak_bytes=peak,
                       verify_mismatches=report["mismatches"])
        print(f"verify: {seconds:.1f} s wall, peak resident {peak / 2**30:.2f} GiB, "
              f"{report['mismatches']} mismatches")
    if args.results:
        _, _, output = run(["tablebase", "stats", "--size", "5", "--dir", str(folder), "--json"])
        stats = json.loads(output)
        stats["figures"] = figures
        Path(args.results).write_text(json.dumps(stats, indent=1) + "\n")
        print(f"wrote {args.results}")


if __name__ == "__main__":
    main()
