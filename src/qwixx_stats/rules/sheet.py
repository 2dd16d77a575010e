"""Score sheets, dice and their notation (SPEC "Sheet notation").

A sheet lists the numbers marked in each row, its penalties and the rows that are closed (by
anyone). Red and yellow run 2..12, green and blue 12..2; a row's last number (12 or 2) can be
marked only after `lock_after` marks in that row (5 by the printed rules, 4 in the variant the
rules summary's example reads: SPEC `--lock-after`), and marking it locks the row: the lock
counts as one more mark and closes the row. Sheets are immutable; `mark` returns a new sheet.
"""
from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, TypeGuard, cast

from solverkit.messages import clip

from ..errors import DiceError, IllegalMarkError, SheetError
from .constants import LOCK_RULES, MARKS_TO_LOCK, PENALTIES_TO_END, PENALTY_POINTS, game_ends

COLOURS = ("red", "yellow", "green", "blue")
ROW_NUMBERS = {
    "red": tuple(range(2, 13)),
    "yellow": tuple(range(2, 13)),
    "green": tuple(range(12, 1, -1)),
    "blue": tuple(range(12, 1, -1)),
}
LAST_BOX = 10            # the box of a row's last number (12 or 2), whose mark locks the row
DIE_NAMES = ("first white", "second white") + COLOURS    # the dice in SPEC order, as named


def row_points(marks: int) -> int:
    return marks * (marks + 1) // 2


def check_colour(colour: str) -> str:
    if not isinstance(colour, str) or colour not in ROW_NUMBERS:
        raise SheetError(f"unknown row {clip(colour)}: expected one of {', '.join(COLOURS)}")
    return colour


def is_whole(value: object) -> TypeGuard[int]:
    """An int that is not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def position(colour: str, number: int) -> int:
    """The box (0..10, left to right) of `number` in the row of `colour`."""
    check_colour(colour)
    if not is_whole(number) or not 2 <= number <= 12:
        raise SheetError(f"{clip(number)} is not a number of a Qwixx row (2..12)")
    return number - 2 if colour in ("red", "yellow") else 12 - number


def check_lock_after(lock_after: object) -> int:
    if not is_whole(lock_after) or lock_after not in LOCK_RULES:
        raise SheetError(f"lock_after must be 5 (the printed rules) or 4 (the variant), not "
                         f"{clip(lock_after)}")
    return lock_after


def check_sheet(sheet: object, lock_after: int | None = None) -> "Sheet":
    """`sheet` if it is a Sheet (of the lock rule `lock_after`, when given)."""
    if not isinstance(sheet, Sheet):
        raise SheetError(f"expected a Sheet (e.g. Sheet.parse('red:2,3')), not "
                         f"{type(sheet).__name__}")
    if lock_after is not None and sheet.lock_after != lock_after:
        raise SheetError(f"this sheet follows the rule 'lock after {sheet.lock_after} marks', "
                         f"not {lock_after}")
    return sheet


@dataclass(frozen=True)
class Sheet:
    rows: tuple[tuple[int, ...], ...] = ((), (), (), ())
    penalties: int = 0
    closed: frozenset[str] = field(default_factory=frozenset)
    lock_after: int = MARKS_TO_LOCK      # marks a row needs before its last number (5 or 4)

    def __post_init__(self) -> None:
        check_lock_after(self.lock_after)
        if not isinstance(self.rows, (tuple, list)) or len(self.rows) != 4:
            raise SheetError("a sheet has exactly 4 rows (a tuple of 4 tuples of numbers)")
        for colour, marks in zip(COLOURS, self.rows):
            if not isinstance(marks, (tuple, list)) or len(marks) > len(ROW_NUMBERS[colour]):
                raise SheetError(f"the {colour} row must be a tuple of at most "
                                 f"{len(ROW_NUMBERS[colour])} numbers, not {clip(marks)}")
        if type(self.rows) is not tuple or any(type(marks) is not tuple for marks in self.rows):
            object.__setattr__(self, "rows", tuple(tuple(marks) for marks in self.rows))
        if not is_whole(self.penalties) or not 0 <= self.penalties <= PENALTIES_TO_END:
            raise SheetError(f"penalties must be 0..{PENALTIES_TO_END}, not "
                             f"{clip(self.penalties)}")
        if not isinstance(self.closed, (frozenset, set, tuple, list)):
            raise SheetError(f"closed must be a set of rows, not {clip(self.closed)}")
        for colour in self.closed:
            check_colour(colour)
        if type(self.closed) is not frozenset:
            object.__setattr__(self, "closed", frozenset(self.closed))
        for colour, marks in zip(COLOURS, self.rows):
            boxes = [position(colour, number) for number in marks]
            if any(b <= a for a, b in zip(boxes, boxes[1:])):
                raise SheetError(f"{colour} marks {','.join(map(str, marks))} are not in row "
                                 f"order ({ROW_NUMBERS[colour][0]} to {ROW_NUMBERS[colour][-1]})")
            if boxes and boxes[-1] == LAST_BOX:
                if len(marks) - 1 < self.lock_after:
                    raise SheetError(f"{colour} is locked with {len(marks) - 1} marks before its "
                                     f"last number; locking needs {self.lock_after}")
                if colour not in self.closed:
                    raise SheetError(f"{colour} is locked on this sheet, so it must be closed")

    # -- notation ------------------------------------------------------------------------
    @classmethod
    def parse(cls, text: str, lock_after: int = MARKS_TO_LOCK) -> "Sheet":
        """Read `red:2,3,5 yellow: green:12,10 blue: penalties:1 closed:red` (any order)."""
        check_lock_after(lock_after)
        if not isinstance(text, str):
            raise SheetError(f"a sheet is written as text, not {type(text).__name__}")
        rows: dict[str, tuple[int, ...]] = {}
        penalties = 0
        closed: set[str] = set()
        seen: set[str] = set()
        for token in text.split():
            key, colon, value = token.partition(":")
            if not colon:
                raise SheetError(f"sheet token {clip(token)} has no ':' (expected e.g. red:2,3)")
            if key in seen:
                raise SheetError(f"{clip(key)} appears twice in the sheet")
            seen.add(key)
            items = value.split(",") if value else []
            if "" in items:
                raise SheetError(f"sheet token {clip(token)} has an empty item between commas")
            if key in ROW_NUMBERS:
                rows[key] = tuple(_number(item, key) for item in items)
            elif key == "penalties":
                if len(items) != 1:
                    raise SheetError(f"penalties takes one number, not {clip(value)}")
                penalties = _number(items[0], key)
            elif key == "closed":
                closed = {check_colour(item) for item in items}
                if len(closed) != len(items):
                    raise SheetError(f"closed lists a row twice: {clip(value)}")
            else:
                raise SheetError(f"unknown sheet token {clip(key)}: expected red, yellow, green, "
                                 "blue, penalties or closed")
        return cls(tuple(rows.get(colour, ()) for colour in COLOURS), penalties,
                   frozenset(closed), lock_after)

    def __str__(self) -> str:
        parts = [f"{colour}:{','.join(map(str, marks))}"
                 for colour, marks in zip(COLOURS, self.rows)]
        parts.append(f"penalties:{self.penalties}")
        parts.append("closed:" + ",".join(c for c in COLOURS if c in self.closed))
        return " ".join(parts)

    # -- queries -------------------------------------------------------------------------
    def marks(self, colour: str) -> tuple[int, ...]:
        return self.rows[COLOURS.index(check_colour(colour))]

    def mark_count(self, colour: str) -> int:
        """Marks in the row, the lock included."""
        marks = self.marks(colour)
        return len(marks) + (1 if self.is_locked(colour) else 0)

    def is_locked(self, colour: str) -> bool:
        """Locked by this player (its last number marked)."""
        marks = self.marks(colour)
        return bool(marks) and marks[-1] == ROW_NUMBERS[colour][-1]

    def mark_problem(self, colour: str, number: int) -> str | None:
        """Why `number` cannot be marked in the row of `colour` now, or None when it can: the
        rule of a legal mark, with its reasons (a SheetError for a row or number that does
        not exist)."""
        box = position(colour, number)
        if colour in self.closed:
            return f"{colour} is closed"
        marks = self.marks(colour)
        if marks:
            last = position(colour, marks[-1])
            if box == last:
                return f"{number} is already marked in {colour}"
            if box < last:
                return (f"{number} is left of the last {colour} mark ({marks[-1]}): marks go to "
                        "the right")
        if box == LAST_BOX and len(marks) < self.lock_after:
            return (f"{number} is the last number of {colour}: locking it needs "
                    f"{self.lock_after} {colour} marks first ({len(marks)} so far)")
        return None

    def can_mark(self, colour: str, number: int) -> bool:
        return self.mark_problem(colour, number) is None

    def legal_marks(self, colour: str) -> tuple[int, ...]:
        return tuple(n for n in ROW_NUMBERS[check_colour(colour)] if self.can_mark(colour, n))

    def score(self) -> int:
        return (sum(row_points(self.mark_count(c)) for c in COLOURS)
                - PENALTY_POINTS * self.penalties)

    # -- changes -------------------------------------------------------------------------
    def mark(self, colour: str, number: int) -> "Sheet":
        problem = self.mark_problem(colour, number)
        if problem is not None:
            raise IllegalMarkError(f"{number} cannot be marked in {colour}: {problem}")
        index = COLOURS.index(colour)
        rows = list(self.rows)
        rows[index] = rows[index] + (number,)
        closed = self.closed
        if position(colour, number) == LAST_BOX:
            closed = closed | {colour}
        return Sheet(tuple(rows), self.penalties, closed, self.lock_after)

    def add_penalty(self) -> "Sheet":
        if self.penalties >= PENALTIES_TO_END:
            raise IllegalMarkError(f"a sheet holds at most {PENALTIES_TO_END} penalties")
        return Sheet(self.rows, self.penalties + 1, self.closed, self.lock_after)

    def close(self, colours: Iterable[str]) -> "Sheet":
        """The same sheet with more rows closed (by other players' locks)."""
        if not isinstance(colours, (frozenset, set, tuple, list)):
            raise SheetError(f"close takes a set or list of rows, not {clip(colours)}")
        colours = {check_colour(c) for c in colours}
        return Sheet(self.rows, self.penalties, self.closed | colours, self.lock_after)

    def is_finished(self) -> bool:
        """Whether the game is over as this sheet shows it (rules.game_ends)."""
        return game_ends(self.penalties, len(self.closed))


def game_over(sheets: Iterable[Sheet]) -> bool:
    """Whether the game of these sheets is over (rules.game_ends): a player has a fourth
    penalty, or the sheets together show a second closed row."""
    sheets = list(sheets)
    return game_ends(max((sheet.penalties for sheet in sheets), default=0),
                     len(closed_rows(sheets)))


def closed_rows(sheets: Iterable[Sheet]) -> frozenset[str]:
    """The rows closed on any of the sheets (a lock closes its row for everyone)."""
    return frozenset().union(*(sheet.closed for sheet in sheets))


def close_all(sheets: Iterable[Sheet]) -> list[Sheet]:
    """Every sheet with the rows closed on any of them."""
    sheets = list(sheets)
    closed = closed_rows(sheets)
    return [sheet.close(closed) for sheet in sheets]


def _number(text: str, key: str) -> int:
    """A number of the notation: ASCII digits only (no sign, no '_', no other scripts)."""
    if not (text.isascii() and text.isdigit()):
        raise SheetError(f"{clip(text)} in {key!r} is not a whole number")
    if len(text) > 20:
        raise SheetError(f"{clip(text)} in {key!r} is far too large")
    return int(text)


class Dice(NamedTuple):
    """Six dice in SPEC order: white, white, red, yellow, green, blue."""
    white1: int
    white2: int
    red: int
    yellow: int
    green: int
    blue: int

    @classmethod
    def parse(cls, text: str | Iterable[int]) -> "Dice":
        """Dice from `3,4,6,1,2,5`, or from six ints (a Dice, a tuple or a list)."""
        faces: list[object]
        if isinstance(text, str):
            faces = [p.strip() for p in text.split(",", 6)]
            example = " like 3,4,6,1,2,5"
        elif isinstance(text, (tuple, list)) or (
                isinstance(text, Iterable)
                and not isinstance(text, (bytes, bytearray, set, frozenset, dict))):
            faces = list(itertools.islice(text, 7))     # an endless iterator stops here
            example = ""
        else:
            raise DiceError(f"dice are written as text like 3,4,6,1,2,5 or six numbers in order, "
                            f"not {type(text).__name__}")
        if len(faces) != 6:
            raise DiceError(f"dice {clip(text)}: expected six numbers (white, white, red, "
                            f"yellow, green, blue){example}, got "
                            f"{'more' if len(faces) > 6 else len(faces)}")
        dice = cls.of_faces(faces, text)
        return text if type(text) is cls else dice

    @classmethod
    def of_faces(cls, faces: Sequence[object], shown: object) -> "Dice":
        """Six dice from their faces in SPEC order, each a number or its ASCII digits (the
        notation's, the tracker's typed roll): the one reading of a die, so that a refusal
        names the die wherever the roll was written. `shown`: the roll as the message quotes
        it."""
        if len(faces) != 6:
            raise DiceError(f"dice {clip(shown)}: expected six numbers, got {len(faces)}")
        values = []
        for name, face in zip(DIE_NAMES, faces):
            value = face
            if isinstance(face, str):
                if not (face.isascii() and face.isdigit()):
                    raise DiceError(f"dice {clip(shown)}: expected six numbers like "
                                    f"3,4,6,1,2,5, not {clip(face)} (the {name} die)")
                value = int(face) if len(face) <= 2 else 0      # 0: out of range, no huge int
            if not is_whole(value) or not 1 <= value <= 6:
                raise DiceError(f"dice {clip(shown)}: every die shows 1..6, not {clip(face)} "
                                f"(the {name} die)")
            values.append(value)
        return cls(*values)

    def __str__(self) -> str:
        return ",".join(map(str, self))

    @property
    def white_sum(self) -> int:
        return self.white1 + self.white2

    def colour(self, colour: str) -> int:
        return cast(int, getattr(self, check_colour(colour)))

    def colour_sums(self, colour: str) -> tuple[int, int]:
        """The two sums a white die and this colour's die make."""
        die = self.colour(colour)
        return (self.white1 + die, self.white2 + die)
