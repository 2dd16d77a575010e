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
from typing import Optional, Protocol

from solverkit.messages import clip

from ..errors import GameError, GameOverError, TurnFault
from .constants import MARKS_TO_LOCK
from .sheet import (COLOURS, Dice, Sheet, check_colour, check_lock_after, check_sheet,
                    close_all, closed_rows, game_over, is_whole, position)

SecondMark = Optional[tuple[str, int]]
Option = tuple[Optional[str], SecondMark]     # (action 1, action 2) of one player
MAX_PLAYERS = 8          # the most the Cython simulator handles (_game.pxd MAX_PLAYERS)


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
    # the sheets and the active seat before each turn played here (pop)
    _before: list[tuple[list[Sheet], int]] = field(default_factory=list, init=False,
                                                    repr=False, compare=False)

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

    def turn(self, dice: Dice | str) -> Turn:
        """The turn of this roll, to be decided step by step (Turn); nothing changes on the
        game until `Turn.finish`."""
        return Turn(self, dice)

    def play_turn(self, dice: Dice | str, first: list[Optional[str]],
                  second: SecondMark) -> None:
        """Apply one turn's decisions: first[i] is player i's action 1, second the active one's
        action 2 (ignored when action 1 ended the game). An illegal decision raises and leaves
        the game as it was."""
        turn = self.turn(dice)
        turn.take_first(first)
        if not turn.ends_with_first:
            turn.take_second(second)
        turn.finish()

    def play_turn_with(self, dice: Dice | str, players: list[Player]) -> None:
        """One turn with each player's decisions asked at the moment the rules ask them."""
        if not isinstance(players, (list, tuple)) or len(players) != self.players:
            raise GameError(f"one Player per seat ({self.players}), not {clip(players)}")
        turn = self.turn(dice)
        dice = turn.dice
        turn.take_first([players[i].first_action(self.sheets[i], dice, i == self.active)
                         for i in range(self.players)])
        if not turn.ends_with_first:
            active, before = self.active, self.sheets
            self.sheets = turn.after         # players who read the game see action 1 done
            try:
                turn.take_second(players[active].second_action(
                    turn.after[active], dice, turn.first[active] is not None))
            finally:
                self.sheets = before
        turn.finish()

    def pop(self) -> TurnRecord:
        """Take the last turn back (undo): the game is again as it was before it."""
        if not self._before:
            raise GameError("nothing to take back: no turn has been played yet"
                            if not self.history else
                            "the turns this game was set up with cannot be taken back")
        self.sheets, self.active = self._before.pop()
        return self.history.pop()

    def _commit(self, before: list[Sheet], sheets: list[Sheet], record: TurnRecord) -> None:
        self._before.append((before, self.active))
        self.sheets = sheets
        self.history.append(record)
        self.active = (self.active + 1) % self.players


class Turn:
    """One turn of a game, decided step by step and each step checked by the rules, once:
    the roll (`Game.turn`), every player's action 1 (`check_first` mark by mark as they are
    called out, `take_first` all together), the active player's action 2 (`take_second`),
    then `finish`, which plays the turn on the game. Game.play_turn is these steps at once;
    the tracker and the explorer take them one by one. A refusal is a TurnFault naming the
    seat and the rule's reason."""

    def __init__(self, game: Game, dice: Dice | str):
        if game.is_over():
            raise GameOverError("the game is over")
        self.game, self.dice = game, Dice.parse(dice)
        self.active, self._played, self._before = game.active, len(game.history), game.sheets
        self.start = close_all(game.sheets)      # the sheets, every closed row closed on each
        self.first: list[Optional[str]] = []
        self.after: list[Sheet] = []             # the sheets after action 1 (take_first)
        self.second: SecondMark = None
        self._taken = False

    def check_first(self, seat: int, row: Optional[str]) -> None:
        """Player `seat`'s action 1 (a row for the white sum, or None), on its sheet as it was
        before anyone's action 1 (the marks are simultaneous)."""
        fault = first_fault(self.start[seat], seat, row, self.dice.white_sum)
        if fault is not None:
            raise fault

    def take_first(self, first: Sequence[Optional[str]]) -> list[Sheet]:
        """Every player's action 1, checked; the sheets after it (after_first_actions)."""
        self.after = after_first_actions(self.start, self.dice, first)
        self.first, self._taken = list(first), True
        return self.after

    @property
    def ends_with_first(self) -> bool:
        """Whether action 1 ended the game (then there is no action 2)."""
        return self._taken and game_over(self.after)

    def ending(self) -> str:
        """How action 1 ended the game (when it did)."""
        closed = closed_rows(self.after)
        return (f"{and_list([c for c in COLOURS if c in closed])} are closed: the game ends "
                "with action 1 (no action 2)")

    @property
    def locked_now(self) -> frozenset[str]:
        """The rows locked in this turn's action 1 (closed for action 2)."""
        return closed_rows(self.after) - closed_rows(self.start) if self._taken else frozenset()

    def take_second(self, second: object) -> SecondMark:
        """The active player's action 2 (after take_first): None, or (row, number) for a white
        die plus that row's die, on its sheet after action 1."""
        if not self._taken:
            raise GameError("action 2 comes after every player's action 1 (take_first)")
        self.second = second_mark(self, second)
        return self.second

    def finish(self) -> TurnRecord:
        """Play the turn on the game: action 2 (or the active player's penalty for marking
        nothing), the rows locked closed for everyone; the next player is active."""
        if not self._taken:
            raise GameError("a turn is finished after every player's action 1 (take_first)")
        if self.game.active != self.active or len(self.game.history) != self._played:
            raise GameError("the game moved on since this turn was rolled")
        sheets, penalty = list(self.after), False
        if not self.ends_with_first:
            sheet = sheets[self.active]
            if self.second is not None:
                sheet = sheet.mark(*self.second)
            elif self.first[self.active] is None:
                sheet, penalty = sheet.add_penalty(), True
            sheets[self.active] = sheet
            closed = closed_rows(sheets)
            sheets = [s.close(closed) for s in sheets]
        record = TurnRecord(self.active, self.dice, self.first, self.second, penalty)
        self.game._commit(self._before, sheets, record)
        return record


def second_mark(turn: Turn, second: object) -> SecondMark:
    """`second` checked as the active player's action 2 of `turn` (Turn.take_second)."""
    if second is None:
        return None
    if not isinstance(second, (tuple, list)) or len(second) != 2:
        raise GameError(f"action 2 is None or (row, number), not {clip(second)}")
    if turn.ends_with_first:
        raise TurnFault(None, turn.ending())
    colour, number = second
    position(colour, number)
    reason = f"cannot mark {number} in {colour}: "
    if colour in turn.locked_now:
        raise TurnFault(turn.active, reason + f"{colour} was locked in action 1 of this turn")
    problem = (colour_sum_problem(turn.dice, colour, number)
               or turn.after[turn.active].mark_problem(colour, number))
    if problem is not None:
        raise TurnFault(turn.active, reason + problem)
    return colour, number


def first_fault(sheet: Sheet, seat: int, row: Optional[str], total: int) -> Optional[TurnFault]:
    """Why player `seat` cannot mark the white sum `total` in `row` on `sheet` (None: it can,
    or it marks nothing)."""
    if row is None:
        return None
    check_colour(row)
    problem = sheet.mark_problem(row, total)
    return None if problem is None else TurnFault(seat, f"cannot mark {total} in {row}: "
                                                        f"{problem}")


def after_first_actions(sheets: Sequence[Sheet], dice: Dice,
                        first: Sequence[Optional[str]]) -> list[Sheet]:
    """Every sheet after action 1, `first[i]` being player i's row for the white sum (or
    None): the marks are simultaneous (each is checked on the sheets as they were, so several
    players may lock the same row), then the rows locked close for everyone. An illegal
    decision raises (a TurnFault naming the player and the reason)."""
    if not isinstance(first, (list, tuple)) or len(first) != len(sheets):
        raise GameError(f"one action-1 decision (a row or None) per player "
                        f"({len(sheets)}), not {clip(first)}")
    for colour in first:
        if colour is not None:
            check_colour(colour)
    total = dice.white_sum
    marked = close_all(sheets)
    for i, colour in enumerate(first):
        fault = first_fault(marked[i], i, colour, total)
        if fault is not None:
            raise fault
        if colour is not None:
            marked[i] = marked[i].mark(colour, total)
    return close_all(marked)


def and_list(names: Sequence[str]) -> str:
    """`red`, `red and yellow`, `red, yellow and green`."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


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
