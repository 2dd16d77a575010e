"""Searching four-player positions: `TeamSolver`.

3x3 boards are answered exactly from the complete solution of the 3x3 game (`small_board`,
1,953,125 positions with exact plies, solved in well under a second when first needed);
larger boards from the four-player tables of the solver's folder (tables/probe.py) where the
position's side is built, and otherwise by iterative deepening over the Cython search
(`_team_search.pyx`), with
the same claims as the two-player `Solver`: `win`/`loss` only when proven with exact plies,
otherwise `unknown` with the engine's move (its heuristic: the two-player one applied to the
team's cubes against the other team's).
"""
from __future__ import annotations

import os
from functools import lru_cache

import numpy as np

from ..rules import geometry
from ..errors import QuixoError
from ..rules.notation import square_name
from ..search import BaseSolver, SearchResult, preference, seen_by_mover
from ..search.base import SearchKernel
from ..search.weights import WeightSet, Weights
from ..tablebase import BaseTablebase, MissingTableError, Tablebase, values
from . import _solve, _team_search
from .board import TeamBoard, TeamMove
from .tables.probe import TeamTablebase

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


class TeamSolver(BaseSolver[TeamBoard]):
    """Iterative deepening PVS for four-player positions (`tt_mib` sizes the transposition
    table); 3x3 from its complete solution, larger boards from the four-player tables of
    `tablebase` (a folder, a `TeamTablebase`, or a two-player `Tablebase` whose folder also
    holds them) where they are built."""

    board_type = TeamBoard

    def __init__(self, tt_mib: float = 64, weights: WeightSet | Weights | str | None = None,
                 *, tablebase: object = None) -> None:
        super().__init__(tt_mib, weights)
        self.tables = team_tables(tablebase)

    def _new_searcher(self, size: int) -> SearchKernel:
        return _team_search.TeamSearcher(size, self.tt_mib)

    def _kernel_position(self, board: TeamBoard) -> tuple[int, int, int, int]:
        return board.roles

    def _kernel_move(self, size: int, code: int) -> TeamMove:
        if code == _team_search.PASS_CODE:
            return TeamMove.null()
        source, target = geometry.moves(size)[code >> 1]
        return TeamMove(square_name(size, source), square_name(size, target), bool(code & 1))

    def table_value(self, board: TeamBoard) -> tuple[str, int | None] | None:
        """(value, plies) of a position from the tables, else the 3x3 solution; None where
        neither answers."""
        if self.tables is not None:
            try:
                return decode(self.tables.code_of(board.size, board.roles))
            except MissingTableError:
                pass
        return table_value(board) if board.size == SOLVED_SIZE else None

    def tablebase_result(self, board: TeamBoard, line: int | None = None) -> SearchResult:
        """The exact answer with the first `line` moves of the line to the end (None: all);
        MissingTableError where neither the 3x3 solution nor the tables answer."""
        found = self.table_value(board)
        if found is None:
            raise MissingTableError(f"no four-player table answers {board} (build them: "
                                    f"quixo tablebase build --players 4 --size {board.size})")
        value, plies = found
        played: list[TeamMove] = []
        child = board.copy(stack=False)
        while (line is None or len(played) < line) and not child.is_game_over() and (
                value != "draw" or not played):
            move = min(((move, self._after(child, move)) for move in child.legal_moves),
                       key=lambda row: preference(row[1]))[0]
            played.append(move)
            child.push(move)
        return SearchResult(value, plies, played[0] if played else None, played,
                            source="tablebase")

    def _after(self, board: TeamBoard, move: TeamMove) -> SearchResult:
        """The result of a move from the tables, seen from the team that plays it."""
        child = board.copy(stack=False)
        child.push(move)
        found = self.table_value(child)
        if found is None:
            raise MissingTableError(f"no four-player table answers {child}")
        return seen_by_mover(move, SearchResult(found[0], found[1], None))


def team_tables(tablebase: object) -> TeamTablebase | None:
    """The four-player tables a solver was given: of a folder, of a two-player `Tablebase`'s
    folder (both kinds of tables live side by side), none for None or a remote tablebase
    (it serves two-player tables only)."""
    if tablebase is None or isinstance(tablebase, TeamTablebase):
        return tablebase
    if isinstance(tablebase, (str, os.PathLike)):
        return TeamTablebase(tablebase)
    if isinstance(tablebase, Tablebase):
        return TeamTablebase(tablebase.directory)
    if isinstance(tablebase, BaseTablebase):
        return None
    raise QuixoError(f"tablebase must be a folder, a TeamTablebase or a Tablebase, not "
                     f"{type(tablebase).__name__}")
