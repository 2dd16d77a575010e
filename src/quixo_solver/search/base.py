"""What every solver does whatever the variant: `BaseSolver` checks the limits, answers a
finished game or an exact table at once, runs iterative deepening over a search kernel, plays
on a clock, analyses every move and gets ready before a game. A variant's solver (two players:
`Solver`; four players: `teams.solve.TeamSolver`) supplies four hooks:

    _new_searcher(size)          the search kernel of a board size (its transposition table)
    _kernel_position(board)      the kernel's form of a board
    _kernel_move(size, index)    the move of a kernel's move index
    exact_result(board, line)    an exact answer (tables, a complete solution) or None;
                                 by default `tablebase_result`'s, where the class is built;
                                 `line`: the moves of the line to the end that it gives
                                 (None: all of them; 1: the best move; 0: the value alone)

Under a clock (``solve(board, clock=seconds_left, increment=...)``) the solver decides how long
to think (``time_allocation``): a proven result, a table's answer or a single legal move is
played at once, otherwise the deepening stops at the move's soft limit between iterations and
at its hard limit inside one.
"""
from __future__ import annotations

import time as clock_time
from collections.abc import Iterable
from typing import Any, Callable, ClassVar, Generic, Protocol, TypeVar

from ..rules.baseboard import BaseBoard, check_board
from ..errors import DepthError, LimitError, QuixoError
from ..limits import check_seconds, check_tt_mib, whole_number
from ..tablebase import MissingTableError
from .time_allocation import TimeManager, check_clock
from . import _search
from .result import SearchResult, preference, seen_by_mover
from .weights import RULEBOOK, WeightSet, Weights, weight_set

DEFAULT_DEPTH_WITHOUT_TIME = 64
DEPTH_LIMIT = _search.DEPTH_LIMIT   # the deepest search, in plies (_mate.pxd MAX_DEPTH)
MATE_SCORE = _search.MATE_SCORE     # mate scores (_mate.pxd), the same for both searches
PROVEN_BOUND = _search.PROVEN_BOUND

BoardT = TypeVar("BoardT", bound=BaseBoard)


class SearchKernel(Protocol):
    """What the solver needs of a search kernel (_search.Searcher, _team_search.TeamSearcher)."""

    nodes: int
    stopped: bool
    root_move: int

    game_repetitions: int

    def clear(self) -> None: ...
    def stop(self) -> None: ...
    def allow(self) -> None: ...
    def set_weights(self, values: tuple[int, ...]) -> None: ...
    def set_game(self, keys: Iterable[tuple[int, int, int]]) -> None: ...
    def game_key(self, position: Any) -> tuple[int, int, int]: ...
    def search(self, position: Any, depth: int, seconds: float, node_limit: int,
               nodes_before: int = ...) -> int: ...
    def tt_move(self, position: Any) -> int: ...


def check_limits(depth: object, time: object, nodes: object, clock: object = None,
                 increment: object = 0.0) -> None:
    """LimitError (DepthError) unless the limits of a search are numbers in range."""
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


class BaseSolver(Generic[BoardT]):
    """Iterative deepening over a search kernel, for one variant (see the module docstring).
    ``tt_mib`` sizes the transposition table (one per board size); ``weights`` are the
    evaluation's (search/weights.py: a WeightSet, one Weights for every size, a weights file,
    or None for the variant's defaults: the tuned ones for two players, the rulebook's for
    four, whose games they were not tuned on)."""

    board_type: ClassVar[type[BaseBoard]]
    proves: ClassVar[bool] = False     # whether `prove` (a proof-number search) is offered
    default_weights: ClassVar[WeightSet] = RULEBOOK   # weights=None: the variant's own

    def __init__(self, tt_mib: float = 64,
                 weights: WeightSet | Weights | str | None = None) -> None:
        self.tt_mib = check_tt_mib(tt_mib)
        self.weights = self.default_weights if weights is None else weight_set(weights)
        self._searchers: dict[int, SearchKernel] = {}
        self.time_manager = TimeManager()   # what a move costs beyond its search, learnt
        self._stopped = False

    # -- the hooks of a variant ---------------------------------------------------------------
    def _new_searcher(self, size: int) -> SearchKernel:
        """A search kernel for boards of `size`, its transposition table allocated."""
        raise NotImplementedError(f"{type(self).__name__} does not say how it searches")

    def _kernel_position(self, board: BoardT) -> Any:
        """The position as the search kernel takes it (masks of the cubes)."""
        raise NotImplementedError(f"{type(self).__name__} does not say how it searches")

    def _kernel_move(self, size: int, index: int) -> Any:
        """The move object of the kernel's move number `index` on a `size` board."""
        raise NotImplementedError(f"{type(self).__name__} does not say how it searches")

    def tablebase_result(self, board: BoardT, line: int | None = None) -> SearchResult:
        """The tablebase files' answer for an unfinished game with the first `line` moves of
        the line to the end (None: all; 1: the best move alone; 0: none, the value alone: the
        cheapest); MissingTableError when the position's class is not built, or the solver
        has no tablebase."""
        raise MissingTableError("this solver has no tablebase")

    def exact_result(self, board: BoardT, line: int | None = None) -> SearchResult | None:
        """The exact answer of the variant's tables for an unfinished game (as
        `tablebase_result`), or None where there is none."""
        try:
            return self.tablebase_result(board, line)
        except MissingTableError:
            return None

    # -- solving ------------------------------------------------------------------------------
    def searcher(self, size: int) -> SearchKernel:
        """The search kernel of a board size, made on first use. One made while a stop is in
        force answers at once and is not kept: `_new_searcher` may have left tables out to
        return sooner (opening a folder of 5x5 tables takes a second)."""
        if size not in self._searchers:
            searcher = self._new_searcher(size)
            searcher.set_weights(self.weights.for_size(size).kernel())
            self._searchers[size] = searcher        # from here on stop() reaches it
            if self._stopped:
                searcher.stop()
                del self._searchers[size]
            return searcher
        return self._searchers[size]

    @property
    def stopped(self) -> bool:
        """Whether `stop()` was called (and `allow()` not since)."""
        return self._stopped

    def searcher_for_game(self, board: BoardT) -> SearchKernel:
        """The searcher of the board's size, told the game's earlier positions (from the
        board's move stack): a position that repeats one of them is a draw."""
        searcher = self.searcher(board.size)
        searcher.set_game(searcher.game_key(self._kernel_position(earlier))
                          for earlier in board.game_positions())
        return searcher

    def prove(self, board: BoardT, time: float | None = None,
              nodes: int | None = None) -> SearchResult:
        """A proof search of the board (see Solver.prove); not offered by every variant."""
        raise QuixoError(f"{type(self).__name__} has no proof search")

    def stop(self) -> None:
        """Stop the search that runs now in another thread (within about a thousand nodes:
        it then answers with what its completed iterations found), and every search after it
        until `allow()`. Safe to call from any thread."""
        self._stopped = True
        for searcher in list(self._searchers.values()):
            searcher.stop()

    def allow(self) -> None:
        """Let searches run again after `stop()`."""
        self._stopped = False
        for searcher in list(self._searchers.values()):
            searcher.allow()

    def prepare(self, size: int) -> None:
        """Get ready to play on a `size` board before any clock runs, as a chess engine does
        before its game: allocate the transposition table, open the tables, and measure what a
        move costs beyond its search. A depth-1 search of the empty board makes the searcher; a
        second one is timed as the overhead of a move (on the long side: it includes that
        search)."""
        board: Any = self.board_type(size=size)     # a BoardT: the variant's board type
        self.solve(board, depth=1)
        started = clock_time.perf_counter()
        self.solve(board, depth=1)
        self.time_manager.record(clock_time.perf_counter() - started, 0.0)

    def solve(self, board: BoardT, depth: int | None = None, time: float | None = None,
              nodes: int | None = None, *, clock: float | None = None,
              increment: float = 0.0,
              on_iteration: Callable[[SearchResult], None] | None = None,
              proof_share: float = 0.0) -> SearchResult:
        """Search ``board`` until it is proven or a limit is reached (``depth`` in plies,
        ``time`` in seconds, ``nodes``). With no limit at all the depth stops at 64.

        ``proof_share`` (0 .. 1): the share of ``time`` kept for a proof search (``prove``)
        when alpha-beta proves nothing; ``proof_search`` then says what it did, or why it did
        not run.

        ``clock``: the seconds left on the mover's clock instead of a time per move, with
        ``increment`` seconds added after each move; the solver then decides how long to
        think (``time_allocation``), and answers at once when the result is proven (tables,
        a win or loss found) or only one move is legal. A table's answer then comes without
        its line to the end (``principal_variation`` is the best move alone). In the
        four-player game each player has a clock: pass the one of the player to move.

        ``on_iteration(result)`` is called after each completed iteration of the search with
        what it found so far (a progress report; it is not called for an exact answer)."""
        check_board(board, self.board_type)
        check_limits(depth, time, nodes, clock, increment)
        if clock is not None:
            return self._solve_on_clock(board, clock, increment, depth, nodes, on_iteration)
        settled = self.settled_result(board)
        if settled is not None and self.has_move(board, settled):
            return settled
        if not 0.0 <= proof_share < 1.0:
            raise LimitError(f"the proof share must be from 0 up to 1, not {proof_share!r}")
        started = clock_time.perf_counter()
        search_time = None if time is None else time * (1 - proof_share)
        result = self._iterate(board, depth, search_time, nodes, on_iteration=on_iteration)
        if proof_share > 0 and result.value == "unknown":
            left = None if time is None else time - (clock_time.perf_counter() - started)
            result = self._try_proof(board, result, left)
        return result

    def _try_proof(self, board: BoardT, searched: SearchResult,
                   seconds: float | None) -> SearchResult:
        """After alpha-beta proved nothing: the proof search's result if it proves the
        position, else alpha-beta's with a note of what the proof search did or why not."""
        if not self.proves:
            searched.proof_search = f"not run: {type(self).__name__} has no proof search"
        elif seconds is None:
            searched.proof_search = "not run: the proof search needs a time limit"
        elif seconds <= 0 or self._stopped:
            searched.proof_search = "not run: no time left"
        else:
            proof = self.prove(board, time=seconds)
            if proof.value != "unknown":
                proof.depth = searched.depth
                proof.nodes += searched.nodes
                proof.seconds += searched.seconds
                return proof
            searched.proof_search = proof.proof_search
        return searched

    def analyze(self, board: BoardT, depth: int | None = None, time: float | None = None,
                nodes: int | None = None) -> list[tuple[Any, SearchResult]]:
        """Every legal move with its result for the side to move, best first (the fastest
        win, draws, unproven moves by score, the slowest loss). The limits apply to each
        move's search. The game's earlier positions (the board's move stack) count for
        repetitions."""
        check_board(board, self.board_type)
        check_limits(depth, time, nodes)
        exact = self._analysis_from_tables(board)
        if exact is not None:
            return exact
        child_depth = None if depth is None else max(1, depth - 1)

        def result_of(child: BoardT) -> SearchResult:
            # a table's value alone where there is one (one probe per move), else a search
            return self.settled_result(child, line=0) or self._iterate(child, child_depth,
                                                                       time, nodes)
        rows = self._rows_by_move(board, result_of)
        assert rows is not None       # (every child has a result)
        return rows

    def exact_analysis(self, board: BoardT) -> list[tuple[Any, SearchResult]] | None:
        """`analyze`'s answer where the tables (or the rules) settle every move, without a
        search; None where a move needs one."""
        check_board(board, self.board_type)
        exact = self._analysis_from_tables(board)
        if exact is not None:
            return exact
        return self._rows_by_move(board, lambda child: self.settled_result(child, line=0))

    def _analysis_from_tables(self, board: BoardT) -> list[tuple[Any, SearchResult]] | None:
        """`analyze`'s rows at once where the variant's tables settle every move (a solver
        with tables overrides it), else None."""
        return None

    def _rows_by_move(self, board: BoardT, result_of: Callable[[BoardT], SearchResult | None]
                      ) -> list[tuple[Any, SearchResult]] | None:
        """`analyze`'s rows one move at a time, each child's result from `result_of`, best
        first; None as soon as `result_of` gives None."""
        rows: list[tuple[Any, SearchResult]] = []
        for move in board.legal_moves:
            child = board.copy()          # with the game's moves: repetitions count
            child.push(move)
            seen = result_of(child)
            if seen is None:
                return None
            rows.append((move, seen_by_mover(move, seen)))
        rows.sort(key=lambda row: preference(row[1]))
        return rows

    def _solve_on_clock(self, board: BoardT, clock: float, increment: float,
                        depth: int | None, nodes: int | None,
                        on_iteration: Callable[[SearchResult], None] | None) -> SearchResult:
        """A move on a clock: a finished game's or a table's result, or a single legal move,
        at once; otherwise a search within the move's allotment. The time the move took
        beyond its search teaches the time manager the overhead."""
        started = clock_time.perf_counter()
        result = self._answer_at_once(board)
        searched = 0.0
        if result is None:
            left = clock - (clock_time.perf_counter() - started)
            allotment = self.time_manager.allot(board, left, increment)
            result = self._iterate(board, 1 if allotment.panic else depth, allotment.hard,
                                   nodes, allotment.soft, on_iteration)
            searched = min(result.seconds, allotment.hard)
        self.time_manager.record(clock_time.perf_counter() - started, searched)
        return result

    def settled_result(self, board: BoardT, line: int | None = None) -> SearchResult | None:
        """The result of a finished game, or of the tables (with `line` moves of the line, as
        `exact_result`); None when only a search can tell."""
        status = board.status()
        if status:
            return SearchResult.terminal(status)
        return self.exact_result(board, line)

    @staticmethod
    def has_move(board: BoardT, result: SearchResult) -> bool:
        """Whether a result plays: it has a best move, or the game is over. (A table's value
        at the edge of the tables, whose best moves all leave them, has none: a search finds
        the move.)"""
        return result.best_move is not None or bool(board.status())

    def _answer_at_once(self, board: BoardT) -> SearchResult | None:
        """What a move on a clock plays without searching: a finished game, the tables' best
        move, the only legal move; else None, once the searcher is ready."""
        settled = self.settled_result(board, line=1)
        if settled is not None and self.has_move(board, settled):
            return settled
        legal = list(board.legal_moves)
        if len(legal) == 1:
            return SearchResult("unknown", None, legal[0], legal[:1])
        self.searcher(board.size)
        return None

    def _iterate(self, board: BoardT, depth: int | None, seconds: float | None,
                 nodes: int | None, soft: float | None = None,
                 on_iteration: Callable[[SearchResult], None] | None = None) -> SearchResult:
        """Iterative deepening from a cleared transposition table until a result is proven or a
        limit is reached. `soft`: start no iteration after that many seconds (a clock's move:
        the next iteration would take several times as long as all before it)."""
        searcher = self.searcher_for_game(board)
        searcher.clear()
        position = self._kernel_position(board)
        max_depth = depth or (DEPTH_LIMIT if seconds or nodes else DEFAULT_DEPTH_WITHOUT_TIME)
        started = clock_time.perf_counter()
        result = SearchResult("unknown", None, None)
        spent = 0
        for iteration in range(1, max_depth + 1):
            left = 0.0
            if seconds:
                left = seconds - (clock_time.perf_counter() - started)
                if left <= 0:
                    break
            score = searcher.search(position, iteration, left, nodes or 0, spent)
            spent = searcher.nodes
            if searcher.stopped:
                break
            result = self._read_iteration(board, searcher, score, iteration)
            if on_iteration is not None:
                result.nodes = spent
                result.seconds = clock_time.perf_counter() - started
                on_iteration(result)
            if result.value != "unknown":
                break
            if soft is not None and clock_time.perf_counter() - started >= soft:
                break
        result.nodes = spent
        result.seconds = clock_time.perf_counter() - started
        if result.plies is not None and searcher.game_repetitions:
            # a repetition of the game's earlier positions may have hidden a faster line
            result.plies, result.plies_at_most = None, result.plies
        if result.best_move is None and searcher.root_move >= 0:
            result.best_move = self._kernel_move(board.size, searcher.root_move)
        if result.best_move is None:   # stopped before depth 1 finished: any legal move
            result.best_move = next(iter(board.legal_moves))
        return result

    def _read_iteration(self, board: BoardT, searcher: SearchKernel, score: int,
                        iteration: int) -> SearchResult:
        """The result of a completed iteration: proven when the mate's plies are within its
        depth (so every shorter win, or longer defence, was inside the horizon); the best
        move and the line from the transposition table."""
        value, plies = "unknown", None
        if abs(score) >= PROVEN_BOUND:
            mate_plies = MATE_SCORE - abs(score)
            if mate_plies <= iteration:
                value, plies = ("win" if score > 0 else "loss"), mate_plies
        best = (self._kernel_move(board.size, searcher.root_move)
                if searcher.root_move >= 0 else None)
        line: list[Any] = []
        child = board.copy(stack=False)
        for _ in range(iteration):
            if child.is_game_over():
                break
            index = searcher.tt_move(self._kernel_position(child))
            if index < 0:
                break
            line.append(self._kernel_move(board.size, index))
            child.push(line[-1])
        return SearchResult(value, plies, best, line, depth=iteration, score=score)
