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

from dataclasses import dataclass
from typing import Iterator

from . import geometry, notation, render
from ._backend import engine
from .errors import GameOverError, IllegalMoveError, MoveError, PositionError
from .limits import shorten

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


class LegalMoveGenerator:
    """The legal moves of a board, generated when asked for."""

    def __init__(self, board: "Board") -> None:
        self._board = board

    def _pairs(self) -> list[tuple[int, int]]:
        board = self._board
        return engine.legal_moves(board.size, board.mover_cubes, board.opponent_cubes)

    def __iter__(self) -> Iterator[Move]:
        size = self._board.size
        for source, target in self._pairs():
            yield Move(notation.square_name(size, source), notation.square_name(size, target))

    def count(self) -> int:
        return len(self._pairs())

    __len__ = count

    def __bool__(self) -> bool:
        return bool(self._pairs())

    def __contains__(self, move: object) -> bool:
        if isinstance(move, str):
            try:
                move = Move.from_text(move)
            except MoveError:
                return False
        return isinstance(move, Move) and self._board.is_legal(move)

    def __repr__(self) -> str:
        return f"<LegalMoveGenerator ({', '.join(str(m) for m in self)})>"


class Board:
    """A two-player Quixo position, with the moves that led to it.

    ``Board()`` is the empty 5x5 board with X to move; ``Board(size=4)`` an empty 4x4 one;
    ``Board("XX..O/...../...../...../..... X")`` any position in SPEC notation.
    """

    def __init__(self, position: str | None = None, *, size: int = 5) -> None:
        if position is None:
            self._set(geometry.check_size(size), 0, 0, X)
        else:
            self._set(*notation.parse_position(position))
        self.move_stack: list[Move] = []
        self._undo: list[tuple[int, int, str]] = []

    def _set(self, size: int, x_cubes: int, o_cubes: int, turn: str) -> None:
        self.size = size
        self.x_cubes = x_cubes
        self.o_cubes = o_cubes
        self.turn = turn

    @classmethod
    def from_masks(cls, size: int, mover: int, opponent: int, turn: str = X) -> "Board":
        """A board from the cubes of the player to move and of the other player."""
        geometry.check_size(size)
        geometry.check_masks(size, mover, opponent)
        if turn not in (X, O):
            raise PositionError(f"turn must be 'X' or 'O', not {shorten(turn)}")
        board = cls(size=size)
        x_cubes, o_cubes = (mover, opponent) if turn == X else (opponent, mover)
        board._set(size, x_cubes, o_cubes, turn)
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
        return engine.position_key(self.size, self.mover_cubes, self.opponent_cubes) ^ (
            0 if self.turn == X else 1)

    # -- moves -------------------------------------------------------------------------------
    @property
    def legal_moves(self) -> LegalMoveGenerator:
        return LegalMoveGenerator(self)

    def _squares_of_legal(self, move: Move | str) -> tuple[int, int]:
        if isinstance(move, str):
            move = Move.from_text(move)
        if not isinstance(move, Move):
            raise MoveError(f"expected a Move or a move string, not {type(move).__name__}")
        source, target = move.squares(self.size)
        if self.is_game_over():
            raise GameOverError(f"the game is over in {self}; no move {move} can be played")
        if self.opponent_cubes >> source & 1:
            raise IllegalMoveError(f"{move} takes a cube of the opponent ({OTHER[self.turn]}) "
                                   f"at {move.source}")
        return source, target

    def is_legal(self, move: Move | str) -> bool:
        try:
            self._squares_of_legal(move)
        except MoveError:
            return False
        return True

    def push(self, move: Move | str) -> None:
        """Play a move (a Move or SPEC notation); IllegalMoveError if the rules forbid it."""
        source, target = self._squares_of_legal(move)
        if isinstance(move, str):
            move = Move.from_text(move)
        self._undo.append((self.x_cubes, self.o_cubes, self.turn))
        self.move_stack.append(move)
        next_mover, next_opponent = engine.play_move(
            self.size, self.mover_cubes, self.opponent_cubes, source, target)
        turn = OTHER[self.turn]
        x_cubes, o_cubes = (next_mover, next_opponent) if turn == X else (next_opponent, next_mover)
        self._set(self.size, x_cubes, o_cubes, turn)

    def pop(self) -> Move:
        """Take back the last move and return it."""
        if not self.move_stack:
            raise IndexError("pop from a board with no moves played")
        self._set(self.size, *self._undo.pop())
        return self.move_stack.pop()

    def peek(self) -> Move:
        return self.move_stack[-1]

    def copy(self, *, stack: bool = True) -> "Board":
        board = Board.from_masks(self.size, self.mover_cubes, self.opponent_cubes, self.turn)
        if stack:
            board.move_stack = list(self.move_stack)
            board._undo = list(self._undo)
        return board

    # -- the end of the game -----------------------------------------------------------------
    def status(self) -> int:
        """+1 if the player to move shows a line (the last mover completed it for them and
        lost), -1 if only the opponent does, 0 while the game goes on."""
        return engine.position_status(self.size, self.mover_cubes, self.opponent_cubes)

    def is_game_over(self) -> bool:
        return self.status() != 0

    def winner(self) -> str | None:
        status = self.status()
        if status == 0:
            return None
        return self.turn if status > 0 else OTHER[self.turn]

    def result(self) -> str:
        """'1-0' when X has won, '0-1' when O has, '*' while the game goes on."""
        return {X: "1-0", O: "0-1", None: "*"}[self.winner()]

    # -- symmetries --------------------------------------------------------------------------
    def transform(self, symmetry: int) -> "Board":
        """The board under symmetry ``symmetry`` (0..7: k % 4 quarter turns clockwise, then a
        mirror of the files for k >= 4). The move stack is not carried over."""
        x_cubes = engine.transform_mask(self.size, symmetry, self.x_cubes)
        o_cubes = engine.transform_mask(self.size, symmetry, self.o_cubes)
        board = Board(size=self.size)
        board._set(self.size, x_cubes, o_cubes, self.turn)
        return board

    def symmetries(self) -> list["Board"]:
        return [self.transform(k) for k in range(geometry.SYMMETRY_COUNT)]

    def canonical(self) -> "Board":
        """The representative of the position's symmetry class that every symmetric board
        shares."""
        mover, opponent, _ = engine.canonical_position(
            self.size, self.mover_cubes, self.opponent_cubes)
        return Board.from_masks(self.size, mover, opponent, self.turn)

    # -- text and pictures -------------------------------------------------------------------
    def __str__(self) -> str:
        return notation.format_position(self.size, self.x_cubes, self.o_cubes, self.turn)

    def __repr__(self) -> str:
        return f"Board({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and str(self) == str(other)

    def __hash__(self) -> int:
        return hash(str(self))

    def render(self) -> str:
        """A multi-line drawing with file letters and rank numbers."""
        return render.text(self)

    def _repr_svg_(self) -> str:
        return render.svg(self)

    def _repr_pretty_(self, printer, cycle) -> None:  # IPython
        printer.text(self.render())
