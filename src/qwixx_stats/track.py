"""`qwixx track`: keep every sheet of a Qwixx game played at a real table.

The tracker asks for each roll and for every player's marks as they are called out at the
table, checks each mark the moment it is typed (and refuses an illegal one with the reason,
then asks again), shows the advice of the `win` model (winning.Advisor) to the player it serves
(`--me SEAT`), and after every turn the scores and who is ahead. `undo` takes a turn back; the
game is saved after every turn (`--save FILE`) and goes on later (`--resume FILE`).

Input language (one answer per prompt; case and surrounding blanks do not matter)
- dice: six numbers in SPEC order white, white, red, yellow, green, blue, separated by commas
  and/or blanks, or written together: `3,4,6,1,2,5`, `3 4 6 1 2 5`, `346125`. The die of a
  closed row has left the game: write `-` for it (`3,4,-,1,2,5`).
- action 1, asked of every player in seat order: the row in which the player marks the white
  sum: `red`, `yellow`, `green`, `blue` (or `r`, `y`, `g`, `b`), or `-` (or Enter) for no
  mark. One line may answer for several players in seat order (`r - b`); a line with a refused
  answer is refused as a whole (nothing on it is taken).
- action 2, asked of the active player once every action 1 is in: one white die plus one
  coloured die as `ROW NUMBER` (`blue 9`, `b9`, `9 blue`), or `-` (Enter) for no mark. An
  active player who marks nothing in the whole turn takes a penalty (the tracker adds it). If
  action 1 closed a second row the game is over and action 2 is not asked.
- commands, at any prompt: `undo` (at the dice prompt: take back the last completed turn;
  later in a turn: start the turn being entered again), `show` (every sheet in SPEC notation,
  the scores and who is ahead), `save FILE` (save now, and after every turn from then on),
  `help`, `quit` (stop; completed turns are kept in the save file). End of input is `quit`.
  When the game is over the tracker reports the final scores and the winner(s), then asks once
  more: Enter finishes, `undo` takes the last turn back and the game goes on.

Example (`qwixx track --players 2 --me 1`; the tracker serves player 1; "..." cuts lines):

    turn 1, player 1 (you) rolls - dice (white,white,red,yellow,green,blue): 3,4,6,1,2,5
    player 1 (you) rolled white 3+4 = 7; red 6, yellow 1, green 2, blue 5
    advice for player 1 (you), your roll: both actions (estimated chance of winning, ...):
      1.  52.0%   112.6  4 in yellow
      2.  50.6%   105.9  5 in yellow
      ...
      player 1 (you) action 1 - the white sum 7 in (row or -): r purple
    unknown row 'purple': type red, yellow, green or blue (r, y, g, b), or - for no mark; ...
      player 1 (you) action 1 - the white sum 7 in (row or -): r -
    advice for player 1 (you), action 2 (estimated chance of winning, expected final score):
      1.  47.8%    84.4  4 in yellow
      ...
      player 1 (you) action 2 - white + colour (red 9/10, yellow 4/5, ...) or -: red 8
    player 1 (you) cannot mark 8 in red: 8 is not a white die plus the red die (3+6 = 9, ...
      player 1 (you) action 2 - white + colour (red 9/10, ...) or -: blue 9
    turn 1: player 1 (you): 7 in red, 9 in blue; player 2: no mark
    scores: player 1 (you) 2, player 2 0; ahead: player 1 (you) with 2, by 2
    turn 2, player 2 rolls - dice (white,white,red,yellow,green,blue): undo
    took back turn 1 (player 1 (you) rolled 3,4,6,1,2,5)

With --json the text goes to stderr, and stdout gets exactly one JSON object when the session
ends (game over or quit): {"players", "lock_after", "turns", "scores", "winners", "over",
"sheets"}; winners are 1-based seats with the top score once the game is over ([] before).

Save file (UTF-8 JSON, written atomically: a file under its name is always complete):
    {"format": "qwixx-track", "version": 1, "players": 3, "lock_after": 5, "me": 2 or null,
     "turns": [{"dice": "3,4,6,1,2,5", "first": ["red", null, "blue"],
                "second": ["blue", 9] or null}, ...],
     "checksum": "sha256:<hex>"}
`first` holds every player's action 1 in seat order, `second` the active player's action 2
(turn k is rolled by player (k - 1) mod players + 1: player 1 rolls first). A removed die is
stored as 1 (its value is never used). The checksum is the SHA-256 of the canonical JSON
(sorted keys, no blanks, ASCII) of every other member; it is verified before any of the game
is used, so a file changed by hand or damaged is refused (it guards against mistakes, not
against forgery). Then every turn is replayed through
Game.play_turn, which checks it against the rules again; the penalties follow from the turns.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, Optional

from solverkit.arrayfile import write_atomically

from .arguments import whole_number
from .errors import GameError, QwixxError, clip, cut, cut_path
from .game import MAX_PLAYERS, Game, Option, SecondMark
from .sheet import (COLOURS, LOCK_RULES, MARKS_TO_LOCK, MAX_PENALTIES, Dice, Sheet, is_whole,
                    position)

if TYPE_CHECKING:
    from .winning import Advice, Advisor

FORMAT = "qwixx-track"
VERSION = 1
MIN_PLAYERS = 2
MAX_SAVE_BYTES = 1_000_000     # a game has at most 8 * (44 marks + 4 penalties) turns: ~60 KB
MAX_TURNS = MAX_PLAYERS * (4 * 11 + MAX_PENALTIES)   # each turn marks or costs the roller
ADVICE_SHOWN = 4               # options of the advice shown, best first
REMOVED_DIE = 1                # the value stored for the die of a closed row
SAVE_KEYS = ("format", "version", "players", "lock_after", "me", "turns", "checksum")
TURN_KEYS = ("dice", "first", "second")
DIE_NAMES = ("first white", "second white") + COLOURS
ROWS = {colour: colour for colour in COLOURS} | {colour[0]: colour for colour in COLOURS}
NO_MARK = ("", "-", "none", "pass")

HELP = """\
Each turn, in order:
  dice      the roll: white,white,red,yellow,green,blue as 3,4,6,1,2,5 (or 3 4 6 1 2 5,
            or 346125); '-' for the die of a closed row
  action 1  for each player in seat order, the row in which they mark the white sum:
            red, yellow, green, blue (r, y, g, b), or - (or Enter) for no mark;
            one line may answer for several players in seat order: r - b
  action 2  the active player's white die + coloured die as ROW NUMBER (blue 9, b9),
            or - (or Enter) for no mark; marking nothing in the whole turn costs a penalty
At any prompt:
  undo       at the dice prompt take back the last turn; later, start this turn again
  show       every sheet, the scores and who is ahead
  save FILE  save the game now (and after every turn from then on)
  help       this text
  quit       stop (the completed turns stay in the save file)"""


class TrackError(GameError):
    """A bad tracker option or save file (the command line reports it and exits 2)."""


class InputRefused(QwixxError):
    """An answer typed during the game that is refused (the reason is shown, then asked again)."""


class _Undo(Exception):
    """`undo` typed at a prompt."""


class _Quit(Exception):
    """`quit` typed, or the end of the input."""


# -- options ---------------------------------------------------------------------------------

def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `qwixx track` (the subparser already has --json and --dir)."""
    parser.add_argument("--players", type=whole_number("--players", MIN_PLAYERS, MAX_PLAYERS),
                        metavar="N", help=f"players at the table, {MIN_PLAYERS}..{MAX_PLAYERS} "
                        "(required unless --resume); player 1 rolls first")
    parser.add_argument("--me", type=whole_number("--me", 1, MAX_PLAYERS), metavar="SEAT",
                        help="the seat (1-based) that gets advice: the estimated chance of "
                        "winning of each choice (default: no advice)")
    parser.add_argument("--lock-after", type=int, choices=LOCK_RULES, default=None,
                        help="marks a row needs before its last number: 5 (the printed rules, "
                        "default) or 4 (the variant)")
    parser.add_argument("--save", metavar="FILE",
                        help="save the game to FILE after every turn (a new game does not "
                        "overwrite an existing file)")
    parser.add_argument("--resume", metavar="FILE",
                        help="go on with the game saved in FILE (saved to FILE again unless "
                        "--save names another)")


# -- save files ------------------------------------------------------------------------------

def checksum(body: dict[str, Any]) -> str:
    """SHA-256 of the canonical JSON of the save file's members other than the checksum."""
    rest = {key: value for key, value in body.items() if key != "checksum"}
    canonical = json.dumps(rest, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return "sha256:" + hashlib.sha256(canonical.encode("ascii")).hexdigest()


def game_record(game: Game, me: Optional[int]) -> dict[str, Any]:
    """The save file's content (checksum included); `me` is a 0-based seat or None."""
    body: dict[str, Any] = {
        "format": FORMAT, "version": VERSION, "players": game.players,
        "lock_after": game.lock_after, "me": None if me is None else me + 1,
        "turns": [{"dice": str(record.dice), "first": list(record.first),
                   "second": None if record.second is None else list(record.second)}
                  for record in game.history]}
    body["checksum"] = checksum(body)
    return body


def save_game(path: Path | str, game: Game, me: Optional[int]) -> None:
    """Write the game atomically (one turn a line, so that the file reads well)."""
    body = game_record(game, me)
    head = ", ".join(f"{json.dumps(key)}: {json.dumps(body[key])}"
                     for key in ("format", "version", "players", "lock_after", "me"))
    turns = ",\n".join(f"  {json.dumps(turn)}" for turn in body["turns"])
    text = (f"{{{head},\n \"turns\": [" + (f"\n{turns}\n ]" if turns else "]")
            + f",\n \"checksum\": {json.dumps(body['checksum'])}}}\n")
    write_atomically(path, [text.encode("utf-8")])


def load_game(path: Path | str) -> tuple[Game, Optional[int]]:
    """The game saved in `path`, replayed turn by turn, and its served seat (0-based or None).
    Raises TrackError naming the file and the problem."""
    shown = cut_path(path)

    def bad(problem: str) -> NoReturn:
        raise TrackError(f"save file {shown}: {problem}")

    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_SAVE_BYTES + 1)
    except OSError as error:
        raise TrackError(f"cannot read the save file {shown}: {error.strerror or error}") \
            from error
    if len(raw) > MAX_SAVE_BYTES:
        bad(f"larger than {MAX_SAVE_BYTES:,} bytes: not a qwixx-track save file")
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        bad("not UTF-8 text: not a qwixx-track save file")
    except (ValueError, RecursionError) as error:
        bad(f"not JSON ({cut(str(error))}): not a qwixx-track save file")
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        bad(f'not a qwixx-track save file (no "format": "{FORMAT}")')
    if data.get("version") != VERSION:
        bad(f"version {clip(data.get('version'))} is not supported (this program reads "
            f"version {VERSION})")
    stored = data.get("checksum")
    if not isinstance(stored, str):
        bad("it has no checksum")
    try:
        expected = checksum(data)
    except (ValueError, TypeError, RecursionError):
        bad("its content cannot be checked")
    if stored != expected:
        bad("the checksum does not match: the file was changed or damaged")
    # the content is as it was written: now check that it makes sense
    for key in data:
        if key not in SAVE_KEYS:
            bad(f"unexpected member {clip(key)}")
    for key in SAVE_KEYS:
        if key not in data:
            bad(f"member {key!r} is missing")
    players, lock_after, me, turns = (data["players"], data["lock_after"], data["me"],
                                      data["turns"])
    if not is_whole(players) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        bad(f"players must be {MIN_PLAYERS}..{MAX_PLAYERS}, not {clip(players)}")
    if not is_whole(lock_after) or lock_after not in LOCK_RULES:
        bad(f"lock_after must be 5 or 4, not {clip(lock_after)}")
    if me is not None and (not is_whole(me) or not 1 <= me <= players):
        bad(f"me must be a seat 1..{players} or null, not {clip(me)}")
    if not isinstance(turns, list) or len(turns) > MAX_TURNS:
        bad(f"turns must be a list of at most {MAX_TURNS} turns")
    game = Game(players, lock_after=lock_after)
    for number, turn in enumerate(turns, 1):
        where = f"turn {number}"
        if not isinstance(turn, dict) or sorted(turn) != sorted(TURN_KEYS):
            bad(f"{where} must be an object with dice, first and second")
        dice, first, second = turn["dice"], turn["first"], turn["second"]
        if not isinstance(dice, str):
            bad(f"{where}: dice must be text like \"3,4,6,1,2,5\", not {clip(dice)}")
        if not isinstance(first, list) or len(first) != players or any(
                row is not None and row not in COLOURS for row in first):
            bad(f"{where}: first must list one row or null for each of the {players} players, "
                f"not {clip(first)}")
        if second is not None and (
                not isinstance(second, list) or len(second) != 2 or second[0] not in COLOURS
                or not is_whole(second[1])):
            bad(f"{where}: second must be [row, number] or null, not {clip(second)}")
        if game.is_over():
            bad(f"{where} comes after the end of the game")
        try:
            game.play_turn(Dice.parse(dice), list(first),
                           None if second is None else (second[0], second[1]))
        except QwixxError as error:
            bad(f"{where}: {error}")
    return game, None if me is None else me - 1


# -- typed answers ---------------------------------------------------------------------------

def parse_dice(text: str, closed: frozenset[str] = frozenset()) -> Dice:
    """The roll as typed; `-` stands for the die of a closed row (stored as REMOVED_DIE)."""
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
    values = []
    for name, token in zip(DIE_NAMES, tokens):
        if token == "-":
            if name not in COLOURS:
                raise InputRefused("the white dice are always rolled: type both numbers")
            if name not in closed:
                raise InputRefused(f"the {name} die is still rolled ({name} is open): type its "
                                   "number 1..6")
            values.append(REMOVED_DIE)
        elif len(token) == 1 and token in "123456":
            values.append(int(token))
        else:
            raise InputRefused(f"dice {clip(text)}: the {name} die shows 1..6, not "
                               f"{clip(token)}")
    return Dice(*values)


def parse_row(token: str) -> Optional[str]:
    """A row name (or its first letter); None for no mark."""
    word = token.strip().lower()
    if word in NO_MARK:
        return None
    if word not in ROWS:
        raise InputRefused(f"unknown row {clip(token)}: type red, yellow, green or blue "
                           "(r, y, g, b), or - for no mark")
    return ROWS[word]


def mark_problem(sheet: Sheet, colour: str, number: int) -> Optional[str]:
    """Why `number` cannot be marked in `colour` on `sheet` (None when it can)."""
    if colour in sheet.closed:
        return f"{colour} is closed"
    marks = sheet.marks(colour)
    box = position(colour, number)
    if marks:
        last = position(colour, marks[-1])
        if box == last:
            return f"{number} is already marked in {colour}"
        if box < last:
            return (f"{number} is left of the last {colour} mark ({marks[-1]}): marks go to the "
                    "right")
    if box == 10 and len(marks) < sheet.lock_after:
        return (f"{number} is the last number of {colour}: locking it needs {sheet.lock_after} "
                f"{colour} marks first ({len(marks)} so far)")
    if not sheet.can_mark(colour, number):      # not expected: the rules have the last word
        return "the rules do not allow it on this sheet"
    return None


def after_action_1(sheets: Sequence[Sheet], dice: Dice,
                   first: Sequence[Optional[str]]) -> list[Sheet]:
    """Every sheet after action 1 (as Game plays it: simultaneous, then the locks close)."""
    closed: frozenset[str] = frozenset().union(*(sheet.closed for sheet in sheets))
    marked = [sheet.close(closed) if row is None else sheet.close(closed).mark(row, dice.white_sum)
              for sheet, row in zip(sheets, first)]
    closed = frozenset().union(*(sheet.closed for sheet in marked))
    return [sheet.close(closed) for sheet in marked]


def turns_text(count: int) -> str:
    return f"{count} turn" + ("" if count == 1 else "s")


def join_names(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def roll_text(dice: Dice, closed: frozenset[str]) -> str:
    colours = ", ".join(f"{c} {dice.colour(c)}" for c in COLOURS if c not in closed)
    return f"white {dice.white1}+{dice.white2} = {dice.white_sum}" + (
        f"; {colours}" if colours else "")


def colour_sums_text(dice: Dice, closed: frozenset[str]) -> str:
    return ", ".join(f"{c} " + "/".join(map(str, sorted(set(dice.colour_sums(c)))))
                     for c in COLOURS if c not in closed)


# -- the session -----------------------------------------------------------------------------

class Console:
    """Prompts and text through the given callables; with --json the text and the prompts go
    to stderr and `write` gets only the JSON object. With `echo` (input() reading a pipe or a
    file, not a terminal) each answer is written after its prompt, so the text reads as a
    transcript."""

    def __init__(self, read: Callable[[str], str], write: Callable[[str], None],
                 json_only: bool, echo: bool = False) -> None:
        self.read, self.write, self.json_only, self.echo = read, write, json_only, echo

    def say(self, text: str) -> None:
        if self.json_only:
            print(text, file=sys.stderr)
        else:
            self.write(text)

    def ask(self, prompt: str) -> str:
        if self.json_only:
            sys.stderr.write(prompt)
            sys.stderr.flush()
            answer = self.read("")
        else:
            answer = self.read(prompt)
        if self.echo:
            self.say(answer)
        return answer


class Tracker:
    def __init__(self, game: Game, me: Optional[int], save_path: Optional[Path],
                 advisor: Optional[Advisor], console: Console) -> None:
        self.game, self.me, self.save_path = game, me, save_path
        self.advisor, self.console = advisor, console
        self.in_turn = False

    # -- text ----------------------------------------------------------------------------
    def say(self, text: str) -> None:
        self.console.say(text)

    def name(self, seat: int) -> str:
        return f"player {seat + 1}" + (" (you)" if seat == self.me else "")

    def leaders(self) -> list[int]:
        scores = self.game.scores()
        return [seat for seat, score in enumerate(scores) if score == max(scores)]

    def ahead(self) -> str:
        scores = self.game.scores()
        top, leaders = max(scores), self.leaders()
        if len(leaders) == len(scores):
            return f"all tied at {top}"
        names = join_names([self.name(seat) for seat in leaders])
        if len(leaders) > 1:
            return f"tied ahead: {names} with {top}"
        runner_up = max(score for score in scores if score != top)
        return f"ahead: {names} with {top}, by {top - runner_up}"

    def standings(self) -> str:
        scores = ", ".join(f"{self.name(seat)} {score}"
                           for seat, score in enumerate(self.game.scores()))
        return f"scores: {scores}; {self.ahead()}"

    def show(self) -> None:
        game = self.game
        closed = ", ".join(c for c in COLOURS if c in game.closed) or "none"
        turn = f"turn {len(game.history) + 1}"
        lines = ["game over" if game.is_over() else
                 f"{turn}: {self.name(game.active)} rolled (the marks of this turn are not on "
                 "the sheets yet)" if self.in_turn else
                 f"{turn}: {self.name(game.active)} rolls next",
                 f"lock after {game.lock_after} marks; closed rows: {closed}"]
        width = max(len(self.name(seat)) for seat in range(game.players))
        for seat, sheet in enumerate(game.sheets):
            lines.append(f"  {self.name(seat):<{width}}  {sheet.score():>4}  {sheet}")
        lines.append(self.ahead())
        self.say("\n".join(lines))

    def final_text(self) -> str:
        game = self.game
        reasons = [f"{self.name(seat)} took a fourth penalty"
                   for seat, sheet in enumerate(game.sheets) if sheet.penalties >= MAX_PENALTIES]
        if len(game.closed) >= 2:
            reasons.append(join_names([c for c in COLOURS if c in game.closed]) + " are closed")
        leaders = self.leaders()
        top = game.scores()[leaders[0]]
        names = join_names([self.name(seat) for seat in leaders])
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

    # -- prompts and commands ------------------------------------------------------------
    def ask(self, prompt: str) -> str:
        """The next answer that is not a command (show, help and save are done here)."""
        while True:
            try:
                text = self.console.ask(prompt)
            except EOFError:
                if self.console.echo:
                    self.say("")           # end the prompt's line
                raise _Quit() from None
            text = text.strip()
            word = text.lower()
            if word == "undo":
                raise _Undo()
            if word in ("quit", "exit"):
                raise _Quit()
            if word == "show":
                self.show()
            elif word in ("help", "?"):
                self.say(HELP)
            elif word == "save" or word.startswith(("save ", "save\t")):
                self.save_command(text[4:].strip())
            else:
                return text

    def save_command(self, name: str) -> None:
        if not name:
            if self.save_path is None:
                self.say("save FILE: name the file to save the game in")
                return
            path = self.save_path
        else:
            path = Path(name).expanduser()
        if self.save(path):
            self.save_path = path
            self.say(f"saved {turns_text(len(self.game.history))} in {cut_path(path)} (and "
                     "after every turn from now on)")

    def save(self, path: Path) -> bool:
        try:
            save_game(path, self.game, self.me)
        except OSError as error:
            self.say(f"could not save the game in {cut_path(path)}: {error.strerror or error}")
            return False
        return True

    def autosave(self) -> None:
        if self.save_path is not None:
            self.save(self.save_path)

    # -- advice --------------------------------------------------------------------------
    def advise(self, title: str, produce: Callable[[Advisor], list[Advice]],
               describe: Callable[[Option], str]) -> None:
        if self.advisor is None or self.me is None:
            return
        try:
            advice = produce(self.advisor)
        except QwixxError as error:
            self.say(f"no advice: {error}")
            return
        lines = [f"advice for {self.name(self.me)}, {title} (estimated chance of winning, "
                 "expected final score):"]
        for rank, item in enumerate(advice[:ADVICE_SHOWN], 1):
            lines.append(f"  {rank}. {100 * item.win_chance:5.1f}%  {item.expected_score:6.1f}"
                         f"  {describe(item.option)}")
        if len(advice) > ADVICE_SHOWN:
            lines.append(f"  ({len(advice) - ADVICE_SHOWN} more)")
        self.say("\n".join(lines))

    # -- a turn --------------------------------------------------------------------------
    def ask_dice(self) -> Dice:
        game = self.game
        prompt = (f"turn {len(game.history) + 1}, {self.name(game.active)} rolls - dice "
                  "(white,white,red,yellow,green,blue): ")
        while True:
            text = self.ask(prompt)
            try:
                return parse_dice(text, game.closed)
            except InputRefused as error:
                self.say(str(error))

    def ask_first(self, dice: Dice, start: Sequence[Sheet]) -> list[Optional[str]]:
        total, players = dice.white_sum, self.game.players
        choices: list[Optional[str]] = []
        while len(choices) < players:
            seat = len(choices)
            text = self.ask(f"  {self.name(seat)} action 1 - the white sum {total} in "
                            "(row or -): ")
            tokens = [token for token in re.split(r"[\s,]+", text) if token] or ["-"]
            try:
                if len(tokens) > players - seat:
                    raise InputRefused(f"{len(tokens)} answers for {players - seat} player(s) "
                                       f"from {self.name(seat)} on: one row or - each")
                answers = []
                for offset, token in enumerate(tokens):
                    row = parse_row(token)
                    if row is not None:
                        problem = mark_problem(start[seat + offset], row, total)
                        if problem:
                            raise InputRefused(f"{self.name(seat + offset)} cannot mark {total} "
                                               f"in {row}: {problem}")
                    answers.append(row)
            except InputRefused as error:
                self.say(str(error) + ("; nothing on this line was taken" if len(tokens) > 1
                                       else ""))
                continue
            choices.extend(answers)
        return choices

    def parse_second(self, text: str, dice: Dice, sheet: Sheet,
                     locked_now: frozenset[str]) -> SecondMark:
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
        reason = f"{self.name(self.game.active)} cannot mark {number} in {colour}: "
        if colour in locked_now:
            raise InputRefused(reason + f"{colour} was locked in action 1 of this turn")
        if colour in sheet.closed:
            raise InputRefused(reason + f"{colour} is closed")
        if number not in dice.colour_sums(colour):
            die = dice.colour(colour)
            raise InputRefused(reason + f"{number} is not a white die plus the {colour} die "
                               f"({dice.white1}+{die} = {dice.white1 + die}, "
                               f"{dice.white2}+{die} = {dice.white2 + die})")
        problem = mark_problem(sheet, colour, number)
        if problem:
            raise InputRefused(reason + problem)
        return colour, number

    def ask_second(self, dice: Dice, sheet: Sheet, marked_first: bool,
                   locked_now: frozenset[str]) -> SecondMark:
        penalty = "" if marked_first else " (no mark: a penalty)"
        prompt = (f"  {self.name(self.game.active)} action 2 - white + colour "
                  f"({colour_sums_text(dice, sheet.closed)}) or -{penalty}: ")
        while True:
            text = self.ask(prompt)
            try:
                return self.parse_second(text, dice, sheet, locked_now)
            except InputRefused as error:
                self.say(str(error))

    def enter_turn(self, dice: Dice) -> None:
        """Take the rest of one turn's input and play it (raises _Undo to start again)."""
        game, me = self.game, self.me
        active, closed = game.active, game.closed
        start = [sheet.close(closed) for sheet in game.sheets]
        self.say(f"{self.name(active)} rolled {roll_text(dice, closed)}")
        total = dice.white_sum

        def plan_text(option: Option) -> str:
            first, second = option
            parts = [f"{total} in {first}"] if first else []
            if second:
                parts.append(f"{second[1]} in {second[0]}")
            return ", then ".join(parts) if parts else "no mark (a penalty)"

        if me == active:
            self.advise("your roll: both actions", lambda a: a.active(start, active, dice),
                        plan_text)
        elif me is not None:
            self.advise("action 1", lambda a: a.passive(start, me, dice),
                        lambda option: f"{total} in {option[0]}" if option[0] else "no mark")
        first = self.ask_first(dice, start)
        after = after_action_1(start, dice, first)
        now_closed: frozenset[str] = frozenset().union(*(sheet.closed for sheet in after))
        second: SecondMark = None
        if len(now_closed) >= 2:
            self.say(f"{join_names([c for c in COLOURS if c in now_closed])} are closed: the "
                     "game ends with action 1 (no action 2)")
        else:
            locked_now = now_closed - closed
            for colour in COLOURS:
                if colour in locked_now:
                    self.say(f"{colour} was locked in action 1: it is closed for action 2")
            marked = first[active] is not None
            if me == active:
                self.advise("action 2", lambda a: a.second(after, active, dice, marked),
                            lambda option: (f"{option[1][1]} in {option[1][0]}" if option[1]
                                            else "no mark" + ("" if marked else " (a penalty)")))
            second = self.ask_second(dice, after[active], marked, locked_now)
        before = list(game.sheets)
        try:
            game.play_turn(dice, first, second)
        except QwixxError as error:            # not expected: every answer was checked
            self.say(f"the rules refuse this turn: {error}")
            raise _Undo() from None
        self.in_turn = False
        self.report_turn(before)
        self.autosave()

    def report_turn(self, before: Sequence[Sheet]) -> None:
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
                marks.append(f"a penalty ({sheet.penalties} of {MAX_PENALTIES})")
            parts.append(f"{self.name(seat)}: {', '.join(marks) or 'no mark'}")
        self.say(f"turn {len(game.history)}: " + "; ".join(parts))
        for colour in COLOURS:
            lockers = [self.name(seat) for seat, sheet in enumerate(game.sheets)
                       if sheet.is_locked(colour) and not before[seat].is_locked(colour)]
            if lockers:
                self.say(f"{colour} is locked by {join_names(lockers)}: closed for everyone")
        self.say(self.standings())

    def take_back(self) -> None:
        game = self.game
        if not game.history:
            self.say("nothing to take back: no turn has been played yet")
            return
        last = game.history[-1]
        self.game = replay(game.players, game.lock_after, game.history[:-1])
        self.say(f"took back turn {len(game.history)} ({self.name(last.active)} rolled "
                 f"{last.dice})")
        self.autosave()
        self.say(self.standings())

    # -- the loop ------------------------------------------------------------------------
    def final_prompt(self) -> bool:
        """After the end: True to finish, False when the last turn was taken back."""
        while True:
            try:
                text = self.ask("game over - Enter to finish, undo to take back the last "
                                "turn: ")
            except _Undo:
                self.take_back()
                return False
            if not text:
                return True
            self.say("the game is over: press Enter to finish, or type undo, show, save FILE "
                     "or quit")

    def run(self) -> None:
        try:
            while True:
                if self.game.is_over():
                    self.say(self.final_text())
                    if self.final_prompt():
                        break
                    continue
                try:
                    dice = self.ask_dice()
                except _Undo:
                    self.take_back()
                    continue
                self.in_turn = True
                try:
                    self.enter_turn(dice)
                except _Undo:
                    self.say("the turn is started again: type the dice")
                self.in_turn = False
        except _Quit:
            if self.in_turn:
                self.say("the turn being entered is dropped")
            if not self.game.is_over():
                self.say(f"stopped after {turns_text(len(self.game.history))}; "
                         f"{self.standings()}")
                if self.save_path is not None:
                    self.say(f"the game is saved in {cut_path(self.save_path)}: go on with "
                             f"--resume {cut_path(self.save_path)}")


def replay(players: int, lock_after: int, records: Sequence[Any]) -> Game:
    """A new game with the turns of `records` (TurnRecord) played again."""
    game = Game(players, lock_after=lock_after)
    for record in records:
        game.play_turn(record.dice, list(record.first), record.second)
    return game


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def _path_option(value: object, option: str) -> Optional[Path]:
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise TrackError(f"{option} must name a file, not {clip(value)}")
    return Path(value).expanduser()


def command(args: argparse.Namespace, load_advisor: Callable[[int, int], Advisor],
            read: Callable[[str], str] = input, write: Callable[[str], None] = print) -> None:
    """`qwixx track`: run the tracker until the game is over or the user quits."""
    players = getattr(args, "players", None)
    me = getattr(args, "me", None)
    lock_after = getattr(args, "lock_after", None)
    save_path = _path_option(getattr(args, "save", None), "--save")
    resume = _path_option(getattr(args, "resume", None), "--resume")
    if players is not None and (not is_whole(players)
                                or not MIN_PLAYERS <= players <= MAX_PLAYERS):
        raise TrackError(f"--players must be {MIN_PLAYERS}..{MAX_PLAYERS}, not {clip(players)}")
    if lock_after is not None and (not is_whole(lock_after) or lock_after not in LOCK_RULES):
        raise TrackError(f"--lock-after must be 5 or 4, not {clip(lock_after)}")
    if me is not None and not is_whole(me):
        raise TrackError(f"--me must be a seat number, not {clip(me)}")
    console = Console(read, write, bool(getattr(args, "json", False)),
                      echo=read is input and not _is_terminal(sys.stdin))
    seat: Optional[int]
    if resume is not None:
        game, seat = load_game(resume)
        if players is not None and players != game.players:
            raise TrackError(f"--players {players}: the game saved in {cut_path(resume)} has "
                             f"{game.players} players")
        if lock_after is not None and lock_after != game.lock_after:
            raise TrackError(f"--lock-after {lock_after}: the game saved in {cut_path(resume)} "
                             f"locks after {game.lock_after} marks")
        if save_path is None:
            save_path = resume
    else:
        if players is None:
            raise TrackError(f"--players N ({MIN_PLAYERS}..{MAX_PLAYERS}) is needed to start a "
                             "game (or --resume FILE to go on with a saved one)")
        game = Game(players, lock_after=MARKS_TO_LOCK if lock_after is None else lock_after)
        seat = None
    if save_path is not None and save_path.exists() and (
            resume is None or save_path.resolve() != resume.resolve()):
        raise TrackError(f"--save {cut_path(save_path)}: the file exists; go on with its game "
                         "with --resume, or name a new file")
    if me is not None:
        if not 1 <= me <= game.players:
            raise TrackError(f"--me {me}: the seats are 1..{game.players}")
        seat = me - 1
    if save_path is not None:
        try:
            save_game(save_path, game, seat)
        except OSError as error:
            raise TrackError(f"cannot save the game in {cut_path(save_path)}: "
                             f"{error.strerror or error}") from error
    advisor = None
    if seat is not None:
        console.say("loading the advice tables (solving them the first time takes a while)")
        advisor = load_advisor(game.players, game.lock_after)
    tracker = Tracker(game, seat, save_path, advisor, console)
    if resume is not None:
        console.say(f"resumed the game of {cut_path(resume)}: "
                    f"{turns_text(len(game.history))} played")
    console.say(f"{game.players} players, lock after {game.lock_after} marks"
                + (f"; advice for {tracker.name(seat)}" if seat is not None else "")
                + "; type help for the input language")
    if game.history:
        console.say(tracker.standings())
    tracker.run()
    if console.json_only:
        write(json.dumps(tracker.summary()))
