"""The Qwixx half of the API: the answers of `qwixx value` and `qwixx advise` (SPEC "Web"), and
the tracker of the page (`qwixx track` in the browser).

The queries of value and advise are read here without the command line (arguments.
OptionValues), each parameter by the function that the `qwixx` parser takes as its option's
type (qwixx_stats.answers), so that a refusal is the command line's message; they are answered
by the functions that build the command line's --json objects (answers again). Their tables
are loaded once for the whole server (solved first, as the command line does on first use,
where they are missing); loading, solving and the rollouts of `advise --opponents` run on a
slot of the search pool, the cheap answers of a loaded table at once.

The tracker (`POST /api/v1/qwixx/track`) keeps no state: the page sends the game as the text
of `qwixx track`'s save file (savefile.py, checksum included) with what to do, and gets back the
new save file's text with what the page shows. A new game's settings and a turn are the JSON
the save file holds, read by the same code (track/game_json.py) into the rules' values; every
turn is then checked by the rules of qwixx_stats, the mark that breaks one refused with the
tracker's reason (track/text.py says it), so the browser holds no rule of its own; the file it
exports is the very file `qwixx track --save` writes.
"""
from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence, TypeVar

from starlette.requests import Request

from qwixx_stats import answers
from qwixx_stats.errors import TurnFault
from qwixx_stats.rules.game import Game
from qwixx_stats.tables.race import RaceTable
from qwixx_stats.strategies.registry import DEFAULT_JUDGE
from qwixx_stats.rules.constants import MARKS_TO_LOCK
from qwixx_stats.track.game_json import read_settings, read_turn
from qwixx_stats.track.savefile import read_game, save_text
from qwixx_stats.rules.sheet import COLOURS, Dice, Sheet
from qwixx_stats.tables.solitaire import ExpectedValues, table_directory
from qwixx_stats.track.text import GameText, parse_dice
from qwixx_stats.advisor import Advisor

from .arguments import BadRequest, OptionValues, Parameter
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
NEW_GAME_KEYS = {"players", "lock_after", "me"}
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
        self.tables = QwixxTables(settings.qwixx_directory)

    async def on_slot(self, request: Request, work: Callable[[], T]) -> T:
        """`work()` on a slot of the pool (it loads a table, or plays rollouts), given up
        when the client goes away."""
        def job(slot: Slot) -> T:
            return work()
        return await self.pool.run(job, lambda: wait_for_disconnect(request.receive))

    # -- SPEC "Web": qwixx value and qwixx advise ------------------------------------------
    async def value(self, pairs: list[tuple[str, str]], request: Request) -> dict[str, Any]:
        """`qwixx value --json`."""
        query = OptionValues(pairs, VALUE)
        lock_after = query.read(LOCK_AFTER, answers.read_lock_after, MARKS_TO_LOCK)
        sheet = answers.read_sheet(query.text(SHEET), lock_after)
        values = self.tables.loaded_values(lock_after)
        if values is not None:
            return answers.value_answer(sheet, values)
        return await self.on_slot(request, lambda: answers.value_answer(
            sheet, self.tables.values(lock_after)))

    async def advise(self, pairs: list[tuple[str, str]], request: Request) -> dict[str, Any]:
        """`qwixx advise --json` (what it asks: read_advise_query)."""
        asked = read_advise_query(pairs)
        sheet, dice, opponents, passive = asked.sheet, asked.dice, asked.opponents, asked.passive
        if opponents is None:
            values = self.tables.loaded_values(asked.lock_after)
            if values is not None:
                return answers.advise_answer(sheet, dice, values, passive)
            return await self.on_slot(request, lambda: answers.advise_answer(
                sheet, dice, self.tables.values(asked.lock_after), passive))
        players = len(opponents) + 1
        return await self.on_slot(request, lambda: answers.advise_to_win_answer(
            sheet, dice, opponents, self.tables.advisor(players, asked.lock_after, asked.judge),
            passive, asked.roller, asked.rollouts, asked.seed))

    # -- the page's tracker ----------------------------------------------------------------
    def track(self, body: Any) -> dict[str, Any]:
        """One step of a tracked game (see the module): `body` is
            {"new": {"players": N, "lock_after": 5 or 4, "me": SEAT or null}}  a new game
            {"save": TEXT}                                          the game of a save file
            {"save": TEXT, "undo": true}                            its last turn taken back
            {"save": TEXT, "turn": {"dice": D, "first": [...], "second": [ROW, N] or null},
             "check": true or false}                                a turn played
        `first` lists every player's action 1 (a row or null), `second` is the active
        player's action 2, as the save file holds them (rows named red, yellow, green, blue);
        the dice as `qwixx track` reads them ('-' for a closed row's die).
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
            game.pop()               # its GameError says why there is nothing to take back
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
    """The game of `{"new": {...}}`: its settings read as the save file reads its own."""
    if not isinstance(settings, dict) or set(settings) - NEW_GAME_KEYS:
        raise BadRequest("new takes players, lock_after and me")
    asked = read_settings(settings.get("players"), settings.get("lock_after", MARKS_TO_LOCK),
                          settings.get("me"))
    return asked.new_game(), asked.me


def play(game: Game, me: Optional[int], turn: Any) -> list[str]:
    """Play `turn` on `game`, each decision checked by the game's rules (game.Turn: the
    refusal names the player and gives the rule's reason, as `qwixx track` says it); the
    tracker's report of the turn. The turn is the JSON a save file holds, but for its dice,
    which are the page's: `-` for the die of a closed row, as `qwixx track` reads a roll."""
    decisions = read_turn(turn, game.players, "the turn")
    if game.is_over():
        raise BadRequest("the game is over: take the last turn back (undo) to go on")
    text = GameText(game, me)
    playing = game.turn(parse_dice(decisions.dice, game.closed))
    try:
        playing.take_first(decisions.first)
        playing.take_second(decisions.second)
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


@dataclass(frozen=True)
class AdviseQuery:
    """What `/api/v1/qwixx/advise` asks, read and checked (read_advise_query)."""

    sheet: Sheet
    dice: Dice
    opponents: Optional[list[Sheet]]
    passive: bool
    roller: Optional[int]
    lock_after: int
    rollouts: int
    seed: int
    judge: str


def read_advise_query(pairs: Sequence[tuple[str, str]]) -> AdviseQuery:
    """The query of `qwixx advise --json`, its options read in the command line's order and
    refused with its messages (the `--` options of the messages are the parameters). With
    opponents, the rollouts and the seed are the command line's defaults unless given
    (rollouts=0: the race model's estimate alone, at once); more than MAX_ROLLOUTS is refused,
    since rollouts cannot be stopped midway."""
    query = OptionValues(pairs, ADVISE)
    roller: Optional[int] = query.read(ROLLER, answers.read_roller, None)
    lock_after = query.read(LOCK_AFTER, answers.read_lock_after, MARKS_TO_LOCK)
    rollouts = query.read(ROLLOUTS, answers.read_rollouts, answers.DEFAULT_ROLLOUTS)
    seed = query.read(SEED, answers.read_seed, answers.DEFAULT_SEED)
    judge = query.read(JUDGE, answers.read_judge, DEFAULT_JUDGE)
    sheet_text, dice_text = query.required(SHEET, DICE)
    if rollouts > MAX_ROLLOUTS:
        raise BadRequest(f"argument --rollouts: at most {MAX_ROLLOUTS:,} on this server, not "
                         f"{rollouts:,}")
    sheet = Sheet.parse(sheet_text, lock_after)
    dice = Dice.parse(dice_text)
    opponents_text = query.text(OPPONENTS)
    opponents = (None if opponents_text is None
                 else answers.read_opponents(opponents_text, lock_after))
    passive = query.flag(PASSIVE)
    answers.check_advice(sheet, opponents, passive, roller)
    return AdviseQuery(sheet, dice, opponents, passive, roller, lock_after, rollouts, seed,
                       judge)


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

