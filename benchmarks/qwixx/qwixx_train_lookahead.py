"""Learn the value of the `lookahead` strategy by TD(0) in self-play (issue 24).

    python benchmarks/qwixx/qwixx_train_lookahead.py \
        --out src/qwixx_stats/data/lookahead-2p-lock5-v1.qlv

From w0 = 1 and every other weight 0 (the race model exactly), two lookahead players reading
the weights play each other; the weights learn after every turn (lookahead.py, the method;
lookahead.train, the kernel). The schedule is --games at the learning rate --rate,
then as many at a tenth of it; weight 0 learns at a hundredth of the rate. One core, about
2,000 games a second.

Seeds: game n of the schedule is game n of the series TRAINING_SEED = 3000. No game against
`scored` or `weighted` is played while learning (the measuring seeds of qwixx_win.py are below
1000, the heuristics were tuned on 1000-1999 and rho on 2000). After every block the partial
weights are written beside --out with the games done, so an interrupted run resumes where it
stopped; a progress line per block shows the win rate against `win` on CHECK_SEED = 3001.
"""
import argparse
import json
import time
from pathlib import Path

from qwixx_stats.strategies.lookahead import LearnedValue, train
from qwixx_stats.tables.race import RaceTable
from qwixx_stats.strategies.simulate import parse_strategies, simulate
from solverkit.arrayfile import write_atomically

TRAINING_SEED = 3000
CHECK_SEED = 3001
BLOCK = 100_000


def schedule(games, rate):
    """(first game, games, rate) of each block: `games` at `rate`, then `games` at rate / 10."""
    blocks = []
    for phase, phase_rate in enumerate((rate, rate / 10)):
        for first in range(0, games, BLOCK):
            blocks.append((phase * games + first, min(BLOCK, games - first), phase_rate))
    return blocks


def check(learned, race, games):
    result = simulate(parse_strategies("lookahead,win", 2), games, CHECK_SEED, race=race,
                      learned=learned, keep_games=False)
    return result.summary()["players"][0]["win_rate"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--rate", type=float, default=0.002)
    parser.add_argument("--check-games", type=int, default=4000)
    args = parser.parse_args()
    race = RaceTable.load(players=2)
    partial = args.out.with_name(args.out.name + ".partial")
    progress = args.out.with_name(args.out.name + ".progress.json")
    learned, done = LearnedValue.untrained(), 0
    setting = {"games": args.games, "rate": args.rate, "seed": TRAINING_SEED}
    if partial.exists() and progress.exists():
        state = json.loads(progress.read_text())
        if state["setting"] == setting:
            learned, done = LearnedValue.load(partial), state["done"]
            print(f"resuming after {done:,} games", flush=True)
    for first, games, rate in schedule(args.games, args.rate):
        if first + games <= done:
            continue
        started = time.perf_counter()
        train(learned, race, first, games, TRAINING_SEED, rate, rate / 100)
        seconds = time.perf_counter() - started
        learned.save(partial)
        done = first + games
        write_atomically(progress, [json.dumps({"setting": setting, "done": done}).encode()])
        print(json.dumps({"games": done, "rate": rate, "games_per_second": round(games / seconds),
                          "w0": round(float(learned.weights[0]), 4),
                          "against_win": round(check(learned, race, args.check_games), 4)}),
              flush=True)
    learned.save(args.out)
    partial.unlink()
    progress.unlink()
    print(f"wrote {args.out}", flush=True)


if __name__ == "__main__":
    main()
