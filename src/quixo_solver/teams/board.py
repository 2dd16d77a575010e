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
from typing import TYPE_CHECKING, Any, cast

from ..rules import geometry
from ..rules.baseboard import TEAMS, BaseBoard, LegalMoves, check_board
from ..errors import GameOverError, IllegalMoveError, MoveError
from ..rules._perft import perft as any_board_perft
from ..rules.notation import parse_square, square_name
from . import notation
from ._backend import rules

if TYPE_CHECKING:
    from ._team_rules import Move as RawMove


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
        # not a pass: both squares are named (parse_square refuses anything but a name)
        source = parse_square(size, cast(str, self.source))
        target = parse_square(size, cast(str, self.target))
        if (source, target) not in geometry.moves(size):
            raise MoveError(f"{self} is not a move on a {size}x{size} board: the cube must come "
                            "from the border and re-enter at another end of its row or column")
        return source, target, self.to_mate

    def __str__(self) -> str:
        if self.is_pass:
            return notation.PASS
        return cast(str, self.source) + cast(str, self.target) + ("+" if self.to_mate else "")

    def __repr__(self) -> str:
        return f"TeamMove.from_text({str(self)!r})"


class TeamBoard(BaseBoard):
    """A four-player position: `TeamBoard()` is the empty 5x5 board with X1 to move,
    `TeamBoard(size=3)` an empty 3x3 one, `TeamBoard("Xx..o/...../...../...../..... O1")` any
    position in SPEC notation. Values and results are for teams: X1 and X2 against O1 and
    O2, team-mates choosing together."""

    players = 4
    move_type = TeamMove
    cubes: tuple[int, ...]
    to_move: int

    # -- the variant's primitives (rules/baseboard.py) -----------------------------------------
    def _state(self) -> tuple[int, tuple[int, ...], int]:
        return (self.size, self.cubes, self.to_move)

    def _restore(self, state: tuple[Any, ...]) -> None:
        self.size, cubes, self.to_move = state
        self.cubes = tuple(cubes)           # by the player each dot points at: X1, O1, X2, O2

    def _empty(self, size: int) -> tuple[int, tuple[int, int, int, int], int]:
        return (size, (0, 0, 0, 0), 0)

    def _parse(self, text: str) -> tuple[int, tuple[int, int, int, int], int]:
        return notation.parse_position(text)

    def _legal_raw(self) -> list[RawMove]:
        return rules.legal_moves(self.size, self.roles)

    def _move_of(self, raw: RawMove) -> TeamMove:
        if raw is None:
            return TeamMove.null()
        return TeamMove(square_name(self.size, raw[0]), square_name(self.size, raw[1]), raw[2])

    def _checked(self, move: TeamMove) -> RawMove:
        """The engine's form of a legal move; MoveError (IllegalMoveError) otherwise."""
        raw = move.squares(self.size)
        legal = rules.legal_moves(self.size, self.roles)
        if not legal:
            raise GameOverError(f"the game is over in {self}; no move {move} can be played")
        if raw not in legal:
            if raw is None:
                raise IllegalMoveError(f"{self.turn} may pass only with no cube to take")
            if legal == [None]:
                raise IllegalMoveError(f"{self.turn} has no cube to take and must pass")
            assert move.source is not None   # raw is not None: move.squares named it
            owner = self.cell(move.source)
            raise IllegalMoveError(f"{move}: {self.turn} may take only a blank cube or one "
                                   f"whose dot points at {self.turn}, not {owner!r} at "
                                   f"{move.source}")
        return raw

    def _play(self, raw: RawMove) -> None:
        roles = rules.play_move(self.size, self.roles, raw)
        to_move = (self.to_move + 1) % 4
        self._restore((self.size, notation.from_roles(roles, to_move), to_move))

    def _perft(self, depth: int, threads: int) -> int:
        return rules.perft(self.size, self.roles, depth, threads)

    @classmethod
    def from_roles(cls, size: int, roles: tuple[int, ...], to_move: int = 0) -> "TeamBoard":
        board = cls(size=size)
        board._restore((size, notation.from_roles(roles, to_move), to_move))
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

    def status(self) -> int:
        """+1 if the team to move shows a line, -1 if only the other team does, else 0."""
        return rules.position_status(self.size, self.roles)

    def transform(self, symmetry: int) -> "TeamBoard":
        from ..rules._backend import rules as two_player
        return self._with_state((self.size, tuple(two_player.transform_mask(self.size, symmetry, c)
                                                  for c in self.cubes), self.to_move))

    def __str__(self) -> str:
        return notation.format_position(self.size, self.cubes, self.to_move)


TeamMoveGenerator = LegalMoves


def perft(board: TeamBoard, depth: int, *, threads: int = 0) -> int:
    """quixo_solver.perft for a four-player board (move sequences of exactly `depth` moves,
    passes included)."""
    check_board(board, TeamBoard)
    return any_board_perft(board, depth, threads=threads)
