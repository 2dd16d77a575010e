"""Judging moves by perfect play (`quixo judge`, SPEC "Judging moves"): each move made from a
position whose class is in the tables is compared with the tables' value of that position.

- An error drops the value: win to draw or loss, draw to loss.
- A perfect move keeps the value and the exact plies: the fastest win, the longest loss, any
  draw.
- `plies_lost`: in a kept win, the plies beyond the fastest; in a kept loss, the plies short of
  the longest (0 for a perfect one; none for a draw or an error).

The moves come from recorded games (`judge_games`: the JSON lines `quixo match` writes, or
lines `{"start": POSITION, "moves": [...]}` such as `quixo play --json` prints), or from
engines asked for a move in each of a file's positions (`judge_positions`; an engine is a
setting as `quixo match` takes it: this package's solver or a `cmd=` program speaking the engine
protocol). Each engine's moves add up to an `EngineTally`, whose `to_json` is the SPEC's object:
the error rate overall and by blanks, the share of perfect moves, the mean plies lost (over the
kept wins and losses) and the worst moves with their positions.

As lichess computes "accuracy" from an engine's evaluation, but exact: the tables know the
value of every position they hold.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator

from solverkit.messages import clip, cut, cut_path
from solverkit.progress import Progress

from .clock import GameClock
from .engine_process import EngineFailure
from .external_engine import ExternalEngine, answer_seconds, go_command
from .players import Player, build_solver
from .settings import EngineSetting, MatchSettings
from .settings import read_positions as position_lines
from ..errors import QuixoError
from ..rules.baseboard import BaseBoard
from ..rules.board import Board
from ..tablebase import MissingTableError, ProbeResult, Tablebase
from ..tablebase import values
from ..variants import parse_board

WORST = 10                  # the worst moves reported per engine
GO_KEYS = {"movetime": "time", "depth": "depth", "nodes": "nodes"}
DEFAULT_GO = "movetime 100"


class JudgeError(QuixoError):
    """A file, an engine or a folder that cannot be judged with (named in the message)."""


@dataclass(frozen=True)
class Verdict:
    """One judged move: the position and the move, the value of the position for its mover
    before the move and the value the move leaves the same player (win, draw or loss, with
    plies)."""

    position: str
    move: str
    blanks: int
    before: ProbeResult
    after: ProbeResult

    @property
    def error(self) -> bool:
        return self.after.wdl < self.before.wdl

    @property
    def perfect(self) -> bool:
        return self.after.wdl == self.before.wdl and self.after.plies == self.before.plies

    @property
    def plies_lost(self) -> int | None:
        """The plies beyond the fastest win, or short of the longest loss (None for a draw
        or an error)."""
        if self.error or self.before.plies is None or self.after.plies is None:
            return None
        return abs(self.after.plies - self.before.plies)

    def severity(self) -> tuple[int, int]:
        """How bad the move is, for sorting: the value it drops, then the plies it loses."""
        return (self.before.wdl - self.after.wdl, self.plies_lost or 0)

    def to_json(self) -> dict[str, Any]:
        return {"position": self.position, "move": self.move,
                "value_before": self.before.value, "value_after": self.after.value,
                "plies_before": self.before.plies, "plies_after": self.after.plies,
                "plies_lost": self.plies_lost, "blanks": self.blanks}


def judge_move(tablebase: Tablebase, board: Board, move: Any) -> Verdict | None:
    """The verdict on `move` (legal, checked) in `board`; None where the position's class, or
    the class the move leads to, is not in the tables, or the game is over."""
    if board.is_game_over():
        return None
    child = board.copy(stack=False)
    child.push(move)
    try:
        before = tablebase.probe(board)
        seen = (ProbeResult(child.status(), 0) if child.is_game_over()
                else tablebase.probe(child))
    except MissingTableError:
        return None
    after = ProbeResult(-seen.wdl, None if seen.plies is None else seen.plies + 1)
    blanks = board.size * board.size - bin(board.mover_cubes | board.opponent_cubes).count("1")
    return Verdict(str(board), str(child.peek()), blanks, before, after)


@dataclass
class EngineTally:
    """The verdicts on one engine's moves; `moves` counts its moves, judged or not, and
    `failures` the moves it did not make (it crashed, ran out of time or played an illegal
    move). Its JSON adds to the SPEC's fields the share of perfect moves, the counts by the
    value of the position before the move (`by_value`: win, draw, loss) and the kept wins and
    losses that `plies_lost_mean` averages (`kept_decisive`)."""

    engine: str
    moves: int = 0
    failures: int = 0
    verdicts: list[Verdict] = field(default_factory=list)

    def add(self, verdict: Verdict | None) -> None:
        self.moves += 1
        if verdict is not None:
            self.verdicts.append(verdict)

    @property
    def errors(self) -> int:
        return sum(verdict.error for verdict in self.verdicts)

    @property
    def perfect(self) -> int:
        return sum(verdict.perfect for verdict in self.verdicts)

    def worst(self, count: int = WORST) -> list[Verdict]:
        """The `count` worst moves that are not perfect, worst first (in the order they were
        made among equals)."""
        flawed = [verdict for verdict in self.verdicts if not verdict.perfect]
        return sorted(flawed, key=lambda verdict: verdict.severity(), reverse=True)[:count]

    def to_json(self, worst: int = WORST) -> dict[str, Any]:
        judged = len(self.verdicts)
        lost = [verdict.plies_lost for verdict in self.verdicts
                if verdict.plies_lost is not None]
        by_blanks: dict[int, dict[str, int]] = {}
        by_value: dict[int, dict[str, int]] = {}
        for verdict in self.verdicts:
            for rows, key in ((by_blanks, verdict.blanks), (by_value, -verdict.before.wdl)):
                row = rows.setdefault(key, {"judged": 0, "errors": 0, "perfect": 0})
                row["judged"] += 1
                row["errors"] += verdict.error
                row["perfect"] += verdict.perfect
        return {"engine": self.engine, "moves": self.moves, "judged": judged,
                "errors": self.errors, "perfect": self.perfect,
                "error_rate": _share(self.errors, judged),
                "plies_lost_mean": None if not lost else round(sum(lost) / len(lost), 4),
                "by_blanks": {str(blanks): {**row, "error_rate": _share(row["errors"],
                                                                        row["judged"])}
                              for blanks, row in sorted(by_blanks.items())},
                "worst": [verdict.to_json() for verdict in self.worst(worst)],
                "perfect_rate": _share(self.perfect, judged),
                "by_value": {values.WDL_NAMES[-wdl]: row for wdl, row in sorted(by_value.items())},
                "kept_decisive": len(lost), "failures": self.failures}


def _share(part: int, whole: int) -> float | None:
    return None if not whole else round(part / whole, 6)


# -- the tables -------------------------------------------------------------------------------

def open_tables(directory: str | os.PathLike[str], sizes: Iterable[int]) -> Tablebase:
    """The tables of a folder; JudgeError unless it holds tables of every board size asked
    for."""
    tablebase = Tablebase(directory)
    for size in sorted(set(sizes)):
        if not tablebase.has_size(size):
            raise JudgeError(f"no {size}x{size} tables in {cut_path(tablebase.directory)}: "
                             f"build them (quixo tablebase build --size {size}) or give --dir")
    return tablebase


# -- positions and engines ------------------------------------------------------------------

def read_positions(path: str | os.PathLike[str]) -> list[Board]:
    """The positions of a file: one SPEC position per line, `#` starts a comment; JudgeError
    naming the line of one that cannot be read, is of the four-player game (it has no tables)
    or is a finished game (there is no move to judge)."""
    boards = []
    for number, text in position_lines(path):
        try:
            board = parse_board(text)
        except QuixoError as error:
            raise JudgeError(f"{cut_path(path)} line {number}: {error}") from None
        if not isinstance(board, Board):
            raise JudgeError(f"{cut_path(path)} line {number}: the four-player game has no "
                             "tables to judge by")
        if board.is_game_over():
            raise JudgeError(f"{cut_path(path)} line {number}: the game is over in {board}: "
                             "there is no move to judge")
        boards.append(board)
    return boards


def _lines(path: str | os.PathLike[str]) -> Iterator[tuple[int, str]]:
    try:
        with open(path, encoding="utf-8") as handle:
            yield from enumerate(handle, 1)
    except UnicodeDecodeError:
        raise JudgeError(f"{cut_path(path)} is not a text file (UTF-8)") from None


def go_limits(go: str) -> dict[str, Any]:
    """The limits of the protocol's `go` arguments (`movetime MS`, `depth D`, `nodes N`) as
    an engine setting's keys: {"time": seconds, "depth": plies, "nodes": n}."""
    words = go.split()
    if words and words[0].lower() == "go":
        words = words[1:]
    if not words or len(words) % 2:
        raise JudgeError(f"--go takes pairs such as 'movetime 100', 'depth 6' or 'nodes 50000', "
                         f"not {clip(go)}")
    limits: dict[str, Any] = {}
    for key, text in zip(words[::2], words[1::2]):
        name = GO_KEYS.get(key.lower())
        if name is None:
            raise JudgeError(f"--go: unknown limit {clip(key)} (limits: movetime, depth, "
                             "nodes)")
        if name in limits:
            raise JudgeError(f"--go: {key.lower()} is given twice")
        if not (text.isascii() and text.isdigit()) or int(text) < 1:
            raise JudgeError(f"--go: {key.lower()} must be a whole number from 1, not "
                             f"{clip(text)}")
        limits[name] = int(text) / 1000 if name == "time" else int(text)
    return limits


def engine_setting(text: str, go: str = DEFAULT_GO) -> EngineSetting:
    """An engine setting (as `quixo match` takes it) for judging positions: one that gives no
    limit of its own gets those of `go`. A clock is refused: each position is a game of its
    own."""
    setting = EngineSetting.parse(text, go_limits(go))
    if setting.clock is not None:
        raise JudgeError(f"clock= plays a game, not single positions: give time=, depth= or "
                         f"nodes= (or --go), not {clip(text)}")
    return setting


class PositionPlayer:
    """An engine setting asked for its move in single positions: this package's solver (one
    per board size and number of players, tables from `tables` when the setting has them on)
    or a `cmd=` program, told `ucinewgame` before each position; JudgeError if the program
    cannot be started."""

    def __init__(self, setting: EngineSetting, tables: str | os.PathLike[str] | None,
                 label: str) -> None:
        self.setting = setting
        self.tables = tables
        self.label = label
        self._players: dict[tuple[int, int], Player] = {}
        if setting.external:
            program = self._player(5, 2)
            try:
                program.start()
            except EngineFailure as failure:
                program.close()
                raise JudgeError(str(failure)) from None

    def move(self, board: BaseBoard) -> str:
        """The move's text (unchecked); EngineFailure if a program fails."""
        player = self._player(board.size, board.players)
        if isinstance(player, ExternalEngine):
            player.new_game()
            clocks = GameClock({})
            return player.move(f"position {board}", go_command(self.setting, clocks),
                               answer_seconds(self.setting, clocks, board.turn))
        result = player.solve(board, depth=self.setting.depth, time=self.setting.time,
                              nodes=self.setting.nodes)
        return str(result.best_move)

    def _player(self, size: int, players: int) -> Player:
        key = (0, 0) if self.setting.external else (size, players)  # one program plays all
        if key not in self._players:   # (a program's settings only name it)
            settings = MatchSettings(self.setting, self.setting, size=size, players=players)
            self._players[key] = build_solver(self.setting, settings, self.tables, self.label)
        return self._players[key]

    def close(self) -> None:
        for player in self._players.values():
            if isinstance(player, ExternalEngine):
                player.close()


def judge_positions(boards: list[Board], engines: list[str], tablebase: Tablebase,
                    go: str = DEFAULT_GO, progress: bool | None = None) -> list[EngineTally]:
    """Each engine's move in each position, judged. Only the positions in the tables are
    played (the others count as moves, not judged). Engines with tables on use the folder
    of `tablebase`. A program that fails on a position is started again for the next; its
    move there counts as a failure."""
    settings = [(text, engine_setting(text, go)) for text in engines]
    judged = [board for board in boards if tablebase.get(board) is not None]
    bar = Progress(len(judged) * len(engines), "", enabled=progress)
    tallies = []
    try:
        for number, (text, setting) in enumerate(settings, 1):
            tally = EngineTally(text)
            tally.moves = len(boards) - len(judged)
            player = PositionPlayer(setting, tablebase.directory, f"engine {number}")
            try:
                for board in judged:
                    bar.advance(1, clip(text, 40))
                    try:
                        move: str | None = player.move(board)
                    except EngineFailure:
                        move = None
                    if move is None or not board.is_legal(move):
                        tally.moves += 1
                        tally.failures += 1
                    else:
                        tally.add(judge_move(tablebase, board, move))
            finally:
                player.close()
            tallies.append(tally)
    finally:
        bar.close()
    return tallies


# -- recorded games -------------------------------------------------------------------------

@dataclass
class GameJudgement:
    """What judging a file of games found: a tally per engine, the games read, and how many
    of them the tables adjudicated (`quixo match --adjudicate`)."""

    tallies: list[EngineTally]
    games: int
    adjudicated: int


def read_games(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The games of a file of JSON lines (blank lines skipped); JudgeError naming a line that
    is not a JSON object."""
    games = []
    for number, line in _lines(path):
        if not line.strip():
            continue
        try:
            game = json.loads(line)
        except ValueError:
            game = None
        if not isinstance(game, dict):
            raise JudgeError(f"{cut_path(path)} line {number} is not a JSON object (a game "
                             "record of quixo match, or {\"start\": ..., \"moves\": [...]})")
        games.append(game)
    if not games:
        raise JudgeError(f"{cut_path(path)} holds no game")
    return games


def game_moves(game: dict[str, Any]) -> tuple[Board, dict[str, str], list[str]]:
    """(the board before the judged moves, the engine of each side, the judged moves) of a
    game: a `quixo match` record (from its start position, else the empty board; its
    opening's random moves are not judged) or
    {"start": POSITION, "moves": [...], "engines": {"X": NAME, "O": NAME}} (engines
    optional: the sides then are "X" and "O"; with "human": SIDE, as `quixo play --json`
    writes, "human" and "engine")."""
    if "match" in game:
        match = game["match"]
        if match.get("players") != 2:
            raise JudgeError("the four-player game has no tables to judge by")
        board = Board(game["start"]) if "start" in game else Board(size=match["size"])
        for move in game["opening_moves"]:
            board.push(move)
        names = {"A": match["engine_a"], "B": match["engine_b"]}
        x_engine = game["x"]
        engines = {"X": names[x_engine], "O": names["B" if x_engine == "A" else "A"]}
        return board, engines, list(game["moves"])
    start = parse_board(game["start"])
    if not isinstance(start, Board):
        raise JudgeError("the four-player game has no tables to judge by")
    if "engines" in game:
        engines = {side: str(game["engines"][side]) for side in ("X", "O")}
    elif game.get("human") in ("X", "O"):
        engines = {side: "human" if side == game["human"] else "engine" for side in "XO"}
    else:
        engines = {"X": "X", "O": "O"}
    return start, engines, list(game["moves"])


def judge_games(games: list[dict[str, Any]], tablebase: Tablebase) -> GameJudgement:
    """Every move of every game judged, a tally per engine (in the order the engines first
    appear); JudgeError naming the game and the move of a record that cannot be replayed."""
    tallies: dict[str, EngineTally] = {}
    adjudicated = 0
    for number, game in enumerate(games, 1):
        try:
            board, engines, moves = game_moves(game)
        except (KeyError, TypeError, ValueError) as error:
            reason = f"lacks {error}" if isinstance(error, KeyError) else str(error)
            raise JudgeError(f"game {number} is not a game record: {cut(reason)}") from None
        adjudicated += game.get("adjudication") is not None
        for engine in engines.values():      # an engine whose games the tables ended at once
            tallies.setdefault(engine, EngineTally(engine))
        for ply, move in enumerate(moves, 1):
            engine = engines[board.turn]
            if not isinstance(move, str) or not board.is_legal(move):
                raise JudgeError(f"game {number} move {ply} ({cut(str(move))}) is not legal in "
                                 f"{board}")
            tally = tallies.setdefault(engine, EngineTally(engine))
            tally.add(judge_move(tablebase, board, move))
            board.push(move)
    return GameJudgement(list(tallies.values()), len(games), adjudicated)


def sizes_of_games(games: list[dict[str, Any]]) -> set[int]:
    """The board sizes of the games (those whose size can be read)."""
    found = set()
    for game in games:
        try:
            found.add(int(game["match"]["size"]) if "match" in game
                      else parse_board(game["start"]).size)
        except (KeyError, TypeError, ValueError):
            pass
    return found


def report(tallies: list[EngineTally], worst: int = WORST, **extra: Any) -> dict[str, Any]:
    """The SPEC's JSON object of a judgement, with `extra` fields after its own."""
    return {"engines": [tally.to_json(worst) for tally in tallies], **extra}


def report_lines(payload: dict[str, Any]) -> list[str]:
    """The judgement as a table (what `quixo judge` prints without --json)."""
    lines = [f"{'engine':<44} {'moves':>6} {'judged':>6} {'errors':>6} {'error %':>8} "
             f"{'perfect %':>9} {'plies lost':>10}"]
    for row in payload["engines"]:
        rate = "-" if row["error_rate"] is None else f"{100 * row['error_rate']:.2f}"
        perfect = "-" if row["perfect_rate"] is None else f"{100 * row['perfect_rate']:.2f}"
        lost = "-" if row["plies_lost_mean"] is None else f"{row['plies_lost_mean']:.3f}"
        lines.append(f"{cut(row['engine'], 44):<44} {row['moves']:>6} {row['judged']:>6} "
                     f"{row['errors']:>6} {rate:>8} {perfect:>9} {lost:>10}")
    for row in payload["engines"]:
        lines.append("")
        lines.append(f"{row['engine']}:")
        if row["failures"]:
            lines.append(f"  failed to move {row['failures']} times (crash, time or illegal "
                         "move)")
        blanks = ", ".join(f"{b}: {r['errors']}/{r['judged']}"
                           for b, r in row["by_blanks"].items())
        lines.append(f"  errors by blanks: {blanks or 'none judged'}")
        for verdict in row["worst"]:
            plies = ("" if verdict["plies_lost"] in (None, 0)
                     else f" ({verdict['plies_lost']} plies lost)")
            lines.append(f"  {verdict['position']}  {verdict['move']}: "
                         f"{_value(verdict['value_before'], verdict['plies_before'])} -> "
                         f"{_value(verdict['value_after'], verdict['plies_after'])}{plies}")
    return lines


def _value(value: str, plies: int | None) -> str:
    return value if plies is None else f"{value} in {plies}"


__all__ = ["EngineTally", "GameJudgement", "JudgeError", "PositionPlayer", "Verdict",
           "engine_setting", "go_limits", "judge_games", "judge_move", "judge_positions",
           "open_tables", "read_games", "read_positions", "report", "report_lines"]
