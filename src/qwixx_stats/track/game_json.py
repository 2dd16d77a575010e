"""The JSON of a tracked game's parts, read and checked in one place: a game's settings
{"players", "lock_after", "me"} and a turn {"dice", "first", "second"}. The save file
(savefile.py) holds them and the explorer's tracker (POST /api/v1/qwixx/track) is sent them;
both read them here into the rules' values, so that the two take the same JSON and refuse it
with the same words (a GameRecordError). Whether a turn's marks are legal is the rules'
question, asked when the turn is played (game.Turn).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from solverkit.messages import clip

from ..errors import GameRecordError
from ..rules.constants import LOCK_RULES
from ..rules.game import MAX_PLAYERS, Game, SecondMark
from ..rules.sheet import COLOURS, is_whole

MIN_PLAYERS = 2                # a game at a real table (the tracker's games): 2..MAX_PLAYERS
TURN_KEYS = ("dice", "first", "second")


@dataclass(frozen=True)
class GameSettings:
    """A tracked game's settings; `me` is the seat the tracker advises (0-based) or None."""

    players: int
    lock_after: int
    me: Optional[int]

    def new_game(self) -> Game:
        return Game(self.players, lock_after=self.lock_after)


def read_settings(players: object, lock_after: object, me: object) -> GameSettings:
    """The settings of the JSON values of players, lock_after and me (a 1-based seat, or
    null)."""
    if not is_whole(players) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise GameRecordError(f"players must be {MIN_PLAYERS}..{MAX_PLAYERS}, not "
                              f"{clip(players)}")
    if not is_whole(lock_after) or lock_after not in LOCK_RULES:
        raise GameRecordError(f"lock_after must be 5 or 4, not {clip(lock_after)}")
    if me is not None and (not is_whole(me) or not 1 <= me <= players):
        raise GameRecordError(f"me must be a seat 1..{players} or null, not {clip(me)}")
    return GameSettings(players, lock_after, None if me is None else me - 1)


@dataclass(frozen=True)
class TurnDecisions:
    """A turn as its JSON holds it: the roll as written (its reader is the caller's: the save
    file stores a closed row's die as 1, the explorer's page sends `-` for it), every
    player's action 1 (a row or None) and the active player's action 2."""

    dice: str
    first: list[Optional[str]]
    second: SecondMark


def read_turn(turn: object, players: int, where: str) -> TurnDecisions:
    """The decisions of a turn's JSON object in a game of `players`; `where` names the turn
    in a refusal (`turn 3`)."""
    if not isinstance(turn, dict) or sorted(turn) != sorted(TURN_KEYS):
        raise GameRecordError(f"{where} must be an object with dice, first and second")
    dice, first, second = turn["dice"], turn["first"], turn["second"]
    if not isinstance(dice, str):
        raise GameRecordError(f"{where}: dice must be text like \"3,4,6,1,2,5\", not "
                              f"{clip(dice)}")
    if not isinstance(first, list) or len(first) != players or any(
            row is not None and row not in COLOURS for row in first):
        raise GameRecordError(f"{where}: first must list one row or null for each of the "
                              f"{players} players, not {clip(first)}")
    if second is not None and (
            not isinstance(second, list) or len(second) != 2 or second[0] not in COLOURS
            or not is_whole(second[1])):
        raise GameRecordError(f"{where}: second must be [row, number] or null, not "
                              f"{clip(second)}")
    return TurnDecisions(dice, list(first), None if second is None else (second[0], second[1]))
