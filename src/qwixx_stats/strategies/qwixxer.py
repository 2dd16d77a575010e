"""`qwixxer-ga`: the champion of a public Qwixx bot, as an opponent from outside (issue 24).

Source: the Rust program vibelyova/qwixxer on GitHub (README "Strategies"; src/bot.rs,
src/state.rs, champion.txt; read at commit b77cd71). Its "GA Champion" is a heuristic whose 4
weights were evolved by a genetic algorithm, with shared meta-rules; it is the baseline its
README measures its other programs against, two players: a TD(lambda) value network ~60.3%,
MCTS with champion rollouts about level with it. Issue 24 reports `win` at 62.0% against a
port of it. This one was written here from reading that program; no code was taken, the
weights are the published champion.txt.

Its decision, on the sheet after each choice (rows closed included)::

    instinct = 0.4909 chances - 0.8692 penalties + 0.01846 concentration - 0.0560 blanks

- chances: over the open rows, (rolls of two dice of 36 showing the row's next number, the
  box right of its last mark) x (the row's marks + 1);
- concentration: over all rows, (marks, a lock's extra mark included) squared;
- blanks: over the open rows, the empty boxes left of the last mark.

Its meta-rules, before the instinct:

1. With 3 penalties, it takes a 4th (marks nothing) when its score minus 5 beats the best
   other score, and else never while anything else is legal.
2. It makes a lock when one is legal, the one of the highest score, unless that lock ends
   the game without its score beating the best other (then the lock goes on to rule 3).
3. It drops a lock that ends the game below the best other score (a tie is kept).
4. It drops a choice when another choice's sheet has no row with fewer marks or a later
   next box (both open or both closed), and one row better; then a single mark when a
   single mark in another row with more marks has the same box and the same skip.
5. The highest instinct wins; no mark (the penalty) comes last and a tie goes to the later.

When not active, it takes the white sum by rule 2 (any lock it does not lose by), else by the
instinct, no mark last.

Fitted to this project's turn (game.py: action 1 by everyone at once, then the active
player's action 2), as its own program plays a turn: the active champion chooses its whole
turn at once, among the choices in its program's order (`champion_options`, so that ties go
as they go there), and keeps its plan's action 2; only if another player's lock made that
mark illegal does it choose again among the action-2 marks left (the same rules, no mark
first). A passive champion sees the table before the active player's turn, not after it.

Checked against that program: its own decision code (its sheet state, move list and
meta-rules, compiled in a harness outside this project) and this module were given the same
42,546 positions from games of two to four players. They chose the same sheet every time but
32, and those 32 are where its engine lets a colour mark follow a white sum that ends the game
by a lock, which these rules forbid.

The Cython kernel (_qwixxer.pxd: champion_instinct, champion_dominates, champion_pick,
champion_active, champion_passive, champion_second) mirrors `QwixxerPlayer` decision for
decision (tested).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Optional

from solverkit.messages import clip

from . import _simulate
from ..errors import GameError
from ..rules.game import Game, Option, SecondMark, apply_option, colour_marks, white_sum_rows
from .heuristics import sum_ways
from ..rules.constants import CLOSED_ROWS_TO_END, PENALTIES_TO_END, PENALTY_POINTS
from ..rules.sheet import COLOURS, Dice, Sheet, close_all, position

CHAMPION_WEIGHTS: tuple[float, float, float, float] = _simulate.QWIXXER_WEIGHTS
Single = Optional[tuple[str, int]]      # the (row, box) of a choice's one mark, if one


def _last_box(sheet: Sheet, colour: str) -> int:
    marks = sheet.marks(colour)
    return position(colour, marks[-1]) if marks else -1


def instinct(sheet: Sheet) -> float:
    """The champion's value of a sheet (its closed rows as they are after the choice)."""
    chances, concentration, blanks = 0.0, 0.0, 0
    for colour in COLOURS:
        total = sheet.mark_count(colour)
        concentration += total * total
        if colour in sheet.closed:
            continue
        next_box = _last_box(sheet, colour) + 1
        chances += sum_ways(next_box) / 36.0 * (total + 1.0)
        blanks += next_box - len(sheet.marks(colour))
    w = CHAMPION_WEIGHTS
    return chances * w[0] + sheet.penalties * w[1] + concentration * w[2] + blanks * w[3]


def _outlook(sheet: Sheet, colour: str) -> tuple[int, Optional[int]]:
    """(marks with a lock's extra one, the next box or None when the row is closed)."""
    next_box = None if colour in sheet.closed else _last_box(sheet, colour) + 1
    return sheet.mark_count(colour), next_box


def dominates(better: Sheet, worse: Sheet) -> bool:
    """Meta-rule 4: `better` has no row with fewer marks or a later next box (both rows open
    or both closed), and one row with more marks or an earlier next box."""
    strict = False
    for colour in COLOURS:
        (marks, next_box), (other_marks, other_next) = (_outlook(better, colour),
                                                         _outlook(worse, colour))
        if marks < other_marks or (next_box is None) != (other_next is None):
            return False
        if next_box is not None and other_next is not None:
            if next_box > other_next:
                return False
            strict = strict or next_box < other_next
        strict = strict or marks > other_marks
    return strict


def good_lock(before: Sheet, after: Sheet, best_other: int) -> bool:
    """Meta-rule 2: `after` locks a row, and does not end the game unless it leads."""
    return len(after.closed) > len(before.closed) and (
        len(after.closed) < CLOSED_ROWS_TO_END or after.score() > best_other)


def prune(before: Sheet, afters: Sequence[Sheet], singles: Sequence[Single],
          marking: Sequence[int]) -> list[int]:
    """Meta-rule 4 on the choices `marking` (indexes into `afters` and `singles`): drop a
    choice whose sheet another's dominates, then a single mark when a single mark in another
    row with more marks has the same box and the same last box before it."""
    kept = [i for i in marking
            if not any(j != i and dominates(afters[j], afters[i]) for j in marking)]

    def same_place_more_marks(i: int, j: int) -> bool:
        one, other = singles[i], singles[j]
        if one is None or other is None or one[0] == other[0] or one[1] != other[1]:
            return False
        return (_last_box(before, one[0]) == _last_box(before, other[0])
                and len(before.marks(other[0])) > len(before.marks(one[0])))

    return [i for i in kept if not any(same_place_more_marks(i, j) for j in kept)]


def pick(before: Sheet, best_other: int, afters: Sequence[Sheet], singles: Sequence[Single],
         nothing_is_penalty: bool) -> int:
    """The champion's choice (an index) among the sheets `afters` its choices lead to;
    afters[0] marks nothing (a penalty when `nothing_is_penalty`); singles[i] is choice i's one
    mark (row, box), if it makes exactly one; `best_other` is the best other score."""
    count = len(afters)
    alive = [True] * count
    if nothing_is_penalty and before.penalties == PENALTIES_TO_END - 1:        # rule 1
        if before.score() - PENALTY_POINTS > best_other:
            return 0
        if count > 1:
            alive[0] = False

    lock: Optional[int] = None                                                   # rule 2
    for i in range(1, count):
        if good_lock(before, afters[i], best_other):
            if lock is None or afters[i].score() >= afters[lock].score():
                lock = i
    if lock is not None:
        return lock
    for i in range(1, count):                                                    # rule 3
        if (len(afters[i].closed) > len(before.closed)
                and len(afters[i].closed) >= CLOSED_ROWS_TO_END
                and afters[i].score() < best_other):
            alive[i] = False
    kept = prune(before, afters, singles, [i for i in range(1, count) if alive[i]])  # rule 4
    order = kept + ([0] if alive[0] else [])                                    # rule 5
    values = {i: instinct(afters[i]) for i in order}
    best: Optional[int] = None
    for i in order:
        if best is None or values[i] >= values[best]:
            best = i
    return 0 if best is None else best


def champion_options(sheet: Sheet, dice: Dice) -> list[Option]:
    """The active champion's choices in its own program's order, which decides its ties:
    marking nothing (the penalty: listed first here, weighed last by `pick`); the single
    marks, the white sum's by row, then the colour marks not listed yet (by row, the first
    white die's first); a white sum with a colour mark in another row (each white-sum row,
    then the colour marks in order); a white sum with a colour mark after it in its row. A
    pair needs a white sum that does not end the game (this project's rules)."""
    whites = white_sum_rows(sheet, dice)
    colours = [(c, n) for c in COLOURS for n in dice.colour_sums(c) if sheet.can_mark(c, n)]
    options: list[Option] = [(None, None), *((c, None) for c in whites)]
    singles = {(c, dice.white_sum) for c in whites}
    for mark in colours:
        if mark not in singles:
            singles.add(mark)
            options.append((None, mark))
    afters = {c: sheet.mark(c, dice.white_sum) for c in whites}
    pairing = [c for c in whites if not afters[c].is_finished()]
    pairs = [(c, mark) for c in pairing for mark in colours if mark[0] != c]
    pairs += [(c, (c, n)) for c in pairing for n in dice.colour_sums(c)
              if afters[c].can_mark(c, n)]
    options += list(dict.fromkeys(pairs))
    return options


class QwixxerPlayer:
    """Plays `qwixxer-ga` at one seat of a game (a `game.Player`)."""

    def __init__(self, game: Game, seat: int):
        if not isinstance(game, Game):
            raise GameError(f"a qwixxer-ga player sits in a Game, not {type(game).__name__}")
        if not isinstance(seat, int) or not 0 <= seat < game.players:
            raise GameError(f"seat must be 0..{game.players - 1}, not {clip(seat)}")
        self.game, self.seat = game, seat
        self._plan: Optional[tuple[int, Dice, Option]] = None    # (turn, dice, whole turn)

    def _table(self) -> tuple[Sheet, int]:
        sheets = close_all(self.game.sheets)
        others = [s.score() for i, s in enumerate(sheets) if i != self.seat]
        return sheets[self.seat], max(others, default=-1_000_000)

    def first_action(self, sheet: Sheet, dice: Dice, active: bool) -> Optional[str]:
        mine, best_other = self._table()
        if active:
            options = champion_options(mine, dice)
            singles = [_single(option, dice) for option in options]
            afters = [apply_option(mine, dice, option) for option in options]
            option = options[pick(mine, best_other, afters, singles, True)]
            self._plan = (len(self.game.history), dice, option)
            return option[0]
        rows = white_sum_rows(mine, dice)
        marked = [mine.mark(c, dice.white_sum) for c in rows]
        lock: Optional[int] = None
        for i, after in enumerate(marked):
            if good_lock(mine, after, best_other):
                if lock is None or after.score() >= marked[lock].score():
                    lock = i
        if lock is not None:
            return rows[lock]
        choice: Optional[str] = None
        value: Optional[float] = None
        for colour, after in zip(rows, marked):
            after_value = instinct(after)
            if value is None or after_value >= value:
                choice, value = colour, after_value
        return None if value is None or instinct(mine) >= value else choice

    def second_action(self, sheet: Sheet, dice: Dice, marked_first: bool) -> SecondMark:
        mine, best_other = self._table()
        plan = self._plan
        if plan is not None and plan[0] == len(self.game.history) and plan[1] == dice:
            second = plan[2][1]
            if second is None or mine.can_mark(*second):
                return second
        choices: list[SecondMark] = [None, *colour_marks(mine, dice)]
        afters = [(mine if marked_first else mine.add_penalty()) if choice is None
                  else mine.mark(*choice) for choice in choices]
        singles: list[Single] = [None if choice is None else
                                 (choice[0], position(*choice)) for choice in choices]
        return choices[pick(mine, best_other, afters, singles, not marked_first)]


def _single(option: Option, dice: Dice) -> Single:
    first, second = option
    if first is not None and second is None:
        return first, position(first, dice.white_sum)
    if first is None and second is not None:
        return second[0], position(*second)
    return None
