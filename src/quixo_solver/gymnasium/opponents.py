"""The opponents of the single-agent Quixo environment: `random` (a legal move drawn from the
environment's generator), `engine` (this package's search, on a budget of nodes) and `perfect`
(the tablebases' best move: the fastest win, else a draw, else the slowest loss).
"""
from __future__ import annotations

import os
from typing import Protocol

import numpy as np

from solverkit.messages import clip, cut_path

from ..errors import QuixoError
from ..limits import whole_number
from ..rules.board import Board, Move
from ..search import Solver
from .. import tablebase as tb
from ..tablebase import BaseTablebase, MissingTableError, Tablebase
from ..frameworks.actions import legal_actions, move_of_action

OPPONENTS = ("random", "engine", "perfect")
ENGINE_NODES = 10_000        # a move's search: about 5 ms on 5x5, and the same move every time
MAX_ENGINE_NODES = 10**9
ENGINE_TT_MIB = 8            # the transposition table of a search that short
SMALL_BOARDS = (3, 4)        # boards whose whole game's tables build in seconds

Tables = BaseTablebase | str | os.PathLike[str] | None


class OpponentError(QuixoError):
    """An opponent that does not exist, or arguments it cannot play with."""


class UncoveredPositionError(QuixoError):
    """A position that the perfect opponent's tables do not cover (its class is not built):
    the opponent refuses to guess."""


class Opponent(Protocol):
    def choose(self, board: Board, generator: np.random.Generator) -> Move:
        """The opponent's move on `board` (not over), any chance drawn from `generator`."""


class RandomOpponent:
    """A legal move, each as likely."""

    def choose(self, board: Board, generator: np.random.Generator) -> Move:
        action = generator.choice(legal_actions(board))
        move = move_of_action(board.size, 2, action)
        assert isinstance(move, Move)
        return move


class EngineOpponent:
    """This package's search (`Solver`) on a budget of `nodes` nodes a move (a budget of
    nodes rather than of time, so that a seeded episode plays the same moves again), probing
    `tables` where given."""

    def __init__(self, nodes: int = ENGINE_NODES, tables: Tables = None) -> None:
        self.nodes = whole_number("engine_nodes", nodes, 1, MAX_ENGINE_NODES, OpponentError)
        self.solver = Solver(tt_mib=ENGINE_TT_MIB, tablebase=tables)

    def choose(self, board: Board, generator: np.random.Generator) -> Move:
        move = self.solver.solve(board, nodes=self.nodes).best_move
        assert isinstance(move, Move)      # an unfinished game's search always has one
        return move


class PerfectOpponent:
    """The tables' best move; UncoveredPositionError where they do not cover the position.
    On 3x3 and 4x4 the whole game's tables are built into a folder that lacks them, as
    `quixo solve` does (a few seconds the first time); 5x5 tables come from a build or a
    download (see the tablebase tutorials)."""

    def __init__(self, size: int, tables: Tables = None) -> None:
        if tables is None or isinstance(tables, (str, os.PathLike)):
            tables = Tablebase(tables)
        if not isinstance(tables, BaseTablebase):
            raise OpponentError(f"tablebase must be a folder, a Tablebase or None (the default "
                                f"folder), not {clip(tables)}")
        if isinstance(tables, Tablebase) and size in SMALL_BOARDS:
            tb.build(tables.directory, size)        # builds only what is missing
        if not tables.has_size(size):
            raise UncoveredPositionError(f"no {size}x{size} tables in {where(tables)}: the "
                                         "perfect opponent plays from the tables alone")
        self.tables = tables

    def choose(self, board: Board, generator: np.random.Generator) -> Move:
        try:
            move = self.tables.best_move(board)
        except MissingTableError as missing:
            raise UncoveredPositionError(f"the perfect opponent cannot play {board}: {missing}; "
                                         "it plays from the tables alone") from None
        assert move is not None            # an unfinished game has a legal move
        return move


def where(tables: BaseTablebase) -> str:
    return cut_path(tables.directory) if isinstance(tables, Tablebase) else "these tables"


def new_opponent(kind: str, size: int, tables: Tables = None,
                 engine_nodes: int = ENGINE_NODES) -> Opponent:
    """The opponent named `kind` (one of OPPONENTS) for a `size` board."""
    if kind == "random":
        return RandomOpponent()
    if kind == "engine":
        return EngineOpponent(engine_nodes, tables)
    if kind == "perfect":
        return PerfectOpponent(size, tables)
    raise OpponentError(f"opponent must be {', '.join(OPPONENTS[:-1])} or {OPPONENTS[-1]}, "
                        f"not {clip(kind)}")
