"""Issue 14's figures: the `win` strategy head to head and at a mixed table, and its speed.

    python benchmarks/qwixx_win.py --games 100000 --seed 1

Every series rotates the seats (each strategy plays each seat equally often). Prints, and
writes to benchmarks/results/qwixx-win.json (--out):
- two players, `win` against max-score, greedy, cautious:0 .. cautious:3: win rate of `win`
  with its 95% interval, mean scores, mean turns, games/s of the kernel;
- two four-player mixed tables: every strategy's win rate;
- the same two-player series under the lock-after-4 variant (--variant-games);
- the time of one `win` decision in the Python Advisor that `qwixx track` and `qwixx advise`
  use (median and 95th percentile over every decision of a few played games), and the kernel's
  time per decision from games/s.
"""
import argparse
import json
import statistics
import time
from pathlib import Path

from qwixx_stats import Game
from qwixx_stats.race import RaceTable
from qwixx_stats.simulate import parse_strategies, simulate
from qwixx_stats.solitaire import ExpectedValues
from qwixx_stats.strategies import SplitMix64
from qwixx_stats.winning import Advisor

OPPONENTS = ["max-score", "greedy", "cautious:0", "cautious:1", "cautious:2", "cautious:3"]
MIXED = ["win,max-score,cautious:2,cautious:3", "win,greedy,cautious:1,random"]


def series(text, players, games, seed, lock_after=5):
    result = simulate(parse_strategies(text, players), games, seed, keep_games=False,
                      lock_after=lock_after)
    return result.summary()


def head_to_head(games, seed, lock_after):
    rows = []
    for opponent in OPPONENTS:
        summary = series(f"win,{opponent}", 2, games, seed, lock_after)
        win, other = summary["players"]
        rows.append({"opponent": opponent, "win_rate": win["win_rate"],
                     "win_rate_ci95": win["win_rate_ci95"], "mean": win["mean"],
                     "opponent_mean": other["mean"], "mean_turns": summary["mean_turns"],
                     "endings": summary["endings"],
                     "games_per_second": summary["games_per_second"]})
        low, high = win["win_rate_ci95"]
        print(f"  win vs {opponent:<11} {win['win_rate']:.4f} [{low:.4f}, {high:.4f}]  means "
              f"{win['mean']:.1f} vs {other['mean']:.1f}, {summary['mean_turns']:.1f} turns, "
              f"{summary['games_per_second']:,.0f} games/s", flush=True)
    return rows


class AdvisedPlayer:
    """Plays the Advisor's first choice at one seat and keeps the time of every decision."""

    def __init__(self, advisor, game, seat, times):
        self.advisor, self.game, self.seat, self.times = advisor, game, seat, times

    def _timed(self, advise, *arguments):
        started = time.perf_counter()
        choice = advise(self.game.sheets, self.seat, *arguments)[0].option
        self.times.append(time.perf_counter() - started)
        return choice

    def first_action(self, sheet, dice, active):
        return self._timed(self.advisor.active if active else self.advisor.passive, dice)[0]

    def second_action(self, sheet, dice, marked_first):
        return self._timed(self.advisor.second, dice, marked_first)[1]


def decision_times(seed, games):
    """Seconds of each decision of the Advisor (all options rated and ranked, expected scores
    beside), over every decision of `games` played games, 2 players, both playing win."""
    advisor = Advisor(RaceTable.load(players=2), ExpectedValues.load())
    times = []
    for index in range(games):
        stream = SplitMix64.for_game(seed, index)
        game = Game(2)
        players = [AdvisedPlayer(advisor, game, seat, times) for seat in range(2)]
        while not game.is_over():
            game.play_turn_with(stream.roll(), players)
    times.sort()
    return {"decisions": len(times), "median_ms": 1000 * statistics.median(times),
            "p95_ms": 1000 * times[int(0.95 * (len(times) - 1))], "max_ms": 1000 * times[-1]}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--variant-games", type=int, default=20_000)
    parser.add_argument("--timing-games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "qwixx-win.json"))
    args = parser.parse_args()
    report = {"games": args.games, "seed": args.seed}
    print(f"two players, {args.games:,} games each, seats rotated (lock after 5):")
    report["head_to_head"] = head_to_head(args.games, args.seed, 5)
    report["mixed_tables"] = []
    for text in MIXED:
        summary = series(text, 4, args.games, args.seed)
        rates = {p["strategy"]: p["win_rate"] for p in summary["players"]}
        report["mixed_tables"].append({"strategies": text, "players": summary["players"],
                                       "mean_turns": summary["mean_turns"],
                                       "games_per_second": summary["games_per_second"]})
        print(f"four players [{text}], {args.games:,} games: " + ", ".join(
            f"{name} {rate:.4f}" for name, rate in rates.items())
            + f"; {summary['games_per_second']:,.0f} games/s", flush=True)
    print(f"two players, lock after 4, {args.variant_games:,} games each:")
    report["head_to_head_lock_after_4"] = head_to_head(args.variant_games, args.seed, 4)
    timing = decision_times(args.seed, args.timing_games)
    report["advisor_decision"] = timing
    print(f"Advisor decision (track, advise): median {timing['median_ms']:.2f} ms, 95th "
          f"percentile {timing['p95_ms']:.2f} ms, max {timing['max_ms']:.2f} ms over "
          f"{timing['decisions']} decisions")
    Path(args.out).write_text(json.dumps(report, indent=1) + "\n")
    print(f"written {args.out}")


if __name__ == "__main__":
    main()
