"""A game of Qwixx for any number of players, with the full rules of SPEC.

A turn: the active player rolls; in action 1 every player may mark the white sum in one open
row (decisions are simultaneous, so several players may lock the same row); rows locked in
action 1 close for everyone, and if that makes two closed rows the game ends at once, with no
action 2. Otherwise the active player alone may mark one white die plus one coloured die of an
open row. An active player who marked nothing takes a penalty. The game ends when a player has
four penalties or two rows are closed. Only the player who marks a row's last number gets its
lock mark.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Callable, Optional, Protocol

from solverkit.messages import clip

from .errors import GameError, GameOverError, IllegalMarkError
from .rules import MARKS_TO_LOCK
from .sheet import (COLOURS, Dice, Sheet, check_colour, check_lock_after, check_sheet,
                    close_all, closed_rows, game_over, is_whole, position)

SecondMark = Optional[tuple[str, int]]
Option = tuple[Optional[str], SecondMark]     # (action 1, action 2) of one player
MAX_PLAYERS = 8          # the most the Cython simulator handles (_simulate.pyx MAX_PLAYERS)


class Player(Protocol):
    def first_action(self, sheet: Sheet, dice: Dice, active: bool) -> Optional[str]:
        """The row in which to mark the white sum, or None."""

    def second_action(self, sheet: Sheet, dice: Dice, marked_first: bool) -> SecondMark:
        """(row, number) for white die + that row's die, or None. Active player only."""


class PlannedPlayer:
    """Plays a fixed option this turn (its action 2 only while the mark is legal), then as
    `player`: a choice played to see where it leads (lookahead's turn model, rollouts)."""

    def __init__(self, player: Player, option: Option):
        self.player, self.option, self.planned = player, option, True

    def first_action(self, sheet: Sheet, dice: Dice, active: bool) -> Optional[str]:
        if self.planned:
            return self.option[0]
        return self.player.first_action(sheet, dice, active)

    def second_action(self, sheet: Sheet, dice: Dice, marked_first: bool) -> SecondMark:
        planned, self.planned = self.planned, False
        second = self.option[1]
        if planned and (second is None or sheet.can_mark(*second)):
            return second
        return self.player.second_action(sheet, dice, marked_first)


@dataclass
class TurnRecord:
    active: int
    dice: Dice
    first: list[Optional[str]]
    second: SecondMark
    penalty: bool


@dataclass
class Game:
    players: int
    sheets: list[Sheet] = field(default_factory=list)
    active: int = 0
    history: list[TurnRecord] = field(default_factory=list)
    lock_after: int = MARKS_TO_LOCK      # the lock rule of every sheet (5, or 4: the variant)

    def __post_init__(self) -> None:
        check_lock_after(self.lock_after)
        if not is_whole(self.players) or not 1 <= self.players <= MAX_PLAYERS:
            raise GameError(f"a game has 1..{MAX_PLAYERS} players, not {clip(self.players)}")
        if not isinstance(self.sheets, (list, tuple)):
            raise GameError(f"sheets must be a list of Sheet, not {clip(self.sheets)}")
        if not self.sheets:
            self.sheets = [Sheet(lock_after=self.lock_after) for _ in range(self.players)]
        if len(self.sheets) != self.players:
            raise GameError(f"one sheet per player: {len(self.sheets)} sheets for "
                            f"{self.players} players")
        self.sheets = [check_sheet(sheet, self.lock_after) for sheet in self.sheets]
        if not is_whole(self.active) or not 0 <= self.active < self.players:
            raise GameError(f"active must be a seat 0..{self.players - 1}, not {clip(self.active)}")
        if not isinstance(self.history, list):
            raise GameError(f"history must be a list, not {clip(self.history)}")

    @property
    def closed(self) -> frozenset[str]:
        return closed_rows(self.sheets)

    def is_over(self) -> bool:
        return game_over(self.sheets)

    def scores(self) -> list[int]:
        return [s.score() for s in self.sheets]

    def play_turn(self, dice: Dice | str, first: list[Optional[str]],
                  second: SecondMark) -> None:
        """Apply one turn's decisions: first[i] is player i's action 1, second the active one's
        action 2 (ignored when action 1 ended the game). An illegal decision raises and leaves
        the game as it was."""
        self._play(dice, lambda: first, lambda marked: second)

    def play_turn_with(self, dice: Dice | str, players: list[Player]) -> None:
        """One turn with each player's decisions asked at the moment the rules ask them."""
        if not isinstance(players, (list, tuple)) or len(players) != self.players:
            raise GameError(f"one Player per seat ({self.players}), not {clip(players)}")

        dice = Dice.parse(dice)

        def first() -> list[Optional[str]]:
            return [players[i].first_action(self.sheets[i], dice, i == self.active)
                    for i in range(self.players)]

        def second(marked: bool) -> SecondMark:
            return players[self.active].second_action(self.sheets[self.active], dice, marked)
        self._play(dice, first, second)

    def _play(self, dice: Dice | str, decide_first: Callable[[], list[Optional[str]]],
              decide_second: Callable[[bool], SecondMark]) -> None:
        if self.is_over():
            raise GameOverError("the game is over")
        dice = Dice.parse(dice)
        saved = list(self.sheets)
        try:
            first = decide_first()
            self.sheets = after_first_actions(self.sheets, dice, first)
            first = list(first)
            second: SecondMark
            second, penalty = None, False
            if not self.is_over():
                marked = first[self.active] is not None
                second = decide_second(marked)
                penalty = self._apply_second(dice, marked, second)
        except Exception:
            self.sheets = saved
            raise
        self.history.append(TurnRecord(self.active, dice, first, second, penalty))
        self.active = (self.active + 1) % self.players

    def _apply_second(self, dice: Dice, marked_first: bool, second: SecondMark) -> bool:
        """Apply action 2; returns whether the active player took a penalty."""
        sheet = self.sheets[self.active]
        penalty = False
        if second is not None:
            if not isinstance(second, (tuple, list)) or len(second) != 2:
                raise GameError(f"action 2 is None or (row, number), not {clip(second)}")
            colour, number = second
            position(colour, number)
            problem = colour_sum_problem(dice, colour, number)
            if problem is not None:
                raise IllegalMarkError(problem)
            sheet = sheet.mark(colour, number)
        elif not marked_first:
            sheet = sheet.add_penalty()
            penalty = True
        self.sheets[self.active] = sheet
        closed = self.closed
        self.sheets = [s.close(closed) for s in self.sheets]
        return penalty


def after_first_actions(sheets: Sequence[Sheet], dice: Dice,
                        first: Sequence[Optional[str]]) -> list[Sheet]:
    """Every sheet after action 1, `first[i]` being player i's row for the white sum (or
    None): the marks are simultaneous (each is checked on the sheets as they were, so several
    players may lock the same row), then the rows locked close for everyone. An illegal
    decision raises (IllegalMarkError naming the player and the reason)."""
    if not isinstance(first, (list, tuple)) or len(first) != len(sheets):
        raise GameError(f"one action-1 decision (a row or None) per player "
                        f"({len(sheets)}), not {clip(first)}")
    for colour in first:
        if colour is not None:
            check_colour(colour)
    total = dice.white_sum
    marked = close_all(sheets)
    for i, colour in enumerate(first):
        if colour is not None:
            problem = marked[i].mark_problem(colour, total)
            if problem is not None:
                raise IllegalMarkError(f"player {i + 1} cannot mark {total} in {colour}: "
                                       f"{problem}")
            marked[i] = marked[i].mark(colour, total)
    return close_all(marked)


def colour_sum_problem(dice: Dice, colour: str, number: int) -> Optional[str]:
    """Why action 2 cannot mark `number` in the row of `colour` with these dice (it is not a
    white die plus that row's die), or None when it can."""
    if number in dice.colour_sums(colour):
        return None
    die = dice.colour(colour)
    return (f"{number} is not a white die plus the {colour} die ({dice.white1}+{die} = "
            f"{dice.white1 + die}, {dice.white2}+{die} = {dice.white2 + die})")


def final_share(mine: Sheet, others: Sequence[Sheet]) -> float:
    """The exact share of a game that is over: 1, 1/k for a tie of k at the top, or 0."""
    own = mine.score()
    level = 1
    for sheet in others:
        if sheet.score() > own:
            return 0.0
        if sheet.score() == own:
            level += 1
    return 1.0 / level


def skipped_boxes(sheet: Sheet, colour: str, number: int) -> int:
    """Empty boxes left behind to the left of the new mark."""
    marks = sheet.marks(colour)
    last = position(colour, marks[-1]) if marks else -1
    return position(colour, number) - last - 1


def active_options(sheet: Sheet, dice: Dice) -> list[tuple[Optional[str], SecondMark]]:
    """Every legal (action 1, action 2) pair for the active player, in a fixed order:
    action 1 None, red, yellow, green, blue; action 2 None, then per row the first white die's
    sum before the second's (a repeated sum is listed once)."""
    sheet, dice = check_sheet(sheet), Dice.parse(dice)
    options: list[Option] = []
    for first in [None, *white_sum_rows(sheet, dice)]:
        after = sheet if first is None else sheet.mark(first, dice.white_sum)
        options.append((first, None))
        if after.is_finished():         # action 1 ended the game: no action 2
            continue
        options.extend((first, second) for second in colour_marks(after, dice))
    return options


def white_sum_rows(sheet: Sheet, dice: Dice) -> list[str]:
    """The rows in which `sheet` can take the white sum (action 1), in row order."""
    return [colour for colour in COLOURS if sheet.can_mark(colour, dice.white_sum)]


def colour_marks(sheet: Sheet, dice: Dice) -> list[tuple[str, int]]:
    """The marks action 2 can make on `sheet`: per row, in row order, a white die plus that
    row's die, the first white die's sum before the second's (a repeated sum once)."""
    return [(colour, number) for colour in COLOURS
            for number in dict.fromkeys(dice.colour_sums(colour))
            if sheet.can_mark(colour, number)]


def apply_option(sheet: Sheet, dice: Dice, option: tuple[Optional[str], SecondMark]) -> Sheet:
    """The sheet after one player's own turn (single-player view: a penalty if nothing)."""
    sheet, dice = check_sheet(sheet), Dice.parse(dice)
    if not isinstance(option, (tuple, list)) or len(option) != 2:
        raise GameError(f"an option is (row or None, (row, number) or None), not {clip(option)}")
    first, second = option
    if second is not None and (not isinstance(second, (tuple, list)) or len(second) != 2):
        raise GameError(f"action 2 is None or (row, number), not {clip(second)}")
    if first is not None:
        sheet = sheet.mark(first, dice.white_sum)
    if second is not None:
        sheet = sheet.mark(*second)
    if first is None and second is None:
        sheet = sheet.add_penalty()
    return sheet
