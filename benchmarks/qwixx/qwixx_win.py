"""Issues 14 and 24: the `win` or `lookahead` strategy head to head and at mixed tables, and
its speed.

    python benchmarks/qwixx/qwixx_win.py --games 20000 --seed 1
    python benchmarks/qwixx/qwixx_win.py --player lookahead --games 20000 --seed 1

Measuring seeds: --seed (1 by default; always below 1000). `qwixxer-ga` plays the weights its
own program published (nothing was tuned here). The heuristics were tuned on seeds 1000-1999
(qwixx_tune_heuristics.py) and the race model's correlation chosen on seed 2000
(qwixx_tune_win.py), and lookahead's value learned in self-play on seed 3000
(qwixx_train_lookahead.py), so no game measured here was played while tuning.

Every series rotates the seats (each strategy plays each seat equally often). `--player` is
the strategy measured (win by default; "win" below). Prints, and writes to
benchmarks/results/qwixx-PLAYER.json (--out):
- two players, `win` against every other strategy (for lookahead, `win` too; the public
  qwixxer bot's champion `qwixxer-ga`, the outside heuristics `scored` and `weighted`,
  max-score, greedy, cautious:0 .. cautious:3): win rate of `win` with its 95% interval,
  overall and by seat, mean scores, mean turns, games/s of the kernel;
- mixed tables of three, four and five players: every strategy's win rate with its interval,
  and `win`'s by seat;
- the same two-player series under the lock-after-4 variant (--variant-games);
- the time of one `win` decision in the Python Advisor that `qwixx track` and `qwixx advise`
  use (median, 95th and 99th percentile over every decision of a few played games).
"""
import argparse
import json
import statistics

import numpy as np
import time
from pathlib import Path

from qwixx_stats import Game
from qwixx_stats.strategies.registry import TUNED_WEIGHTS
from qwixx_stats.tables.race import CORRELATION, RaceTable
from qwixx_stats.strategies.simulate import parse_strategies, simulate, win_interval
from qwixx_stats.tables.solitaire import ExpectedValues
from qwixx_stats.rules.stream import SplitMix64
from qwixx_stats.advisor import Advisor

RESULTS = Path(__file__).resolve().parents[1] / "results"
OPPONENTS = ["qwixxer-ga", "scored", "weighted", "max-score", "greedy", "cautious:0",
             "cautious:1", "cautious:2", "cautious:3"]
MIXED = ["win,scored,weighted", "win,qwixxer-ga,scored", "win,max-score,cautious:2",
         "win,scored,weighted,cautious:2", "win,qwixxer-ga,scored,weighted",
         "win,max-score,cautious:2,cautious:3", "win,greedy,cautious:1,random",
         "win,scored,weighted,cautious:2,max-score", "win,qwixxer-ga,scored,weighted,cautious:2",
         "win,greedy,cautious:1,cautious:3,random"]


def by_seat(result, entry=0):
    """The win rate of the strategy at `entry`, seat by seat, with 95% intervals (the seats
    rotate: game n seats entry e at (e + n) mod players)."""
    scores = result.scores
    players = scores.shape[1]
    top = scores.max(axis=1)
    winners = scores == top[:, None]
    share = winners[:, entry] / winners.sum(axis=1)
    seats = []
    for seat in range(players):
        games = share[(np.arange(len(share)) + entry) % players == seat]
        low, high = win_interval(float(games.sum()), float((games * games).sum()), len(games))
        seats.append({"seat": seat + 1, "games": int(len(games)),
                      "win_rate": float(games.mean()), "win_rate_ci95": [low, high]})
    return seats


def measured_tables(player):
    """The mixed tables with `player` in the first entry."""
    return [player + text[len("win"):] for text in MIXED]


def series(text, players, games, seed, lock_after=5):
    result = simulate(parse_strategies(text, players), games, seed, lock_after=lock_after)
    summary = result.summary()
    summary["win_by_seat"] = by_seat(result)
    return summary


def seat_text(seats):
    return ", ".join(f"seat {s['seat']} {s['win_rate']:.4f} [{s['win_rate_ci95'][0]:.4f}, "
                     f"{s['win_rate_ci95'][1]:.4f}]" for s in seats)


def head_to_head(player, games, seed, lock_after):
    rows = []
    for opponent in (["win"] if player != "win" else []) + OPPONENTS:
        summary = series(f"{player},{opponent}", 2, games, seed, lock_after)
        win, other = summary["players"]
        rows.append({"opponent": opponent, "win_rate": win["win_rate"],
                     "win_rate_ci95": win["win_rate_ci95"], "by_seat": summary["win_by_seat"],
                     "mean": win["mean"], "opponent_mean": other["mean"],
                     "mean_turns": summary["mean_turns"], "endings": summary["endings"],
                     "games_per_second": summary["games_per_second"]})
        low, high = win["win_rate_ci95"]
        print(f"  {player} vs {opponent:<11} {win['win_rate']:.4f} [{low:.4f}, {high:.4f}]  means "
              f"{win['mean']:.1f} vs {other['mean']:.1f}, {summary['mean_turns']:.1f} turns, "
              f"{summary['games_per_second']:,.0f} games/s; by seat: "
              f"{seat_text(summary['win_by_seat'])}", flush=True)
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
        if active:
            return self._timed(self.advisor.active, dice)[0]
        return self._timed(self.advisor.passive, dice, self.game.active)[0]

    def second_action(self, sheet, dice, marked_first):
        return self._timed(self.advisor.second, dice, marked_first)[1]


def decision_times(player, seed, games, players=2):
    """Seconds of each decision of the Advisor judging as `player` (all options rated and
    ranked, expected scores beside), over every decision of `games` played games, everyone
    playing its advice."""
    advisor = Advisor(RaceTable.load(players=players), ExpectedValues.load(), player)
    times = []
    for index in range(games):
        stream = SplitMix64.for_game(seed, index)
        game = Game(players)
        seated = [AdvisedPlayer(advisor, game, seat, times) for seat in range(players)]
        while not game.is_over():
            game.play_turn_with(stream.roll(), seated)
    times.sort()
    return {"players": players, "decisions": len(times),
            "median_ms": 1000 * statistics.median(times),
            "p95_ms": 1000 * times[int(0.95 * (len(times) - 1))],
            "p99_ms": 1000 * times[int(0.99 * (len(times) - 1))], "max_ms": 1000 * times[-1]}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--variant-games", type=int, default=20_000)
    parser.add_argument("--timing-games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--player", choices=["win", "lookahead"], default="win")
    parser.add_argument("--out", default=None, help="default: results/qwixx-PLAYER.json")
    args = parser.parse_args()
    out = args.out or str(RESULTS / f"qwixx-{args.player}.json")
    if args.seed >= 1000:
        parser.error("measuring seeds are below 1000 (1000 and up are tuning seeds)")
    report = {"player": args.player, "games": args.games, "seed": args.seed,
              "correlation": CORRELATION,
              "weights": {name: list(w) for name, w in TUNED_WEIGHTS.items()}}
    print(f"two players, {args.games:,} games each, seats rotated (lock after 5):")
    report["head_to_head"] = head_to_head(args.player, args.games, args.seed, 5)
    report["mixed_tables"] = []
    for text in measured_tables(args.player):
        players = text.count(",") + 1
        summary = series(text, players, args.games, args.seed)
        rates = sorted((p["win_rate"] for p in summary["players"]), reverse=True)
        report["mixed_tables"].append({"strategies": text, "players": summary["players"],
                                       "win_by_seat": summary["win_by_seat"],
                                       "gap_to_next": summary["players"][0]["win_rate"]
                                       - max(p["win_rate"] for p in summary["players"][1:]),
                                       "mean_turns": summary["mean_turns"],
                                       "games_per_second": summary["games_per_second"]})
        print(f"{players} players [{text}], {args.games:,} games: " + ", ".join(
            f"{p['strategy']} {p['win_rate']:.4f} [{p['win_rate_ci95'][0]:.4f}, "
            f"{p['win_rate_ci95'][1]:.4f}]" for p in summary["players"])
            + f"; gap {rates[0] - rates[1]:.4f}; win by seat: "
            f"{seat_text(summary['win_by_seat'])}; {summary['games_per_second']:,.0f} games/s",
            flush=True)
    print(f"two players, lock after 4, {args.variant_games:,} games each:")
    report["head_to_head_lock_after_4"] = head_to_head(args.player, args.variant_games,
                                                       args.seed, 4)
    report["advisor_decision"] = []
    for players in (2, 4):
        timing = decision_times(args.player, args.seed, args.timing_games, players)
        report["advisor_decision"].append(timing)
        print(f"Advisor decision (track, advise), {players} players: median "
              f"{timing['median_ms']:.2f} ms, 95th percentile {timing['p95_ms']:.2f} ms, 99th "
              f"{timing['p99_ms']:.2f} ms, max {timing['max_ms']:.2f} ms over "
              f"{timing['decisions']} decisions", flush=True)
    Path(out).write_text(json.dumps(report, indent=1) + "\n")
    print(f"written {out}")


if __name__ == "__main__":
    main()
