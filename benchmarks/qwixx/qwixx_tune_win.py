"""Choose the race model's correlation rho (race.CORRELATION) for the `win` strategy.

    python benchmarks/qwixx/qwixx_tune_win.py --games 10000 --rho 0 0.2 0.4 0.6

For each rho: `win` against each opponent at two players, and at a mixed table of three, four
and five players, win rate of `win` (seats rotated). Seeds: TUNING_SEED = 2000 (the
measurements in benchmarks/qwixx/qwixx_win.py use seeds below 1000, the heuristics' tuning 1000 and
up to 1999), so the measured games were never seen while choosing rho.
"""
import argparse
import json

import numpy as np

from qwixx_stats.tables.race import RaceTable
from qwixx_stats.strategies.simulate import parse_strategies, simulate

TUNING_SEED = 2000
HEAD_TO_HEAD = ["scored", "weighted", "cautious:2", "max-score", "cautious:3", "greedy"]
TABLES = ["win,scored,weighted", "win,scored,weighted,cautious:2",
          "win,scored,weighted,cautious:2,max-score"]


def with_correlation(players, rho, cache):
    if players not in cache:
        cache[players] = RaceTable.load(players=players)
    base = cache[players]
    return RaceTable(np.stack([base.mean, base.second]), players, correlation=rho)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--rho", type=float, nargs="+", default=[0.0, 0.2, 0.4, 0.6])
    args = parser.parse_args()
    cache = {}
    rows = []
    for rho in args.rho:
        row = {"rho": rho}
        for opponent in HEAD_TO_HEAD:
            result = simulate(parse_strategies(f"win,{opponent}", 2), args.games, TUNING_SEED,
                              race=with_correlation(2, rho, cache), keep_games=False)
            row[opponent] = result.summary()["players"][0]["win_rate"]
        for text in TABLES:
            players = text.count(",") + 1
            result = simulate(parse_strategies(text, players), args.games, TUNING_SEED,
                              race=with_correlation(players, rho, cache), keep_games=False)
            row[f"{players}p"] = result.summary()["players"][0]["win_rate"]
        rows.append(row)
        print(json.dumps({k: round(v, 4) for k, v in row.items()}), flush=True)


if __name__ == "__main__":
    main()
