"""The race model behind the `win` strategy: each sheet's final score as a distribution.

A race needs more than each player's expected score: a player 6 points behind with a wide
spread of outcomes still wins often, one with a narrow spread rarely. The single-player table
(solitaire.py) is the wrong pace for that: it assumes the player is active every turn and that
the game lasts until this sheet ends it. The paced table here is solved exactly by the same
kernel (`_solitaire.solve`) for a player who is

- active with chance a = 1/N each turn (N players; otherwise only the white sum may be marked,
  and no mark costs nothing), and
- in a game that goes on after each turn with chance q = CONTINUATION (the others end it, by
  their locks or a fourth penalty, with chance 1 - q a turn),

and who plays to maximise the expected points. For every sheet state and penalty count it
holds the mean and the second moment of the points still to come, so each sheet has an
expected final score and a variance (`RaceTable.outlook`). q was set by measuring win rates in
simulated games of 2 to 5 players against the other strategies (q from 0.85 to 1.0; 0.93-0.95
did best for every number of players, 1.0 lost to cautious:2): it is part of the file's
identity (a change of it changes RACE_VERSION).

`win_chance` turns the outlooks of every player into the chance of finishing first (the twin of
the kernel in _race.pxd): normal final scores whose points still to come are correlated with
rho = CORRELATION between any two players, because the game's length is shared: a long game
gives everyone more points, a short one less (issue 24: rho was measured like q, on tuning
seeds kept apart from the measuring seeds of benchmarks/qwixx_win.py). rho changes only how
the table is read, not the table: it is an attribute of RaceTable, not part of the file.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Callable, NamedTuple, Optional

import numpy as np

from solverkit.arrayfile import write_array
from solverkit.messages import clip

from . import _solitaire
from ..errors import TableError
from ..rules.constants import MARKS_TO_LOCK
from ..rules.sheet import Sheet, check_lock_after, check_sheet, is_whole
from .solitaire import (PENALTY_STATES, SHEET_STATES, check_table_array, load_or_solve,
                        read_table, sheet_state, solve_order)

RACE_VERSION = 1
MAX_RACE_PLAYERS = 8             # as many as a game (game.MAX_PLAYERS)
CONTINUATION = 0.94              # q: the chance a game goes on after a turn (measured best)
CORRELATION = 0.6                # rho: of two players' points to come (measured; see above)
QUADRATURE_NODES = 24            # Gauss-Hermite nodes of the several-opponent race
SAME_CHANCE = 1e-12              # _race.pxd: chances closer than this are equal
NO_SPREAD = 1e-12                # _race.pxd: a variance below this is a certainty


def check_race_players(players: object) -> int:
    if not is_whole(players) or not 2 <= players <= MAX_RACE_PLAYERS:
        raise TableError(f"a race has 2..{MAX_RACE_PLAYERS} players, not {clip(players)}")
    return players


def check_correlation(correlation: object) -> float:
    if (not isinstance(correlation, (int, float)) or isinstance(correlation, bool)
            or not 0.0 <= correlation < 1.0):
        raise TableError(f"the correlation of the race model must be 0 <= rho < 1, not "
                         f"{clip(correlation)}")
    return float(correlation)


def race_magic(players: int, lock_after: int) -> bytes:
    return f"QWXRC{players}L{lock_after}".encode()


def race_name(players: int, lock_after: int = MARKS_TO_LOCK) -> str:
    check_race_players(players)
    return f"qwixx-race-{players}p-lock{check_lock_after(lock_after)}-v{RACE_VERSION}.qev"


def solve_race(players: int, lock_after: int = MARKS_TO_LOCK,
               progress: Optional[Callable[[int], None]] = None) -> np.ndarray:
    """The paced table: an array (2, SHEET_STATES, 4) of the mean and the second moment of the
    points still to come."""
    check_race_players(players)
    check_lock_after(lock_after)
    packed, level_starts = solve_order()
    table = np.zeros((2, SHEET_STATES, PENALTY_STATES), dtype=np.float64)
    mean, second = table[0], table[1]
    _solitaire.solve(mean, packed, level_starts, progress, lock_after=lock_after,
                     active_share=1.0 / players, continuation=CONTINUATION,
                     second=second)
    return table


class Outlook(NamedTuple):
    mean: float          # expected final score
    variance: float      # of the final score


class RaceTable:
    """The paced table of N players under one lock rule."""

    def __init__(self, table: np.ndarray, players: int, lock_after: int = MARKS_TO_LOCK,
                 correlation: float = CORRELATION, late: Optional[np.ndarray] = None):
        if not isinstance(table, np.ndarray) or table.shape[:1] != (2,):
            raise TableError("a race table is an array (2, SHEET_STATES, 4)")
        self.mean = check_table_array(np.ascontiguousarray(table[0]))
        self.second = check_table_array(np.ascontiguousarray(table[1]))
        self.players = check_race_players(players)
        self.lock_after = check_lock_after(lock_after)
        self.correlation = check_correlation(correlation)
        # the paced table read once a row is closed (None: the same table throughout)
        self.late_mean: Optional[np.ndarray] = None
        self.late_second: Optional[np.ndarray] = None
        if late is not None:
            if not isinstance(late, np.ndarray) or late.shape[:1] != (2,):
                raise TableError("a late race table is an array (2, SHEET_STATES, 4)")
            self.late_mean = check_table_array(np.ascontiguousarray(late[0]))
            self.late_second = check_table_array(np.ascontiguousarray(late[1]))

    @classmethod
    def load(cls, directory: Path | str | None = None, *, players: int,
             lock_after: int = MARKS_TO_LOCK, build: bool = True,
             progress: Optional[Callable[[int], None]] = None) -> "RaceTable":
        """Load the table of `players` and the lock rule from `directory` (default: the cache
        folder of solitaire.default_directory), solving and saving it first if it is not there
        and `build` is true (about as long as the single-player table)."""
        if progress is not None and not callable(progress):
            raise TableError(f"progress must be a function or None, not {clip(progress)}")
        name = race_name(players, lock_after)
        magic = race_magic(players, lock_after)
        table = load_or_solve(
            directory, name, lambda: solve_race(players, lock_after, progress),
            lambda path, array: write_array(path, magic, RACE_VERSION, array),
            lambda path: read_table(path, shape=(2, SHEET_STATES, PENALTY_STATES),
                                    file_magic=magic, version=RACE_VERSION), build)
        return cls(table, players, lock_after)

    def outlook(self, sheet: Sheet) -> Outlook:
        """The expected final score of `sheet` and its variance (0 once the sheet is finished)."""
        check_sheet(sheet, self.lock_after)
        if sheet.is_finished():
            return Outlook(float(sheet.score()), 0.0)
        entry = sheet_state(sheet)
        means, seconds = self.mean, self.second
        if sheet.closed and self.late_mean is not None and self.late_second is not None:
            means, seconds = self.late_mean, self.late_second
        mean, second = float(means[entry]), float(seconds[entry])
        return Outlook(sheet.score() + mean, max(second - mean * mean, 0.0))


def quadrature(nodes: int = QUADRATURE_NODES) -> tuple[np.ndarray, np.ndarray]:
    """Gauss-Hermite nodes and weights / sqrt(pi): E[f(Z)] for Z ~ N(0, 1/2) is
    sum w_k f(x_k)."""
    points, weights = np.polynomial.hermite.hermgauss(nodes)
    return points.astype(np.float64), (weights / math.sqrt(math.pi)).astype(np.float64)


NODES, WEIGHTS = quadrature()


def normal_cdf(x: float) -> float:
    return 0.5 * math.erfc(-x * 0.7071067811865476)


def beats(difference: float, variance: float) -> float:
    """P(D > 0) for D ~ N(difference, variance); with no spread 1, 1/2 (a tie) or 0."""
    if variance <= NO_SPREAD:
        return 1.0 if difference > 0 else (0.5 if difference == 0 else 0.0)
    return normal_cdf(difference / math.sqrt(variance))


def win_chance(me: Outlook, others: Sequence[Outlook], correlation: float = CORRELATION) -> float:
    """The chance that `me` ends above each of `others` (normal final scores, any two players'
    points to come correlated with `correlation`; _race.pxd win_chance)."""
    rho = correlation
    own_sd = math.sqrt(me.variance)
    own_part = (1.0 - rho) * me.variance
    if len(others) == 1:
        return beats(me.mean - others[0].mean, me.variance + others[0].variance
                     - 2.0 * rho * own_sd * math.sqrt(others[0].variance))
    variances = []
    for other in others:
        shared = own_sd - math.sqrt(other.variance)
        variances.append((1.0 - rho) * other.variance + rho * shared * shared)
    if own_part <= NO_SPREAD:
        product = 1.0
        for other, variance in zip(others, variances):
            product *= beats(me.mean - other.mean, variance)
        return product
    spread = math.sqrt(2.0 * own_part)
    total = 0.0
    for node, weight in zip(NODES.tolist(), WEIGHTS.tolist()):
        x = me.mean + spread * node
        product = weight
        for other, variance in zip(others, variances):
            product *= beats(x - other.mean, variance)
        total += product
    return total
