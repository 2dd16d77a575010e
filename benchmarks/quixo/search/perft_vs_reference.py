"""Issue 2's speed goal: `quixo perft <empty 5x5> 6` as a whole process, against a plain
single-threaded C bitboard perft compiled here (reference_perft.c), in one run.

    python benchmarks/quixo/search/perft_vs_reference.py [--depth 6] [--repeat 3]

Prints each median, the ratio ours / reference (goal: at most 1.5) and the node counts,
which must agree.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
EMPTY = "...../...../...../...../..... X"


def timed(argv):
    started = time.perf_counter()
    output = subprocess.run(argv, check=True, capture_output=True, text=True).stdout
    return time.perf_counter() - started, output


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--depth", type=int, default=6)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        binary = os.path.join(tmp, "reference_perft")
        subprocess.run(["gcc", "-O2", "-o", binary, os.path.join(HERE, "reference_perft.c")],
                       check=True)
        reference, ours = [], []
        for _ in range(args.repeat):
            seconds, output = timed([binary, str(args.depth)])
            reference.append(seconds)
            reference_nodes = int(output)
            seconds, output = timed([sys.executable, "-m", "quixo_solver", "perft", EMPTY,
                                     str(args.depth), "--json"])
            ours.append(seconds)
            our_nodes = int(output.split('"nodes": ')[1].split(",")[0])
    assert our_nodes == reference_nodes, (our_nodes, reference_nodes)
    ref, our = statistics.median(reference), statistics.median(ours)
    print(f"perft({args.depth}) nodes: {our_nodes}")
    print(f"reference C, single thread: median {ref:.3f} s over {args.repeat}")
    print(f"quixo perft, process start included: median {our:.3f} s over {args.repeat}")
    print(f"ratio ours / reference: {our / ref:.3f} (goal <= 1.5)")


if __name__ == "__main__":
    main()
