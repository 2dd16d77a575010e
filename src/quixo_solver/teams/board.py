"""The four-player board (two teams) and its moves, in the style of the two-player Board.

>>> board = TeamBoard(size=3)             # empty 3x3 board, X1 to move
>>> board.push("a1c1+")                   # X1 takes a1, pushes it in at c1, dot to X2
>>> str(board)
'.../.../..x O1'
>>> board.legal_moves.count()            # O1 may take any blank border square
36
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from .. import geometry, render
from ..errors import GameOverError, IllegalMoveError, MoveError, PositionError
from ..limits import check_perft_depth, check_threads, shorten
from ..notation import parse_square, square_name
from . import notation
from ._backend import engine

TEAMS = ("X", "O")


@dataclass(frozen=True, order=True)
class TeamMove:
    """A four-player move: source and target squares and where the dot points, or a pass
    (source and target None)."""

    source: str | None
    target: str | None
    to_mate: bool = False

    @classmethod
    def from_text(cls, text: str) -> "TeamMove":
        parsed = notation.parse_move(text)
        return cls(None, None) if parsed is None else cls(*parsed)

    @classmethod
    def null(cls) -> "TeamMove":
        return cls(None, None)

    @property
    def is_pass(self) -> bool:
        return self.source is None

    def squares(self, size: int) -> tuple[int, int, bool] | None:
        """(source, target, to_mate) square numbers, None for a pass; MoveError if the move
        does not exist on this board."""
        if self.is_pass:
            return None
        source, target = parse_square(size, self.source), parse_square(size, self.target)
        if (source, target) not in geometry.moves(size):
            raise MoveError(f"{self} is not a move on a {size}x{size} board: the cube must come "
                            "from the border and re-enter at another end of its row or column")
        return source, target, self.to_mate

    def __str__(self) -> str:
        return notation.PASS if self.is_pass else self.source + self.target + (
            "+" if self.to_mate else "")

    def __repr__(self) -> str:
        return f"TeamMove.from_text({str(self)!r})"


class TeamMoveGenerator:
    def __init__(self, board: "TeamBoard") -> None:
        self._board = board

    def _raw(self):
        return engine.legal_moves(self._board.size, self._board.roles)

    def __iter__(self) -> Iterator[TeamMove]:
        size = self._board.size
        for move in self._raw():
            if move is None:
                yield TeamMove.null()
            else:
                yield TeamMove(square_name(size, move[0]), square_name(size, move[1]), move[2])

    def count(self) -> int:
        return len(self._raw())

    __len__ = count

    def __bool__(self) -> bool:
        return bool(self._raw())

    def __contains__(self, move: object) -> bool:
        try:
            return self._board._checked(move) is not False
        except MoveError:
            return False

    def __repr__(self) -> str:
        return f"<TeamMoveGenerator ({', '.join(str(m) for m in self)})>"


class TeamBoard:
    """A four-player position: `TeamBoard()` is the empty 5x5 board with X1 to move,
    `TeamBoard(size=3)` an empty 3x3 one, `TeamBoard("Xx..o/...../...../...../..... O1")` any
    position in SPEC notation. Values and results are for teams: X1 and X2 against O1 and
    O2, team-mates choosing together."""

    players = 4

    def __init__(self, position: str | None = None, *, size: int = 5) -> None:
        if position is None:
            self._set(geometry.check_size(size), (0, 0, 0, 0), 0)
        else:
            self._set(*notation.parse_position(position))
        self.move_stack: list[TeamMove] = []
        self._undo: list[tuple[tuple[int, ...], int]] = []

    def _set(self, size: int, cubes: tuple[int, ...], to_move: int) -> None:
        self.size = size
        self.cubes = tuple(cubes)           # by the player each dot points at: X1, O1, X2, O2
        self.to_move = to_move

    @classmethod
    def from_roles(cls, size: int, roles: tuple[int, ...], to_move: int = 0) -> "TeamBoard":
        board = cls(size=size)
        board._set(size, notation.from_roles(roles, to_move), to_move)
        return board

    @property
    def turn(self) -> str:
        """The player to move: 'X1', 'O1', 'X2' or 'O2'."""
        return notation.PLAYERS[self.to_move]

    @property
    def team(self) -> str:
        """The team to move, 'X' or 'O'."""
        return TEAMS[self.to_move % 2]

    @property
    def roles(self) -> tuple[int, int, int, int]:
        return notation.to_roles(self.cubes, self.to_move)

    def cell(self, name: str) -> str:
        sq = parse_square(self.size, name)
        for player in range(4):
            if self.cubes[player] >> sq & 1:
                return notation.CELL_OF_PLAYER[player]
        return "."

    # -- moves ---------------------------------------------------------------------------------
    @property
    def legal_moves(self) -> TeamMoveGenerator:
        return TeamMoveGenerator(self)

    def _checked(self, move):
        """The engine's form of a legal move; MoveError (IllegalMoveError) otherwise."""
        if isinstance(move, str):
            move = TeamMove.from_text(move)
        if not isinstance(move, TeamMove):
            raise MoveError(f"expected a TeamMove or a move string, not {type(move).__name__}")
        raw = move.squares(self.size)
        legal = engine.legal_moves(self.size, self.roles)
        if not legal:
            raise GameOverError(f"the game is over in {self}; no move {move} can be played")
        if raw not in legal:
            if raw is None:
                raise IllegalMoveError(f"{self.turn} may pass only with no cube to take")
            if legal == [None]:
                raise IllegalMoveError(f"{self.turn} has no cube to take and must pass")
            owner = self.cell(move.source)
            raise IllegalMoveError(f"{move}: {self.turn} may take only a blank cube or one "
                                   f"whose dot points at {self.turn}, not {owner!r} at "
                                   f"{move.source}")
        return raw

    def is_legal(self, move) -> bool:
        try:
            self._checked(move)
        except MoveError:
            return False
        return True

    def push(self, move) -> None:
        raw = self._checked(move)
        if isinstance(move, str):
            move = TeamMove.from_text(move)
        self._undo.append((self.cubes, self.to_move))
        self.move_stack.append(move)
        roles = engine.play_move(self.size, self.roles, raw)
        to_move = (self.to_move + 1) % 4
        self._set(self.size, notation.from_roles(roles, to_move), to_move)

    def pop(self) -> TeamMove:
        if not self.move_stack:
            raise IndexError("pop from a board with no moves played")
        self._set(self.size, *self._undo.pop())
        return self.move_stack.pop()

    def copy(self, *, stack: bool = True) -> "TeamBoard":
        board = TeamBoard(size=self.size)
        board._set(self.size, self.cubes, self.to_move)
        if stack:
            board.move_stack = list(self.move_stack)
            board._undo = list(self._undo)
        return board

    # -- the end of the game -------------------------------------------------------------------
    def status(self) -> int:
        """+1 if the team to move shows a line, -1 if only the other team does, else 0."""
        return engine.position_status(self.size, self.roles)

    def is_game_over(self) -> bool:
        return self.status() != 0

    def winner(self) -> str | None:
        """The winning team, 'X' or 'O', or None while the game goes on."""
        status = self.status()
        if status == 0:
            return None
        return self.team if status > 0 else TEAMS[1 - self.to_move % 2]

    def result(self) -> str:
        return {"X": "1-0", "O": "0-1", None: "*"}[self.winner()]

    # -- symmetries ----------------------------------------------------------------------------
    def transform(self, symmetry: int) -> "TeamBoard":
        from .._backend import engine as two_player
        board = TeamBoard(size=self.size)
        board._set(self.size, tuple(two_player.transform_mask(self.size, symmetry, c)
                                    for c in self.cubes), self.to_move)
        return board

    def symmetries(self) -> list["TeamBoard"]:
        return [self.transform(k) for k in range(geometry.SYMMETRY_COUNT)]

    # -- text ----------------------------------------------------------------------------------
    def __str__(self) -> str:
        return notation.format_position(self.size, self.cubes, self.to_move)

    def __repr__(self) -> str:
        return f"TeamBoard({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TeamBoard) and str(self) == str(other)

    def __hash__(self) -> int:
        return hash(str(self))

    def render(self) -> str:
        return render.text(self)


def perft(board: TeamBoard, depth: int, *, threads: int = 0) -> int:
    """Move sequences (passes included) of exactly `depth` moves from `board`; a move that
    ends the game has no continuations (SPEC perft)."""
    if not isinstance(board, TeamBoard):
        raise PositionError(f"perft needs a TeamBoard, not {shorten(board)}")
    depth, threads = check_perft_depth(depth), check_threads(threads)
    if engine.__name__.endswith("_twin"):
        return engine.perft(board.size, board.roles, depth)
    return engine.perft(board.size, board.roles, depth, threads)
