"""Issue 4's search figures: nodes per second, and the time to prove 5x5 forced wins of 3 to 9
plies without tables; then how far the search gets on the paper's two smallest X wins.

    python benchmarks/quixo/search/search_forced_wins.py --tables DIR [--per-length 4]
        [--seconds 60]

The forced wins are taken, deterministically, from the built 5x5 classes with the most blanks
in DIR (their exact plies come from the tables); each is searched with no tablebase and must
be proven with exactly those plies.
"""
import argparse
import statistics

import numpy as np

from quixo_solver import Board, Solver
from quixo_solver.tablebase import Tablebase
from quixo_solver.tablebase.format import files
from quixo_solver.tablebase import pairs
from quixo_solver.tablebase.format._index import position_at

PAPER_POSITIONS = ["XX..O/...../...../...../..... X", "XX.X./...../...../...../.O.OO X"]


def forced_wins(directory, per_length):
    """Positions whose mover wins in 3, 5, 7 and 9 plies, from the classes with most blanks."""
    built = [u for u in pairs.units(5) if all(
        (directory / files.table_name(5, *cls)).exists() for cls in u.classes)]
    fewest = min(u.cubes for u in built)
    picked = {plies: [] for plies in (3, 5, 7, 9)}
    for unit in (u for u in built if u.cubes == fewest):
        for a, b in unit.classes:
            values = files.load_values(directory / files.table_name(5, a, b), (5, a, b))
            for plies in picked:
                if len(picked[plies]) >= per_length:
                    continue
                where = np.flatnonzero(np.asarray(values) == 2 * plies + 1)
                for index in where[:: max(1, len(where) // per_length)][:per_length - len(picked[plies])]:
                    mover, opponent = position_at(5, a, b, int(index))
                    picked[plies].append(Board.from_masks(5, mover, opponent))
    return picked


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", required=True)
    parser.add_argument("--per-length", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args()
    directory = Tablebase(args.tables).directory
    solver = Solver(tt_mib=256)
    rates = []
    for plies, boards in forced_wins(directory, args.per_length).items():
        times = []
        for board in boards:
            result = solver.solve(board, time=args.seconds)
            times.append(result.seconds)
            rates.append(result.nodes / max(result.seconds, 1e-9))
            status = "ok" if (result.value, result.plies) == ("win", plies) else \
                f"NOT PROVEN ({result.value}, {result.plies})"
            print(f"win in {plies}: {board}  {result.seconds:7.3f} s  {result.nodes:>10} nodes"
                  f"  depth {result.depth}  {status}")
        print(f"-> win in {plies}: median {statistics.median(times):.3f} s over {len(times)}")
    print(f"nodes per second: median {statistics.median(rates) / 1e6:.2f} M")
    for text in PAPER_POSITIONS:
        result = solver.solve(Board(text), time=args.seconds)
        print(f"{text}: {result.value} plies={result.plies} best={result.best_move} "
              f"depth {result.depth} in {result.seconds:.1f} s, {result.nodes} nodes, "
              f"score {result.score}")


if __name__ == "__main__":
    main()
