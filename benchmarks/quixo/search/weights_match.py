"""Two sets of evaluation weights against each other at an equal search depth: game pairs from
seeded random openings (each opening once with each colour), in one process.

    python benchmarks/quixo/search/weights_match.py A.json default --size 5 --depth 4 --pairs 50

A weights file, or `default` (the shipped weights) or `rulebook` (Weights()), for each side.
The openings' seed (7) is apart from the tuner's (tools/tune_weights.py: 1000 and up). Prints
A's wins, draws and losses, the Elo difference with its 95% error (game-pair variance), and how
the games ended.
"""
from __future__ import annotations

import argparse
import json
from collections import Counter

from quixo_solver import Solver
from quixo_solver.tournament import match_stats
from quixo_solver.tournament.game import play_game
from quixo_solver.tournament.settings import EngineSetting, MatchSettings
from quixo_solver.search.weights import DEFAULTS, RULEBOOK, WeightSet


def weights_of(name: str) -> WeightSet:
    return {"default": DEFAULTS, "rulebook": RULEBOOK}.get(name) or WeightSet.load(name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--size", type=int, default=5)
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--pairs", type=int, default=50)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    setting = EngineSetting(depth=args.depth, tables=False)
    settings = MatchSettings(setting, setting, size=args.size, seed=args.seed, opening_plies=4)
    solvers = {"A": Solver(tt_mib=16, weights=weights_of(args.a)),
               "B": Solver(tt_mib=16, weights=weights_of(args.b))}
    records = [play_game(settings, pair, game, solvers)
               for pair in range(args.pairs) for game in (0, 1)]
    stats = match_stats.summarize(records)
    print(json.dumps({key: stats[key] for key in ("wins", "draws", "losses", "score", "elo",
                                                  "elo_error_95")}
                     | {"reasons": Counter(r["reason"] for r in records)}))


if __name__ == "__main__":
    main()
