"""Exact, fast Quixo: a rules kernel on bitboards, tablebases and search.

>>> from quixo_solver import Board
>>> board = Board(size=4)
>>> board.legal_moves.count()
32
"""
from .errors import (
    BoardSizeError,
    DepthError,
    GameOverError,
    IllegalMoveError,
    LimitError,
    MoveError,
    PositionError,
    QuixoError,
    SymmetryError,
)
from .rules._backend import PURE_PYTHON
from .rules._perft import perft, perft_divide
from .rules.baseboard import BaseBoard
from .rules.board import Board, LegalMoveGenerator, Move
from .search import SearchResult, Solver
from .tablebase import MissingTableError, Tablebase
from .variants import Variant, find_variant, parse_board, variant_of

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
    "MoveError",
    "Move",
    "PURE_PYTHON",
    "PositionError",
    "QuixoError",
    "SearchResult",
    "Solver",
    "SymmetryError",
    "Tablebase",
    "Variant",
    "find_variant",
    "parse_board",
    "perft",
    "perft_divide",
    "variant_of",
]
