"""Issue 5's figures: the optimal single-player table from scratch, and simulation speed.

    python benchmarks/qwixx/qwixx_solitaire.py --repeat 3 --games 1000000

Prints the median wall time of the full solve (all 5.47 million sheet states x 4 penalty
counts), the expected score from the empty sheet (published: 115.4831), the peak resident
memory, and games per second of the simulator (Cython kernel on both cores) against the
pure-Python rules engine playing the same games.
"""
import argparse
import resource
import statistics
import time

from qwixx_stats import Sheet
from qwixx_stats.strategies.simulate import parse_strategies, simulate, simulate_twin
from qwixx_stats.tables.solitaire import ExpectedValues, solve_table, states_to_solve


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--python-games", type=int, default=200)
    args = parser.parse_args()
    times, table = [], None
    for _ in range(args.repeat):
        started = time.perf_counter()
        table = solve_table()
        times.append(time.perf_counter() - started)
    values = ExpectedValues(table)
    print(f"solve: {states_to_solve()} sheet states x 4 penalties, median "
          f"{statistics.median(times):.2f} s over {len(times)} "
          f"(runs: {', '.join(f'{t:.2f}' for t in times)})")
    print(f"expected score from the empty sheet: {values.value(Sheet()):.6f} "
          f"(published 115.4831)")
    print(f"table in memory and on disk: {table.nbytes / 2**20:.1f} MiB; peak resident "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**10:.0f} MiB")
    for text, players in (("max-score", 1), ("max-score,greedy,cautious:2,random", 4),
                          ("greedy", 2)):
        strategies = parse_strategies(text, players)
        fast = simulate(strategies, args.games, 1, values=values)
        slow = simulate_twin(strategies, args.python_games, 1, values=values)
        fast_rate = fast.games / fast.seconds
        slow_rate = slow.games / slow.seconds
        means = ", ".join(f"{p['strategy']} {p['mean']:.2f}" for p in fast.summary()["players"])
        print(f"simulate {players} player(s) [{text}]: {fast_rate:,.0f} games/s "
              f"(pure Python {slow_rate:,.1f} games/s, ratio {fast_rate / slow_rate:,.0f}x); "
              f"means: {means}")


if __name__ == "__main__":
    main()
