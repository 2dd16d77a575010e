"""What every Quixo board variant shares, as python-chess shares it in ``chess/variant.py``:
one base board holds the move stack, push/pop/copy, equality, the legal-move view, the end of
the game and rendering; each variant (``Board``: two players, ``TeamBoard``: four players in
two teams) is a subclass that declares its number of players, its move class and its notation,
and implements a few primitives on its rules kernel:

    _state() / _restore(state)   the position as a tuple (what the move stack's undo keeps)
    _empty(size) / _parse(text)  the state of an empty board / of a position string
    _legal_raw()                 the engine's legal moves (empty once the game is over)
    _move_of(raw) / _checked(m)  kernel move -> move object / legal move object -> kernel move
    _play(raw)                   apply a legal kernel move
    status()                     +1, -1 or 0 for the side to move (SPEC terminal rules)
    transform(k), _perft(depth, threads), __str__

Which variants exist, and which one a position string names, is the business of
``variants.py``, which imports the variants; this base never does.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Iterator, Self

from . import geometry, render
from solverkit.messages import clip

from ..errors import MoveError, PositionError

TEAMS = ("X", "O")
OTHER_TEAM = {"X": "O", "O": "X"}


if TYPE_CHECKING:
    from typing import Protocol

    class MoveClass(Protocol):
        """What a variant's move class offers the base board: parsing its notation."""

        @classmethod
        def from_text(cls, text: str) -> Any: ...


class LegalMoves:
    """The legal moves of a board, generated when asked for."""

    def __init__(self, board: "BaseBoard") -> None:
        self._board = board

    def __iter__(self) -> Iterator[Any]:
        board = self._board
        return (board._move_of(raw) for raw in board._legal_raw())

    def count(self) -> int:
        return len(self._board._legal_raw())

    __len__ = count

    def __bool__(self) -> bool:
        return bool(self._board._legal_raw())

    def __contains__(self, move: object) -> bool:
        return self._board.is_legal(move)

    def __repr__(self) -> str:
        return f"<LegalMoves ({', '.join(str(m) for m in self)})>"


class BaseBoard:
    """A Quixo position with the moves that led to it (see the module's docstring)."""

    players: ClassVar[int]
    move_type: ClassVar[type[MoveClass]]
    size: int

    if TYPE_CHECKING:
        @property
        def turn(self) -> str:
            """The player to move (an attribute of Board, a property of TeamBoard)."""

    def __init__(self, position: str | None = None, *, size: int = 5) -> None:
        if position is None:
            self._restore(self._empty(geometry.check_size(size)))
        else:
            self._restore(self._parse(position))
        self.move_stack: list[Any] = []
        self._undo: list[tuple[Any, ...]] = []

    # -- the primitives a variant implements ---------------------------------------------------
    def _state(self) -> tuple[Any, ...]:
        raise NotImplementedError

    def _restore(self, state: tuple[Any, ...]) -> None:
        raise NotImplementedError

    def _empty(self, size: int) -> tuple[Any, ...]:
        raise NotImplementedError

    def _parse(self, text: str) -> tuple[Any, ...]:
        raise NotImplementedError

    def _legal_raw(self) -> list[Any]:
        raise NotImplementedError

    def _move_of(self, raw: Any) -> Any:
        raise NotImplementedError

    def _checked(self, move: Any) -> Any:
        raise NotImplementedError

    def _play(self, raw: Any) -> None:
        raise NotImplementedError

    def _perft(self, depth: int, threads: int) -> int:
        raise NotImplementedError

    def status(self) -> int:
        raise NotImplementedError

    def transform(self, symmetry: int) -> Self:
        raise NotImplementedError

    @property
    def team(self) -> str:
        """The side (team) to move, 'X' or 'O'."""
        raise NotImplementedError

    # -- moves ---------------------------------------------------------------------------------
    @property
    def legal_moves(self) -> LegalMoves:
        return LegalMoves(self)

    def _as_move(self, move: object) -> Any:
        """A move object of this variant from a move object or a move string."""
        if isinstance(move, str):
            return self.move_type.from_text(move)
        if not isinstance(move, self.move_type):
            raise MoveError(f"expected a {self.move_type.__name__} or a move string, not "
                            f"{type(move).__name__}")
        return move

    def is_legal(self, move: object) -> bool:
        try:
            self._checked(self._as_move(move))
        except MoveError:
            return False
        return True

    def push(self, move: object) -> None:
        """Play a move (a move object or SPEC notation); IllegalMoveError if the rules forbid
        it."""
        move = self._as_move(move)
        self._push_legal(move, self._checked(move))

    def _push_legal(self, move: Any, raw: Any) -> None:
        """Play `move`, known to be legal, as the rules kernel lists it (`raw`, one of
        `_legal_raw()`), without checking it again: the game-AI adapters play an action of
        the legal mask at every step."""
        self._undo.append(self._state())
        self.move_stack.append(move)
        self._play(raw)

    def pop(self) -> Any:
        """Take back the last move and return it."""
        if not self.move_stack:
            raise IndexError("pop from a board with no moves played")
        self._restore(self._undo.pop())
        return self.move_stack.pop()

    def peek(self) -> Any:
        return self.move_stack[-1]

    def copy(self, *, stack: bool = True) -> Self:
        board = type(self).__new__(type(self))
        board._restore(self._state())
        board.move_stack = list(self.move_stack) if stack else []
        board._undo = list(self._undo) if stack else []
        return board

    def game_positions(self) -> list[Self]:
        """The positions of the game before this one, oldest first (boards with no moves
        played): the positions a repetition repeats."""
        return [self._with_state(state) for state in self._undo]

    def _with_state(self, state: tuple[Any, ...]) -> Self:
        """A new board of this variant in `state`, with no moves played."""
        board = type(self).__new__(type(self))
        board._restore(state)
        board.move_stack, board._undo = [], []
        return board

    # -- the end of the game -------------------------------------------------------------------
    def is_game_over(self) -> bool:
        return self.status() != 0

    def winner(self) -> str | None:
        """The winning side ('X' or 'O'), None while the game goes on."""
        status = self.status()
        if status == 0:
            return None
        return self.team if status > 0 else OTHER_TEAM[self.team]

    def result(self) -> str:
        """'1-0' when X has won, '0-1' when O has, '*' while the game goes on."""
        return {"X": "1-0", "O": "0-1", None: "*"}[self.winner()]

    def symmetries(self) -> list[Self]:
        return [self.transform(k) for k in range(geometry.SYMMETRY_COUNT)]

    # -- text and pictures ---------------------------------------------------------------------
    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and str(self) == str(other)

    def __hash__(self) -> int:
        return hash(str(self))

    def render(self) -> str:
        """A multi-line drawing with file letters and rank numbers."""
        return render.text(self)

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:  # IPython
        printer.text(self.render())


def check_board(board: object, kind: type[BaseBoard] = BaseBoard) -> None:
    """PositionError unless `board` is a board of that kind."""
    if not isinstance(board, kind):
        raise PositionError(f"expected a {kind.__name__}, not {clip(board)}")
