"""Searching four-player positions: `TeamSolver`.

3x3 boards are answered exactly from the complete solution of the 3x3 game (`small_board`,
1,953,125 positions with exact plies, solved in well under a second when first needed);
4x4 and 5x5 boards by iterative deepening over the Cython search (`_team_search.pyx`), with
the same claims as the two-player `Solver`: `win`/`loss` only when proven with exact plies,
otherwise `unknown` with the engine's move (its heuristic: the two-player one applied to the
team's cubes against the other team's).
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from .. import geometry
from ..errors import QuixoError
from ..notation import square_name
from ..limits import check_table_mib
from ..tablebase import values
from ..baseboard import check_board
from ..search import (SearchResult, _preference, analyze_moves, check_limits, iterate,
                      prepare_solver, seen_by_mover, solve_on_clock)
from ..time_allocation import TimeManager
from . import _solve, _team_search
from .board import TeamBoard, TeamMove

SOLVED_SIZE = 3


@lru_cache(maxsize=None)
def small_board(size: int = SOLVED_SIZE) -> np.ndarray:
    """Value codes (_value_code.pxd) of every position of the board for the team to move,
    indexed by `_solve.position_index`."""
    codes = _solve.solve(size)
    codes.setflags(write=False)
    return codes


def decode(code: int) -> tuple[str, int | None]:
    """(value, plies) of a value code (_value_code.pxd, twin: tablebase/values.py)."""
    return values.WDL_NAMES[values.wdl_of(code)], values.plies_of(code)


def table_value(board: TeamBoard) -> tuple[str, int | None]:
    """(value, plies) of a 3x3 position from the complete solution."""
    if board.size != SOLVED_SIZE:
        raise QuixoError(f"only the {SOLVED_SIZE}x{SOLVED_SIZE} game is solved completely")
    return decode(int(small_board()[_solve.position_index(board.size, board.roles)]))


def _move_of(size: int, code: int) -> TeamMove:
    if code == _team_search.PASS_CODE:
        return TeamMove.null()
    source, target = geometry.moves(size)[code >> 1]
    return TeamMove(square_name(size, source), square_name(size, target), bool(code & 1))


class TeamSolver:
    """Iterative deepening PVS for four-player positions (`tt_mib` sizes the table)."""

    def __init__(self, tt_mib: float = 64) -> None:
        self.tt_mib = check_table_mib(tt_mib)
        self._searchers: dict[int, _team_search.TeamSearcher] = {}
        self.time_manager = TimeManager()   # what a move costs beyond its search, learnt

    def _searcher(self, size: int) -> _team_search.TeamSearcher:
        if size not in self._searchers:
            self._searchers[size] = _team_search.TeamSearcher(size, self.tt_mib)
        return self._searchers[size]

    def table_result(self, board: TeamBoard) -> SearchResult:
        """The exact answer of the complete 3x3 solution, with a best move and the line."""
        value, plies = table_value(board)
        line, child = [], board.copy(stack=False)
        while not child.is_game_over() and value != "draw":
            child_value = [(move, _after(child, move)) for move in child.legal_moves]
            move = min(child_value, key=lambda row: _preference(row[1]))[0]
            line.append(move)
            child.push(move)
        return SearchResult(value, plies, line[0] if line else None, line, source="tablebase")

    def prepare(self, size: int) -> None:
        """Get ready to play on a `size` board before any clock runs (see Solver.prepare)."""
        prepare_solver(self, TeamBoard(size=size))

    def solve(self, board: TeamBoard, depth: int | None = None, time: float | None = None,
              nodes: int | None = None, *, clock: float | None = None,
              increment: float = 0.0) -> SearchResult:
        """As Solver.solve: limits, or `clock` (the mover's seconds left) and `increment`,
        with which the solver decides how long to think. Each of the four players has a clock
        of their own: pass the one of the player to move."""
        check_board(board, TeamBoard)
        check_limits(depth, time, nodes, clock, increment)
        if clock is not None:
            return solve_on_clock(self.time_manager, board, clock, increment, depth, nodes,
                                  lambda: self._answer_at_once(board), self._iterate)
        status = board.status()
        if status:
            return SearchResult("win" if status > 0 else "loss", 0, None, source="terminal")
        if board.size == SOLVED_SIZE:
            return self.table_result(board)
        return self._iterate(board, depth, time, nodes)

    def _answer_at_once(self, board: TeamBoard) -> SearchResult | None:
        """A finished game's result, or the 3x3 solution's with the best move alone; else
        None once the searcher is ready."""
        status = board.status()
        if status:
            return SearchResult("win" if status > 0 else "loss", 0, None, source="terminal")
        if board.size == SOLVED_SIZE:
            value, plies = table_value(board)
            move = min(((move, _after(board, move)) for move in board.legal_moves),
                       key=lambda row: _preference(row[1]))[0]
            return SearchResult(value, plies, move, [move], source="tablebase")
        self._searcher(board.size)
        return None

    def _iterate(self, board: TeamBoard, depth: int | None, seconds: float | None,
                 nodes: int | None, soft: float | None = None) -> SearchResult:
        return iterate(board, self._searcher(board.size), lambda b: b.roles,
                       lambda code: _move_of(board.size, code), depth, seconds, nodes, soft)

    def analyze(self, board: TeamBoard, depth: int | None = None, time: float | None = None,
                nodes: int | None = None) -> list[tuple[TeamMove, SearchResult]]:
        """Every legal move with its result for the team to move, best first."""
        check_board(board, TeamBoard)
        return analyze_moves(self.solve, board, depth, time, nodes)


def _after(board: TeamBoard, move: TeamMove) -> SearchResult:
    """The result of a move from the table, seen from the team that plays it."""
    child = board.copy(stack=False)
    child.push(move)
    value, plies = table_value(child)
    return seen_by_mover(move, SearchResult(value, plies, None))
