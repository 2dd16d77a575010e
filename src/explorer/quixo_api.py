"""The Quixo half of the API: the answers of `quixo analyze`, `quixo solve` and `quixo
tablebase probe` (SPEC "Web"), and what the page needs besides (a position's moves and
symmetries, a search that reports each depth as it completes).

Answers that the tables (or a finished game) give alone are asked first, of each variant's
solver kept for that alone (the answers' `exact_solve_answer` and `exact_analyze_answer`, which
never search), at once and without a search slot. Such an answer does not depend on the time
or depth asked for, and never changes: it is kept (`AnswerCache`). Every other answer is
searched on a slot of the pool (pool.py) with the request's limits, capped by the server's, by
the slot's own solver of the variant (kept on the slot, with its transposition table).
"""
from __future__ import annotations

import argparse
import dataclasses
import json
from collections import OrderedDict
from typing import Any, Callable

from quixo_solver.frontends import answers
from quixo_solver.rules.baseboard import BaseBoard
from quixo_solver.rules.board import Board
from quixo_solver.search import BaseSolver, SearchResult
from quixo_solver.tablebase import MissingTableError, Tablebase
from quixo_solver.variants import VARIANTS, Variant, parse_board, variant_of
from solverkit.commandline import error_line

from .arguments import BadRequest, Parameter, parse_command
from .caching import Encoded
from .pool import SearchPool, Slot
from .settings import Settings

# the cube letter of a cube whose dot points at each player (SPEC notation)
PLAYER_SYMBOLS = {"X": "X", "O": "O", "X1": "X", "O1": "O", "X2": "x", "O2": "o"}

POSITION = Parameter("position", None)
TIME = Parameter("time", "--time")
DEPTH = Parameter("depth", "--depth")
SEARCH = (POSITION, TIME, DEPTH)
CLOCK = Parameter("clock", "--clock")
ANALYZE = Parameter("analyze", "--analyze", flag=True)
BATCH_LIMIT = 1024          # positions in one batch probe (SPEC)
MAX_MAINLINE = 400          # moves of a drawn line at most (a won or lost one ends sooner)

Emit = Callable[[str, dict[str, Any]], None]


class AnswerCache:
    """The encoded exact answers of the latest `entries` requests (least recently used
    first out), by (kind, query string) or (kind, position)."""

    def __init__(self, entries: int) -> None:
        self.entries = entries
        self._answers: OrderedDict[tuple[str, bytes], Encoded] = OrderedDict()
        self.hits = 0

    def __len__(self) -> int:
        return len(self._answers)

    def get(self, key: tuple[str, bytes]) -> Encoded | None:
        body = self._answers.get(key)
        if body is not None:
            self._answers.move_to_end(key)
            self.hits += 1
        return body

    def put(self, key: tuple[str, bytes], body: Encoded) -> None:
        if self.entries <= 0:
            return
        self._answers[key] = body
        self._answers.move_to_end(key)
        while len(self._answers) > self.entries:
            self._answers.popitem(last=False)


def read_position(text: str) -> BaseBoard:
    """The board of a position parameter or page path (`_` stands for the space)."""
    return parse_board(text.replace("_", " "))


@dataclasses.dataclass(frozen=True)
class Request:
    """A checked request for a position's answer: the board and the search limits."""

    board: BaseBoard
    depth: int | None
    time: float | None


class QuixoService:
    """The Quixo answers of one server: its tables, its pool, its exact solvers and cache."""

    def __init__(self, settings: Settings, tablebase: Tablebase, pool: SearchPool,
                 command_parser: argparse.ArgumentParser) -> None:
        self.settings = settings
        self.tablebase = tablebase
        self.pool = pool
        self.parser = command_parser     # the quixo command line's, which starts the server
        # the solvers of exact answers: they never search (so their 1 MiB table stays empty)
        self.exact = {variant.name: self.new_solver(variant, 1) for variant in VARIANTS}
        self.cache = AnswerCache(settings.cache_entries)

    # -- reading requests ------------------------------------------------------------------
    def parse(self, words: list[str], pairs: list[tuple[str, str]],
              parameters: tuple[Parameter, ...]) -> argparse.Namespace:
        pairs = [(name, value.replace("_", " ") if name == "position" else value)
                 for name, value in pairs]
        return parse_command(self.parser, words, pairs, parameters)

    def search_request(self, pairs: list[tuple[str, str]]) -> Request:
        """The board and limits of a solve or analyze request (position, time, depth), as the
        command line reads them: a time longer than the server allows is refused, and no
        limit at all is the server's default time. (A depth alone is searched as the command
        line searches it, within the server's longest time: the pool stops a job at its
        deadline.)"""
        if len(pairs) == 1 and pairs[0][0] == "position":    # the position alone: nothing
            return Request(read_position(pairs[0][1]), None,   # for the parser to check
                           self.settings.search_seconds)
        args = self.parse(["analyze"], pairs, SEARCH)
        board = parse_board(args.position)
        limit = self.settings.max_search_seconds
        if args.time is not None and args.time > limit:
            raise BadRequest(f"argument --time: at most {limit:g} seconds on this server, "
                             f"not {args.time:g}")
        time = args.time
        if time is None and args.depth is None:
            time = self.settings.search_seconds
        return Request(board, args.depth, time)

    def clock(self, pairs: list[tuple[str, str]]) -> tuple[float, float] | None:
        """The `clock` parameter (the --clock syntax of `quixo play`: the mover's time left
        and the increment) as seconds, or None."""
        values = [(name, value) for name, value in pairs if name == "clock"]
        if not values:
            return None
        args = self.parse(["play"], values, (CLOCK,))
        if args.clock is None:
            return None
        control = args.clock
        return control.seconds, control.increment

    # -- exact answers ---------------------------------------------------------------------
    def new_solver(self, variant: Variant, tt_mib: float) -> BaseSolver[Any]:
        """A solver of the variant, with the server's tables where it uses tables."""
        return variant.new_solver(tt_mib, self.tablebase if variant.reads_tables else None)

    def slot_solver(self, slot: Slot, variant: Variant) -> BaseSolver[Any]:
        """The slot's own solver of the variant, made on its first search there and kept."""
        return slot.kept(variant.name,
                         lambda: self.new_solver(variant, self.settings.hash_mib))

    def exact_solver(self, board: BaseBoard) -> BaseSolver[Any]:
        return self.exact[variant_of(board).name]

    def exact_answer(self, kind: str, request: Request) -> dict[str, Any] | None:
        """The answer of `kind` ('solve' or 'analyze') from the tables alone, or None."""
        solver = self.exact_solver(request.board)
        if kind == "solve":
            return answers.exact_solve_answer(request.board, solver)
        return answers.exact_analyze_answer(request.board, solver)

    def searched_answer(self, kind: str, request: Request) -> Callable[[Slot], dict[str, Any]]:
        """The job that searches for the answer of `kind` on a slot."""
        variant = variant_of(request.board)
        build = answers.solve_answer if kind == "solve" else answers.analyze_answer

        def job(slot: Slot) -> dict[str, Any]:
            return build(request.board, self.slot_solver(slot, variant), depth=request.depth,
                         time=request.time)
        return job

    def probe(self, pairs: list[tuple[str, str]]) -> dict[str, Any]:
        """`quixo tablebase probe`: MissingTableError when the class is not built."""
        return answers.probe_answer(self.position_of(pairs), self.tablebase)

    def position_of(self, pairs: list[tuple[str, str]]) -> BaseBoard:
        """The board of a query that takes a position alone."""
        if len(pairs) == 1 and pairs[0][0] == "position":
            return read_position(pairs[0][1])
        return parse_board(self.parse(["tablebase", "probe"], pairs, (POSITION,)).position)

    def probe_batch(self, positions: list[str]) -> bytes:
        """`{"results": [...]}` of a batch probe (SPEC "Tables on the web"): for each
        position its probe answer, or `{"position": P, "error": ...}`; the answers come from
        the cache where they are, and go into it."""
        parts = []
        for text in positions:
            try:
                board = read_position(text)
                key = ("probe", str(board).encode())
                encoded = self.cache.get(key)
                if encoded is None:
                    encoded = Encoded.of(answers.probe_answer(board, self.tablebase))
                    self.cache.put(key, encoded)
                parts.append(encoded.body)
            except (ValueError, MissingTableError) as error:
                parts.append(json.dumps({"position": text, "error": error_line(error)}
                                        ).encode())
        return b'{"results": [' + b", ".join(parts) + b"]}"

    def mainline(self, board: BaseBoard) -> dict[str, Any]:
        """`{"position", "value", "plies", "moves", "complete"}`: the line of best play from
        the position, the first move in the order of `analyze` among equals, for as long as
        the tables (or the rules) answer exactly; `complete` when it ends the game. A drawn
        line goes on until a position comes back (or MAX_MAINLINE moves). MissingTableError
        when the position itself has no exact answer."""
        solver = self.exact_solver(board)
        first = solver.settled_result(board, line=0)
        if first is None:
            if isinstance(board, Board):
                self.tablebase.probe(board)     # raises the probe's MissingTableError
            raise MissingTableError(f"no table or solution answers {board} exactly")
        moves: list[str] = []
        child = board.copy(stack=False)
        seen = {str(child)}
        while not child.is_game_over() and len(moves) < MAX_MAINLINE:
            rows = solver.exact_analysis(child)
            if rows is None:
                break
            best = rows[0][0]
            child = child.copy(stack=False)
            child.push(best)
            moves.append(str(best))
            if str(child) in seen:
                break
            seen.add(str(child))
        return {"position": str(board), "value": first.value, "plies": first.plies,
                "moves": moves, "complete": child.is_game_over()}

    # -- the page's own requests -----------------------------------------------------------
    def position(self, pairs: list[tuple[str, str]]) -> dict[str, Any]:
        """What the page draws and plays: the cells, the player to move, the end of the game,
        every legal move with the position it leads to, the 8 symmetric images, the position
        with the colours swapped and with the turn passed on."""
        board = self.position_of(pairs)
        variant = variant_of(board)
        rows_text, turn = str(board).split()
        moves = []
        for move in board.legal_moves:
            child = board.copy(stack=False)
            child.push(move)
            moves.append({"move": str(move), "position": str(child)})
        return {"position": str(board), "size": board.size, "players": variant.players,
                "player_names": list(variant.player_names), "turn": turn,
                "team": board.team, "rows": rows_text.split("/"),
                "game_over": board.is_game_over(), "winner": board.winner(),
                "moves": moves,
                "symmetries": [str(image) for image in board.symmetries()],
                "swapped": str(seats_turned(board, variant, swap_cubes=True)),
                "turn_passed": str(seats_turned(board, variant, swap_cubes=False))}

    def live_job(self, request: Request, clock: tuple[float, float] | None,
                 analyze: bool) -> Callable[[Slot, Emit], None]:
        """The job of a live search: each completed depth ('iteration', the solve answer so
        far), the solve answer ('solve'), then with `analyze` every move's ('analyze')."""
        variant = variant_of(request.board)
        board = request.board

        def job(slot: Slot, emit: Emit) -> None:
            solver = self.slot_solver(slot, variant)

            def progress(result: SearchResult) -> None:
                emit("iteration", {"position": str(board), **result.to_json()})
            if clock is None:
                answer = answers.solve_answer(board, solver, depth=request.depth,
                                              time=request.time, on_iteration=progress)
            else:
                answer = answers.solve_answer(board, solver, depth=request.depth,
                                              clock=clock[0], increment=clock[1],
                                              on_iteration=progress)
            emit("solve", answer)
            if analyze and not solver.stopped:
                emit("analyze", answers.analyze_answer(board, solver, depth=request.depth,
                                                       time=request.time))
        return job


def seats_turned(board: BaseBoard, variant: Variant, *, swap_cubes: bool) -> BaseBoard:
    """The position with every seat moved on by one in the turn order (X and O swapped on
    two players; X1 -> O1 -> X2 -> O2 -> X1 on four), which the rules see as the same game
    (`swap_cubes`), or with only the turn passed on to the next player."""
    names = variant.player_names
    following = {name: names[(index + 1) % len(names)] for index, name in enumerate(names)}
    rows_text, turn = str(board).split()
    if swap_cubes:
        swap: dict[str, str | int | None] = {
            PLAYER_SYMBOLS[name]: PLAYER_SYMBOLS[following[name]] for name in names}
        rows_text = rows_text.translate(str.maketrans(swap))
    return parse_board(f"{rows_text} {following[turn]}")
