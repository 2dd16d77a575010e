"""The `lookahead` strategy: each choice played to the end of the turn, then rated by a value
learned by self-play.

Method. A choice of action 1 (the active player's whole plan, or a non-active player's white
sum) is played to the end of the turn: the other players answer as `win` would (their action 1
on the sheets before the roll, and the active player's action 2 once action 1 is resolved),
and if another player's lock in action 1 makes the plan's action 2 illegal, `win` makes it
instead. The table at the start of the next turn is then rated:

- exactly if the game is over (1 for the top score, 1/k for a tie of k at the top, else 0);
- at a table of two, by the learned value below (learned under the printed rules: under the
  lock-after-4 variant, or given none, the race model instead);
- at a larger table, by the race model of `win` (winning.win_value).

Action 2 is decided again once action 1 is resolved, each mark (or none) rated the same way.
The highest chance is played; chances within 1e-12 go to the higher expected score of the race
model, then to the first in the order of game.active_options (`win`'s order and tie-breaks).

Why the end of the turn. `win` rates a choice in the middle of a turn, before the opponent's
answer to the same roll and without knowing who rolls next; rating the whole turn's outcome
puts the learned value on the positions it was trained on (the starts of turns).

The learned value. The chance that a player finishes above its one opponent at the start of a
turn is logistic(w0 * race logit + the sum of 17 weights):

- race logit: the logit of the race model's chance (race.win_chance), clipped to
  [1e-6, 1 - 1e-6]; w0 = 1 with every other weight 0 is the race model exactly;
- for each row, a weight for (its code on the player's sheet, its code on the opponent's,
  whether any row is closed). A row's code is its open state (solitaire.row_state: 0..55) or,
  once closed, 56 + its marks (lock included). The four rows share one table: the dice treat
  them alike, only the direction of the numbers differs;
- a weight for each of the 6 pairs of the player's own rows (either order), and for each of the
  6 pairs of the opponent's;
- a weight for (own penalties, the opponent's, whether any row is closed, whether the player
  rolls next).

The weights are learned by TD(0) in self-play of two lookahead players
(_simulate.train_lookahead): at each turn's start, each player's previous chance moves towards its
present one, and the last towards the game's result. benchmarks/qwixx_train_lookahead.py
trains them from w0 = 1 with fixed seeds; the result ships as LEARNED_FILE.

The kernel (`_learned.pxd`: learned_logit; `_lookahead.pxd`: lookahead_rates, second_rates)
mirrors the Python code here decision for decision; the tests compare the two.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Optional

import numpy as np

from solverkit.arrayfile import read_array, write_array
from solverkit.messages import clip

from . import _simulate
from ..errors import GameError, TableError
from ..rules.game import (Game, Option, PlannedPlayer, Player, SecondMark, active_options,
                          colour_marks, final_share, white_sum_rows)
from ..tables.race import SAME_CHANCE, RaceTable, win_chance
from ..rules.constants import MARKS_TO_LOCK
from ..rules.sheet import COLOURS, ROW_NUMBERS, Dice, Sheet, close_all, is_whole
from ..tables.solitaire import row_state
from ..rules.stream import SplitMix64
from .kernel_view import kernel_position, kernel_race
from .winning import RatedOption, WinPlayer, check_table, win_value

LEARNED_VERSION = 1
LEARNED_MAGIC = b"QWXLRN2P"          # a learned value of a table of two players
LEARNED_FILE = "lookahead-2p-lock5-v1.qlv"
LEARNED_LOCK_AFTER = MARKS_TO_LOCK   # the rule the shipped weights were learned under
OPEN_ROW_CODES = 56                  # row_state of an open row: 0..55
ROW_CODES = OPEN_ROW_CODES + 13      # closed: 56 + 0..12 marks (the lock included)
PAIR_WEIGHTS = 1
OWN_PAIR_WEIGHTS = PAIR_WEIGHTS + ROW_CODES * ROW_CODES * 2
THEIR_PAIR_WEIGHTS = OWN_PAIR_WEIGHTS + ROW_CODES * ROW_CODES
PENALTY_WEIGHTS = THEIR_PAIR_WEIGHTS + ROW_CODES * ROW_CODES
LEARNED_SIZE = PENALTY_WEIGHTS + 4 * 4 * 2 * 2
SURE_CHANCE = 1e-6                   # the race chance is clipped to [SURE_CHANCE, 1 - it]


class LearnedValue:
    """The weights of the learned value (LEARNED_SIZE float64 numbers, see the head comment),
    for games under the lock rule `lock_after`."""

    def __init__(self, weights: np.ndarray, lock_after: int = LEARNED_LOCK_AFTER):
        if (not isinstance(weights, np.ndarray) or weights.dtype != np.float64
                or weights.shape != (LEARNED_SIZE,)):
            raise TableError(f"learned weights are {LEARNED_SIZE} float64 numbers, not "
                             f"{clip(weights)}")
        if not np.isfinite(weights).all():
            raise TableError("learned weights must be finite numbers")
        if lock_after != LEARNED_LOCK_AFTER:
            raise TableError(f"the learned value is for the lock rule {LEARNED_LOCK_AFTER} "
                             f"(the printed rules), not {clip(lock_after)}")
        self.weights = np.ascontiguousarray(weights)
        self.lock_after = lock_after

    @classmethod
    def untrained(cls) -> "LearnedValue":
        """w0 = 1 and every other weight 0: the race model's chance, exactly."""
        weights = np.zeros(LEARNED_SIZE, dtype=np.float64)
        weights[0] = 1.0
        return cls(weights)

    @classmethod
    def load(cls, path: Path | str | None = None) -> "LearnedValue":
        """The weights of `path` (default: LEARNED_FILE, shipped with the package), once the
        file's magic, version, shape and checksums are right."""
        if path is None:
            with resources.as_file(resources.files("qwixx_stats") / "data" / LEARNED_FILE) as file:
                return cls.load(file)
        array = read_array(path, LEARNED_MAGIC, LEARNED_VERSION, TableError)
        if array.shape != (LEARNED_SIZE,) or array.dtype != np.float64:
            raise TableError(f"{path}: learned weights of shape {array.shape}, expected "
                             f"({LEARNED_SIZE},)")
        return cls(np.array(array, dtype=np.float64))

    def save(self, path: Path | str) -> Path:
        """Write the weights atomically, with magic, version and checksums."""
        return write_array(path, LEARNED_MAGIC, LEARNED_VERSION, self.weights)


def row_code(sheet: Sheet, colour: str) -> int:
    if colour in sheet.closed:
        return OPEN_ROW_CODES + sheet.mark_count(colour)
    return row_state(sheet, colour)


def _pair(a: int, b: int) -> int:
    return min(a, b) * ROW_CODES + max(a, b)


def learned_features(race: RaceTable, mine: Sheet, theirs: Sheet,
                     mine_next: bool) -> tuple[list[int], float]:
    """The indexes of the 17 weights summed for `mine` against `theirs` at the start of a turn
    (`mine_next`: its player rolls it), and the race logit (_learned.pxd learned_logit)."""
    chance = win_chance(race.outlook(mine), [race.outlook(theirs)], race.correlation)
    chance = min(max(chance, SURE_CHANCE), 1.0 - SURE_CHANCE)
    shut = 1 if mine.closed else 0
    own = [row_code(mine, colour) for colour in COLOURS]
    their = [row_code(theirs, colour) for colour in COLOURS]
    index = [PAIR_WEIGHTS + (a * ROW_CODES + b) * 2 + shut for a, b in zip(own, their)]
    for row in range(4):
        for other in range(row + 1, 4):
            index.append(OWN_PAIR_WEIGHTS + _pair(own[row], own[other]))
            index.append(THEIR_PAIR_WEIGHTS + _pair(their[row], their[other]))
    index.append(PENALTY_WEIGHTS + ((min(mine.penalties, 3) * 4 + min(theirs.penalties, 3)) * 2
                                    + shut) * 2 + int(mine_next))
    return index, math.log(chance / (1.0 - chance))


def learned_chance(learned: LearnedValue, race: RaceTable, mine: Sheet, theirs: Sheet,
                   mine_next: bool) -> float:
    """The learned chance that `mine` finishes above `theirs` (a game still going)."""
    index, race_logit = learned_features(race, mine, theirs, mine_next)
    weights = learned.weights
    total = float(weights[0]) * race_logit
    for k in index:
        total += float(weights[k])
    return 1.0 / (1.0 + math.exp(-total))


def turn_end_value(race: RaceTable, learned: Optional[LearnedValue], game: Game,
                   seat: int) -> tuple[float, float]:
    """(chance, race mean) of `seat` at the start of the turn `game` is at."""
    mine = game.sheets[seat]
    others = [sheet for i, sheet in enumerate(game.sheets) if i != seat]
    if game.is_over():
        return final_share(mine, others), float(mine.score())
    if game.players == 2 and learned is not None:
        return (learned_chance(learned, race, mine, others[0], game.active == seat),
                race.outlook(mine).mean)
    return win_value(race, mine, others)


def check_learned(learned: object, players: int) -> Optional[LearnedValue]:
    """The learned value a table of `players` reads: a LearnedValue at two, or None (the race
    model)."""
    if learned is None:
        return None
    if not isinstance(learned, LearnedValue):
        raise GameError(f"a learned value is a LearnedValue or None, not {clip(learned)}")
    if players != 2:
        raise GameError("a learned value is read at a table of two only")
    return learned


def learned_for(players: int, lock_after: int,
                learned: Optional[LearnedValue] = None) -> Optional[LearnedValue]:
    """The learned value lookahead reads at this table: the one given, or the shipped one at a
    table of two under its lock rule; None (the race model) otherwise."""
    if learned is not None:
        check_learned(learned, players)
        if learned.lock_after != lock_after:
            raise GameError(f"the learned value is for lock after {learned.lock_after}, the "
                            f"game for {lock_after}")
        return learned
    if players == 2 and lock_after == LEARNED_LOCK_AFTER:
        return LearnedValue.load()
    return None


# -- the Python twin of the kernel's decisions ------------------------------------------------
def rate_first_twin(race: RaceTable, learned: Optional[LearnedValue],
                      sheets: Sequence[Sheet], seat: int, active: int,
                      dice: Dice | str) -> list[tuple[Option, float, float]]:
    """Every action-1 choice of `seat` on this roll of the player `active`, with its (chance,
    race mean) at the next turn's start, in the kernel's order (slow: the test oracle)."""
    table, seat = check_table(sheets, seat, race)
    learned = check_learned(learned, len(table))
    dice = Dice.parse(dice)
    mine = table[seat]
    choices: list[Option]
    if seat == active:
        choices = active_options(mine, dice)
    else:
        choices = [(None, None), *((colour, None) for colour in white_sum_rows(mine, dice))]
    rated = []
    for option in choices:
        game = Game(len(table), list(table), active, lock_after=race.lock_after)
        players: list[Player] = [WinPlayer(race, game, i) for i in range(len(table))]
        planned = PlannedPlayer(WinPlayer(race, game, seat), option)
        players[seat] = planned
        game.play_turn_with(dice, players)
        rated.append((option, *turn_end_value(race, learned, game, seat)))
    return rated


def rate_second_twin(race: RaceTable, learned: Optional[LearnedValue],
                       sheets: Sequence[Sheet], seat: int, dice: Dice | str,
                       marked_first: bool) -> list[tuple[SecondMark, float, float]]:
    """The action-2 choices of the active player `seat` once action 1 is resolved (no mark
    first), each with its (chance, race mean) at the next turn's start."""
    table, seat = check_table(sheets, seat, race)
    learned = check_learned(learned, len(table))
    dice = Dice.parse(dice)
    mine = table[seat]
    rated = []
    for second in [None, *colour_marks(mine, dice)]:
        after = list(table)
        if second is not None:
            after[seat] = mine.mark(*second)
        elif not marked_first:
            after[seat] = mine.add_penalty()
        game = Game(len(table), close_all(after),
                    (seat + 1) % len(table), lock_after=race.lock_after)
        rated.append((second, *turn_end_value(race, learned, game, seat)))
    return rated


def first_best(rated: Sequence[tuple[object, float, float]]) -> int:
    """The index `lookahead` plays: the kernel's `better` (a chance higher by more than
    SAME_CHANCE; at the same chance a higher mean), the first of equals."""
    best = 0
    for i, (_, chance, mean) in enumerate(rated):
        top, top_mean = rated[best][1], rated[best][2]
        if chance > top + SAME_CHANCE or (chance >= top - SAME_CHANCE and mean > top_mean):
            best = i
    return best


class LookaheadPlayer:
    """Plays `lookahead` at one seat of a game, in Python (a `game.Player`; the twin of the
    kernel's player)."""

    def __init__(self, race: RaceTable, learned: Optional[LearnedValue], game: Game,
                 seat: int):
        if not isinstance(game, Game):
            raise GameError(f"a lookahead player sits in a Game, not {type(game).__name__}")
        check_table(game.sheets, seat, race)
        self.learned = check_learned(learned, game.players)
        self.race, self.game, self.seat = race, game, seat

    def first_action(self, sheet: Sheet, dice: Dice, active: bool) -> Optional[str]:
        rated = rate_first_twin(self.race, self.learned, self.game.sheets, self.seat,
                                  self.game.active, dice)
        return rated[first_best(rated)][0][0]

    def second_action(self, sheet: Sheet, dice: Dice, marked_first: bool) -> SecondMark:
        rated = rate_second_twin(self.race, self.learned, self.game.sheets, self.seat, dice,
                                   marked_first)
        return rated[first_best(rated)][0]


# -- the kernel's ratings, for advice -----------------------------------------------------
def rate_lookahead(race: RaceTable, learned: Optional[LearnedValue], sheets: Sequence[Sheet],
                   seat: int, dice: Dice | str, active: int,
                   marked_first: Optional[bool] = None) -> list[RatedOption]:
    """The kernel's ratings of `seat`'s choices: its action 1 on this roll of the player
    `active` (marked_first None), or, for the active player once action 1 is resolved on the
    sheets given, its action 2. Each choice's win_chance is the chance at the next turn's start
    and expected_score the race mean; `sheet` is the player's sheet after its own marks."""
    table, seat = check_table(sheets, seat, race)
    learned = check_learned(learned, len(table))
    if not is_whole(active) or not 0 <= active < len(table):
        raise GameError(f"active must be a seat 0..{len(table) - 1}, not {clip(active)}")
    if marked_first is not None and (seat != active or not isinstance(marked_first, bool)):
        raise GameError("action 2 is the active player's, after action 1 marked (True) or "
                        "not (False)")
    dice = Dice.parse(dice)
    options = np.zeros((_simulate.MAX_CHOICES, 4), dtype=np.intc)
    values = np.zeros(_simulate.MAX_CHOICES)
    means = np.zeros(_simulate.MAX_CHOICES)
    count = _simulate.rate_lookahead(
        kernel_position(table, active, dice, race.lock_after),
        _simulate.lookahead_lineup(len(table), kernel_race(race),
                                   None if learned is None else learned.weights),
        seat, -1 if marked_first is None else int(marked_first), options, values, means)
    # no mark at all costs a penalty: in action 1 the active player's, in action 2 when
    # action 1 marked nothing
    penalised = seat == active if marked_first is None else not marked_first
    rated = []
    for i in range(count):
        first, _, second_row, second_box = (int(x) for x in options[i])
        colour = None if first < 0 else COLOURS[first]
        second = (None if second_row < 0
                  else (COLOURS[second_row], ROW_NUMBERS[COLOURS[second_row]][second_box]))
        after = table[seat]
        if colour is not None:
            after = after.mark(colour, dice.white_sum)
        if second is not None:
            after = after.mark(*second)
        elif colour is None and penalised:
            after = after.add_penalty()
        rated.append(RatedOption((colour, second), float(values[i]), float(means[i]), after))
    return rated


class LookaheadJudge:
    """The advice of `lookahead` (registry.Judge): every choice played to the end of the turn
    by the kernel, then rated by the learned value (`learned`: lookahead.learned_for) or the
    race model."""

    def __init__(self, race: RaceTable, learned: Optional[LearnedValue]):
        self.race, self.learned = race, learned

    def active(self, sheets: Sequence[Sheet], seat: int, dice: Dice | str) -> list[RatedOption]:
        return rate_lookahead(self.race, self.learned, sheets, seat, dice, seat)

    def passive(self, sheets: Sequence[Sheet], seat: int, dice: Dice | str,
                roller: Optional[int]) -> list[RatedOption]:
        """It plays the turn on, so it needs the roller's seat."""
        if roller is None or roller == seat:
            raise GameError("lookahead advice to a non-active player needs the roller's "
                            "seat, another than the player's")
        return rate_lookahead(self.race, self.learned, sheets, seat, dice, roller)

    def second(self, sheets: Sequence[Sheet], seat: int, dice: Dice | str,
               marked_first: bool) -> list[RatedOption]:
        return rate_lookahead(self.race, self.learned, sheets, seat, dice, seat, marked_first)


def train(learned: LearnedValue, race: RaceTable, first_game: int, games: int, seed: int,
          rate: float, race_rate: float) -> None:
    """Learn `learned` in place by TD(0) over games first_game .. first_game+games-1 of the
    series `seed` between two lookahead players reading it and `race` (the kernel,
    _simulate.train_lookahead; its twin: train_twin)."""
    _simulate.train_lookahead(_simulate.lookahead_lineup(2, kernel_race(race), learned.weights),
                              first_game, games, seed, rate, race_rate,
                              lock_after=race.lock_after)


def train_twin(learned: LearnedValue, race: RaceTable, first_game: int, games: int, seed: int,
                 rate: float, race_rate: float) -> None:
    """The twin of _simulate.train_lookahead (slow): the same games, the same TD(0) steps."""
    weights = learned.weights

    def logit(index: list[int], race_logit: float) -> float:
        total = float(weights[0]) * race_logit
        for k in index:
            total += float(weights[k])
        return total

    for number in range(first_game, first_game + games):
        stream = SplitMix64.for_game(seed, number)
        game = Game(2, lock_after=race.lock_after)
        players: list[Player] = [LookaheadPlayer(race, learned, game, seat) for seat in (0, 1)]
        before: list[Optional[tuple[list[int], float]]] = [None, None]
        while True:
            over = game.is_over()
            for p in (0, 1):
                mine, theirs = game.sheets[p], game.sheets[1 - p]
                if over:
                    now, features = final_share(mine, [theirs]), None
                else:
                    features = learned_features(race, mine, theirs, game.active == p)
                    now = 1.0 / (1.0 + math.exp(-logit(*features)))
                previous = before[p]
                if previous is not None:
                    error = now - 1.0 / (1.0 + math.exp(-logit(*previous)))
                    for k in previous[0]:
                        weights[k] += rate * error
                    weights[0] += race_rate * error * previous[1]
                before[p] = features
            if over:
                break
            game.play_turn_with(stream.roll(), players)
