"""The `win` strategy: every choice by its effect on the chance of finishing first.

Method. A choice (the active player's marks or penalty, a non-active player's white-sum mark or
nothing) is rated on the sheets of every player as they stand right after it:
- if the choice ends the game (a second closed row, a fourth penalty), its chance is exact: 1
  for the top score, 1/k for a tie of k at the top, 0 otherwise. So `win` ends a game it leads
  (it locks, or takes the fourth penalty when that still leaves it ahead) and never locks, nor
  takes a penalty, into a loss;
- otherwise each player's final score is estimated as a normal variable whose mean and variance
  come from the exact paced table of race.py (expected final score and second moment of the
  points still to come, for a player active one turn in N in a game that the others may end),
  and the chance of ending above every opponent follows (race.win_chance, _race.pxd). A choice
  that closes a row also changes the opponents' outlooks (they lose that row), which is how
  blocking a row an opponent needs shows up, and racing: a player ahead prefers the narrow,
  sure outcome, a player behind the wide one.
The choice with the highest chance is played; chances within 1e-12 of each other (a game won
or lost whatever happens) go to the higher expected score; then to the first in the order of
game.active_options. The active player plans both actions at once, then decides action 2
again once action 1 is resolved for everyone (others' locks may have closed a row).

The estimate is a model, not a proof: it takes the game's length as a fixed hazard and joins
the players only through one correlation of their points to come (race.CORRELATION: the game's
length is shared; measured, issue 24), so `win` is measured (benchmarks/qwixx_win.py) against
the other strategies rather than claimed optimal. The kernel (`_winning.pxd`: win_value;
`_judged.pxd`: judged_active, judged_passive, judged_second) mirrors `WinPlayer` decision for
decision; the tests compare the two.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Optional

from solverkit.messages import clip

from ..errors import GameError
from ..rules.game import (Game, Option, SecondMark, active_options, apply_option, colour_marks,
                          final_share, white_sum_rows)
from ..tables.race import SAME_CHANCE, RaceTable, win_chance
from ..rules.sheet import Dice, Sheet, check_sheet, close_all, is_whole


def win_value(race: RaceTable, mine: Sheet, others: Sequence[Sheet]) -> tuple[float, float]:
    """(chance of winning, expected final score) of the player whose sheet is `mine`, against
    sheets `others`, all with the closed rows of `mine` (a choice that locks closes the row
    for everyone)."""
    others = [sheet.close(mine.closed) for sheet in others]
    own = race.outlook(mine)
    if mine.is_finished():
        return final_share(mine, others), own.mean
    return (win_chance(own, [race.outlook(sheet) for sheet in others], race.correlation),
            own.mean)


def _better(chance: float, mean: float, best: tuple[float, float]) -> bool:
    """_winning.pxd better(): a higher chance; at the same chance a higher expected score."""
    if chance > best[0] + SAME_CHANCE:
        return True
    return chance >= best[0] - SAME_CHANCE and mean > best[1]


@dataclass(frozen=True)
class RatedOption:
    option: Option               # (action 1, action 2); a non-active player has no action 2
    win_chance: float            # the race estimate of finishing first
    expected_score: float        # of this player, in the race model
    sheet: Sheet                 # this player's sheet after the choice


def _rated(race: RaceTable, option: Option, after: Sheet, others: Sequence[Sheet]) -> RatedOption:
    return RatedOption(option, *win_value(race, after, others), after)


def others_of(sheets: Sequence[Sheet], seat: int) -> list[Sheet]:
    """The sheets of every player but the one at `seat`, in seat order."""
    return [sheet for i, sheet in enumerate(sheets) if i != seat]


def check_table(sheets: object, seat: object, race: RaceTable) -> tuple[list[Sheet], int]:
    if not isinstance(race, RaceTable):
        raise GameError(f"the win strategy needs a RaceTable, not {type(race).__name__}")
    if not isinstance(sheets, (list, tuple)) or len(sheets) != race.players:
        raise GameError(f"one sheet per player ({race.players}, the race table's players), not "
                        f"{clip(sheets)}")
    checked = [check_sheet(sheet, race.lock_after) for sheet in sheets]
    if not is_whole(seat) or not 0 <= seat < len(checked):
        raise GameError(f"seat must be 0..{len(checked) - 1}, not {clip(seat)}")
    return close_all(checked), seat


def rate_active(race: RaceTable, sheets: Sequence[Sheet], seat: int,
                dice: Dice | str) -> list[RatedOption]:
    """Every (action 1, action 2) plan of the active player at `seat`, rated, in the order of
    game.active_options."""
    table, seat = check_table(sheets, seat, race)
    dice = Dice.parse(dice)
    mine, others = table[seat], others_of(table, seat)
    return [_rated(race, option, apply_option(mine, dice, option), others)
            for option in active_options(mine, dice)]


def rate_passive(race: RaceTable, sheets: Sequence[Sheet], seat: int,
                 dice: Dice | str) -> list[RatedOption]:
    """A non-active player's action 1 (nothing, then each row that takes the white sum)."""
    table, seat = check_table(sheets, seat, race)
    dice = Dice.parse(dice)
    mine, others = table[seat], others_of(table, seat)
    rated = [_rated(race, (None, None), mine, others)]
    for colour in white_sum_rows(mine, dice):
        rated.append(_rated(race, (colour, None), mine.mark(colour, dice.white_sum), others))
    return rated


def rate_second(race: RaceTable, sheets: Sequence[Sheet], seat: int, dice: Dice | str,
                marked_first: bool) -> list[RatedOption]:
    """The active player's action 2 once action 1 is resolved (None first: a penalty when
    action 1 marked nothing)."""
    table, seat = check_table(sheets, seat, race)
    dice = Dice.parse(dice)
    mine, others = table[seat], others_of(table, seat)
    rated = [_rated(race, (None, None), mine if marked_first else mine.add_penalty(), others)]
    for second in colour_marks(mine, dice):
        rated.append(_rated(race, (None, second), mine.mark(*second), others))
    return rated


def best(rated: Sequence[RatedOption]) -> RatedOption:
    """The choice `win` plays: the first best by (chance, then expected score)."""
    chosen = rated[0]
    for item in rated[1:]:
        if _better(item.win_chance, item.expected_score,
                   (chosen.win_chance, chosen.expected_score)):
            chosen = item
    return chosen


def ranked(rated: Sequence[RatedOption]) -> list[RatedOption]:
    """Best first, as `best` orders them (ties keep their order)."""
    remaining = list(rated)
    order = []
    while remaining:
        top = best(remaining)
        order.append(top)
        remaining.remove(top)
    return order


class WinPlayer:
    """Plays `win` at one seat of a game (a `game.Player` that reads the other sheets from the
    game it sits in)."""

    def __init__(self, race: RaceTable, game: Game, seat: int):
        if not isinstance(game, Game):
            raise GameError(f"a win player sits in a Game, not {type(game).__name__}")
        if game.players != getattr(race, "players", None):
            raise GameError(f"a race table of {getattr(race, 'players', '?')} players for a "
                            f"game of {game.players}")
        check_table(game.sheets, seat, race)
        self.race, self.game, self.seat = race, game, seat

    def first_action(self, sheet: Sheet, dice: Dice, active: bool) -> Optional[str]:
        if active:
            return best(rate_active(self.race, self.game.sheets, self.seat, dice)).option[0]
        return best(rate_passive(self.race, self.game.sheets, self.seat, dice)).option[0]

    def second_action(self, sheet: Sheet, dice: Dice, marked_first: bool) -> SecondMark:
        return best(rate_second(self.race, self.game.sheets, self.seat, dice,
                                marked_first)).option[1]


class WinJudge:
    """The advice of `win` (registry.Judge): every choice by the race model's chance right
    after it. It reads no learned value (`learned` must be None)."""

    def __init__(self, race: RaceTable, learned: object = None):
        if learned is not None:
            raise GameError("a learned value is read by lookahead only")
        self.race = race

    def active(self, sheets: Sequence[Sheet], seat: int, dice: Dice | str) -> list[RatedOption]:
        return rate_active(self.race, sheets, seat, dice)

    def passive(self, sheets: Sequence[Sheet], seat: int, dice: Dice | str,
                roller: Optional[int]) -> list[RatedOption]:
        return rate_passive(self.race, sheets, seat, dice)

    def second(self, sheets: Sequence[Sheet], seat: int, dice: Dice | str,
               marked_first: bool) -> list[RatedOption]:
        return rate_second(self.race, sheets, seat, dice, marked_first)
