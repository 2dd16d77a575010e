"""Games between strategies with the full rules: `simulate` runs the Cython kernel in
batches (a progress bar on a terminal), `simulate_python` the pure-Python reference; the
same seed gives the same games in both."""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Callable, Optional

import numpy as np

from . import _simulate
from .game import Game
from .solitaire import ExpectedValues, OptimalPlayer
from .strategies import CautiousPlayer, GreedyPlayer, RandomPlayer, SplitMix64

MAX_PLAYERS = 8
BATCH = 20_000


class StrategyError(ValueError):
    """An unknown strategy name or a bad strategy list."""


@dataclass(frozen=True)
class Strategy:
    name: str            # optimal, greedy, cautious, random
    limit: int = 0       # cautious: the most boxes one mark may skip

    def __str__(self) -> str:
        return f"cautious:{self.limit}" if self.name == "cautious" else self.name

    @classmethod
    def parse(cls, text: str) -> "Strategy":
        name, _, argument = text.strip().partition(":")
        if name not in _simulate.STRATEGY_CODES:
            raise StrategyError(f"unknown strategy {text!r}: expected optimal, greedy, "
                                "cautious:K (skip at most K boxes) or random")
        if name != "cautious":
            if argument:
                raise StrategyError(f"strategy {name!r} takes no argument")
            return cls(name)
        try:
            limit = int(argument) if argument else 1
        except ValueError:
            raise StrategyError(f"cautious:K needs a whole number K, not {argument!r}") from None
        if not 0 <= limit <= 10:
            raise StrategyError(f"cautious:K needs 0 <= K <= 10, not {limit}")
        return cls(name, limit)


def parse_strategies(text: str, players: int) -> list[Strategy]:
    """One strategy for everyone, or one per seat: `optimal,greedy,cautious:2,random`."""
    if not isinstance(players, int) or not 1 <= players <= MAX_PLAYERS:
        raise StrategyError(f"players must be 1..{MAX_PLAYERS}, not {players!r}")
    strategies = [Strategy.parse(part) for part in text.split(",")]
    if len(strategies) == 1:
        strategies *= players
    if len(strategies) != players:
        raise StrategyError(f"{len(strategies)} strategies for {players} players: give one "
                            "for everyone or one per player")
    return strategies


@dataclass
class SimulationResult:
    strategies: list[Strategy]
    seed: int
    scores: np.ndarray      # (games, players)
    turns: np.ndarray       # (games,)
    seconds: float = 0.0

    @property
    def games(self) -> int:
        return int(self.scores.shape[0])

    def win_shares(self) -> np.ndarray:
        """Per player: games won, a tie among t players counting 1/t each."""
        best = self.scores.max(axis=1, keepdims=True)
        winners = self.scores == best
        return (winners / winners.sum(axis=1, keepdims=True)).sum(axis=0)

    def summary(self) -> dict:
        wins = self.win_shares()
        games = max(self.games, 1)
        players = []
        for seat, strategy in enumerate(self.strategies):
            column = self.scores[:, seat].astype(np.float64)
            players.append({
                "seat": seat + 1,
                "strategy": str(strategy),
                "mean": float(column.mean()) if self.games else math.nan,
                "std": float(column.std(ddof=1)) if self.games > 1 else 0.0,
                "min": int(column.min()) if self.games else 0,
                "max": int(column.max()) if self.games else 0,
                "win_rate": float(wins[seat] / games),
            })
        return {
            "players": players,
            "games": self.games,
            "seed": self.seed,
            "mean_turns": float(self.turns.mean()) if self.games else 0.0,
            "seconds": self.seconds,
            "games_per_second": self.games / self.seconds if self.seconds > 0 else None,
        }


def _table_for(strategies: list[Strategy], values: Optional[ExpectedValues]) -> np.ndarray:
    if any(s.name == "optimal" for s in strategies):
        return (values or ExpectedValues.load()).future
    return np.zeros((1, 4))


def simulate(strategies: list[Strategy], games: int, seed: int, *,
             values: Optional[ExpectedValues] = None,
             progress: Optional[Callable[[int], None]] = None) -> SimulationResult:
    """Play `games` games with the Cython kernel (both cores); reproducible from `seed`."""
    if not isinstance(games, int) or games < 0:
        raise ValueError(f"games must be a whole number >= 0, not {games!r}")
    if not isinstance(seed, int) or not 0 <= seed < 2 ** 64:
        raise ValueError(f"seed must be 0 .. 2**64-1, not {seed!r}")
    table = _table_for(strategies, values)
    codes = np.array([_simulate.STRATEGY_CODES[s.name] for s in strategies], dtype=np.int32)
    limits = np.array([s.limit for s in strategies], dtype=np.int32)
    scores = np.zeros((games, len(strategies)), dtype=np.int32)
    turns = np.zeros(games, dtype=np.int32)
    started = time.perf_counter()
    for first in range(0, games, BATCH):
        count = min(BATCH, games - first)
        _simulate.simulate(codes, limits, first, count, seed, table, scores[first:first + count],
                           turns[first:first + count])
        if progress is not None:
            progress(count)
    return SimulationResult(strategies, seed, scores, turns, time.perf_counter() - started)


def simulate_python(strategies: list[Strategy], games: int, seed: int, *,
                    values: Optional[ExpectedValues] = None) -> SimulationResult:
    """The same games as `simulate`, played by game.Game and strategies.py (slow)."""
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


def _python_player(strategy: Strategy, stream: SplitMix64, values):
    if strategy.name == "optimal":
        return OptimalPlayer(values)
    if strategy.name == "greedy":
        return GreedyPlayer()
    if strategy.name == "cautious":
        return CautiousPlayer(strategy.limit)
    return RandomPlayer(stream)
