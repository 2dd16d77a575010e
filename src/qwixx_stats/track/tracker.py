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

The game's text and the reading of the typed answers, which the explorer's tracker shares:
text.py. The save file (its format and checks): savefile.py.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

from solverkit.commandline import error_line, whole_number_argument
from solverkit.messages import clip, cut_path

from ..errors import GameError, QwixxError, TrackError, TurnFault
from ..rules.game import MAX_PLAYERS, Game, Option, Turn
from ..rules.constants import LOCK_RULES, MARKS_TO_LOCK
from .game_json import MIN_PLAYERS
from .savefile import load_game, save_game
from ..rules.sheet import COLOURS, Dice, is_whole
from .text import GameText, InputRefused, parse_dice, parse_mark, parse_row, turns_text

if TYPE_CHECKING:
    from ..advisor import Advice, Advisor

ADVICE_SHOWN = 4               # options of the advice shown, best first

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


class _Undo(Exception):
    """`undo` typed at a prompt."""


class _Quit(Exception):
    """`quit` typed, or the end of the input."""


# -- options ---------------------------------------------------------------------------------

def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `qwixx track` (the subparser already has --json and --dir)."""
    parser.add_argument("--players", type=whole_number_argument("a number of players", MIN_PLAYERS, MAX_PLAYERS),
                        metavar="N", help=f"players at the table, {MIN_PLAYERS}..{MAX_PLAYERS} "
                        "(required unless --resume); player 1 rolls first")
    parser.add_argument("--me", type=whole_number_argument("a seat", 1, MAX_PLAYERS), metavar="SEAT",
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


# -- what the terminal alone shows (the rest of the game's text: text.py) --------------------

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
        self.text = GameText(game, me)
        self.name = self.text.name
        self.in_turn = False

    def say(self, text: str) -> None:
        self.console.say(text)

    def show(self) -> None:
        self.say(self.text.sheets(self.in_turn))

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
            self.say(f"no advice: {error_line(error)}")
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

    def ask_first(self, turn: Turn) -> list[Optional[str]]:
        total, players = turn.dice.white_sum, self.game.players
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
                answers = [parse_row(token) for token in tokens]
                for offset, row in enumerate(answers):
                    turn.check_first(seat + offset, row)
            except TurnFault as fault:
                refused: InputRefused = self.text.refusal(fault)
            except InputRefused as error:
                refused = error
            else:
                choices.extend(answers)
                continue
            self.say(str(refused) + ("; nothing on this line was taken" if len(tokens) > 1
                                     else ""))
        return choices

    def ask_second(self, turn: Turn) -> None:
        marked_first = turn.first[turn.active] is not None
        penalty = "" if marked_first else " (no mark: a penalty)"
        prompt = (f"  {self.name(turn.active)} action 2 - white + colour "
                  f"({colour_sums_text(turn.dice, turn.after[turn.active].closed)}) or "
                  f"-{penalty}: ")
        while True:
            text = self.ask(prompt)
            try:
                turn.take_second(parse_mark(text))
                return
            except TurnFault as fault:
                self.say(str(self.text.refusal(fault)))
            except InputRefused as error:
                self.say(str(error))

    def enter_turn(self, dice: Dice) -> None:
        """Take the rest of one turn's input and play it (raises _Undo to start again)."""
        game, me = self.game, self.me
        turn = game.turn(dice)
        active, start = turn.active, turn.start
        self.say(f"{self.name(active)} rolled {roll_text(dice, game.closed)}")
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
            self.advise("action 1", lambda a: a.passive(start, me, dice, active),
                        lambda option: f"{total} in {option[0]}" if option[0] else "no mark")
        after = turn.take_first(self.ask_first(turn))
        if turn.ends_with_first:
            self.say(turn.ending())
        else:
            for colour in COLOURS:
                if colour in turn.locked_now:
                    self.say(f"{colour} was locked in action 1: it is closed for action 2")
            marked = turn.first[active] is not None
            if me == active:
                self.advise("action 2", lambda a: a.second(after, active, dice, marked),
                            lambda option: (f"{option[1][1]} in {option[1][0]}" if option[1]
                                            else "no mark" + ("" if marked else " (a penalty)")))
            self.ask_second(turn)
        before = list(game.sheets)
        turn.finish()
        self.in_turn = False
        for line in self.text.turn_report(before):
            self.say(line)
        self.say(self.text.standings())
        self.autosave()

    def take_back(self) -> None:
        game = self.game
        turns = len(game.history)
        try:
            last = game.pop()
        except GameError as error:        # nothing to take back (the game says why)
            self.say(str(error))
            return
        self.say(f"took back turn {turns} ({self.name(last.active)} rolled {last.dice})")
        self.autosave()
        self.say(self.text.standings())

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
                    self.say(self.text.final_text())
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
                         f"{self.text.standings()}")
                if self.save_path is not None:
                    self.say(f"the game is saved in {cut_path(self.save_path)}: go on with "
                             f"--resume {cut_path(self.save_path)}")


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
        console.say(tracker.text.standings())
    tracker.run()
    if console.json_only:
        write(json.dumps(tracker.text.summary()))
