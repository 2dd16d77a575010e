"""Rollouts: a choice's chance of winning measured by playing the game on. They check the
models' estimates (`qwixx advise --rollouts`, Advisor.measured) and rate close choices in
benchmarks/qwixx_endgame_search.py.

A rollout plays the chosen option on this roll, then the game to its end with every seat
playing by its strategy (win, lookahead or qwixxer-ga), on rolls drawn from the seed: the same
seed gives every option the same rolls (common random numbers), so the differences between
options are measured more precisely than each chance. The kernel (`_simulate.rollouts`) plays
them (`rollout_shares`, whose mean `rollout_chance` is); `rollout_shares_twin` is its twin,
played by game.Game.

This module sits above both `winning` and `lookahead`, since a rollout may seat either.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Optional

import numpy as np

from solverkit.messages import clip

from . import _simulate
from ..errors import GameError
from ..rules.game import Game, Option, PlannedPlayer, colour_sum_problem, final_share
from .lookahead import LearnedValue, check_learned, learned_for
from ..tables.race import RaceTable
from .registry import (DEFAULT_JUDGE, ROLLING_OUT, STRATEGY_CODES, Models, Reads, Seat,
                       Strategy, reads)
from ..rules.sheet import COLOURS, Dice, Sheet, is_whole, position
from ..rules.stream import SplitMix64
from .kernel_view import kernel_position, kernel_race
from .winning import check_table, others_of

MAX_ROLLOUTS = 10 ** 7


@dataclass(frozen=True)
class Estimate:
    """A chance of winning measured by playing the game on `rollouts` times."""
    chance: float
    standard_error: float
    rollouts: int


def check_rollouts(rollouts: object, seed: object) -> None:
    if not is_whole(rollouts) or not 1 <= rollouts <= MAX_ROLLOUTS:
        raise GameError(f"rollouts must be 1..{MAX_ROLLOUTS:,}, not {clip(rollouts)}")
    if not is_whole(seed) or not 0 <= seed < 2 ** 64:
        raise GameError(f"seed must be a whole number 0 .. 2**64-1, not {clip(seed)}")


def check_rollout_players(strategies: object, learned: object, table: Sequence[Sheet],
                          lock_after: int) -> list[Strategy]:
    """The strategy of each seat in rollouts (DEFAULT_JUDGE at every seat when None), each one
    that may play on in rollouts, and a learned value that fits the table and is read."""
    if strategies is None:
        strategies = [DEFAULT_JUDGE] * len(table)
    if (not isinstance(strategies, (list, tuple)) or len(strategies) != len(table)
            or any(name not in ROLLING_OUT for name in strategies)):
        raise GameError(f"rollout strategies: one per seat ({len(table)}), each one of "
                        f"{', '.join(ROLLING_OUT)}, not {clip(strategies)}")
    lineup = [Strategy(name) for name in strategies]
    if learned is not None:
        if Reads.LEARNED not in reads(lineup):
            raise GameError("a learned value is read by lookahead players only")
        learned_for(len(table), lock_after, check_learned(learned, len(table)))
    return lineup


def rollout_chance(race: RaceTable, sheets: Sequence[Sheet], seat: int, dice: Dice | str,
                   active: int, option: Option, rollouts: int, seed: int = 0, *,
                   strategies: Optional[Sequence[str]] = None,
                   learned: Optional[LearnedValue] = None) -> Estimate:
    """The chance that the player at `seat` wins when it plays `option` on this roll of the
    player `active` (its action 2 only if it is the active one and the mark is still legal
    once action 1 is resolved), everyone playing on by `strategies` (one name per seat, of
    registry.ROLLING_OUT; DEFAULT_JUDGE at every seat by default; lookahead players read
    `learned`, or the race model without it): the mean share over `rollouts` games played on
    by the kernel (rollout_shares), with its standard error. The same seed gives every option
    the same rolls (common random numbers: differences between options are measured more
    precisely than each chance)."""
    shares = rollout_shares(race, sheets, seat, dice, active, option, rollouts, seed,
                            strategies=strategies, learned=learned)
    spread = float(shares.std(ddof=1)) if rollouts > 1 else 0.0
    return Estimate(float(shares.mean()), spread / math.sqrt(rollouts), rollouts)


def rollout_shares(race: RaceTable, sheets: Sequence[Sheet], seat: int, dice: Dice | str,
                   active: int, option: Option, rollouts: int, seed: int = 0, *,
                   strategies: Optional[Sequence[str]] = None,
                   learned: Optional[LearnedValue] = None) -> np.ndarray:
    """Each rollout's share of the game for the player at `seat` (1 a win, 1/k a tie of k at
    the top, 0 a loss), on the arguments of `rollout_chance`: the games played on by the
    kernel (`_simulate.rollouts`; its twin is rollout_shares_twin)."""
    table, seat = check_table(sheets, seat, race)
    if not is_whole(active) or not 0 <= active < len(table):
        raise GameError(f"active must be a seat 0..{len(table) - 1}, not {clip(active)}")
    check_rollouts(rollouts, seed)
    lineup = check_rollout_players(strategies, learned, table, race.lock_after)
    dice = Dice.parse(dice)
    first, second = option
    if seat != active and second is not None:
        raise GameError("only the active player has an action 2")
    if first is not None and not table[seat].can_mark(first, dice.white_sum):
        raise GameError(f"the white sum {dice.white_sum} cannot be marked in {first}")
    row, box = -1, 0
    if second is not None:
        colour, number = second
        problem = colour_sum_problem(dice, colour, number)
        if problem is not None:
            raise GameError(problem)
        row, box = COLOURS.index(colour), position(colour, number)
    codes = np.array([STRATEGY_CODES[strategy.name] for strategy in lineup], dtype=np.intc)
    shares = np.zeros(rollouts, dtype=np.float64)
    players = _simulate.Lineup(codes, np.zeros(len(table), dtype=np.intc), np.zeros((1, 4)),
                               kernel_race(race), None,
                               None if learned is None else learned.weights)
    _simulate.rollouts(players, kernel_position(table, active, dice, race.lock_after), seat,
                       -1 if first is None else COLOURS.index(first), row, box, seed, shares)
    return shares


def rollout_shares_twin(race: RaceTable, sheets: Sequence[Sheet], seat: int,
                          dice: Dice | str, active: int, option: Option, rollouts: int,
                          seed: int = 0, *, strategies: Optional[Sequence[str]] = None,
                          learned: Optional[LearnedValue] = None) -> list[float]:
    """The twin of `rollout_shares` (slow): each rollout's share, played by game.Game."""
    table, seat = check_table(sheets, seat, race)
    lineup = check_rollout_players(strategies, learned, table, race.lock_after)
    models = Models(race=race, learned=learned)
    dice = Dice.parse(dice)
    shares = []
    for index in range(rollouts):
        stream = SplitMix64.for_game(seed, index)
        game = Game(len(table), list(table), active, lock_after=race.lock_after)
        players = [strategy.player(Seat(game, i, stream, models))
                   for i, strategy in enumerate(lineup)]
        planned = PlannedPlayer(players[seat], option)
        players[seat] = planned
        game.play_turn_with(dice, players)
        planned.planned = False
        while not game.is_over():
            game.play_turn_with(stream.roll(), players)
        shares.append(final_share(game.sheets[seat], others_of(game.sheets, seat)))
    return shares
