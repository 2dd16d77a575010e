"""The settings language of a match (`quixo match`): how each side plays (`EngineSetting`) and
what decides the games (`MatchSettings`), read from text and checked before any game starts.

An engine setting is text such as ``time=1`` or ``depth=6,hash=16,tables=off`` or
``clock=10s+0.1s``: keys `time` (seconds per move), `depth` (plies), `nodes` (per move),
`clock` (a time control: the engine manages its clock and may lose on time), `hash` (MiB of
transposition table), `tables` (on/off: probe the tablebases), `traps` (on/off, default on:
where the tables answer, the best move that sets the opponent the most traps,
tablebase/traps.py), `weights` (a weights file for the evaluation, search/weights.py; read and
checked when the setting is parsed).

``cmd=PROGRAM ARGS`` plays a separate program that speaks the engine protocol (SPEC "Engine
protocol"; `quixo engine` is one, `benchmarks/quixo/engines/legacy_engine.py` another) instead of this
package's solver: ``cmd=quixo engine --no-tablebase,time=0.1``. Its value runs to the next
key (``,time=``, `` depth=`` ...) or the end, split into words as a shell would (quotes
protect spaces). The limits (`time`, `depth`, `nodes`, `clock`) go to the program with each
`go`, `hash` as its Hash option; `tables` is the program's own business (`quixo engine
--no-tablebase`): see external_engine.py.

The match settings add the board, the players, the seed of the openings, the opening plies, the
ply limit, the adjudication by the tables, and the positions of an openings file (one per line,
as cutechess's opening books; `read_positions`), each checked to be a position of the match's
game where the game is not over.
"""
from __future__ import annotations

import hashlib
import os
import re
import shlex
from dataclasses import dataclass
from typing import Any

from solverkit.messages import clip, cut_path

from . import match_stats
from .clock import TimeControl
from ..errors import ClockError, MatchError, QuixoError
from ..limits import check_seconds, check_tt_mib
from ..rules import geometry
from ..search import DEPTH_LIMIT
from ..search.weights import weight_set
from ..variants import Variant, VariantError, find_variant, parse_board

ENGINES = ("A", "B")
DEFAULT_HASH_MIB = 64.0
MAX_OPENING_PLIES = 40
MAX_PLIES = 100000
RECORDS_VERSION = 1          # of the settings each game record carries (MatchSettings.identity)
KEYS = ("time", "depth", "nodes", "clock", "hash", "tables", "traps", "weights", "cmd")
LIMIT_KEYS = ("time", "depth", "nodes", "clock")
MAX_NODES = 2**63 - 1
MAX_OPENINGS = 1000000
DEFAULT_PROGRAM_SECONDS = 1.0 # the time per move of a cmd= setting that gives no limit


@dataclass(frozen=True)
class EngineSetting:
    """How one side of a match plays: a limit per move (`time` seconds, `depth` plies and/or
    `nodes`) or a `clock` (with an optional `depth` or `nodes` as well), `hash` MiB, and
    whether it probes the tablebases; or `cmd`, a program speaking the engine protocol, given
    these limits and hash."""

    time: float | None = None
    depth: int | None = None
    clock: TimeControl | None = None
    hash: float = DEFAULT_HASH_MIB
    tables: bool = True
    nodes: int | None = None
    cmd: str | None = None
    weights: str | None = None     # a weights file (None: the variant's default weights)
    traps: bool = True             # with tables: the best move that sets the most traps

    def __post_init__(self) -> None:
        limited = not (self.time is None and self.depth is None and self.clock is None
                       and self.nodes is None)
        if self.cmd is not None and not limited:
            # a program needs some limit with its go: a second a move, said in the setting
            object.__setattr__(self, "time", DEFAULT_PROGRAM_SECONDS)
        elif not limited:
            raise MatchError("an engine setting needs time=SECONDS, depth=PLIES, nodes=N or "
                             "clock=TIME+INCREMENT")
        if self.time is not None and self.clock is not None:
            raise MatchError("an engine setting takes time= (per move) or clock= (for the "
                             "game), not both")
        if self.cmd is not None:
            program_words(self.cmd)
            if not self.tables:
                raise MatchError("tables= is for this package's engine: give the program "
                                 "its own option (quixo engine --no-tablebase)")
            if not self.traps:
                raise MatchError("traps= is for this package's engine: a program has its own "
                                 "option (Traps)")
            if self.weights is not None:
                raise MatchError("weights= is for this package's engine: give the program "
                                 "its own option (quixo engine --weights FILE)")
            if not float(self.hash).is_integer():
                raise MatchError(f"hash= of a cmd= program is whole MiB (its Hash option), "
                                 f"not {self.hash:g}")

    @classmethod
    def parse(cls, text: str, limits: dict[str, Any] | None = None) -> "EngineSetting":
        """`time=1`, `depth=6,hash=16,tables=off`, `clock=10m+5s`, `cmd=quixo engine,time=0.1`:
        keys and values separated by commas or spaces (a cmd= value runs to the next key);
        MatchError naming what is wrong. `limits` (such as {"time": 0.1}): the limits of a
        setting that gives none of its own."""
        if not isinstance(text, str):
            raise MatchError(f"an engine setting is text such as 'time=1', not {clip(text)}")
        values: dict[str, Any] = {}
        command, rest = _split_command(text)
        if command is not None:
            values["cmd"] = command
        for key, value in match_stats.setting_items(rest, KEYS, "engine setting",
                                                    ", ".join(f"{k}=..." for k in KEYS)):
            if key in values:            # a second cmd=
                raise MatchError(f"{key}= is given twice in {clip(text)}")
            if key in ("tables", "weights", "traps") and command is not None:
                option = {"tables": "quixo engine --no-tablebase",
                          "weights": "quixo engine --weights FILE", "traps": "Traps"}[key]
                raise MatchError(f"{key}= is for this package's engine: give the program its "
                                 f"own option ({option})")
            values[key] = _value(key, value)
        if limits and not any(key in values for key in LIMIT_KEYS):
            values.update(limits)
        return cls(**values)

    @property
    def external(self) -> bool:
        """Whether a separate program plays (cmd=)."""
        return self.cmd is not None

    @property
    def uses_tables(self) -> bool:
        """Whether this package's engine probes the tablebase folder of the match."""
        return self.cmd is None and self.tables

    def __str__(self) -> str:
        parts = []
        if self.cmd is not None:
            parts.append(f"cmd={self.cmd}")
        if self.time is not None:
            parts.append(f"time={self.time:g}")
        if self.depth is not None:
            parts.append(f"depth={self.depth}")
        if self.nodes is not None:
            parts.append(f"nodes={self.nodes}")
        if self.clock is not None:
            parts.append(f"clock={self.clock}")
        parts.append(f"hash={self.hash:g}")
        if self.cmd is None:
            parts.append(f"tables={'on' if self.tables else 'off'}")
        if not self.traps:       # only when off: the settings of earlier records stay as they were
            parts.append("traps=off")
        if self.weights is not None:
            parts.append(f"weights={self.weights}")
        return ",".join(parts)

    def to_json(self) -> dict[str, Any]:
        return {"setting": str(self), "time": self.time, "depth": self.depth,
                "nodes": self.nodes,
                "clock": None if self.clock is None else {
                    "seconds": self.clock.seconds, "increment": self.clock.increment},
                "hash_mib": self.hash, "tables": self.uses_tables, "cmd": self.cmd,
                "weights": self.weights, "traps": self.uses_tables and self.traps}


_NEXT_KEY = re.compile(r"[,\s]+(?=(?:%s)=)" % "|".join(KEYS), re.IGNORECASE)
_COMMAND_KEY = re.compile(r"(?:^|(?<=[,\s]))cmd=", re.IGNORECASE)


def _split_command(text: str) -> tuple[str | None, str]:
    """(the value of cmd=, or None; the rest of the setting): the value runs from `cmd=` to
    the separator before the next key, or to the end."""
    found = _COMMAND_KEY.search(text)
    if found is None:
        return None, text
    rest = text[found.end():]
    after = _NEXT_KEY.search(rest)
    value = rest if after is None else rest[:after.start()]
    value = value.strip().rstrip(",").strip()
    if not value:
        raise MatchError("cmd= needs a program, such as cmd=quixo engine")
    remainder = text[:found.start()] + ("" if after is None else "," + rest[after.end():])
    return value, remainder


def program_words(command: str) -> list[str]:
    """The program and its arguments of a cmd= value, split as a shell would."""
    try:
        words = shlex.split(command)
    except ValueError as error:
        raise MatchError(f"cmd= {clip(command)} cannot be read: {error}") from None
    if not words:
        raise MatchError("cmd= needs a program, such as cmd=quixo engine")
    return words


def _value(key: str, text: str) -> Any:
    try:
        if key == "time":
            return check_seconds("time=", _number(text, "time="))
        if key == "depth":
            if not re.fullmatch(r"\d+", text) or not 1 <= int(text) <= DEPTH_LIMIT:
                raise MatchError(f"depth= must be a whole number of plies from 1 to "
                                 f"{DEPTH_LIMIT}, not {clip(text)}")
            return int(text)
        if key == "nodes":
            if not re.fullmatch(r"\d+", text) or not 1 <= int(text) <= MAX_NODES:
                raise MatchError(f"nodes= must be a whole number from 1 to {MAX_NODES}, not "
                                 f"{clip(text)}")
            return int(text)
        if key == "clock":
            return TimeControl.parse(text)
        if key == "weights":
            weight_set(text)          # read and checked now, not in a worker mid-match
            return text
        if key == "hash":
            return check_tt_mib(_number(text, "hash="), "hash=")
        if text.lower() not in ("on", "off"):
            raise MatchError(f"{key}= must be on or off, not {clip(text)}")
        return text.lower() == "on"
    except ClockError:
        raise
    except QuixoError as error:
        raise MatchError(str(error)) from None


def _number(text: str, name: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise MatchError(f"{name} must be a number, not {clip(text)}") from None


@dataclass(frozen=True)
class MatchSettings:
    """What decides a match's games: its engines, board, openings and draw rules. (The
    number of pairs and of workers does not: a match can be extended and resumed.)"""

    engine_a: EngineSetting
    engine_b: EngineSetting
    size: int = 5
    players: int = 2
    seed: int = 1
    opening_plies: int = 4
    max_plies: int = 200
    adjudicate: bool = False         # end a game once its position is in the tables
    openings: tuple[str, ...] = ()   # the positions games start from (none: the empty board)

    def __post_init__(self) -> None:
        geometry.check_size(self.size)
        variant = self.variant
        if self.adjudicate and not variant.uses_tablebases:
            raise MatchError(f"the {variant.name} game has no tables to adjudicate by")
        if len(self.openings) > MAX_OPENINGS:
            raise MatchError(f"at most {MAX_OPENINGS} openings, not {len(self.openings)}")
        object.__setattr__(self, "openings", tuple(
            _opening_position(variant, self.size, text) for text in self.openings))
        if (not variant.uses_tablebases and self.size == 3
                and any(not e.tables for e in self.engines.values())):
            raise MatchError(f"tables=off applies to games with tables: the {variant.name} "
                             "3x3 game is always answered by its solution")
        if not 0 <= self.opening_plies <= MAX_OPENING_PLIES:
            raise MatchError(f"the opening plies must be 0 .. {MAX_OPENING_PLIES}, not "
                             f"{self.opening_plies}")
        if not self.opening_plies < self.max_plies <= MAX_PLIES:
            raise MatchError(f"the ply limit must be more than the opening's "
                             f"{self.opening_plies} plies and at most {MAX_PLIES}, not "
                             f"{self.max_plies}")

    @property
    def variant(self) -> Variant:
        try:
            return find_variant(self.players)
        except VariantError as error:
            raise MatchError(str(error)) from None

    @property
    def engines(self) -> dict[str, EngineSetting]:
        return {"A": self.engine_a, "B": self.engine_b}

    def identity(self) -> dict[str, Any]:
        """The settings every game record carries, compared when a match resumes (the
        adjudication and the openings only when given: earlier records stay resumable)."""
        identity: dict[str, Any] = {
            "version": RECORDS_VERSION, "engine_a": str(self.engine_a),
            "engine_b": str(self.engine_b), "size": self.size, "players": self.players,
            "seed": self.seed, "opening_plies": self.opening_plies,
            "max_plies": self.max_plies}
        if self.adjudicate:
            identity["adjudicate"] = True
        if self.openings:
            digest = hashlib.sha256("\n".join(self.openings).encode("utf-8")).hexdigest()
            identity["openings"] = {"count": len(self.openings), "sha256": digest}
        return identity


def _opening_position(variant: Variant, size: int, text: str) -> str:
    """An opening position in SPEC notation, checked: of the match's game and size, and not
    over."""
    try:
        board = parse_board(text)
    except QuixoError as error:
        raise MatchError(f"opening {clip(text)}: {error}") from None
    if not isinstance(board, variant.board_type) or board.size != size:
        raise MatchError(f"opening {board} is not a position of the {size}x{size} "
                         f"{variant.name} game")
    if board.is_game_over():
        raise MatchError(f"opening {board}: the game is over there")
    return str(board)


def read_positions(path: str | os.PathLike[str]) -> list[tuple[int, str]]:
    """The positions of a file, one per line, `#` starting a comment, with their line
    numbers (read, not parsed)."""
    found = []
    try:
        with open(path, encoding="utf-8") as handle:
            for number, line in enumerate(handle, 1):
                text = line.split("#", 1)[0].strip()
                if text:
                    found.append((number, text))
    except UnicodeDecodeError:
        raise MatchError(f"{cut_path(path)} is not a text file (UTF-8)") from None
    if not found:
        raise MatchError(f"{cut_path(path)} holds no position")
    return found
