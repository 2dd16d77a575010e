"""What the terminal and the web say and read of a tracked game: the one text layer that
`qwixx track` (tracker.py) and the explorer's tracker (explorer/qwixx_api.py) share.

- GameText: a game's scores, who is ahead, a turn's report, the end, every seat named for the
  player served (`player 2 (you)`), and a refused decision said the same way.
- The typed answers of the tracker's input language (its docstring): the roll (parse_dice,
  which the web's turns use too, `-` standing for a closed row's die), a row (parse_row) and
  an action 2 (parse_mark). The dice themselves are read by Dice.of_faces, the one reading of
  a die in the package; what is typed here is only the tracker's way of writing them.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Optional

from solverkit.messages import clip

from ..errors import DiceError, QwixxError, TurnFault, seat_name
from ..rules.constants import CLOSED_ROWS_TO_END, PENALTIES_TO_END
from ..rules.game import Game, SecondMark, and_list
from ..rules.sheet import COLOURS, DIE_NAMES, Dice, Sheet

REMOVED_DIE = 1                # the value stored for the die of a closed row
ROWS = {colour: colour for colour in COLOURS} | {colour[0]: colour for colour in COLOURS}
NO_MARK = ("", "-", "none", "pass")


class InputRefused(QwixxError):
    """An answer typed during the game that is refused (the reason is shown, then asked again)."""


def parse_dice(text: str, closed: frozenset[str] = frozenset()) -> Dice:
    """The roll as typed: six dice separated by commas and/or blanks, or written together;
    `-` stands for the die of a closed row (stored as REMOVED_DIE)."""
    tokens = [token for token in re.split(r"[\s,]+", text.strip()) if token]
    if not tokens:
        raise InputRefused("type the dice: white,white,red,yellow,green,blue like 3,4,6,1,2,5 "
                           "(or a command: help, show, undo, save FILE, quit)")
    if len(tokens) == 1 and len(tokens[0]) == 6:
        tokens = list(tokens[0])
    if len(tokens) != 6:
        raise InputRefused(f"dice {clip(text)}: type six dice white,white,red,yellow,green,"
                           f"blue like 3,4,6,1,2,5 ('-' for the die of a closed row); got "
                           f"{len(tokens)}")
    faces: list[object] = []
    for name, token in zip(DIE_NAMES, tokens):
        if token != "-":
            faces.append(token)
        elif name not in COLOURS:
            raise InputRefused("the white dice are always rolled: type both numbers")
        elif name not in closed:
            raise InputRefused(f"the {name} die is still rolled ({name} is open): type its "
                               "number 1..6")
        else:
            faces.append(REMOVED_DIE)
    try:
        return Dice.of_faces(faces, text)
    except DiceError as error:         # typed: refused as any answer is, and asked again
        raise InputRefused(str(error)) from None


def parse_row(token: str) -> Optional[str]:
    """A row name (or its first letter); None for no mark."""
    word = token.strip().lower()
    if word in NO_MARK:
        return None
    if word not in ROWS:
        raise InputRefused(f"unknown row {clip(token)}: type red, yellow, green or blue "
                           "(r, y, g, b), or - for no mark")
    return ROWS[word]


def parse_mark(text: str) -> SecondMark:
    """An action 2 as typed: `blue 9`, `b9`, `9 blue`; None for no mark."""
    word = text.strip().lower()
    if word in NO_MARK:
        return None
    match = re.fullmatch(r"([a-z]+)[\s,:]*([0-9]{1,2})", word)
    if match:
        name, digits = match.groups()
    else:
        match = re.fullmatch(r"([0-9]{1,2})[\s,:]*([a-z]+)", word)
        if not match:
            raise InputRefused(f"action 2 {clip(text)}: type a row and a number like "
                               "'blue 9' (or b9), or - for no mark")
        digits, name = match.groups()
    colour = parse_row(name)
    assert colour is not None          # a name of letters is never a no-mark word
    number = int(digits)
    if not 2 <= number <= 12:
        raise InputRefused(f"{number} is not a number of a row (2..12)")
    return colour, number


def turns_text(count: int) -> str:
    return f"{count} turn" + ("" if count == 1 else "s")


class GameText:
    """What a tracked game says of itself, its seats named for the player served (`me`): the
    scores, who is ahead, a turn's report, the end (the tracker's lines, the explorer's)."""

    def __init__(self, game: Game, me: Optional[int]) -> None:
        self.game, self.me = game, me

    def name(self, seat: int) -> str:
        return seat_name(seat) + (" (you)" if seat == self.me else "")

    def leaders(self) -> list[int]:
        scores = self.game.scores()
        return [seat for seat, score in enumerate(scores) if score == max(scores)]

    def ahead(self) -> str:
        scores = self.game.scores()
        top, leaders = max(scores), self.leaders()
        if len(leaders) == len(scores):
            return f"all tied at {top}"
        names = and_list([self.name(seat) for seat in leaders])
        if len(leaders) > 1:
            return f"tied ahead: {names} with {top}"
        runner_up = max(score for score in scores if score != top)
        return f"ahead: {names} with {top}, by {top - runner_up}"

    def standings(self) -> str:
        scores = ", ".join(f"{self.name(seat)} {score}"
                           for seat, score in enumerate(self.game.scores()))
        return f"scores: {scores}; {self.ahead()}"

    def sheets(self, in_turn: bool) -> str:
        """Every sheet, the scores and who is ahead (`show`); `in_turn`: a roll is being
        entered."""
        game = self.game
        closed = ", ".join(c for c in COLOURS if c in game.closed) or "none"
        turn = f"turn {len(game.history) + 1}"
        lines = ["game over" if game.is_over() else
                 f"{turn}: {self.name(game.active)} rolled (the marks of this turn are not on "
                 "the sheets yet)" if in_turn else
                 f"{turn}: {self.name(game.active)} rolls next",
                 f"lock after {game.lock_after} marks; closed rows: {closed}"]
        width = max(len(self.name(seat)) for seat in range(game.players))
        for seat, sheet in enumerate(game.sheets):
            lines.append(f"  {self.name(seat):<{width}}  {sheet.score():>4}  {sheet}")
        lines.append(self.ahead())
        return "\n".join(lines)

    def final_text(self) -> str:
        game = self.game
        reasons = [f"{self.name(seat)} took a fourth penalty"
                   for seat, sheet in enumerate(game.sheets)
                   if sheet.penalties >= PENALTIES_TO_END]
        if len(game.closed) >= CLOSED_ROWS_TO_END:
            reasons.append(and_list([c for c in COLOURS if c in game.closed]) + " are closed")
        leaders = self.leaders()
        top = game.scores()[leaders[0]]
        names = and_list([self.name(seat) for seat in leaders])
        winner = (f"winner: {names} with {top}" if len(leaders) == 1
                  else f"winners (a tie): {names} with {top}")
        scores = ", ".join(f"{self.name(seat)} {score}"
                           for seat, score in enumerate(game.scores()))
        return (f"game over after {turns_text(len(game.history))}: {'; '.join(reasons)}\n"
                f"final scores: {scores}\n{winner}")

    def summary(self) -> dict[str, Any]:
        game = self.game
        over = game.is_over()
        return {"players": game.players, "lock_after": game.lock_after,
                "turns": len(game.history), "scores": game.scores(),
                "winners": [seat + 1 for seat in self.leaders()] if over else [],
                "over": over, "sheets": [str(sheet) for sheet in game.sheets]}

    def turn_report(self, before: Sequence[Sheet]) -> list[str]:
        """The last turn's marks and penalty, and the rows it locked (`before`: the sheets
        before it)."""
        game = self.game
        record = game.history[-1]
        parts = []
        for seat, sheet in enumerate(game.sheets):
            marks = []
            row = record.first[seat]
            if row is not None:
                marks.append(f"{record.dice.white_sum} in {row}")
            if seat == record.active and record.second is not None:
                marks.append(f"{record.second[1]} in {record.second[0]}")
            if seat == record.active and record.penalty:
                marks.append(f"a penalty ({sheet.penalties} of {PENALTIES_TO_END})")
            parts.append(f"{self.name(seat)}: {', '.join(marks) or 'no mark'}")
        lines = [f"turn {len(game.history)}: " + "; ".join(parts)]
        for colour in COLOURS:
            lockers = [self.name(seat) for seat, sheet in enumerate(game.sheets)
                       if sheet.is_locked(colour) and not before[seat].is_locked(colour)]
            if lockers:
                lines.append(f"{colour} is locked by {and_list(lockers)}: closed for everyone")
        return lines

    def refusal(self, fault: TurnFault) -> InputRefused:
        """A refused decision as the answer's refusal, its seat named here."""
        return InputRefused(fault.text(self.name))
