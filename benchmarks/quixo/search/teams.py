"""Issue 6's figures: the complete 3x3 four-player solution, perft speed against the Python
twin, and search speed on 4x4 and 5x5.

    python benchmarks/quixo/search/teams.py --repeat 5 --seconds 10
"""
import argparse
import statistics
import time

import numpy as np

from quixo_solver.teams import TeamBoard, _solve, _team_rules, _team_rules_twin
from quixo_solver.teams.solve import TeamSolver, decode


def timed(function, *args):
    started = time.perf_counter()
    value = function(*args)
    return value, time.perf_counter() - started


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()

    runs = [timed(_solve.solve, 3) for _ in range(args.repeat)]
    codes = runs[0][0]
    wins, losses = codes[codes % 2 == 1], codes[(codes > 0) & (codes % 2 == 0)]
    print(f"3x3 complete solution: {codes.size} positions, median "
          f"{statistics.median(t for _, t in runs):.3f} s over {len(runs)}")
    print(f"  wins {wins.size}, losses {losses.size}, draws {int((codes == 0).sum())}; "
          f"longest win {(int(wins.max()) - 1) // 2} plies "
          f"({int((wins == wins.max()).sum())} positions), longest loss "
          f"{(int(losses.max()) - 2) // 2} plies ({int((losses == losses.max()).sum())})")
    print(f"  empty board, X1 to move: {decode(int(codes[0]))}")
    assert all((run[0] == codes).all() for run in runs)

    for size, depth in ((3, 4), (4, 3), (5, 2)):
        fast = [timed(_team_rules.perft, size, (0, 0, 0, 0), depth) for _ in range(args.repeat)]
        slow = timed(_team_rules_twin.perft, size, (0, 0, 0, 0), depth)
        fast_time = statistics.median(t for _, t in fast)
        assert fast[0][0] == slow[0]
        print(f"perft {size}x{size} depth {depth}: {slow[0]} nodes, Cython median "
              f"{fast_time * 1e3:.2f} ms, twin {slow[1] * 1e3:.0f} ms, ratio "
              f"{slow[1] / fast_time:,.0f}x")

    solver = TeamSolver(tt_mib=256)
    for size in (4, 5):
        result = solver.solve(TeamBoard(size=size), time=args.seconds)
        print(f"search {size}x{size} empty board, {args.seconds:g} s: {result.value}, depth "
              f"{result.depth}, {result.nodes} nodes ({result.nodes / result.seconds / 1e6:.2f} "
              f"M nodes/s), best move {result.best_move}")


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
