"""Issue 24: what exact endgames could add to `lookahead` against `qwixxer-ga`.

    python benchmarks/qwixx/qwixx_endgame_search.py --games 4000 --rollouts 256

An exact two-player endgame table would replace lookahead's learned value by the true chance
near the end of a game. This measures the most that can bring, with the best stand-in there
is: near the end (a row closed, or a player with three penalties), lookahead's close choices
(within --margin of its best, at most --most of them) are rated again by --rollouts games
played on from each, with common random numbers, in which lookahead plays on as itself and the
opponent as it really plays (`qwixxer-ga`, not a model of it). The best measured choice is
played. Those ratings know the opponent, which a table solved for best play on both sides
would not; with enough rollouts they are as close to the truth of this match as such a table.

The games are played by game.Game: lookahead's decisions come from the kernel through the
Python `Advisor`, and the opponent is the Python twin of qwixxer-ga. Without the search these
are exactly the kernel's games of `simulate` (the script checks it on the first --check games),
so the games of the simulator, on the same seeds, are the baseline. Each game's result with
the search is paired with the same game's without it (the same rolls). Printed: both win rates
with 95% intervals, the paired difference with its interval, the decisions searched and how
many changed. Seeds: 2002 by default, an experiment seed (the measuring seeds of
qwixx_win.py are below 1000; nothing is tuned on this one).
"""
import argparse
import json
import math
import time
from pathlib import Path
from typing import Optional

import numpy as np

from qwixx_stats.advisor import Advice, Advisor
from qwixx_stats.rules.game import Game, Option, SecondMark
from qwixx_stats.strategies.qwixxer import QwixxerPlayer
from qwixx_stats.tables.race import RaceTable
from qwixx_stats.rules.constants import PENALTIES_TO_END
from qwixx_stats.rules.sheet import Dice, Sheet, closed_rows
from qwixx_stats.strategies.simulate import parse_strategies, simulate, win_interval
from qwixx_stats.tables.solitaire import ExpectedValues
from qwixx_stats.rules.stream import SplitMix64
from qwixx_stats.strategies.rollouts import rollout_chance
from solverkit.progress import Progress

RESULTS = Path(__file__).resolve().parents[1] / "results"
OPPONENT = "qwixxer-ga"


def near_the_end(sheets: list[Sheet]) -> bool:
    """A row closed (one more ends the game) or a player one penalty from ending it."""
    return bool(closed_rows(sheets)) or any(
        sheet.penalties >= PENALTIES_TO_END - 1 for sheet in sheets)


class SearchingPlayer:
    """lookahead (the kernel's, through the Advisor) whose close choices near the end are
    rated again by rollouts in which everyone plays on as they really do."""

    def __init__(self, advisor: Advisor, game: Game, seat: int, rollouts: int, margin: float,
                 most: int, seed: int):
        self.advisor, self.game, self.seat = advisor, game, seat
        self.rollouts, self.margin, self.most, self.seed = rollouts, margin, most, seed
        self.players = ["lookahead"] * game.players
        self.players[1 - seat] = OPPONENT
        self.plan: Optional[tuple[int, Option]] = None    # (turn, plan) the search changed
        self.searched = self.changed = 0

    def _choose(self, advice: list[Advice], dice: Dice, active: bool) -> Option:
        if self.rollouts == 0 or not near_the_end(self.game.sheets):
            return advice[0].option
        close = [item for item in advice
                 if item.win_chance >= advice[0].win_chance - self.margin][:self.most]
        if len(close) < 2:
            return advice[0].option
        turn = len(self.game.history)
        measured = [rollout_chance(self.advisor.race, self.game.sheets, self.seat, dice,
                                   self.game.active, item.option, self.rollouts,
                                   self.seed * 1_000_003 + turn, strategies=self.players,
                                   learned=self.advisor.learned).chance for item in close]
        best = max(range(len(close)), key=lambda i: (measured[i], -i))
        self.searched += 1
        if best:
            self.changed += 1
            if active:    # a passive choice has no action 2 to remember
                self.plan = (turn, close[best].option)
        return close[best].option

    def first_action(self, sheet: Sheet, dice: Dice, active: bool) -> Optional[str]:
        sheets, seat = self.game.sheets, self.seat
        if active:
            return self._choose(self.advisor.active(sheets, seat, dice), dice, True)[0]
        return self._choose(self.advisor.passive(sheets, seat, dice, self.game.active),
                            dice, False)[0]

    def second_action(self, sheet: Sheet, dice: Dice, marked_first: bool) -> SecondMark:
        """The mark of a plan the search chose over lookahead's while it is legal (as the
        rollouts played it), else lookahead's choice once action 1 is resolved."""
        plan, self.plan = self.plan, None
        if plan is not None and plan[0] == len(self.game.history):
            second = plan[1][1]
            if second is None or sheet.can_mark(*second):
                return second
        return self.advisor.second(self.game.sheets, self.seat, dice, marked_first)[0].option[1]


def play(advisor: Advisor, games: int, seed: int, rollouts: int, margin: float,
         most: int, label: str) -> tuple[np.ndarray, int, int]:
    """Game g seats the searcher at g mod 2, as `simulate` rotates its entries; returns
    its score and the opponent's per game, the decisions searched and those changed. A
    progress bar on a terminal."""
    scores = np.zeros((games, 2), dtype=np.int64)
    searched = changed = 0
    progress = Progress(games, label)
    for index in range(games):
        stream = SplitMix64.for_game(seed, index)
        game = Game(2, lock_after=advisor.race.lock_after)
        seat = index % 2
        searcher = SearchingPlayer(advisor, game, seat, rollouts, margin, most, seed + index)
        players: list = [None, None]
        players[seat], players[1 - seat] = searcher, QwixxerPlayer(game, 1 - seat)
        while not game.is_over():
            game.play_turn_with(stream.roll(), players)
        final = game.scores()
        scores[index] = final[seat], final[1 - seat]
        searched, changed = searched + searcher.searched, changed + searcher.changed
        progress.advance(1)
    progress.close()
    return scores, searched, changed


def shares(scores: np.ndarray) -> np.ndarray:
    return np.where(scores[:, 0] > scores[:, 1], 1.0,
                    np.where(scores[:, 0] == scores[:, 1], 0.5, 0.0))


def rate(share: np.ndarray) -> dict:
    low, high = win_interval(float(share.sum()), float((share * share).sum()), len(share))
    return {"win_rate": float(share.mean()), "win_rate_ci95": [low, high]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=2002)
    parser.add_argument("--rollouts", type=int, default=256)
    parser.add_argument("--margin", type=float, default=0.1)
    parser.add_argument("--most", type=int, default=6)
    parser.add_argument("--check", type=int, default=200,
                        help="games replayed without the search, to equal the simulator's")
    parser.add_argument("--out", type=Path,
                        default=RESULTS / "qwixx-endgame-search.json")
    args = parser.parse_args()
    race = RaceTable.load(players=2)
    advisor = Advisor(race, ExpectedValues.load(), "lookahead")
    kernel = simulate(parse_strategies(f"lookahead,{OPPONENT}", 2), args.games, args.seed)
    baseline = kernel.scores.astype(np.int64)
    replayed, _, _ = play(advisor, args.check, args.seed, 0, args.margin, args.most,
                          "games without search")
    if not np.array_equal(replayed, baseline[:args.check]):
        raise SystemExit("the Python games without search differ from the simulator's")
    print(f"checked: {args.check} games without search equal the simulator's")
    started = time.perf_counter()
    searched_scores, searched, changed = play(advisor, args.games, args.seed, args.rollouts,
                                              args.margin, args.most, "games with search")
    seconds = time.perf_counter() - started
    base, search = shares(baseline), shares(searched_scores)
    difference = search - base
    spread = 1.96 * float(difference.std(ddof=1)) / math.sqrt(len(difference))
    report = {
        "opponent": OPPONENT, "games": args.games, "seed": args.seed,
        "rollouts": args.rollouts, "margin": args.margin, "most": args.most,
        "lookahead": rate(base), "lookahead_with_endgame_search": rate(search),
        "difference": float(difference.mean()),
        "difference_ci95": [float(difference.mean()) - spread,
                            float(difference.mean()) + spread],
        "decisions_searched": searched, "decisions_changed": changed,
        "games_changed": int((difference != 0).sum()), "seconds": seconds}
    print(json.dumps(report, indent=1))
    args.out.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
