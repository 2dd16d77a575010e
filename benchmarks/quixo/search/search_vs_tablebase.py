"""Issue 4's acceptance at scale: every result the search claims as proven must equal the
tables, value and plies.

    python benchmarks/quixo/search/search_vs_tablebase.py --tables4 DIR4 --tables5 DIR5
        [--seed 12345]

DIR4 holds the 4x4 tables, DIR5 the 5x5 classes with at most 2 blanks (the 2-blank positions
are searched without tables and checked against them).
"""
import argparse
import random
import time

from quixo_solver import Board, Solver, Tablebase


def random_position(rng, size, blanks=None):
    while True:
        if blanks is None:
            cells = [rng.choice("XO..") for _ in range(size * size)]
        else:
            cells = ["."] * blanks + [rng.choice("XO") for _ in range(size * size - blanks)]
            rng.shuffle(cells)
        board = Board("".join(cells) + " " + rng.choice("XO"))
        if not board.is_game_over():
            return board


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables4", required=True)
    parser.add_argument("--tables5", required=True)
    parser.add_argument("--seed", type=int, default=12345)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    runs = [("4x4", lambda: random_position(rng, 4), Tablebase(args.tables4), 9, 1500),
            ("5x5 <= 1 blank", lambda: random_position(rng, 5, rng.choice((0, 1))),
             Tablebase(args.tables5), 7, 400),
            ("5x5, 2 blanks", lambda: random_position(rng, 5, 2), Tablebase(args.tables5), 6, 300)]
    for name, draw, tablebase, depth, count in runs:
        solver = Solver(tt_mib=16)
        proven = mismatches = nodes = 0
        started = time.perf_counter()
        for _ in range(count):
            board = draw()
            result = solver.solve(board, depth=depth)
            nodes += result.nodes
            if result.value == "unknown":
                continue
            proven += 1
            truth = tablebase.probe(board)
            if (result.value, result.plies) != (truth.value, truth.plies):
                mismatches += 1
                print(f"MISMATCH {board}: search {result.value} {result.plies}, table {truth}")
        seconds = time.perf_counter() - started
        print(f"{name}: {count} positions at depth {depth}: {proven} proven, {mismatches} "
              f"mismatches, {seconds:.1f} s, {nodes / seconds / 1e6:.2f} M nodes/s")


if __name__ == "__main__":
    main()
