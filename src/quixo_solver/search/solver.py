"""The two-player solver: `Solver` searches over the Cython kernel (_search.pyx) and answers
from the tablebases wherever a class is built (at the root, and at every node of the search).
`prove` runs the proof-number search (df-pn, in the same kernel), which proves wins and losses
far beyond alpha-beta's horizon along narrow lines, with a bound on their plies; `solve` runs it
after alpha-beta when asked to (`proof_share`, which `quixo solve` sets).

The heuristic of an unproven position (from the player to move, _heuristic.pxd): every line
(rank, file, diagonal) that holds only the mover's cubes is worth 1, 4, 16, 64 for 1..4 of
them, the opponent's lines the negative; holding both end cubes of a rank or file (which
decides who can push along it) is worth 6; each cube more than the opponent 3. These follow the
strategy tips of the French rulebook: build several lines of 3 then 4, own more cubes, hold
both ends of a line.
"""
from __future__ import annotations

import os
import time as clock_time

from solverkit.messages import clip

from ..rules import geometry
from ..rules.baseboard import check_board
from ..rules.board import Board, Move, move_between
from ..errors import QuixoError

from ..tablebase import BaseTablebase, MissingTableError, Tablebase
from ..tablebase.traps import trap_move
from . import _search
from .base import BaseSolver, SearchKernel, check_limits
from .result import SearchResult, preference
from .weights import DEFAULTS, WeightSet, Weights


class Solver(BaseSolver[Board]):
    """Alpha-beta (principal variation search) with iterative deepening for two players.

    ``tt_mib`` sizes the transposition table (per board size); ``tablebase`` is a
    ``Tablebase`` (or a folder) whose built classes are probed at the root and at every
    node, a ``RemoteTablebase`` (probed at the root and for its moves only: the search
    kernel reads local files), or None; ``weights`` are the evaluation's
    (search/weights.py). ``traps``: where the tables answer, play the best move that sets
    the opponent the most traps (tablebase/traps.py) rather than the first of the equal best
    moves.
    """

    board_type = Board
    proves = True
    default_weights = DEFAULTS                 # tuned on two-player games (weights.py)

    def __init__(self, tt_mib: float = 64,
                 tablebase: BaseTablebase | str | os.PathLike[str] | None = None,
                 weights: WeightSet | Weights | str | None = None, *,
                 traps: bool = True) -> None:
        super().__init__(tt_mib, weights)
        if isinstance(tablebase, (str, os.PathLike)):
            tablebase = Tablebase(tablebase)
        elif tablebase is not None and not isinstance(tablebase, BaseTablebase):
            raise QuixoError("tablebase must be a Tablebase (or a RemoteTablebase), a folder "
                             f"or None, not {clip(tablebase)}")
        self.tablebase = tablebase
        self.traps = traps

    def _analysis_from_tables(self, board: Board) -> list[tuple[Move, SearchResult]] | None:
        """The move-by-move analysis's answer when every move ends the game or leads into a
        built class (the children probed in one call, and no board made per move: the
        explorer analyses thousands of positions a second this way); None otherwise."""
        if self.tablebase is None:
            return None
        try:
            children = self.tablebase.children(board.size, board.mover_cubes,
                                               board.opponent_cubes)
        except MissingTableError:
            return None
        rows = []
        for child in children:      # each child's result as seen_by_mover makes it, at once
            move, result = child.move, child.move_result
            rows.append((move, SearchResult(
                result.value, result.plies, move, [move],   # in 1 ply: to a finished game
                source="terminal" if result.plies == 1 else "tablebase")))
        rows.sort(key=lambda row: preference(row[1]))
        return rows

    def _new_searcher(self, size: int) -> SearchKernel:
        searcher = _search.Searcher(size, self.tt_mib)
        if self.tablebase is not None:
            for a, b, table in self.tablebase.kernel_tables(size):
                if self._stopped:          # the tables left out: see searcher()
                    return searcher
                searcher.add_table(a, b, table)
        return searcher

    def _kernel_position(self, board: Board) -> tuple[int, int]:
        return board.mover_cubes, board.opponent_cubes

    def _kernel_move(self, size: int, index: int) -> Move:
        return move_between(size, *geometry.moves(size)[index])

    def tablebase_result(self, board: Board, line: int | None = None) -> SearchResult:
        """The tables' answer with the first `line` moves of the line to the end (None: all,
        a probe per legal move per ply; the line stops where the tables do: at the edge of the
        shipped opening, where every best move leads into a class not built, it is empty and
        `solve` searches for the move); MissingTableError when the position's class is not
        built (or the solver has no tablebase)."""
        if self.tablebase is None:
            return super().tablebase_result(board, line)
        result = self.tablebase.probe(board)
        try:
            first = trap_move(self.tablebase, board) if self.traps and line != 0 else None
        except MissingTableError:          # a move leaves the tables (the shipped opening's
            first = None                   # edge): no traps, the best move the tables reach
        if first is None:
            played = self.tablebase.best_line(board, line)
        else:                       # the trap-setting move, then the line of best play on
            child = board.copy(stack=False)
            child.push(first)
            rest = 0 if result.wdl == 0 else None if line is None else line - 1
            played = [first] + self.tablebase.best_line(child, rest)
        return SearchResult(result.value, result.plies, played[0] if played else None, played,
                            source="tablebase")

    def prove(self, board: Board, time: float | None = None,
              nodes: int | None = None) -> SearchResult:
        """Proof-number search of `board`: first that the player to move wins, then (with what
        the first attempt leaves, or all of it once a win is disproven) that they lose. A
        proven result gives `plies_at_most`, the plies the proof takes at most (exact
        `plies` only from the tables, or for a win with the next move); otherwise the value is
        "unknown" with the most promising move. Without limits it runs until decided or
        stopped (Ctrl-C, `stop()`)."""
        check_board(board, Board)
        check_limits(None, time, nodes)
        settled = self.settled_result(board)
        if settled is not None:
            return settled
        searcher = self.searcher_for_game(board)
        assert isinstance(searcher, _search.Searcher)    # the two-player kernel proves
        position = self._kernel_position(board)
        started = clock_time.perf_counter()
        first_seconds = 0.0 if time is None else time / 2
        first_nodes = 0 if nodes is None else max(1, nodes // 2)
        proof, disproof, bound, move = searcher.prove(position, True, first_seconds,
                                                      first_nodes)
        spent = searcher.nodes
        result = None
        if proof == 0:
            result = SearchResult("win", bound if bound == 1 else None,
                                  self._kernel_move(board.size, move), plies_at_most=bound)
        elif not self.stopped:
            left = 0.0 if time is None else time - (clock_time.perf_counter() - started)
            if time is None or left > 0:
                proof, _, bound, defence = searcher.prove(
                    position, False, left, 0 if nodes is None else max(1, nodes - spent))
                spent += searcher.nodes
                if proof == 0:
                    result = SearchResult("loss", None,
                                          self._kernel_move(board.size, defence),
                                          plies_at_most=bound)
        if result is None:
            result = SearchResult("unknown", None, None if move < 0 else
                                  self._kernel_move(board.size, move))
        if result.best_move is None:
            result.best_move = next(iter(board.legal_moves))
        result.principal_variation = [result.best_move]
        result.nodes = spent
        result.seconds = clock_time.perf_counter() - started
        result.proof_search = _proof_note(result)
        return result


def _proof_note(result: SearchResult) -> str:
    if result.value == "unknown":
        return f"no proof within the limits ({result.nodes:,} nodes, {result.seconds:.2f} s)"
    plies = "1 ply" if result.plies_at_most == 1 else f"{result.plies_at_most} plies"
    return f"proven: {result.value} within {plies} ({result.nodes:,} nodes, {result.seconds:.2f} s)"
