"""The Qwixx half of the API: the answers of `qwixx value` and `qwixx advise` (SPEC "Web"), and
the tracker of the page (`qwixx track` in the browser).

value and advise are read by the `qwixx` command line's own parser and answered by the
functions that build the command line's --json objects (qwixx_stats.answers). Their tables are
loaded once for the whole server (solved first, as the command line does on first use, where
they are missing); loading, solving and the rollouts of `advise --opponents` run on a slot of
the search pool, the cheap answers of a loaded table at once.

The tracker (`POST /api/v1/qwixx/track`) keeps no state: the page sends the game as the text
of `qwixx track`'s save file (savefile.py, checksum included) with what to do, and gets back the
new save file's text with what the page shows. Every turn is checked by the rules of
qwixx_stats, the mark that breaks one refused with the tracker's reason, so the browser holds
no rule of its own; the file it exports is the very file `qwixx track --save` writes.
"""
from __future__ import annotations

import argparse
import json
import threading
from typing import Any, Callable, Optional, TypeVar

from starlette.requests import Request

from qwixx_stats import answers
from qwixx_stats.cli import build_parser, parse_opponents
from qwixx_stats.errors import TurnFault
from qwixx_stats.rules.game import MAX_PLAYERS, Game
from qwixx_stats.tables.race import RaceTable
from qwixx_stats.strategies.registry import DEFAULT_JUDGE
from qwixx_stats.rules.constants import LOCK_RULES, MARKS_TO_LOCK
from qwixx_stats.track.savefile import MIN_PLAYERS, read_game, save_text
from qwixx_stats.rules.sheet import COLOURS, Dice, Sheet, is_whole
from qwixx_stats.tables.solitaire import ExpectedValues, table_directory
from qwixx_stats.track.tracker import GameText, parse_dice, parse_mark, parse_row
from qwixx_stats.advisor import Advisor

from .arguments import BadRequest, Parameter, parse_command
from .events import wait_for_disconnect
from .pool import SearchPool, Slot
from .settings import Settings

SHEET = Parameter("sheet", "--sheet")
DICE = Parameter("dice", "--dice")
OPPONENTS = Parameter("opponents", "--opponents")
PASSIVE = Parameter("passive", "--passive", flag=True)
ROLLER = Parameter("roller", "--roller")
LOCK_AFTER = Parameter("lock_after", "--lock-after")
ROLLOUTS = Parameter("rollouts", "--rollouts")     # beyond SPEC: the command line's options,
SEED = Parameter("seed", "--seed")                 # so that a page can ask for the model first
JUDGE = Parameter("judge", "--judge")              # and choose it
VALUE = (SHEET, LOCK_AFTER)
ADVISE = (SHEET, DICE, OPPONENTS, PASSIVE, ROLLER, LOCK_AFTER, ROLLOUTS, SEED, JUDGE)
MAX_ROLLOUTS = 1000              # per option on this server (the command line's default)
MAX_TRACK_BYTES = 1_100_000      # a save file (at most 1 MB) and a turn
SAVE_NAME = "sent by the page"   # the save file's name in the tracker's messages

T = TypeVar("T")


class QwixxTables:
    """The server's Qwixx tables: each single-player table and race table loaded once (solved
    and written first where it is missing) and kept."""

    def __init__(self, directory: Any) -> None:
        self.directory = directory
        self._values: dict[int, ExpectedValues] = {}
        self._races: dict[tuple[int, int], RaceTable] = {}
        self._advisors: dict[tuple[int, int, str], Advisor] = {}
        self._lock = threading.Lock()    # one load at a time: the others wait for it

    def folder(self) -> Any:
        return table_directory(self.directory)

    def loaded_values(self, lock_after: int) -> Optional[ExpectedValues]:
        return self._values.get(lock_after)

    def values(self, lock_after: int) -> ExpectedValues:
        with self._lock:
            if lock_after not in self._values:
                self._values[lock_after] = ExpectedValues.load(self.folder(),
                                                               lock_after=lock_after)
            return self._values[lock_after]

    def advisor(self, players: int, lock_after: int, judge: str = DEFAULT_JUDGE) -> Advisor:
        values = self.values(lock_after)
        with self._lock:
            key = (players, lock_after)
            if key not in self._races:
                self._races[key] = RaceTable.load(self.folder(), players=players,
                                                  lock_after=lock_after)
            if key + (judge,) not in self._advisors:     # lookahead reads its learned value
                self._advisors[key + (judge,)] = Advisor(self._races[key], values, judge)
            return self._advisors[key + (judge,)]


class QwixxService:
    def __init__(self, settings: Settings, pool: SearchPool) -> None:
        self.settings = settings
        self.pool = pool
        self.parser = build_parser()
        self.tables = QwixxTables(settings.qwixx_directory)

    async def on_slot(self, request: Request, work: Callable[[], T]) -> T:
        """`work()` on a slot of the pool (it loads a table, or plays rollouts), given up
        when the client goes away."""
        def job(slot: Slot) -> T:
            return work()
        return await self.pool.run(job, lambda: wait_for_disconnect(request.receive))

    def parse(self, words: list[str], pairs: list[tuple[str, str]],
              parameters: tuple[Parameter, ...]) -> argparse.Namespace:
        return parse_command(self.parser, words, pairs, parameters)

    # -- SPEC "Web": qwixx value and qwixx advise ------------------------------------------
    async def value(self, pairs: list[tuple[str, str]], request: Request) -> dict[str, Any]:
        """`qwixx value --json`."""
        args = self.parse(["value"], pairs, VALUE)
        sheet = (Sheet(lock_after=args.lock_after) if args.sheet is None
                 else Sheet.parse(args.sheet, args.lock_after))
        values = self.tables.loaded_values(args.lock_after)
        if values is not None:
            return answers.value_answer(sheet, values)
        return await self.on_slot(request, lambda: answers.value_answer(
            sheet, self.tables.values(args.lock_after)))

    async def advise(self, pairs: list[tuple[str, str]], request: Request) -> dict[str, Any]:
        """`qwixx advise --json`. With opponents, the rollouts and the seed are the command
        line's defaults (1,000 and 0) unless given (rollouts=0: the race model's estimate alone,
        at once); more than MAX_ROLLOUTS is refused, since rollouts cannot be stopped midway."""
        args = self.parse(["advise"], pairs, ADVISE)
        if args.rollouts > MAX_ROLLOUTS:
            raise BadRequest(f"argument --rollouts: at most {MAX_ROLLOUTS:,} on this server, "
                             f"not {args.rollouts:,}")
        sheet = Sheet.parse(args.sheet, args.lock_after)
        dice = Dice.parse(args.dice)
        opponents = None if args.opponents is None else parse_opponents(args)
        answers.check_advice(sheet, opponents, args.passive, args.roller)
        if opponents is None:
            values = self.tables.loaded_values(args.lock_after)
            if values is not None:
                return answers.advise_answer(sheet, dice, values, args.passive)
            return await self.on_slot(request, lambda: answers.advise_answer(
                sheet, dice, self.tables.values(args.lock_after), args.passive))
        players = len(opponents) + 1
        return await self.on_slot(request, lambda: answers.advise_to_win_answer(
            sheet, dice, opponents, self.tables.advisor(players, args.lock_after, args.judge),
            args.passive, args.roller, args.rollouts, args.seed))

    # -- the page's tracker ----------------------------------------------------------------
    def track(self, body: Any) -> dict[str, Any]:
        """One step of a tracked game (see the module): `body` is
            {"new": {"players": N, "lock_after": 5 or 4, "me": SEAT or null}}  a new game
            {"save": TEXT}                                          the game of a save file
            {"save": TEXT, "undo": true}                            its last turn taken back
            {"save": TEXT, "turn": {"dice": D, "first": [...], "second": [ROW, N] or null},
             "check": true or false}                                a turn played
        `first` lists every player's action 1 (a row or null), `second` is the active
        player's action 2; the dice as `qwixx track` reads them ('-' for a closed row's die).
        With check, the turn is only checked (the answer shows the sheets after it and the
        save file is the one sent)."""
        if not isinstance(body, dict):
            raise BadRequest("the tracker takes a JSON object")
        known = {"new", "save", "undo", "turn", "check"}
        unknown = sorted(str(key) for key in body if key not in known)
        if unknown:
            raise BadRequest(f"unknown member {unknown[0][:40]!r}: the tracker takes "
                             f"{', '.join(sorted(known))}")
        if ("new" in body) == ("save" in body):
            raise BadRequest("give either new (a new game) or save (the game so far)")
        if "new" in body:
            game, me = new_game(body["new"])
            if set(body) != {"new"}:
                raise BadRequest("a new game takes nothing else")
            return track_answer(game, me, None)
        text = body["save"]
        if not isinstance(text, str):
            raise BadRequest("save must be the text of a qwixx-track save file")
        game, me = read_game(text.encode("utf-8"), SAVE_NAME)
        if body.get("undo", False) is not False:
            if body["undo"] is not True or "turn" in body:
                raise BadRequest("undo must be true, and alone")
            if not game.history:
                raise BadRequest("nothing to take back: no turn has been played yet")
            game.pop()
            return track_answer(game, me, None)
        if "turn" not in body:
            if "check" in body:
                raise BadRequest("check needs a turn")
            return track_answer(game, me, None)
        check = body.get("check", False)
        if not isinstance(check, bool):
            raise BadRequest("check must be true or false")
        played = play(game, me, body["turn"])
        answer = track_answer(game, me, played)
        if check:
            answer["save"] = text
        return answer


def new_game(settings: Any) -> tuple[Game, Optional[int]]:
    if not isinstance(settings, dict) or set(settings) - {"players", "lock_after", "me"}:
        raise BadRequest("new takes players, lock_after and me")
    players = settings.get("players")
    lock_after = settings.get("lock_after", MARKS_TO_LOCK)
    me = settings.get("me")
    if not is_whole(players) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise BadRequest(f"players must be {MIN_PLAYERS}..{MAX_PLAYERS} (a game at a real "
                         f"table)")
    if not is_whole(lock_after) or lock_after not in LOCK_RULES:
        raise BadRequest("lock_after must be 5 (the printed rules) or 4 (the variant)")
    if me is not None and (not is_whole(me) or not 1 <= me <= players):
        raise BadRequest(f"me must be a seat 1..{players} or null")
    return Game(players, lock_after=lock_after), None if me is None else me - 1


def play(game: Game, me: Optional[int], turn: Any) -> list[str]:
    """Play `turn` on `game`, each decision checked by the game's rules (game.Turn: the
    refusal names the player and gives the rule's reason, as `qwixx track` says it); the
    tracker's report of the turn."""
    if not isinstance(turn, dict) or sorted(turn) != ["dice", "first", "second"]:
        raise BadRequest("a turn is {\"dice\", \"first\", \"second\"}")
    if game.is_over():
        raise BadRequest("the game is over: take the last turn back (undo) to go on")
    text = GameText(game, me)
    dice_text, first, second = turn["dice"], turn["first"], turn["second"]
    if not isinstance(dice_text, str):
        raise BadRequest("dice must be text like 3,4,6,1,2,5")
    playing = game.turn(parse_dice(dice_text, game.closed))
    if not isinstance(first, list) or len(first) != game.players:
        raise BadRequest(f"first must list one row or null for each of the {game.players} "
                         "players")
    if any(choice is not None and not isinstance(choice, str) for choice in first):
        raise BadRequest("first must list rows (red, yellow, green, blue) or null")
    rows = [None if choice is None else parse_row(choice) for choice in first]
    try:
        playing.take_first(rows)
        if second is not None:
            if not (isinstance(second, list) and len(second) == 2 and isinstance(second[0], str)
                    and is_whole(second[1])):
                raise BadRequest("second must be [row, number] or null")
            playing.take_second(parse_mark(f"{second[0]} {second[1]}"))
    except TurnFault as fault:
        raise text.refusal(fault) from None
    before = list(game.sheets)
    playing.finish()
    return text.turn_report(before)


def track_answer(game: Game, me: Optional[int], report: Optional[list[str]]) -> dict[str, Any]:
    """What the page shows of a tracked game, with its save file's text."""
    text = GameText(game, me)
    over = game.is_over()
    return {
        "save": save_text(game, me), **text.summary(),
        "me": None if me is None else me + 1,
        "active": game.active + 1, "closed": [c for c in COLOURS if c in game.closed],
        "names": [text.name(seat) for seat in range(game.players)],
        "standings": text.standings(), "ahead": text.ahead(),
        "final": text.final_text() if over else None,
        "history": [{"player": record.active + 1, "dice": str(record.dice),
                     "first": list(record.first),
                     "second": None if record.second is None else list(record.second),
                     "penalty": record.penalty} for record in game.history],
        "report": report}


async def read_json_body(request: Request) -> Any:
    """The request's JSON body, refused above MAX_TRACK_BYTES (413) before it is all read."""
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_TRACK_BYTES:
            raise BadRequest(f"the request is longer than {MAX_TRACK_BYTES:,} bytes", 413)
        chunks.append(chunk)
    try:
        return json.loads(b"".join(chunks).decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise BadRequest("the request is not JSON") from None

