"""Engine matches (``quixo match``), as cutechess runs them for chess engines: two engine
settings play game pairs from random openings, each opening once with each colour, and the
result is a score with its interval and an Elo difference with its error (`match_stats`).

An engine setting is text such as ``time=1`` or ``depth=6,hash=16,tables=off`` or
``clock=10s+0.1s``: keys `time` (seconds per move), `depth` (plies), `nodes` (per move),
`clock` (a time control: the engine manages its clock and may lose on time), `hash` (MiB of
transposition table), `tables` (on/off: probe the tablebases), `traps` (on/off, default on:
where the tables answer, the best move that sets the opponent the most traps,
tablebase/traps.py), `weights` (a weights file for the evaluation, search/weights.py; read and
checked when the setting is parsed).

``cmd=PROGRAM ARGS`` plays a separate program that speaks the engine protocol (SPEC "Engine
protocol"; `quixo engine` is one, `benchmarks/legacy_engine.py` another) instead of this
package's solver: ``cmd=quixo engine --no-tablebase,time=0.1``. Its value runs to the next
key (``,time=``, `` depth=`` ...) or the end, split into words as a shell would (quotes
protect spaces). The limits (`time`, `depth`, `nodes`, `clock`) go to the program with each
`go` (`movetime`, `depth`, `nodes`, the clocks `xtime` ... in milliseconds), `hash` as its Hash
option; `tables` is the program's own business (`quixo engine --no-tablebase`). Each worker
runs its own copy of the program for all its games, sending `ucinewgame` before each. A program
that crashes, does not answer in time (past its clock, or past its `time` per move plus
TIME_MARGIN; a move with only a depth or node limit may take UNTIMED_MOVE_SECONDS) or plays an
illegal move loses that game (reasons "crash", "time", "illegal move", with a `detail`), and
the match goes on with the program started again.

Quixo has no draw rule; a match needs one, so a game is adjudicated a draw on the third
occurrence of a position (same board, same player to move) and when it reaches the ply limit
(the opening's plies count). With `adjudicate`, a game ends as soon as its position is in the
tables, scored as they say (as engine tournaments end games that the tables decide); its
record's `adjudication` gives the position and its value. Each game's record says why it
ended: "line" (a player made a line), "time", "repetition", "move limit", "crash", "illegal
move" or "tables".

The games start from the empty board, or with `openings` (a file of positions, as
cutechess's opening books) from the position of the pair's number (cycling through them);
then `opening_plies` random plies.

With a sequential test (`match_stats.Sprt`, `--sprt`), the match stops once the test decides:
after each game the test is run on the complete pairs recorded; once it accepts H0 or H1 no
game starts, the results of games still running are not recorded, and running the match again
plays nothing more.

The records file holds one JSON line per game (the opening, the moves in SPEC notation, the
result, the reason, and the match's settings); it is rewritten atomically after every game,
sorted by pair, so an interrupted match loses at most the games being played, and running the
same match with the same records file again plays only the games missing (after checking
that the file is of the same match). Games run in worker processes that each build their own
solvers; a depth-limited game does not depend on which worker plays it, nor on the games
before it, because every search starts from a cleared transposition table.
"""
from __future__ import annotations

import atexit
import concurrent.futures
import hashlib
import json
import multiprocessing
import os
import random
import re
import shlex
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from solverkit.arrayfile import write_atomically
from solverkit.messages import clip, cut_path
from solverkit.progress import Progress

from . import match_stats
from ..rules import geometry
from ..rules.baseboard import BaseBoard
from ..rules.board import Board
from .clock import GameClock, TimeControl
from .engine_process import EngineFailure, EngineProcess, describe_command
from ..errors import ClockError, MatchError, QuixoError
from ..limits import check_seconds, check_table_mib
from .match_stats import Sprt
from ..search import DEPTH_LIMIT
from ..search.weights import weight_set
from ..tablebase import ProbeResult, Tablebase
from ..variants import Variant, VariantError, find_variant, parse_board

ENGINES = ("A", "B")
REASONS = match_stats.REASONS     # line, time, repetition, move limit, crash, illegal move,
                                  # tables
REPETITIONS = 3              # the occurrence of a position that draws the game
DEFAULT_HASH_MIB = 64.0
MAX_OPENING_PLIES = 40
MAX_PLIES = 100000
MAX_PAIRS = 1000000
OPENING_ATTEMPTS = 1000      # random openings drawn before giving up on a pair
RECORDS_VERSION = 1
KEYS = ("time", "depth", "nodes", "clock", "hash", "tables", "traps", "weights", "cmd")
LIMIT_KEYS = ("time", "depth", "nodes", "clock")
MAX_NODES = 2**63 - 1
TIME_MARGIN = 1.0             # seconds a program may answer after its time per move
UNTIMED_MOVE_SECONDS = 300.0  # a program's move with a depth or node limit alone
MAX_OPENINGS = 1000000
HASH_OPTION = "Hash"
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
            return check_table_mib(_number(text, "hash="), "hash=")
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
        if not variant.uses_tablebases and any(not e.tables for e in self.engines.values()):
            raise MatchError(f"tables=off applies to games with tablebases: the {variant.name} "
                             "search has none (3x3 is always answered by its solution)")
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


def start_board(settings: MatchSettings, pair: int = 0) -> BaseBoard:
    """The board a pair's games start from, before the random plies of its opening."""
    if settings.openings:
        return parse_board(settings.openings[pair % len(settings.openings)])
    return settings.variant.start(settings.size)


def opening(settings: MatchSettings, pair: int) -> list[str]:
    """The random opening of a pair: `opening_plies` legal moves from its start board, none
    of which ends the game, drawn from a generator seeded by the match's seed and the pair
    (so a pair's opening never depends on the others, nor on the workers)."""
    generator = random.Random(f"quixo-match/{settings.seed}/{pair}")
    for _ in range(OPENING_ATTEMPTS):
        board, moves = start_board(settings, pair), []
        for _ in range(settings.opening_plies):
            choices = [move for move in board.legal_moves if not _ends(board, move)]
            if not choices:
                break
            move = generator.choice(choices)
            board.push(move)
            moves.append(str(move))
        else:
            return moves
    raise MatchError(f"no opening of {settings.opening_plies} plies that leaves the game "
                     f"open was found in {OPENING_ATTEMPTS} tries")


def _ends(board: BaseBoard, move: Any) -> bool:
    child = board.copy(stack=False)
    child.push(move)
    return child.is_game_over()


class ExternalEngine:
    """A cmd= setting's program, as one process (a worker) plays it: started before its first
    game and again after a failure, told of each new game, asked for each move."""

    def __init__(self, setting: EngineSetting, label: str) -> None:
        assert setting.cmd is not None
        self.setting = setting
        self.process = EngineProcess(program_words(setting.cmd), label)

    def start(self) -> None:
        """Run the program, greet it and set its Hash (EngineFailure if it cannot)."""
        self.process.start()
        if self.process.has_option(HASH_OPTION):
            self.process.set_option(HASH_OPTION, int(self.setting.hash))
            self.process.ready()

    def new_game(self) -> None:
        """Before a game: start the program if it is not running, then `ucinewgame`."""
        if not self.process.alive:
            self.start()
        self.process.new_game()

    def move(self, position: str, go: str, seconds: float) -> str:
        """The program's move (text, unchecked) for a `position` and `go` command, within
        `seconds` (EngineFailure otherwise)."""
        return self.process.play(position, go, seconds).move

    def close(self) -> None:
        self.process.close()


Player = Any     # a BaseSolver (this package's engine) or an ExternalEngine (cmd=)


def build_solver(setting: EngineSetting, settings: MatchSettings,
                 tables: str | os.PathLike[str] | None, label: str = "engine") -> Player:
    """A solver of a setting, ready to play (`prepare`: before any clock runs); for cmd=, the
    program (started before its first game)."""
    if setting.cmd is not None:
        return ExternalEngine(setting, f"engine {label} ({describe_command(setting.cmd)})")
    variant = settings.variant
    use_tables = variant.uses_tablebases and setting.tables
    solver = variant.new_solver(setting.hash, Tablebase(tables) if use_tables else None,
                                setting.weights, traps=setting.traps)
    solver.prepare(settings.size)
    return solver


def close_players(players: dict[str, Player]) -> None:
    """End the programs among `players` (the solvers need nothing)."""
    for player in players.values():
        if isinstance(player, ExternalEngine):
            player.close()


def check_programs(settings: MatchSettings) -> dict[str, str | None]:
    """Start each cmd= program once and end it, before a match's games (MatchError naming
    what went wrong if one cannot be run or greeted); returns each program's `id name`."""
    names: dict[str, str | None] = {}
    for name, setting in settings.engines.items():
        if setting.cmd is None:
            continue
        engine = ExternalEngine(setting, f"engine {name} ({describe_command(setting.cmd)})")
        try:
            engine.start()
        except EngineFailure as failure:
            raise MatchError(f"{failure}") from None
        finally:
            engine.close()
        names[name] = engine.process.name
    return names


def position_command(settings: MatchSettings, history: list[str], start: str | None = None
                     ) -> str:
    """`position startpos size N players P [moves ...]`: the game from its empty board, or
    `position START [moves ...]` from its `start` position."""
    words = (["position", *start.split()] if start is not None else
             ["position", "startpos", "size", str(settings.size), "players",
              str(settings.players)])
    if history:
        words += ["moves", *history]
    return " ".join(words)


def go_command(setting: EngineSetting, clocks: GameClock) -> str:
    """`go` with a setting's limits: every clocked player's time and increment (xtime, xinc,
    ... in milliseconds), movetime, depth, nodes."""
    words = ["go"]
    if setting.clock is not None:
        for player, control in clocks.controls.items():
            words += [f"{player.lower()}time", str(max(0, int(clocks.left(player) * 1000))),
                      f"{player.lower()}inc", str(int(round(control.increment * 1000)))]
    if setting.time is not None:
        words += ["movetime", str(max(1, int(round(setting.time * 1000))))]
    if setting.depth is not None:
        words += ["depth", str(setting.depth)]
    if setting.nodes is not None:
        words += ["nodes", str(setting.nodes)]
    return " ".join(words)


def answer_seconds(setting: EngineSetting, clocks: GameClock, player: str) -> float:
    """How long a program may take over a move: its clock's time left, its time per move
    plus TIME_MARGIN, or UNTIMED_MOVE_SECONDS."""
    if setting.clock is not None:
        return max(clocks.left(player), 0.0)
    if setting.time is not None:
        return setting.time + TIME_MARGIN
    return UNTIMED_MOVE_SECONDS


def _choose(player: Player, setting: EngineSetting, settings: MatchSettings, board: BaseBoard,
            history: list[str], clocks: GameClock, mover: str, start: str | None) -> Any:
    """The move (a move object, or a program's text) of the engine to move."""
    if isinstance(player, ExternalEngine):
        return player.move(position_command(settings, history, start),
                           go_command(setting, clocks),
                           answer_seconds(setting, clocks, mover))
    if setting.clock is not None:
        result = player.solve(board, depth=setting.depth, nodes=setting.nodes,
                              clock=clocks.left(mover), increment=setting.clock.increment)
    else:
        result = player.solve(board, depth=setting.depth, time=setting.time,
                              nodes=setting.nodes)
    return result.best_move


def play_game(settings: MatchSettings, pair: int, game: int, solvers: dict[str, Player],
              now: Callable[[], float] = time.perf_counter,
              tables: Tablebase | None = None) -> dict[str, Any]:
    """Game `game` (0 or 1) of pair `pair`: engine A plays the first team (X) in game 0,
    engine B in game 1. Returns the game's record. `tables`: what an adjudicated match
    adjudicates by."""
    if settings.adjudicate and tables is None:
        raise MatchError("an adjudicated match needs the tables to adjudicate by")
    started = now()
    opening_moves = opening(settings, pair)
    board = start_board(settings, pair)
    start = str(board) if settings.openings else None
    seen: Counter[str] = Counter([str(board)])
    for move in opening_moves:
        board.push(move)
        seen[str(board)] += 1
    opening_position = str(board)
    team_engine = {"X": ENGINES[game], "O": ENGINES[1 - game]}
    engine_team = {engine: team for team, engine in team_engine.items()}
    engine_of = {player: team_engine[player[0]] for player in settings.variant.player_names}
    controls = {player: settings.engines[engine].clock for player, engine in engine_of.items()}
    clocks = GameClock({player: control for player, control in controls.items()
                        if control is not None}, now)
    moves: list[str] = []
    reason: str | None = None
    loser: str | None = None          # the engine that lost by its own fault
    detail: str | None = None
    adjudication: ProbeResult | None = None
    for engine in ENGINES:
        player = solvers[engine]
        if isinstance(player, ExternalEngine):
            try:
                player.new_game()
            except EngineFailure as failure:
                reason, loser, detail = failure.reason, engine, str(failure)
                break
    while reason is None:
        if board.is_game_over():
            reason = "line"
            break
        if settings.adjudicate:
            assert tables is not None
            assert isinstance(board, Board)      # the game with tables: two players
            adjudication = tables.get(board)
            if adjudication is not None:
                reason = "tables"
                break
        if len(opening_moves) + len(moves) >= settings.max_plies:
            reason = "move limit"
            break
        mover = board.turn
        engine = engine_of[mover]
        clocks.start(mover)
        try:
            move = _choose(solvers[engine], settings.engines[engine], settings, board,
                           opening_moves + moves, clocks, mover, start)
        except EngineFailure as failure:
            clocks.stop()
            reason, loser, detail = failure.reason, engine, str(failure)
            break
        if not clocks.stop():
            reason, loser = "time", engine
            break
        if not board.is_legal(move):
            reason, loser = "illegal move", engine
            detail = f"engine {engine} played {clip(str(move))} in {board}"
            break
        board.push(move)
        moves.append(str(move))
        seen[str(board)] += 1
        if not board.is_game_over() and seen[str(board)] >= REPETITIONS:
            reason = "repetition"
    if reason == "line":
        winner: str | None = board.winner()
    elif adjudication is not None:
        winner = (None if adjudication.wdl == 0 else board.turn if adjudication.wdl > 0
                  else {"X": "O", "O": "X"}[board.turn])
    elif loser is not None:
        winner = engine_team[ENGINES[loser == "A"]]
    else:
        winner = None
    winning_engine = None if winner is None else team_engine[winner]
    score_a = 0.5 if winning_engine is None else float(winning_engine == "A")
    return {"pair": pair, "game": game, "opening": opening_position,
            "opening_moves": opening_moves, "x": team_engine["X"], "moves": moves,
            "result": {"X": "1-0", "O": "0-1", None: "1/2-1/2"}[winner], "reason": reason,
            "winner": winning_engine,
            "loser": None if winning_engine is None else ENGINES[winning_engine == "A"],
            "score_a": score_a, "plies": len(opening_moves) + len(moves),
            "flagged": clocks.flagged, "detail": detail,
            "clocks": ({player: round(clocks.left(player), 4) for player in clocks.controls}
                       or None),
            "seconds": round(now() - started, 3),
            "adjudication": None if adjudication is None else {
                "position": str(board), "value": adjudication.value,
                "plies": adjudication.plies},
            **({"start": start} if start is not None else {}),
            "match": settings.identity()}


# -- the records file ---------------------------------------------------------------------------

def read_records(path: Path, settings: MatchSettings) -> dict[tuple[int, int], dict[str, Any]]:
    """The games already recorded in `path` (none if it does not exist), keyed by (pair,
    game); MatchError if the file is not a records file of this very match."""
    if not path.exists():
        return {}
    identity = settings.identity()
    records: dict[tuple[int, int], dict[str, Any]] = {}
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                key = (int(record["pair"]), int(record["game"]))
                theirs = record["match"]
            except (ValueError, KeyError, TypeError):
                raise MatchError(f"{cut_path(path)} line {number} is not a game record of "
                                 "quixo match") from None
            if theirs != identity:
                raise MatchError(f"{cut_path(path)} holds games of another match "
                                 f"({_differences(theirs, identity)}): give another records "
                                 "file, or the same settings to resume it")
            records[key] = record
    return records


def _differences(theirs: object, ours: dict[str, Any]) -> str:
    if not isinstance(theirs, dict):
        return "no settings"
    return "; ".join(f"{key} {theirs.get(key)!r} there, {value!r} here"
                     for key, value in ours.items() if theirs.get(key) != value)


def write_records(path: Path, records: dict[tuple[int, int], dict[str, Any]]) -> None:
    """Every record, one JSON line each, sorted by pair and game, written atomically."""
    lines = [json.dumps(records[key]) + "\n" for key in sorted(records)]
    write_atomically(path, ["".join(lines).encode("utf-8")])


# -- running a match ------------------------------------------------------------------------

@dataclass
class MatchRun:
    """What `run_match` did: the statistics of every recorded game of the match, the games
    played by this run and its wall time (and the cmd= programs' names, when it ran them)."""

    statistics: dict[str, Any]
    played: int
    seconds: float
    records: list[dict[str, Any]] = field(default_factory=list)
    program_names: dict[str, str | None] = field(default_factory=dict)

    @property
    def games_per_minute(self) -> float | None:
        return None if self.seconds <= 0 or not self.played else self.played / self.seconds * 60


_worker_state: dict[str, Any] = {}


def _start_worker(settings: MatchSettings, tables: str | None) -> None:
    """A worker's own solvers (and programs), built once, used for every game it plays; the
    programs end with the worker."""
    _worker_state["settings"] = settings
    _worker_state["solvers"] = {name: build_solver(setting, settings, tables, name)
                                for name, setting in settings.engines.items()}
    _worker_state["tables"] = adjudicator(settings, tables)
    atexit.register(close_players, _worker_state["solvers"])


def _worker_game(pair: int, game: int) -> dict[str, Any]:
    return play_game(_worker_state["settings"], pair, game, _worker_state["solvers"],
                     tables=_worker_state["tables"])


def adjudicator(settings: MatchSettings, tables: str | os.PathLike[str] | None
                ) -> Tablebase | None:
    """The tables an adjudicated match adjudicates by (None for a match that is not);
    MatchError if the folder holds none of the match's board size."""
    if not settings.adjudicate:
        return None
    if tables is None or not Tablebase(tables).has_size(settings.size):
        raise MatchError(f"no {settings.size}x{settings.size} tables to adjudicate by in "
                         f"{'no folder' if tables is None else cut_path(tables)}")
    return Tablebase(tables)


def run_match(settings: MatchSettings, pairs: int, records_path: str | os.PathLike[str], *,
              jobs: int = 0, tables: str | os.PathLike[str] | None = None,
              stop_after: float | None = None, progress: bool | None = None,
              sprt: Sprt | None = None) -> MatchRun:
    """Play the games of pairs 0 .. pairs-1 not yet in the records file on `jobs` worker
    processes (0: one per core; 1: in this process), writing the file after every game.
    `tables`: the tablebase folder of engines with tables on (build 3x3 and 4x4 first:
    `quixo match` does). `stop_after` seconds: start no game after that (resume later).
    `sprt`: stop once the test decides (see the module docstring).
    A progress bar on a terminal (`progress` None), none otherwise."""
    if isinstance(pairs, bool) or not isinstance(pairs, int) or not 1 <= pairs <= MAX_PAIRS:
        raise MatchError(f"the number of game pairs must be 1 .. {MAX_PAIRS}, not "
                         f"{clip(pairs)}")
    path = Path(records_path)
    records = read_records(path, settings)

    def decided() -> bool:
        if sprt is None:
            return False
        return sprt.decided(match_stats.summarize(list(records.values()))["pentanomial"])

    finished = decided()
    todo = [] if finished else [(pair, game) for pair in range(pairs) for game in (0, 1)
                                if (pair, game) not in records]
    names = check_programs(settings) if todo else {}
    judge_tables = adjudicator(settings, tables) if todo else None
    workers = min(jobs or os.cpu_count() or 1, max(len(todo), 1))
    folder = None if tables is None else os.fspath(tables)
    bar = Progress(len(todo), "", enabled=progress)
    started = time.perf_counter()
    played = 0

    def keep(record: dict[str, Any]) -> None:
        nonlocal played, finished
        if finished:            # the test decided while this game ran: it does not count
            return
        records[(record["pair"], record["game"])] = record
        write_records(path, records)
        played += 1
        stats = match_stats.summarize(list(records.values()))
        bar.advance(1, f"A +{stats['wins']} ={stats['draws']} -{stats['losses']}")
        finished = decided()

    def may_start() -> bool:
        return not finished and (stop_after is None
                                 or time.perf_counter() - started < stop_after)

    try:
        if workers <= 1:
            solvers: dict[str, Player] = {}
            try:
                if todo:
                    solvers = {name: build_solver(setting, settings, folder, name)
                               for name, setting in settings.engines.items()}
                for pair, game in todo:
                    if not may_start():
                        break
                    keep(play_game(settings, pair, game, solvers, tables=judge_tables))
            finally:
                close_players(solvers)
        else:
            _run_in_workers(settings, folder, todo, workers, keep, may_start)
    finally:
        bar.close()
    ordered = [records[key] for key in sorted(records)]
    return MatchRun(match_stats.summarize(ordered, sprt), played,
                    time.perf_counter() - started, ordered, names)


def _run_in_workers(settings: MatchSettings, tables: str | None,
                    todo: list[tuple[int, int]], workers: int,
                    keep: Callable[[dict[str, Any]], None],
                    may_start: Callable[[], bool]) -> None:
    """At most `workers` games at a time, in game order; a new one starts as one ends.
    Workers are spawned (not forked): the kernels' OpenMP threads do not survive a fork."""
    context = multiprocessing.get_context("spawn")
    waiting = iter(todo)
    with concurrent.futures.ProcessPoolExecutor(
            workers, mp_context=context, initializer=_start_worker,
            initargs=(settings, tables)) as pool:
        running: set[concurrent.futures.Future[dict[str, Any]]] = set()
        try:
            while True:
                while len(running) < workers and may_start():
                    task = next(waiting, None)
                    if task is None:
                        break
                    running.add(pool.submit(_worker_game, *task))
                if not running:
                    break
                done, running = concurrent.futures.wait(
                    running, return_when=concurrent.futures.FIRST_COMPLETED)
                for future in done:
                    keep(future.result())
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise


def summary(run: MatchRun, settings: MatchSettings, pairs: int, jobs: int,
            records_path: str | os.PathLike[str]) -> dict[str, Any]:
    """The match's JSON summary: its settings, the statistics (match_stats) and this run."""
    engines = {name: setting.to_json() for name, setting in settings.engines.items()}
    for name, program in run.program_names.items():
        engines[name]["program_name"] = program
    return {"engines": engines,
            "size": settings.size, "players": settings.players, "seed": settings.seed,
            "opening_plies": settings.opening_plies, "max_plies": settings.max_plies,
            "pairs_requested": pairs, **run.statistics,
            "games_played_now": run.played, "seconds_now": round(run.seconds, 1),
            "games_per_minute": (None if run.games_per_minute is None
                                 else round(run.games_per_minute, 2)),
            "jobs": jobs, "records": os.fspath(records_path)}


def summary_path(records_path: str | os.PathLike[str]) -> Path:
    """Where the summary of a records file goes: games.jsonl -> games.summary.json."""
    return Path(records_path).with_suffix(".summary.json")


def write_summary(path: Path, payload: dict[str, Any]) -> None:
    write_atomically(path, [(json.dumps(payload, indent=2) + "\n").encode("utf-8")])
