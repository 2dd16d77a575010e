"""Issue 12's cost of distribution: the same build on a local Dask cluster of W workers x 1
thread and in one process on W threads, in one run, each from an empty folder.

    python benchmarks/quixo/tablebase/cluster_vs_local.py --size 5 --max-blanks 2 --workers 2 \
        --repeat 1

Prints each wall time (the cluster's start-up excluded: a cluster is started once and reused)
and the ratio cluster / single process (the aim: at most 1.2), and checks that both builds
wrote the same bytes.
"""
import argparse
import statistics
import tempfile
import time
from pathlib import Path

from quixo_solver.tablebase import build
from quixo_solver.tablebase.generator import cluster


def timed(folder: Path, size: int, blanks: int | None, **options: object) -> float:
    started = time.perf_counter()
    build(folder, size, blanks, progress=False, **options)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=5)
    parser.add_argument("--max-blanks", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    client = cluster.local_client(args.workers)
    local, distributed = [], []
    try:
        for _ in range(args.repeat):            # interleaved: one process, then the cluster
            with tempfile.TemporaryDirectory() as one, tempfile.TemporaryDirectory() as many:
                local.append(timed(Path(one), args.size, args.max_blanks, jobs=args.workers))
                distributed.append(timed(Path(many), args.size, args.max_blanks,
                                         client=client, jobs=1))
                for path in Path(one).glob("*.qtb"):
                    assert path.read_bytes() == (Path(many) / path.name).read_bytes(), path
    finally:
        client.close()
        client.cluster.close()
    a, b = statistics.median(local), statistics.median(distributed)
    print(f"{args.size}x{args.size} <= {args.max_blanks} blanks: one process on "
          f"{args.workers} threads {a:.1f} s; Dask, {args.workers} workers x 1 thread "
          f"{b:.1f} s; ratio {b / a:.3f} (runs: {local}, {distributed}); same files")


if __name__ == "__main__":
    main()
