"""Is the second seat's deficit `win`'s fault? Self-play with the seats fixed (issue 24).

    python benchmarks/qwixx/qwixx_seats.py --games 20000 --seed 3

For each strategy S, S plays S at two players with the seats kept (no rotation): the first
seat's win rate with its 95% interval is the game's own first-seat edge for that strategy.
Measuring seed (below 1000).
"""
import argparse

from qwixx_stats.strategies.simulate import parse_strategies, simulate

STRATEGIES = ["win", "scored", "weighted", "max-score", "cautious:2"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    for name in STRATEGIES:
        result = simulate(parse_strategies(f"{name},{name}", 2), args.games, args.seed,
                          keep_games=False, rotate=False).summary()
        first = result["players"][0]
        low, high = first["win_rate_ci95"]
        print(f"{name:<11} self-play, seat 1 wins {first['win_rate']:.4f} [{low:.4f}, "
              f"{high:.4f}] of {args.games:,} games", flush=True)


if __name__ == "__main__":
    main()
