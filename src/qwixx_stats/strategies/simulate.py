"""Games between strategies with the full rules: `simulate` runs the Cython kernel in
batches (a progress bar on a terminal), `simulate_twin` the pure-Python reference; the
same seed gives the same games in both.

Fair tournaments: with `rotate=True` (the default) the strategies change seats every game,
game n seating the strategy listed at entry e at seat (e + n) mod players, so over a multiple
of `players` games every strategy plays every seat equally often (the first seat is worth a
few percent). Results are per entry of the strategy list: mean score, win rate with its 95%
confidence interval (normal approximation over games; a tie of k at the top counts 1/k), how
the games ended (two closed rows, or a fourth penalty) and the mean number of turns.

Memory: with `keep_games=True` (the default) every game's scores and turns are kept, 4 bytes
per player plus 4 a game, so at most MAX_KEPT_GAMES games (10**7: 360 MB with 8 players);
with `keep_games=False` only running totals are kept (memory independent of the number of
games, up to MAX_GAMES), which is what the command line uses."""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

import numpy as np
import numpy.typing as npt

from solverkit.messages import clip

from . import _simulate
from ..errors import SimulationError, StrategyError
from ..rules.game import MAX_PLAYERS, Game
from .heuristics import WEIGHT_COUNT
from .kernel_view import kernel_race
from .lookahead import LearnedValue
from ..tables.race import RaceTable
from .registry import (STRATEGY_CODES, STRATEGY_HELP, Seat, Strategy, check_strategies,
                       models_for, parse_strategies)
from ..rules.constants import CLOSED_ROWS_TO_END, MARKS_TO_LOCK
from ..rules.sheet import check_lock_after, is_whole
from ..tables.solitaire import ExpectedValues
from ..rules.stream import SplitMix64

BATCH = 20_000
MAX_GAMES = 10 ** 9              # about an hour and a half at 200,000 games/s
MAX_KEPT_GAMES = 10 ** 7         # keep_games=True: 4 * (players + 1) bytes a game
Z95 = 1.959963984540054                  # the 97.5% point of the standard normal
ENDINGS = tuple(_simulate.ENDINGS)       # ("locks", "penalties"), codes 1 and 2

__all__ = ["BATCH", "MAX_GAMES", "MAX_KEPT_GAMES", "MAX_PLAYERS", "STRATEGY_HELP",
           "SimulationResult", "Strategy", "StrategyError", "parse_strategies", "simulate",
           "simulate_twin"]


def check_games(games: int, players: int, keep_games: bool) -> int:
    if not is_whole(games) or not 1 <= games <= MAX_GAMES:
        raise SimulationError(f"games must be a whole number 1..{MAX_GAMES:,}, not "
                              f"{clip(games)}")
    if keep_games and games > MAX_KEPT_GAMES:
        size = 4 * (players + 1) * games
        raise SimulationError(
            f"keeping every game's scores of {games:,} games takes {size / 1e6:,.0f} MB; "
            f"at most {MAX_KEPT_GAMES:,} games with keep_games=True (use keep_games=False "
            "for running totals only)")
    return games


def check_seed(seed: int) -> int:
    if not is_whole(seed) or not 0 <= seed < 2 ** 64:
        raise SimulationError(f"seed must be a whole number 0 .. 2**64-1, not {clip(seed)}")
    return seed


@dataclass
class Totals:
    """Running totals of a series of games (exact integer sums; win shares in floats), per
    entry of the strategy list."""
    players: int
    games: int = 0
    score_sum: list[int] = field(default_factory=list)
    score_squares: list[int] = field(default_factory=list)
    score_min: list[Optional[int]] = field(default_factory=list)
    score_max: list[Optional[int]] = field(default_factory=list)
    wins: Optional[npt.NDArray[np.float64]] = None          # zeros (players,) when not given
    win_squares: Optional[npt.NDArray[np.float64]] = None   # sums of squared win shares
    turn_sum: int = 0
    endings: dict[str, int] = field(default_factory=dict)   # ENDINGS -> games

    def __post_init__(self) -> None:
        if not self.score_sum:
            self.score_sum = [0] * self.players
            self.score_squares = [0] * self.players
            self.score_min = [None] * self.players
            self.score_max = [None] * self.players
        if self.wins is None:
            self.wins = np.zeros(self.players, dtype=np.float64)
        if self.win_squares is None:
            self.win_squares = np.zeros(self.players, dtype=np.float64)
        for name in ENDINGS:
            self.endings.setdefault(name, 0)

    def add(self, scores: np.ndarray, turns: np.ndarray,
            endings: Optional[np.ndarray] = None) -> None:
        """Add a batch: scores (games, players), turns (games,), endings (games,) in the codes
        of _simulate.ENDINGS (unknown when None)."""
        if scores.shape[0] == 0:
            return
        # one row per entry (contiguous): numpy reduces along a row many times faster than
        # down the short columns of (games, players), and this runs between kernel batches,
        # while the second core waits
        by_entry = np.ascontiguousarray(scores.T, dtype=np.int64)
        sums, squares = by_entry.sum(axis=1), np.einsum("ij,ij->i", by_entry, by_entry)
        lows, highs = by_entry.min(axis=1), by_entry.max(axis=1)
        for i in range(self.players):
            self.score_sum[i] += int(sums[i])
            self.score_squares[i] += int(squares[i])
            low, high = int(lows[i]), int(highs[i])
            least, most = self.score_min[i], self.score_max[i]
            self.score_min[i] = low if least is None else min(least, low)
            self.score_max[i] = high if most is None else max(most, high)
        winners = by_entry == by_entry.max(axis=0)          # (players, games)
        share = 1.0 / winners.sum(axis=0)                   # each winner's share of a game
        assert self.wins is not None and self.win_squares is not None   # __post_init__
        self.wins += winners @ share
        self.win_squares += winners @ (share * share)
        self.turn_sum += int(turns.sum(dtype=np.int64))
        if endings is not None:
            for name, code in _simulate.ENDINGS.items():
                self.endings[name] += int(np.count_nonzero(endings == code))
        self.games += int(scores.shape[0])

    @classmethod
    def of(cls, scores: np.ndarray, turns: np.ndarray,
           endings: Optional[np.ndarray] = None) -> "Totals":
        scores, turns = np.asarray(scores), np.asarray(turns)
        if scores.ndim != 2 or turns.shape != (scores.shape[0],):
            raise SimulationError("scores must be (games, players) and turns (games,)")
        if endings is not None and np.asarray(endings).shape != turns.shape:
            raise SimulationError("endings must be (games,)")
        totals = cls(scores.shape[1])
        totals.add(scores, turns, None if endings is None else np.asarray(endings))
        return totals


def win_interval(wins: float, squares: float, games: int) -> tuple[float, float]:
    """The 95% confidence interval of a win rate from the sum of win shares and of their
    squares over `games` games (normal approximation), clipped to [0, 1]."""
    rate = wins / games
    variance = (squares / games - rate * rate) * games / (games - 1) if games > 1 else 0.0
    half = Z95 * math.sqrt(max(variance, 0.0) / games)
    return max(rate - half, 0.0), min(rate + half, 1.0)


@dataclass
class SimulationResult:
    strategies: list[Strategy]
    seed: int
    scores: Optional[np.ndarray]      # (games, players) per entry; None when keep_games=False
    turns: Optional[np.ndarray]       # (games,); None when keep_games=False
    seconds: float = 0.0
    totals: Optional[Totals] = None   # computed from scores and turns when not given
    rotate: bool = True               # seats rotated (see the module's head comment)
    lock_after: int = MARKS_TO_LOCK
    endings: Optional[np.ndarray] = None   # (games,) codes of ENDINGS; None: not kept

    def __post_init__(self) -> None:
        if self.totals is None:
            if self.scores is None or self.turns is None:
                raise SimulationError("a result needs either scores and turns or totals")
            self.totals = Totals.of(self.scores, self.turns, self.endings)
        if self.totals.games < 1:
            raise SimulationError("a simulation result needs at least one game")

    @property
    def games(self) -> int:
        assert self.totals is not None                  # set by __post_init__
        return self.totals.games

    def summary(self) -> dict[str, Any]:
        totals = self.totals
        assert totals is not None and totals.wins is not None   # set by __post_init__
        assert totals.win_squares is not None
        games = totals.games
        players = []
        for entry, strategy in enumerate(self.strategies):
            total, squares = totals.score_sum[entry], totals.score_squares[entry]
            spread = (games * squares - total * total) / (games * (games - 1)) if games > 1 else 0
            low, high = win_interval(float(totals.wins[entry]),
                                     float(totals.win_squares[entry]), games)
            players.append({
                "player": entry + 1,
                "strategy": str(strategy),
                "mean": total / games,
                "std": math.sqrt(max(spread, 0.0)),
                "min": totals.score_min[entry],
                "max": totals.score_max[entry],
                "win_rate": float(totals.wins[entry] / games),
                "win_rate_ci95": [low, high],
            })
        players_count = len(self.strategies)
        return {
            "players": players,
            "games": games,
            "seed": self.seed,
            "lock_after": self.lock_after,
            "rotate_seats": self.rotate,
            "seats_balanced": (not self.rotate) or games % players_count == 0,
            "mean_turns": totals.turn_sum / games,
            "endings": dict(totals.endings),
            "seconds": self.seconds,
            "games_per_second": games / self.seconds if self.seconds > 0 else None,
        }


def check_flag(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise SimulationError(f"{name} must be True or False, not {clip(value)}")
    return value


def simulate(strategies: list[Strategy], games: int, seed: int, *,
             values: Optional[ExpectedValues] = None, race: Optional[RaceTable] = None,
             progress: Optional[Callable[[int], None]] = None,
             keep_games: bool = True, rotate: bool = True,
             lock_after: int = MARKS_TO_LOCK,
             learned: Optional[LearnedValue] = None) -> SimulationResult:
    """Play `games` games (1..MAX_GAMES) with the Cython kernel (both cores); reproducible
    from `seed` (0..2**64-1). keep_games=False keeps running totals only (result.scores and
    result.turns are then None), so memory does not grow with `games`. `rotate` moves the
    strategies round the seats game by game; `lock_after` is the lock rule (5 or 4). The
    tables the strategies need are loaded (solved once) unless given; `learned` is the value
    lookahead reads at two players (default: the one shipped, lookahead.LEARNED_FILE)."""
    strategies = check_strategies(strategies)
    check_flag("keep_games", keep_games)
    check_flag("rotate", rotate)
    check_lock_after(lock_after)
    check_games(games, len(strategies), keep_games)
    check_seed(seed)
    if progress is not None and not callable(progress):
        raise SimulationError(f"progress must be a function or None, not {clip(progress)}")
    models = models_for(strategies, lock_after, values, race, learned)
    future = models.values.future if models.values is not None else np.zeros((1, 4))
    codes = np.array([STRATEGY_CODES[s.name] for s in strategies], dtype=np.int32)
    limits = np.array([s.limit for s in strategies], dtype=np.int32)
    lineup = _simulate.Lineup(codes, limits, future,
                              None if models.race is None else kernel_race(models.race),
                              heuristic_weights(strategies),
                              None if models.learned is None else models.learned.weights)
    rows = games if keep_games else min(games, BATCH)
    scores = np.zeros((rows, len(strategies)), dtype=np.int32)
    turns = np.zeros(rows, dtype=np.int32)
    endings = np.zeros(rows, dtype=np.int32)
    totals = Totals(len(strategies))
    started = time.perf_counter()
    for first in range(0, games, BATCH):
        count = min(BATCH, games - first)
        at = first if keep_games else 0
        batch = slice(at, at + count)
        _simulate.simulate(lineup, first, seed, scores[batch], turns[batch], endings[batch],
                           lock_after=lock_after, rotate=rotate)
        totals.add(scores[batch], turns[batch], endings[batch])
        if progress is not None:
            progress(count)
    kept = keep_games
    return SimulationResult(strategies, seed, scores if kept else None, turns if kept else None,
                            time.perf_counter() - started, totals, rotate, lock_after,
                            endings if kept else None)


def heuristic_weights(strategies: list[Strategy]) -> np.ndarray:
    """The kernel's weights of the heuristic players: one row per entry (zeros for others)."""
    table = np.zeros((len(strategies), WEIGHT_COUNT), dtype=np.float64)
    for entry, strategy in enumerate(strategies):
        if strategy.weights:
            table[entry] = strategy.weights
    return table


def seat_of(entry: int, game: int, players: int, rotate: bool) -> int:
    """The seat of the strategy listed at `entry` in game number `game` of a series."""
    return (entry + game) % players if rotate else entry


def simulate_twin(strategies: list[Strategy], games: int, seed: int, *,
                    values: Optional[ExpectedValues] = None, race: Optional[RaceTable] = None,
                    rotate: bool = True, lock_after: int = MARKS_TO_LOCK,
                    learned: Optional[LearnedValue] = None) -> SimulationResult:
    """The same games as `simulate`, played by game.Game and the Python players (slow)."""
    strategies = check_strategies(strategies)
    check_games(games, len(strategies), True)
    check_seed(seed)
    check_flag("rotate", rotate)
    check_lock_after(lock_after)
    models = models_for(strategies, lock_after, values, race, learned)
    players = len(strategies)
    scores = np.zeros((games, players), dtype=np.int32)
    turns = np.zeros(games, dtype=np.int32)
    endings = np.zeros(games, dtype=np.int32)
    started = time.perf_counter()
    for index in range(games):
        stream = SplitMix64.for_game(seed, index)
        game = Game(players, lock_after=lock_after)
        seats = [seat_of(entry, index, players, rotate) for entry in range(players)]
        by_seat: list[Optional[Strategy]] = [None] * players
        for entry, seat in enumerate(seats):
            by_seat[seat] = strategies[entry]
        seated = [strategy.player(Seat(game, seat, stream, models))
                  for seat, strategy in enumerate(by_seat) if strategy is not None]
        while not game.is_over():
            game.play_turn_with(stream.roll(), seated)
        final = game.scores()
        scores[index] = [final[seat] for seat in seats]
        turns[index] = len(game.history)
        endings[index] = _simulate.ENDINGS[ending(game)]
    return SimulationResult(strategies, seed, scores, turns, time.perf_counter() - started,
                            rotate=rotate, lock_after=lock_after, endings=endings)


def ending(game: Game) -> str:
    """How a finished game ended (a key of ENDINGS): "locks" when the closed rows ended it,
    "penalties" when a player's fourth penalty did."""
    return "locks" if len(game.closed) >= CLOSED_ROWS_TO_END else "penalties"
