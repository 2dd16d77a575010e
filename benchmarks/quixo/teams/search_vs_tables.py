"""Issue 61: the four-player search, without tables, never contradicts the four-player tables
when it claims a proof.

    python benchmarks/quixo/teams/search_vs_tables.py --dir FOLDER --size 4 --count 1000 \
        --seconds 0.05 --seed 1 [--out benchmarks/results/teams-4x4-search-vs-tables.json]

Positions are drawn uniformly at random from the raw positions of the built sides that the
rules do not decide: a side with chance proportional to its raw positions (its header's
counts), then its cubes' squares, their dots and the seat to move uniformly; a drawn
position the rules decide is drawn again. Each is searched by TeamSolver with no tables for
--seconds; every claim it makes (a win or a loss with its plies, or with a bound on them) is
compared with the tables' value.
"""
import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from quixo_solver.teams import TeamBoard
from quixo_solver.teams.solve import TeamSolver
from quixo_solver.teams.tables import stats
from quixo_solver.teams.tables.probe import TeamTablebase
from quixo_solver.tablebase import values


def random_position(size, sides, weights, rng):
    header = sides[rng.choice(len(sides), p=weights)]
    cells = rng.permutation(size * size)
    t, u = header.team_count, header.other_count
    roles = [0, 0, 0, 0]
    for sq in cells[:t]:
        roles[0 if rng.integers(2) else 2] |= 1 << int(sq)
    for sq in cells[t:t + u]:
        roles[1 if rng.integers(2) else 3] |= 1 << int(sq)
    return TeamBoard.from_roles(size, tuple(roles), int(rng.integers(4)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True)
    parser.add_argument("--size", type=int, default=4)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out")
    args = parser.parse_args()
    sides = stats.built_sides(args.dir, args.size)
    raw = np.array([h.wins + h.draws + h.losses for h in sides], dtype=float)
    rng = np.random.default_rng(args.seed)
    tables = TeamTablebase(args.dir)
    solver = TeamSolver(tt_mib=64)
    tally = {"positions": 0, "claims": 0, "contradictions": 0, "unknown": 0,
             "by_claim": {"win": 0, "loss": 0, "draw": 0}}
    examples = []
    started = time.perf_counter()
    while tally["positions"] < args.count:
        board = random_position(args.size, sides, raw / raw.sum(), rng)
        if board.is_game_over():
            continue
        tally["positions"] += 1
        truth, plies = values.wdl_of(code := tables.code_of(args.size, board.roles)), \
            values.plies_of(code)
        result = solver.solve(board, time=args.seconds)
        if result.value == "unknown":
            tally["unknown"] += 1
            continue
        tally["claims"] += 1
        tally["by_claim"][result.value] += 1
        agrees = values.WDL_NAMES[truth] == result.value and (
            result.plies is None or result.plies == plies) and (
            result.plies_at_most is None or (plies is not None and plies <= result.plies_at_most))
        if not agrees:
            tally["contradictions"] += 1
            examples.append({"position": str(board), "claim": result.value,
                             "plies": result.plies, "plies_at_most": result.plies_at_most,
                             "table": values.WDL_NAMES[truth], "table_plies": plies})
    report = {"command": " ".join(sys.argv), "size": args.size, "seconds_per_position":
              args.seconds, "seed": args.seed, **tally, "examples": examples[:20],
              "wall_seconds": round(time.perf_counter() - started, 1)}
    print(json.dumps(report, indent=1))
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=1) + "\n")
    return 1 if tally["contradictions"] else 0


if __name__ == "__main__":
    sys.exit(main())
