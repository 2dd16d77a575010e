"""Games between strategies with the full rules: `simulate` runs the Cython kernel in
batches (a progress bar on a terminal), `simulate_python` the pure-Python reference; the
same seed gives the same games in both.

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

from . import _simulate
from .errors import SimulationError, StrategyError, clip
from .game import MAX_PLAYERS, Game, Player
from .sheet import is_whole
from .solitaire import ExpectedValues, OptimalPlayer
from .strategies import CautiousPlayer, GreedyPlayer, RandomPlayer, SplitMix64

BATCH = 20_000
MAX_GAMES = 10 ** 9              # about an hour and a half at 200,000 games/s
MAX_KEPT_GAMES = 10 ** 7         # keep_games=True: 4 * (players + 1) bytes a game
MAX_LIMIT = 10                   # cautious:K skips at most K of a row's 11 boxes
STRATEGY_HELP = "optimal, greedy, cautious:K (skip at most K boxes, 0..10) or random"

__all__ = ["BATCH", "MAX_GAMES", "MAX_KEPT_GAMES", "MAX_PLAYERS", "SimulationResult",
           "Strategy", "StrategyError", "parse_strategies", "simulate", "simulate_python"]


@dataclass(frozen=True)
class Strategy:
    name: str            # optimal, greedy, cautious, random
    limit: int = 0       # cautious: the most boxes one mark may skip

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or self.name not in _simulate.STRATEGY_CODES:
            raise StrategyError(f"unknown strategy {clip(self.name)}: expected {STRATEGY_HELP}")
        if not is_whole(self.limit) or not 0 <= self.limit <= MAX_LIMIT:
            raise StrategyError(f"a strategy's limit must be 0..{MAX_LIMIT}, not "
                                f"{clip(self.limit)}")
        if self.name != "cautious" and self.limit:
            raise StrategyError(f"strategy {self.name!r} takes no limit")

    def __str__(self) -> str:
        return f"cautious:{self.limit}" if self.name == "cautious" else self.name

    @classmethod
    def parse(cls, text: str) -> "Strategy":
        if not isinstance(text, str):
            raise StrategyError(f"a strategy is written as text ({STRATEGY_HELP}), not "
                                f"{type(text).__name__}")
        name, _, argument = text.strip().partition(":")
        if name not in _simulate.STRATEGY_CODES:
            raise StrategyError(f"unknown strategy {clip(text)}: expected {STRATEGY_HELP}")
        if name != "cautious":
            if argument:
                raise StrategyError(f"strategy {name!r} takes no argument")
            return cls(name)
        argument = argument.strip()
        if argument and not (argument.isascii() and argument.isdigit()):
            raise StrategyError(f"cautious:K needs a whole number K, not {clip(argument)}")
        if len(argument) > 20:
            raise StrategyError(f"cautious:K needs 0 <= K <= {MAX_LIMIT}, not {clip(argument)}")
        limit = int(argument) if argument else 1
        if not 0 <= limit <= MAX_LIMIT:
            raise StrategyError(f"cautious:K needs 0 <= K <= {MAX_LIMIT}, not {limit}")
        return cls(name, limit)


def check_players(players: int) -> int:
    if not is_whole(players) or not 1 <= players <= MAX_PLAYERS:
        raise StrategyError(f"players must be 1..{MAX_PLAYERS}, not {clip(players)}")
    return players


def parse_strategies(text: str, players: int) -> list[Strategy]:
    """One strategy for everyone, or one per seat: `optimal,greedy,cautious:2,random`."""
    check_players(players)
    if not isinstance(text, str):
        raise StrategyError(f"strategies are written as text like optimal,greedy, not "
                            f"{type(text).__name__}")
    parts = text.split(",", MAX_PLAYERS)
    if len(parts) > MAX_PLAYERS:
        raise StrategyError(f"more than {MAX_PLAYERS} strategies for {players} players: give "
                            "one for everyone or one per player")
    strategies = [Strategy.parse(part) for part in parts]
    if len(strategies) == 1:
        strategies *= players
    if len(strategies) != players:
        raise StrategyError(f"{len(strategies)} strategies for {players} players: give one "
                            "for everyone or one per player")
    return strategies


def check_strategies(strategies: object) -> list[Strategy]:
    if (not isinstance(strategies, (list, tuple))
            or not all(isinstance(s, Strategy) for s in strategies)):
        raise StrategyError(f"strategies must be a list of Strategy (see parse_strategies), not "
                            f"{clip(strategies)}")
    check_players(len(strategies))
    return list(strategies)


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
    """Running totals of a series of games (exact integer sums; win shares in floats)."""
    players: int
    games: int = 0
    score_sum: list[int] = field(default_factory=list)
    score_squares: list[int] = field(default_factory=list)
    score_min: list[Optional[int]] = field(default_factory=list)
    score_max: list[Optional[int]] = field(default_factory=list)
    wins: Optional[npt.NDArray[np.float64]] = None     # zeros (players,) when not given
    turn_sum: int = 0

    def __post_init__(self) -> None:
        if not self.score_sum:
            self.score_sum = [0] * self.players
            self.score_squares = [0] * self.players
            self.score_min = [None] * self.players
            self.score_max = [None] * self.players
        if self.wins is None:
            self.wins = np.zeros(self.players, dtype=np.float64)

    def add(self, scores: np.ndarray, turns: np.ndarray) -> None:
        """Add a batch: scores (games, players), turns (games,)."""
        if scores.shape[0] == 0:
            return
        wide = scores.astype(np.int64)
        sums, squares = wide.sum(axis=0), (wide * wide).sum(axis=0)
        lows, highs = wide.min(axis=0), wide.max(axis=0)
        for i in range(self.players):
            self.score_sum[i] += int(sums[i])
            self.score_squares[i] += int(squares[i])
            low, high = int(lows[i]), int(highs[i])
            least, most = self.score_min[i], self.score_max[i]
            self.score_min[i] = low if least is None else min(least, low)
            self.score_max[i] = high if most is None else max(most, high)
        winners = wide == wide.max(axis=1, keepdims=True)
        assert self.wins is not None                    # set by __post_init__
        self.wins += (winners / winners.sum(axis=1, keepdims=True)).sum(axis=0)
        self.turn_sum += int(turns.astype(np.int64).sum())
        self.games += int(scores.shape[0])

    @classmethod
    def of(cls, scores: np.ndarray, turns: np.ndarray) -> "Totals":
        scores, turns = np.asarray(scores), np.asarray(turns)
        if scores.ndim != 2 or turns.shape != (scores.shape[0],):
            raise SimulationError("scores must be (games, players) and turns (games,)")
        totals = cls(scores.shape[1])
        totals.add(scores, turns)
        return totals


@dataclass
class SimulationResult:
    strategies: list[Strategy]
    seed: int
    scores: Optional[np.ndarray]      # (games, players); None when keep_games=False
    turns: Optional[np.ndarray]       # (games,); None when keep_games=False
    seconds: float = 0.0
    totals: Optional[Totals] = None   # computed from scores and turns when not given

    def __post_init__(self) -> None:
        if self.totals is None:
            if self.scores is None or self.turns is None:
                raise SimulationError("a result needs either scores and turns or totals")
            self.totals = Totals.of(self.scores, self.turns)
        if self.totals.games < 1:
            raise SimulationError("a simulation result needs at least one game")

    @property
    def games(self) -> int:
        assert self.totals is not None                  # set by __post_init__
        return self.totals.games

    def win_shares(self) -> npt.NDArray[np.float64]:
        """Per player: games won, a tie among t players counting 1/t each."""
        assert self.totals is not None and self.totals.wins is not None   # __post_init__
        return self.totals.wins.copy()

    def summary(self) -> dict[str, Any]:
        totals = self.totals
        assert totals is not None and totals.wins is not None   # set by __post_init__
        games = totals.games
        players = []
        for seat, strategy in enumerate(self.strategies):
            total, squares = totals.score_sum[seat], totals.score_squares[seat]
            spread = (games * squares - total * total) / (games * (games - 1)) if games > 1 else 0
            players.append({
                "seat": seat + 1,
                "strategy": str(strategy),
                "mean": total / games,
                "std": math.sqrt(max(spread, 0.0)),
                "min": totals.score_min[seat],
                "max": totals.score_max[seat],
                "win_rate": float(totals.wins[seat] / games),
            })
        return {
            "players": players,
            "games": games,
            "seed": self.seed,
            "mean_turns": totals.turn_sum / games,
            "seconds": self.seconds,
            "games_per_second": games / self.seconds if self.seconds > 0 else None,
        }


def _table_for(strategies: list[Strategy], values: Optional[ExpectedValues]) -> np.ndarray:
    if values is not None and not isinstance(values, ExpectedValues):
        raise SimulationError(f"values must be an ExpectedValues table, not "
                              f"{type(values).__name__}")
    if any(s.name == "optimal" for s in strategies):
        return (values or ExpectedValues.load()).future
    return np.zeros((1, 4))


def simulate(strategies: list[Strategy], games: int, seed: int, *,
             values: Optional[ExpectedValues] = None,
             progress: Optional[Callable[[int], None]] = None,
             keep_games: bool = True) -> SimulationResult:
    """Play `games` games (1..MAX_GAMES) with the Cython kernel (both cores); reproducible
    from `seed` (0..2**64-1). keep_games=False keeps running totals only (result.scores and
    result.turns are then None), so memory does not grow with `games`."""
    strategies = check_strategies(strategies)
    if not isinstance(keep_games, bool):
        raise SimulationError(f"keep_games must be True or False, not {clip(keep_games)}")
    check_games(games, len(strategies), keep_games)
    check_seed(seed)
    if progress is not None and not callable(progress):
        raise SimulationError(f"progress must be a function or None, not {clip(progress)}")
    table = _table_for(strategies, values)
    codes = np.array([_simulate.STRATEGY_CODES[s.name] for s in strategies], dtype=np.int32)
    limits = np.array([s.limit for s in strategies], dtype=np.int32)
    rows = games if keep_games else min(games, BATCH)
    scores = np.zeros((rows, len(strategies)), dtype=np.int32)
    turns = np.zeros(rows, dtype=np.int32)
    totals = Totals(len(strategies))
    started = time.perf_counter()
    for first in range(0, games, BATCH):
        count = min(BATCH, games - first)
        at = first if keep_games else 0
        batch_scores, batch_turns = scores[at:at + count], turns[at:at + count]
        _simulate.simulate(codes, limits, first, count, seed, table, batch_scores, batch_turns)
        totals.add(batch_scores, batch_turns)
        if progress is not None:
            progress(count)
    return SimulationResult(strategies, seed, scores if keep_games else None,
                            turns if keep_games else None, time.perf_counter() - started, totals)


def simulate_python(strategies: list[Strategy], games: int, seed: int, *,
                    values: Optional[ExpectedValues] = None) -> SimulationResult:
    """The same games as `simulate`, played by game.Game and strategies.py (slow)."""
    strategies = check_strategies(strategies)
    check_games(games, len(strategies), True)
    check_seed(seed)
    if values is not None and not isinstance(values, ExpectedValues):
        raise SimulationError(f"values must be an ExpectedValues table, not "
                              f"{type(values).__name__}")
    scores = np.zeros((games, len(strategies)), dtype=np.int32)
    turns = np.zeros(games, dtype=np.int32)
    if any(s.name == "optimal" for s in strategies):
        values = values or ExpectedValues.load()
    started = time.perf_counter()
    for index in range(games):
        stream = SplitMix64.for_game(seed, index)
        players = [_python_player(s, stream, values) for s in strategies]
        game = Game(len(strategies))
        while not game.is_over():
            game.play_turn_with(stream.roll(), players)
        scores[index] = game.scores()
        turns[index] = len(game.history)
    return SimulationResult(strategies, seed, scores, turns, time.perf_counter() - started)


def _python_player(strategy: Strategy, stream: SplitMix64,
                   values: Optional[ExpectedValues]) -> Player:
    if strategy.name == "optimal":
        assert values is not None                       # simulate_python loads the table
        return OptimalPlayer(values)
    if strategy.name == "greedy":
        return GreedyPlayer()
    if strategy.name == "cautious":
        return CautiousPlayer(strategy.limit)
    return RandomPlayer(stream)
