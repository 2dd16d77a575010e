"""The save file of `qwixx track`: a game played at a real table, turn by turn.

Format (UTF-8 JSON, written atomically through solverkit.arrayfile.write_atomically: a file
under its name is always complete; one turn a line, so that it reads well):
    {"format": "qwixx-track", "version": 1, "players": 3, "lock_after": 5, "me": 2 or null,
     "turns": [{"dice": "3,4,6,1,2,5", "first": ["red", null, "blue"],
                "second": ["blue", 9] or null}, ...],
     "checksum": "sha256:<hex>"}
`me` is the seat (1-based) the tracker advises. `first` holds every player's action 1 in seat
order, `second` the active player's action 2 (turn k is rolled by player (k - 1) mod players
+ 1: player 1 rolls first). The die of a closed row, which has left the game, is stored as 1
(its value is never used). The checksum is the SHA-256 of the canonical JSON (sorted keys, no
blanks, ASCII) of every other member; it is verified before any of the game is used, so a file
changed by hand or damaged is refused (it guards against mistakes, not against forgery). Then
the settings and every turn are read by game_json.py (as the explorer's tracker reads the ones
it is sent) and each turn is replayed through Game.play_turn, which checks it against the
rules again; the penalties follow from the turns.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, NoReturn, Optional

from solverkit.arrayfile import write_atomically
from solverkit.messages import clip, cut, cut_path

from ..errors import GameRecordError, QwixxError, SaveFileError
from ..rules.game import MAX_PLAYERS, Game
from ..rules.constants import PENALTIES_TO_END
from ..rules.sheet import Dice
from .game_json import read_settings, read_turn

FORMAT = "qwixx-track"
VERSION = 1
MAX_SAVE_BYTES = 1_000_000     # a game has at most 8 * (44 marks + 4 penalties) turns: ~60 KB
MAX_TURNS = MAX_PLAYERS * (4 * 11 + PENALTIES_TO_END)   # each turn marks or costs the roller
SAVE_KEYS = ("format", "version", "players", "lock_after", "me", "turns", "checksum")


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
    write_atomically(path, [save_text(game, me).encode("utf-8")])


def save_text(game: Game, me: Optional[int]) -> str:
    """The save file's text, as `save_game` writes it (the explorer's export is this text)."""
    body = game_record(game, me)
    head = ", ".join(f"{json.dumps(key)}: {json.dumps(body[key])}"
                     for key in ("format", "version", "players", "lock_after", "me"))
    turns = ",\n".join(f"  {json.dumps(turn)}" for turn in body["turns"])
    text = (f"{{{head},\n \"turns\": [" + (f"\n{turns}\n ]" if turns else "]")
            + f",\n \"checksum\": {json.dumps(body['checksum'])}}}\n")
    return text


def load_game(path: Path | str) -> tuple[Game, Optional[int]]:
    """The game saved in `path`, replayed turn by turn, and its served seat (0-based or None).
    Raises SaveFileError naming the file and the problem."""
    shown = cut_path(path)
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_SAVE_BYTES + 1)
    except OSError as error:
        raise SaveFileError(f"cannot read the save file {shown}: {error.strerror or error}") \
            from error
    return read_game(raw, shown)


def read_game(raw: bytes, shown: str) -> tuple[Game, Optional[int]]:
    """The game of a save file's bytes (`shown`: the file's name in messages), checked and
    replayed as `load_game` does (the explorer's import reads an uploaded file with it)."""

    def bad(problem: str) -> NoReturn:
        raise SaveFileError(f"save file {shown}: {problem}")

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
    try:
        settings = read_settings(data["players"], data["lock_after"], data["me"])
    except GameRecordError as error:
        bad(str(error))
    turns = data["turns"]
    if not isinstance(turns, list) or len(turns) > MAX_TURNS:
        bad(f"turns must be a list of at most {MAX_TURNS} turns")
    game = settings.new_game()
    for number, turn in enumerate(turns, 1):
        where = f"turn {number}"
        try:
            decisions = read_turn(turn, game.players, where)
        except GameRecordError as error:
            bad(str(error))
        if game.is_over():
            bad(f"{where} comes after the end of the game")
        try:
            game.play_turn(Dice.parse(decisions.dice), decisions.first, decisions.second)
        except QwixxError as error:
            bad(f"{where}: {error}")
    return game, settings.me
