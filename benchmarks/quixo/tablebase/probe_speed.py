"""Issue 23's probe speed: random probes of built 5x5 classes, one position at a time through
the reader the search uses (`CompressedTable.position_codes(..., timed=True)`: a monotonic
clock read around each probe, so Python's call overhead is not counted).

    python benchmarks/quixo/tablebase/probe_speed.py --dir TABLES [--classes 11,11 12,10]
        [--probes 100000]

For each class (default: the largest built classes, by entries):
- warm: the file in the page cache (read through once), the table opened afresh, random
  positions: the median and 99th percentile of a probe (most probes decode a segment: the
  positions are random, so the small cache of decoded segments rarely helps);
- cold: the file evicted from the page cache (posix_fadvise DONTNEED, no root needed), the
  table opened afresh, 200 probes in distinct blocks: each reads its block from the disk.
Goals: warm median under 5 us, cold median under 1 ms.
"""
import argparse
import gc
import json
import os
import sys
from pathlib import Path

import numpy as np

from quixo_solver.tablebase.format import files
from quixo_solver.tablebase.format._orbit_index import entry_count


def random_positions(size: int, movers: int, opponents: int, count: int, seed: int):
    """`count` random positions of the class (mover, opponent masks)."""
    rng = np.random.default_rng(seed)
    cells = size * size
    mover_masks = np.zeros(count, dtype=np.uint32)
    opponent_masks = np.zeros(count, dtype=np.uint32)
    for i in range(count):
        order = rng.permutation(cells)
        mover_masks[i] = sum(1 << int(c) for c in order[:movers])
        opponent_masks[i] = sum(1 << int(c) for c in order[movers:movers + opponents])
    return mover_masks, opponent_masks


def evict(path: Path) -> None:
    with open(path, "rb") as handle:
        os.posix_fadvise(handle.fileno(), 0, 0, os.POSIX_FADV_DONTNEED)


def measure(folder: Path, size: int, movers: int, opponents: int, probes: int) -> dict:
    path = folder / files.table_name(size, movers, opponents)
    path.read_bytes()                                    # into the page cache
    table = files.open_table(path, (size, movers, opponents))
    m, o = random_positions(size, movers, opponents, probes, seed=1)
    _, warm = table.position_codes(m, o, timed=True)
    del table                          # a live mapping keeps its pages: unmap, then evict
    gc.collect()
    evict(path)
    table = files.open_table(path, (size, movers, opponents))   # head and index: not timed
    m, o = random_positions(size, movers, opponents, 200, seed=2)
    _, cold = table.position_codes(m, o, timed=True)
    return {"class": [movers, opponents], "entries": entry_count(size, movers, opponents),
            "file_bytes": path.stat().st_size,
            "bytes_per_entry": path.stat().st_size / entry_count(size, movers, opponents),
            "warm_probes": probes, "warm_median_us": float(np.median(warm)) / 1e3,
            "warm_p99_us": float(np.percentile(warm, 99)) / 1e3,
            "cold_probes": 200, "cold_median_us": float(np.median(cold)) / 1e3,
            "cold_p99_us": float(np.percentile(cold, 99)) / 1e3}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", required=True)
    parser.add_argument("--size", type=int, default=5)
    parser.add_argument("--classes", nargs="*", default=None, help="a,b pairs")
    parser.add_argument("--probes", type=int, default=100000)
    parser.add_argument("--json", help="write the rows to this file")
    args = parser.parse_args()
    folder = Path(args.dir)
    if args.classes:
        classes = [tuple(map(int, text.split(","))) for text in args.classes]
    else:
        built = [tuple(map(int, p.stem.split("-")[1:]))
                 for p in folder.glob(f"quixo{args.size}x{args.size}-*.qtb")]
        classes = sorted(built, key=lambda c: -entry_count(args.size, *c))[:3]
    rows = []
    for movers, opponents in classes:
        row = measure(folder, args.size, movers, opponents, args.probes)
        rows.append(row)
        print(f"class ({movers:2d}, {opponents:2d}) {row['entries']:>11} entries "
              f"{row['bytes_per_entry']:.4f} B/entry  warm median {row['warm_median_us']:.2f} "
              f"us p99 {row['warm_p99_us']:.2f} us  cold median {row['cold_median_us']:.1f} us "
              f"p99 {row['cold_p99_us']:.1f} us", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps({"rows": rows, "argv": sys.argv[1:]}, indent=1)
                                   + "\n")


if __name__ == "__main__":
    main()
