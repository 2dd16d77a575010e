"""Searching any position: ``Solver`` runs iterative deepening over the Cython searcher
(_search.pyx) and answers from the tablebases wherever a class is built.

The search core that both searches (two players here, four in teams/_team_search.pyx) share:
the transposition table (_table.pxd), the move-ordering rules (_ordering.pxd: the table's
move, then moves that hand the opponent no immediate win, then the history of cutoffs, losing
moves last), mate scores and the clock (_mate.pxd), the heuristic (_heuristic.pxd), and the
Python driver below (`deepen`, `analyze_moves`). Each search keeps only its own move
generation and evaluation.

Under a clock (``solve(board, clock=seconds_left, increment=...)``) the solver decides how
long to think (``time_allocation``): a proven result, a table's answer or a single legal move
is played at once, otherwise the deepening stops at the move's soft limit between iterations
and at its hard limit inside one.

What a result claims:
- ``win`` / ``loss`` with ``plies``: proven, with the exact plies of SPEC. The search claims
  it only when the mate score's plies are within the depth it completed, so that every
  shorter win (or longer defence) was inside its horizon; or the tablebase says so.
- ``draw``: proven only by a tablebase.
- ``unknown``: nothing proven within the limits; ``best_move`` is then the engine's choice by
  its heuristic.

The heuristic (from the player to move, in _search.pyx): every line (rank, file, diagonal)
that holds only the mover's cubes is worth 1, 4, 16, 64 for 1..4 of them, the opponent's
lines the negative; holding both end cubes of a rank or file (which decides who can push along
it) is worth 6; each cube more than the opponent 3. These follow the strategy tips of the
French rulebook: build several lines of 3 then 4, own more cubes, hold both ends of a line.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from .. import geometry
from ..baseboard import check_board
from ..board import Board, Move
from ..errors import DepthError, LimitError, QuixoError
from ..limits import check_seconds, check_table_mib, shorten, whole_number
from ..notation import square_name
from ..tablebase import MissingTableError, Tablebase
from ..time_allocation import TimeManager, check_clock
from . import _search

DEFAULT_DEPTH_WITHOUT_TIME = 64
DEPTH_LIMIT = _search.DEPTH_LIMIT   # the deepest search, in plies (_mate.pxd MAX_DEPTH)
MATE_SCORE = _search.MATE_SCORE     # mate scores (_mate.pxd), the same for both searches
PROVEN_BOUND = _search.PROVEN_BOUND


@dataclass
class SearchResult:
    value: str                    # "win", "draw", "loss" or "unknown"
    plies: int | None
    best_move: Move | None
    principal_variation: list[Move] = field(default_factory=list)
    source: str = "search"        # "search", "tablebase" or "terminal"
    depth: int = 0                # deepest iteration completed
    nodes: int = 0
    seconds: float = 0.0
    score: int = 0                # the engine's score of the last completed iteration

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, "plies": self.plies,
                "best_move": None if self.best_move is None else str(self.best_move),
                "source": self.source, "pv": [str(m) for m in self.principal_variation],
                "depth": self.depth, "nodes": self.nodes, "seconds": round(self.seconds, 6)}


class Solver:
    """Alpha-beta (principal variation search) with iterative deepening.

    ``tt_mib`` sizes the transposition table (per board size); ``tablebase`` is a
    ``Tablebase`` (or a folder) whose built classes are probed at the root and at every
    node, or None.
    """

    def __init__(self, tt_mib: float = 64, tablebase: Tablebase | str | None = None) -> None:
        self.tt_mib = check_table_mib(tt_mib)
        if isinstance(tablebase, (str, os.PathLike)):
            tablebase = Tablebase(tablebase)
        elif tablebase is not None and not isinstance(tablebase, Tablebase):
            raise QuixoError("tablebase must be a Tablebase, a folder or None, not "
                             f"{shorten(tablebase)}")
        self.tablebase = tablebase
        self._searchers: dict[int, _search.Searcher] = {}
        self.time_manager = TimeManager()   # what a move costs beyond its search, learnt

    def _searcher(self, size: int) -> _search.Searcher:
        if size not in self._searchers:
            searcher = _search.Searcher(size, self.tt_mib)
            if self.tablebase is not None:
                for a in range(size * size + 1):
                    for b in range(size * size + 1 - a):
                        if self.tablebase.has_table(size, a, b):
                            searcher.add_table(a, b, self.tablebase.table(size, a, b))
            self._searchers[size] = searcher
        return self._searchers[size]

    def tablebase_result(self, board: Board) -> SearchResult:
        """The tables' answer with the best move and the line to the end; MissingTableError
        when the position's class is not built (or the solver has no tablebase)."""
        if self.tablebase is None:
            raise MissingTableError("this solver has no tablebase")
        result = self.tablebase.probe(board)
        moves = self.tablebase.probe_moves(board)
        line, child = [], board.copy(stack=False)
        while result.wdl != 0 and not child.is_game_over():
            best = self.tablebase.probe_moves(child)[0][0]
            line.append(best)
            child.push(best)
        return SearchResult(result.value, result.plies, moves[0][0] if moves else None, line,
                            source="tablebase")

    def prepare(self, size: int) -> None:
        """Get ready to play on a `size` board before any clock runs, as a chess searcher does
        before its game: allocate the transposition table, open the tables, and measure what
        a move costs beyond its search (a depth-1 search of the empty board)."""
        prepare_solver(self, Board(size=size))

    def solve(self, board: Board, depth: int | None = None, time: float | None = None,
              nodes: int | None = None, *, clock: float | None = None,
              increment: float = 0.0) -> SearchResult:
        """Search ``board`` until it is proven or a limit is reached (``depth`` in plies,
        ``time`` in seconds, ``nodes``). With no limit at all the depth stops at 64.

        ``clock``: the seconds left on the mover's clock instead of a time per move, with
        ``increment`` seconds added after each move; the solver then decides how long to
        think (``time_allocation``), and answers at once when the result is proven (tables,
        a win or loss found) or only one move is legal. A table's answer then comes without
        its line to the end (``principal_variation`` is the best move alone)."""
        check_board(board, Board)
        check_limits(depth, time, nodes, clock, increment)
        if clock is not None:
            return solve_on_clock(self.time_manager, board, clock, increment, depth, nodes,
                                  lambda: self._answer_at_once(board), self._iterate)
        status = board.status()
        if status:
            return SearchResult("win" if status > 0 else "loss", 0, None, source="terminal")
        try:
            return self.tablebase_result(board)
        except MissingTableError:
            return self._iterate(board, depth, time, nodes)

    def _answer_at_once(self, board: Board) -> SearchResult | None:
        """The result of a finished game or of the tables (the best move without the line,
        which costs a probe per legal move per ply), else None once the searcher is ready."""
        status = board.status()
        if status:
            return SearchResult("win" if status > 0 else "loss", 0, None, source="terminal")
        if self.tablebase is not None:
            try:
                probe = self.tablebase.probe(board)
            except MissingTableError:
                pass
            else:
                moves = self.tablebase.probe_moves(board)
                best = moves[0][0] if moves else None
                return SearchResult(probe.value, probe.plies, best, [best] if best else [],
                                    source="tablebase")
        self._searcher(board.size)
        return None

    def _iterate(self, board: Board, depth: int | None, seconds: float | None,
                 nodes: int | None, soft: float | None = None) -> SearchResult:
        return iterate(board, self._searcher(board.size),
                       lambda b: (b.mover_cubes, b.opponent_cubes),
                       lambda index: _move(board.size, index), depth, seconds, nodes, soft)

    def analyze(self, board: Board, depth: int | None = None, time: float | None = None,
                nodes: int | None = None) -> list[tuple[Move, SearchResult]]:
        """Every legal move with its result for the player to move, best first. The limits
        apply to each move's search."""
        check_board(board, Board)
        return analyze_moves(self.solve, board, depth, time, nodes)


def check_limits(depth: object, time: object, nodes: object, clock: object = None,
                 increment: object = 0.0) -> None:
    if depth is not None:
        whole_number("depth", depth, 1, DEPTH_LIMIT, DepthError)
    if time is not None:
        check_seconds("time", time)
    if nodes is not None:
        whole_number("nodes", nodes, 1, 2**63 - 1)
    if clock is not None:
        if time is not None:
            raise LimitError("give either a time per move or a clock, not both")
        check_clock(clock, increment)
    elif increment != 0.0:
        raise LimitError("an increment needs a clock")


class Preparable(Protocol):
    time_manager: TimeManager

    def solve(self, board: Any, depth: int | None = ...) -> SearchResult: ...


def prepare_solver(solver: Preparable, board: Any) -> None:
    """A depth-1 search of `board` builds the solver's searcher; a second one is timed as the
    overhead of a move (on the long side: it includes that search)."""
    solver.solve(board, depth=1)
    started = time.perf_counter()
    solver.solve(board, depth=1)
    solver.time_manager.record(time.perf_counter() - started, 0.0)


def solve_on_clock(manager: TimeManager, board: Any, clock: float, increment: float,
                   depth: int | None, nodes: int | None,
                   answer_at_once: Callable[[], SearchResult | None],
                   search: Callable[[Any, int | None, float, int | None, float],
                                    SearchResult]) -> SearchResult:
    """A move on a clock (both solvers): `answer_at_once()` gives a finished game's or a
    table's result, or None once the searcher is ready; a single legal move is played at once;
    otherwise `search(board, depth, hard, nodes, soft)` runs within the move's allotment.
    The time the move took beyond its search teaches `manager` the overhead."""
    started = time.perf_counter()
    result = answer_at_once()
    searched = 0.0
    if result is None:
        legal = list(board.legal_moves)
        if len(legal) == 1:
            result = SearchResult("unknown", None, legal[0], legal[:1])
    if result is None:
        left = clock - (time.perf_counter() - started)
        allotment = manager.allot(board, left, increment)
        result = search(board, 1 if allotment.panic else depth, allotment.hard, nodes,
                        allotment.soft)
        searched = min(result.seconds, allotment.hard)
    manager.record(time.perf_counter() - started, searched)
    return result


class SearchKernel(Protocol):
    """What the driver needs of a search kernel (_search.Searcher, teams' TeamSearcher)."""

    nodes: int
    stopped: bool
    root_move: int

    def clear(self) -> None: ...
    def search(self, position: Any, depth: int, seconds: float, node_limit: int,
               nodes_before: int = ...) -> int: ...
    def table_move(self, position: Any) -> int: ...


def iterate(board: Any, searcher: SearchKernel, position_of: Callable[[Any], Any],
            move_of: Callable[[int], Any], depth: int | None, seconds: float | None,
            nodes: int | None, soft: float | None = None) -> SearchResult:
    """Iterative deepening of `board` on a search searcher (two- or four-player): the driver of
    both solvers. `position_of(board)` is the engine's form of a board, `move_of(index)` the
    move of an engine's move index; the searcher offers clear, search, root_move (-1: none),
    table_move, nodes and stopped. `soft`: start no iteration after that many seconds."""
    searcher.clear()
    position = position_of(board)

    def result_of(score: int, iteration: int) -> SearchResult:
        value, plies = "unknown", None
        if abs(score) >= PROVEN_BOUND:
            mate_plies = MATE_SCORE - abs(score)
            if mate_plies <= iteration:
                value, plies = ("win" if score > 0 else "loss"), mate_plies
        best = move_of(searcher.root_move) if searcher.root_move >= 0 else None
        line: list[Any] = []
        child = board.copy(stack=False)
        for _ in range(iteration):
            if child.is_game_over():
                break
            index = searcher.table_move(position_of(child))
            if index < 0:
                break
            line.append(move_of(index))
            child.push(line[-1])
        return SearchResult(value, plies, best, line, depth=iteration, score=score)

    result = deepen(
        lambda iteration, left, spent: searcher.search(position, iteration, left, nodes or 0,
                                                     spent),
        searcher, result_of, depth, seconds, nodes, soft)
    if result.best_move is None and searcher.root_move >= 0:
        result.best_move = move_of(searcher.root_move)
    if result.best_move is None:  # stopped before depth 1 finished: any legal move
        result.best_move = next(iter(board.legal_moves))
    return result


def deepen(search_to: Callable[[int, float, int], int], searcher: SearchKernel,
           result_of: Callable[[int, int], SearchResult], depth: int | None,
           seconds: float | None, nodes: int | None,
           soft: float | None = None) -> SearchResult:
    """Iterative deepening: search_to(iteration, seconds left, nodes spent) -> score, until a
    result is proven or a limit is reached; result_of(score, iteration) reads a completed
    iteration. `searcher` reports `nodes` and `stopped`. Shared by the two- and four-player
    solvers. `soft`: no iteration starts after that many seconds (a clock's move: the next
    iteration would take several times as long as all before it)."""
    max_depth = depth or (_search.DEPTH_LIMIT if seconds or nodes
                          else DEFAULT_DEPTH_WITHOUT_TIME)
    started = time.perf_counter()
    result = SearchResult("unknown", None, None)
    spent = 0
    for iteration in range(1, max_depth + 1):
        left = 0.0
        if seconds:
            left = seconds - (time.perf_counter() - started)
            if left <= 0:
                break
        score = search_to(iteration, left, spent)
        spent = searcher.nodes
        if searcher.stopped:
            break
        result = result_of(score, iteration)
        if result.value != "unknown":
            break
        if soft is not None and time.perf_counter() - started >= soft:
            break
    result.nodes = spent
    result.seconds = time.perf_counter() - started
    return result


def seen_by_mover(move: Any, seen: SearchResult) -> SearchResult:
    """A child's result (for the side to move there) as the result of `move` for the side
    that plays it."""
    value = {"win": "loss", "loss": "win"}.get(seen.value, seen.value)
    plies = None if seen.plies is None else seen.plies + 1
    return SearchResult(value, plies, move, [move] + seen.principal_variation,
                        source=seen.source, depth=seen.depth, nodes=seen.nodes,
                        seconds=seen.seconds, score=-seen.score)


def analyze_moves(solve: Callable[..., SearchResult], board: Any, depth: int | None,
                  time: float | None, nodes: int | None) -> list[tuple[Any, SearchResult]]:
    """Every legal move of `board` with solve()'s result of the child, best first."""
    check_limits(depth, time, nodes)
    rows: list[tuple[Any, SearchResult]] = []
    for move in board.legal_moves:
        child = board.copy(stack=False)
        child.push(move)
        seen = solve(child, depth=None if depth is None else max(1, depth - 1), time=time,
                     nodes=nodes)
        rows.append((move, seen_by_mover(move, seen)))
    rows.sort(key=lambda row: _preference(row[1]))
    return rows


def _move(size: int, index: int) -> Move:
    source, target = geometry.moves(size)[index]
    return Move(square_name(size, source), square_name(size, target))


def _preference(result: SearchResult) -> tuple[int, int, int]:
    """Best first: the fastest win, draws, unproven moves by score, the slowest loss."""
    plies = result.plies or 0
    if result.value == "win":
        return (0, plies, 0)
    if result.value == "draw":
        return (1, 0, 0)
    if result.value == "unknown":
        return (2, 0, -result.score)
    return (3, -plies, 0)
