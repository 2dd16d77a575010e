"""Tune the weights of the two outside heuristics (`weighted`, `scored`; heuristics.py).

    python benchmarks/qwixx/qwixx_tune_heuristics.py --generations 40 --offspring 8 --games 3000

A (1 + lambda) evolution strategy, the way the genetic-algorithm Qwixx bots and the thesis's
random walk tune theirs: each generation mutates the best weights so far (Gaussian steps, one
scale per weight, shrinking slowly), plays the parent and every child against a panel of
opponents on the generation's seed (the same rolls for all: common random numbers), and keeps
the best. Fitness: the mean two-player win rate against the panel (`win`, `max-score`,
`cautious:2`; seats rotated), so the heuristics are tuned to be as hard as possible for `win`.

Seeds: generation g plays on seed TUNING_SEED + g (1000 and up). The measurements
(benchmarks/qwixx/qwixx_win.py) use seeds below 1000, so no measured game was seen in tuning.
Prints every improvement and the final weights (to be copied into heuristics.py by hand).
"""
import argparse
import json
import random
import time

from qwixx_stats.strategies.registry import TUNED_WEIGHTS
from qwixx_stats.strategies.simulate import Strategy, parse_strategies, simulate

TUNING_SEED = 1000
PANEL = ["win", "max-score", "cautious:2"]
SCALES = {"weighted": (1.0, 0.2, 1.0, 0.2, 0.2, 3.0, 1.0, 2.0),
          "scored": (1.0, 0.5, 0.1, 0.3, 0.3, 1.0, 2.0, 3.0)}


def fitness(name, weights, games, seed):
    total = 0.0
    for opponent in PANEL:
        strategies = [Strategy(name, weights=tuple(weights)),
                      parse_strategies(opponent, 1)[0]]
        result = simulate(strategies, games, seed, keep_games=False)
        total += result.summary()["players"][0]["win_rate"]
    return total / len(PANEL)


def tune(name, generations, offspring, games, rng):
    parent = list(TUNED_WEIGHTS[name])
    scales = list(SCALES[name])
    history = []
    for generation in range(generations):
        seed = TUNING_SEED + generation
        step = 0.97 ** generation
        parent_fit = fitness(name, parent, games, seed)
        best, best_fit = parent, parent_fit
        for _ in range(offspring):
            child = [w + rng.gauss(0.0, s * step) for w, s in zip(parent, scales)]
            child_fit = fitness(name, child, games, seed)
            if child_fit > best_fit:
                best, best_fit = child, child_fit
        parent = best
        history.append({"generation": generation, "seed": seed, "parent": parent_fit,
                        "best": best_fit})
        print(f"{name} generation {generation:3d} seed {seed}: parent {parent_fit:.4f} -> "
              f"{best_fit:.4f}  {[round(w, 3) for w in parent]}", flush=True)
    return [round(w, 3) for w in parent], history


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--generations", type=int, default=40)
    parser.add_argument("--offspring", type=int, default=8)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--only", choices=sorted(TUNED_WEIGHTS))
    parser.add_argument("--random-seed", type=int, default=24)
    args = parser.parse_args()
    rng = random.Random(args.random_seed)
    started = time.perf_counter()
    out = {}
    for name in ([args.only] if args.only else sorted(TUNED_WEIGHTS)):
        weights, _ = tune(name, args.generations, args.offspring, args.games, rng)
        out[name] = weights
    print(json.dumps(out))
    print(f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
