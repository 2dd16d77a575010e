"""The two-player board and moves, in the style of python-chess.

>>> board = Board()                      # empty 5x5 board, X to move
>>> board.push("a1e1")                   # X takes a1 and pushes it in at e1
>>> str(board)
'...../...../...../...../....X O'
>>> board.legal_moves.count()     # O may not take X's cube at e1
42
>>> board.pop()
Move.from_text('a1e1')
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from solverkit.messages import clip

from . import geometry, notation, render
from ._backend import rules
from .baseboard import BaseBoard, LegalMoves
from ..errors import GameOverError, IllegalMoveError, MoveError, PositionError


X, O = "X", "O"
OTHER = {X: O, O: X}


@dataclass(frozen=True, order=True)
class Move:
    """A move: the square a cube is taken from and the square it re-enters at, by name."""

    source: str
    target: str

    def __post_init__(self) -> None:
        notation.split_move(self.source + self.target)  # raises MoveError on a bad name

    @classmethod
    def from_text(cls, text: str) -> "Move":
        """Parse SPEC move notation, such as ``a1e1`` (case-insensitive)."""
        return cls(*notation.split_move(text))

    def squares(self, size: int) -> tuple[int, int]:
        """The (source, target) square numbers on a board of this size; MoveError if the
        move is not one of that board's moves."""
        source = notation.parse_square(size, self.source)
        target = notation.parse_square(size, self.target)
        if (source, target) not in geometry.moves(size):
            raise MoveError(f"{self} is not a move on a {size}x{size} board: the cube must "
                            "come from the border and re-enter at another end of its row "
                            "or column")
        return source, target

    def __str__(self) -> str:
        return self.source + self.target

    def __repr__(self) -> str:
        return f"Move.from_text({str(self)!r})"


@functools.lru_cache(maxsize=None)      # a few dozen moves a board size: made once each
def move_between(size: int, source: int, target: int) -> Move:
    """The move that takes the cube of square number `source` and pushes it in at `target`
    (square numbers as the rules kernels count them)."""
    return Move(notation.square_name(size, source), notation.square_name(size, target))


LegalMoveGenerator = LegalMoves   # the name python-chess users know


class Board(BaseBoard):
    """A two-player Quixo position, with the moves that led to it.

    ``Board()`` is the empty 5x5 board with X to move; ``Board(size=4)`` an empty 4x4 one;
    ``Board("XX..O/...../...../...../..... X")`` any position in SPEC notation.
    """

    players = 2
    move_type = Move
    x_cubes: int
    o_cubes: int
    turn: str

    # -- the variant's primitives (baseboard.py) -----------------------------------------------
    def _state(self) -> tuple[int, int, int, str]:
        return (self.size, self.x_cubes, self.o_cubes, self.turn)

    def _restore(self, state: tuple[Any, ...]) -> None:
        self.size, self.x_cubes, self.o_cubes, self.turn = state

    def _empty(self, size: int) -> tuple[int, int, int, str]:
        return (size, 0, 0, X)

    def _parse(self, text: str) -> tuple[int, int, int, str]:
        return notation.parse_position(text)

    def _legal_raw(self) -> list[tuple[int, int]]:
        return rules.legal_moves(self.size, self.mover_cubes, self.opponent_cubes)

    def _move_of(self, raw: tuple[int, int]) -> Move:
        return move_between(self.size, *raw)

    def _checked(self, move: Move) -> tuple[int, int]:
        source, target = move.squares(self.size)
        if self.is_game_over():
            raise GameOverError(f"the game is over in {self}; no move {move} can be played")
        if self.opponent_cubes >> source & 1:
            raise IllegalMoveError(f"{move} takes a cube of the opponent ({OTHER[self.turn]}) "
                                   f"at {move.source}")
        return source, target

    def _play(self, raw: tuple[int, int]) -> None:
        next_mover, next_opponent = rules.play_move(
            self.size, self.mover_cubes, self.opponent_cubes, *raw)
        turn = OTHER[self.turn]
        x_cubes, o_cubes = (next_mover, next_opponent) if turn == X else (next_opponent, next_mover)
        self._restore((self.size, x_cubes, o_cubes, turn))

    def _perft(self, depth: int, threads: int) -> int:
        return rules.perft(self.size, self.mover_cubes, self.opponent_cubes, depth, threads)

    @classmethod
    def from_masks(cls, size: int, mover: int, opponent: int, turn: str = X) -> "Board":
        """A board from the cubes of the player to move and of the other player."""
        geometry.check_size(size)
        geometry.check_masks(size, mover, opponent)
        if turn not in (X, O):
            raise PositionError(f"turn must be 'X' or 'O', not {clip(turn)}")
        board = cls(size=size)
        x_cubes, o_cubes = (mover, opponent) if turn == X else (opponent, mover)
        board._restore((size, x_cubes, o_cubes, turn))
        return board

    # -- the position as the engine sees it --------------------------------------------------
    @property
    def team(self) -> str:
        """The side to move, 'X' or 'O' (as TeamBoard.team for four players)."""
        return self.turn

    @property
    def mover_cubes(self) -> int:
        return self.x_cubes if self.turn == X else self.o_cubes

    @property
    def opponent_cubes(self) -> int:
        return self.o_cubes if self.turn == X else self.x_cubes

    def cell(self, name: str) -> str:
        """'X', 'O' or '.' on the named square."""
        sq = notation.parse_square(self.size, name)
        return X if self.x_cubes >> sq & 1 else O if self.o_cubes >> sq & 1 else "."

    def key(self) -> int:
        """A 64-bit hash key of the position (board size, cubes and side to move)."""
        return rules.position_key(self.size, self.mover_cubes, self.opponent_cubes) ^ (
            0 if self.turn == X else 1)

    def status(self) -> int:
        """+1 if the player to move shows a line (the last mover completed it for them and
        lost), -1 if only the opponent does, 0 while the game goes on."""
        return rules.position_status(self.size, self.mover_cubes, self.opponent_cubes)

    # -- symmetries --------------------------------------------------------------------------
    def transform(self, symmetry: int) -> "Board":
        """The board under symmetry ``symmetry`` (0..7: k % 4 quarter turns clockwise, then a
        mirror of the files for k >= 4). The move stack is not carried over."""
        x_cubes = rules.transform_mask(self.size, symmetry, self.x_cubes)
        o_cubes = rules.transform_mask(self.size, symmetry, self.o_cubes)
        return self._with_state((self.size, x_cubes, o_cubes, self.turn))

    def canonical(self) -> "Board":
        """The representative of the position's symmetry class that every symmetric board
        shares."""
        mover, opponent, _ = rules.canonical_position(
            self.size, self.mover_cubes, self.opponent_cubes)
        return Board.from_masks(self.size, mover, opponent, self.turn)

    # -- text and pictures -------------------------------------------------------------------
    def __str__(self) -> str:
        return notation.format_position(self.size, self.x_cubes, self.o_cubes, self.turn)

    def _repr_svg_(self) -> str:
        return render.svg(self)
