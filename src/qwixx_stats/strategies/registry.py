"""Every strategy, named once: its code in the kernel, its Python player (the kernel's twin),
what it reads (the single-player table, the race table, the learned value), and what it may
do besides playing games (advise a seat, play on in rollouts).

Nothing else in qwixx_stats compares a strategy's name: the simulator, the rollouts, the
advisor and the command line ask this registry (`kind_of`, `reads`, `advising`,
`rolling_out`), and a new strategy is one more `StrategyKind` in `KINDS`.

A `Strategy` is one entry of a lineup: a kind with its settings (cautious's limit, the
heuristics' weights), parsed from the command line's notation (`cautious:2`).
"""
from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Optional, Protocol

from solverkit.messages import clip

from . import _simulate
from ..errors import GameError, SimulationError, StrategyError
from ..rules.game import MAX_PLAYERS, Game, Player
from .heuristics import (SCORED_WEIGHTS, WEIGHTED_WEIGHTS, HeuristicPlayer, check_weights,
                         scored_change, weighted_change)
from .lookahead import LearnedValue, LookaheadJudge, LookaheadPlayer, learned_for
from .qwixxer import QwixxerPlayer
from ..tables.race import RaceTable
from ..rules.sheet import Dice, Sheet, is_whole
from ..tables.solitaire import ExpectedValues, OptimalPlayer
from ..rules.stream import SplitMix64
from .simple import CautiousPlayer, GreedyPlayer, RandomPlayer
from .winning import RatedOption, WinJudge, WinPlayer

MAX_LIMIT = 10                   # cautious:K skips at most K of a row's 11 boxes


class Reads(enum.Flag):
    """What a strategy reads besides the sheets."""
    NOTHING = 0
    VALUES = enum.auto()         # the single-player table (solitaire.ExpectedValues)
    RACE = enum.auto()           # the race table (race.RaceTable); it needs opponents
    LEARNED = enum.auto()        # the learned value (lookahead.LearnedValue), at two players


@dataclass(frozen=True)
class Models:
    """What the strategies of a lineup read (None where none of them reads it)."""
    values: Optional[ExpectedValues] = None
    race: Optional[RaceTable] = None
    learned: Optional[LearnedValue] = None


@dataclass(frozen=True)
class Seat:
    """Where a Python player sits down: its game and seat, the game's random stream (which
    `random` draws from), and the models of the lineup."""
    game: Game
    seat: int
    stream: SplitMix64
    models: Models


class Judge(Protocol):
    """How an advising strategy rates every legal choice of one seat (advisor.Advisor)."""

    def active(self, sheets: Sequence[Sheet], seat: int, dice: Dice | str) -> list[RatedOption]:
        """The active player's plans (action 1 and action 2 together)."""

    def passive(self, sheets: Sequence[Sheet], seat: int, dice: Dice | str,
                roller: Optional[int]) -> list[RatedOption]:
        """A non-active player's action 1 on the roll of the player at seat `roller`."""

    def second(self, sheets: Sequence[Sheet], seat: int, dice: Dice | str,
               marked_first: bool) -> list[RatedOption]:
        """The active player's action 2, once action 1 is resolved for everyone."""


@dataclass(frozen=True)
class StrategyKind:
    """One strategy: its name, its kernel code and its Python player, and what it reads."""
    name: str
    code: int                                   # the kernel's (_simulate.CODE_*)
    summary: str                                # how the list of strategies shows it
    player: Callable[["Strategy", Seat], Player]   # its Python player (the kernel's twin)
    reads: Reads = Reads.NOTHING
    takes_limit: bool = False                   # cautious:K
    tuned_weights: tuple[float, ...] = ()       # a heuristic's default weights
    judge: Optional[Callable[[RaceTable, Optional[LearnedValue]], Judge]] = None   # advises
    ranking: str = ""                           # an advising one: how its ranking is made
    rolls_out: bool = False                     # may play on in rollouts
    aliases: tuple[str, ...] = ()               # older names


def _max_score(strategy: Strategy, seat: Seat) -> Player:
    if seat.models.values is None:
        raise SimulationError("max-score reads the single-player table: none was given")
    return OptimalPlayer(seat.models.values)


def _race(seat: Seat) -> RaceTable:
    if seat.models.race is None:
        raise SimulationError("this strategy reads the race table: none was given")
    return seat.models.race


def _win(strategy: Strategy, seat: Seat) -> Player:
    return WinPlayer(_race(seat), seat.game, seat.seat)


def _lookahead(strategy: Strategy, seat: Seat) -> Player:
    return LookaheadPlayer(_race(seat), seat.models.learned, seat.game, seat.seat)


def _weighted(strategy: Strategy, seat: Seat) -> Player:
    return HeuristicPlayer(weighted_change, strategy.weights, seat.game, seat.seat)


def _scored(strategy: Strategy, seat: Seat) -> Player:
    return HeuristicPlayer(scored_change, strategy.weights, seat.game, seat.seat)


def _qwixxer(strategy: Strategy, seat: Seat) -> Player:
    return QwixxerPlayer(seat.game, seat.seat)


def _greedy(strategy: Strategy, seat: Seat) -> Player:
    return GreedyPlayer()


def _cautious(strategy: Strategy, seat: Seat) -> Player:
    return CautiousPlayer(strategy.limit)


def _random(strategy: Strategy, seat: Seat) -> Player:
    return RandomPlayer(seat.stream)


KINDS: dict[str, StrategyKind] = {kind.name: kind for kind in (
    StrategyKind("lookahead", _simulate.CODE_LOOKAHEAD, "lookahead", _lookahead,
                 Reads.RACE | Reads.LEARNED, judge=LookaheadJudge, rolls_out=True,
                 ranking="the lookahead model's chance of winning (each option played to the "
                         "end of the turn, then a value learned in self-play)"),
    StrategyKind("win", _simulate.CODE_WIN, "win", _win, Reads.RACE, judge=WinJudge,
                 rolls_out=True, ranking="the race model's chance of winning"),
    StrategyKind("max-score", _simulate.CODE_MAX_SCORE, "max-score", _max_score,
                 Reads.VALUES, aliases=("optimal",)),
    StrategyKind("greedy", _simulate.CODE_GREEDY, "greedy", _greedy),
    StrategyKind("cautious", _simulate.CODE_CAUTIOUS,
                 f"cautious:K (skip at most K boxes, 0..{MAX_LIMIT})", _cautious,
                 takes_limit=True),
    StrategyKind("random", _simulate.CODE_RANDOM, "random", _random),
    StrategyKind("weighted", _simulate.CODE_WEIGHTED,
                 "weighted", _weighted,
                 tuned_weights=WEIGHTED_WEIGHTS),
    StrategyKind("scored", _simulate.CODE_SCORED, "scored (both tuned outside heuristics)",
                 _scored, tuned_weights=SCORED_WEIGHTS),
    StrategyKind("qwixxer-ga", _simulate.CODE_QWIXXER, "qwixxer-ga (a public bot's champion)",
                 _qwixxer, rolls_out=True),
)}
ALIASES = {alias: kind.name for kind in KINDS.values() for alias in kind.aliases}
STRATEGY_CODES = {name: kind.code for name, kind in KINDS.items()}   # the kernel's codes
STRATEGY_HELP = ", ".join(kind.summary for kind in KINDS.values()) + "".join(
    f" ('{alias}': {name})" for alias, name in ALIASES.items())
TUNED_WEIGHTS = {name: kind.tuned_weights for name, kind in KINDS.items() if kind.tuned_weights}
DEFAULT_JUDGE = "win"    # the advisor's judge and the rollouts' player unless one is chosen
ADVISING = tuple(name for name, kind in KINDS.items() if kind.judge is not None)
ROLLING_OUT = tuple(name for name, kind in KINDS.items() if kind.rolls_out)


def kind_of(name: object, written: object = None) -> StrategyKind:
    """The kind a name (or an older alias) stands for; `written`: the text it was read from,
    for the message."""
    if isinstance(name, str):
        kind = KINDS.get(ALIASES.get(name, name))
        if kind is not None:
            return kind
    shown = name if written is None else written
    raise StrategyError(f"unknown strategy {clip(shown)}: expected {STRATEGY_HELP}")


@dataclass(frozen=True)
class Strategy:
    name: str            # a name of KINDS (an alias is read as its strategy)
    limit: int = 0       # cautious: the most boxes one mark may skip
    weights: tuple[float, ...] = ()   # weighted, scored: () for the tuned defaults

    def __post_init__(self) -> None:
        kind = kind_of(self.name)
        object.__setattr__(self, "name", kind.name)
        if not is_whole(self.limit) or not 0 <= self.limit <= MAX_LIMIT:
            raise StrategyError(f"a strategy's limit must be 0..{MAX_LIMIT}, not "
                                f"{clip(self.limit)}")
        if not kind.takes_limit and self.limit:
            raise StrategyError(f"strategy {self.name!r} takes no limit")
        if kind.tuned_weights:
            object.__setattr__(self, "weights", check_weights(
                self.weights if self.weights != () else kind.tuned_weights))
        elif self.weights != ():
            raise StrategyError(f"strategy {self.name!r} takes no weights")

    @property
    def kind(self) -> StrategyKind:
        return KINDS[self.name]

    def __str__(self) -> str:
        return f"{self.name}:{self.limit}" if self.kind.takes_limit else self.name

    @classmethod
    def parse(cls, text: str) -> "Strategy":
        """`greedy`, `cautious:2` (`cautious` alone: cautious:1)."""
        if not isinstance(text, str):
            raise StrategyError(f"a strategy is written as text ({STRATEGY_HELP}), not "
                                f"{type(text).__name__}")
        name, _, argument = text.strip().partition(":")
        kind = kind_of(name, text)
        if not kind.takes_limit:
            if argument:
                raise StrategyError(f"strategy {kind.name!r} takes no argument")
            return cls(kind.name)
        argument = argument.strip()
        if argument and not (argument.isascii() and argument.isdigit()):
            raise StrategyError(f"{kind.name}:K needs a whole number K, not {clip(argument)}")
        if len(argument) > 20:
            raise StrategyError(f"{kind.name}:K needs 0 <= K <= {MAX_LIMIT}, not "
                                f"{clip(argument)}")
        limit = int(argument) if argument else 1
        if not 0 <= limit <= MAX_LIMIT:
            raise StrategyError(f"{kind.name}:K needs 0 <= K <= {MAX_LIMIT}, not {limit}")
        return cls(kind.name, limit)

    def player(self, seat: Seat) -> Player:
        """This strategy's Python player at `seat`."""
        return self.kind.player(self, seat)


def check_players(players: int) -> int:
    if not is_whole(players) or not 1 <= players <= MAX_PLAYERS:
        raise StrategyError(f"players must be 1..{MAX_PLAYERS}, not {clip(players)}")
    return players


def parse_strategies(text: str, players: int) -> list[Strategy]:
    """One strategy for everyone, or one per player: `win,greedy,cautious:2,random`."""
    check_players(players)
    if not isinstance(text, str):
        raise StrategyError(f"strategies are written as text like win,greedy, not "
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


def reads(strategies: Iterable[Strategy]) -> Reads:
    """What the strategies read, together."""
    together = Reads.NOTHING
    for strategy in strategies:
        together |= strategy.kind.reads
    return together


def models_for(strategies: Sequence[Strategy], lock_after: int,
               values: Optional[ExpectedValues] = None, race: Optional[RaceTable] = None,
               learned: Optional[LearnedValue] = None) -> Models:
    """The models the strategies read, the given ones checked against the lineup and the lock
    rule, the missing ones loaded (solved once); None where nobody reads one."""
    if learned is not None and not isinstance(learned, LearnedValue):
        raise SimulationError(f"learned must be a LearnedValue, not {type(learned).__name__}")
    if values is not None and not isinstance(values, ExpectedValues):
        raise SimulationError(f"values must be an ExpectedValues table, not "
                              f"{type(values).__name__}")
    if race is not None and not isinstance(race, RaceTable):
        raise SimulationError(f"race must be a RaceTable, not {type(race).__name__}")
    needed = reads(strategies)
    read_values = read_race = read_learned = None
    if Reads.VALUES in needed:
        read_values = values or ExpectedValues.load(lock_after=lock_after)
        if read_values.lock_after != lock_after:
            raise SimulationError(f"the single-player table is for lock after "
                                  f"{read_values.lock_after}, the games for {lock_after}")
    if Reads.RACE in needed:
        racer = next(s for s in strategies if Reads.RACE in s.kind.reads)
        if len(strategies) < 2:
            raise StrategyError(f"{racer.name} plays against opponents: give at least 2 "
                                "players (alone, max-score is the best play)")
        read_race = race or RaceTable.load(players=len(strategies), lock_after=lock_after)
        if read_race.lock_after != lock_after or read_race.players != len(strategies):
            raise SimulationError(f"the race table is for {read_race.players} players and lock "
                                  f"after {read_race.lock_after}, the games for "
                                  f"{len(strategies)} and {lock_after}")
    if Reads.LEARNED in needed:
        try:
            read_learned = learned_for(len(strategies), lock_after, learned)
        except GameError as error:
            raise SimulationError(str(error)) from None
    elif learned is not None:
        raise SimulationError("a learned value is read by lookahead players only")
    return Models(read_values, read_race, read_learned)
