"""Exact, fast Quixo: a rules kernel on bitboards, tablebases and search.

>>> from quixo_solver import Board
>>> board = Board(size=4)
>>> board.legal_moves.count()
32
"""
from ._backend import PURE_PYTHON
from .baseboard import BaseBoard, parse_board
from .board import Board, LegalMoveGenerator, Move
from .errors import (
    BoardSizeError,
    DepthError,
    GameOverError,
    IllegalMoveError,
    LimitError,
    MoveError,
    PositionError,
    QuixoError,
)
from ._perft import perft, perft_divide
from .search import SearchResult, Solver
from .tablebase import MissingTableError, Tablebase

from solverkit.version import __version__ as __version__

__all__ = [
    "BaseBoard",
    "Board",
    "BoardSizeError",
    "DepthError",
    "GameOverError",
    "IllegalMoveError",
    "LegalMoveGenerator",
    "LimitError",
    "MissingTableError",
    "Move",
    "PURE_PYTHON",
    "PositionError",
    "QuixoError",
    "SearchResult",
    "Solver",
    "Tablebase",
    "parse_board",
    "perft",
    "perft_divide",
]
