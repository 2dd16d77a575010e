"""The one place that knows Quixo's variants, as python-chess's ``chess/variant.py`` knows
chess's: each is a `Variant` with its board type, its solver type, its players' names and its
help text. The command line, the terminal game, matches and the explorer ask it and branch on
nothing. This module imports the boards and the solvers; they never import it.

    find_variant(4).start(size=5)        # the empty four-player board
    variant_of(board).new_solver()       # the solver for a board's game
    parse_board("Xx..o/...../...../...../..... O1")   # the variant named by the notation
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solverkit.messages import clip

from .rules.baseboard import BaseBoard
from .rules.board import Board
from .errors import PositionError, QuixoError
from .search import BaseSolver, Solver
from .search.weights import WeightSet, Weights
from .tablebase import BaseTablebase
from .teams.board import TeamBoard
from .teams.notation import PLAYERS as TEAM_PLAYERS
from .teams.solve import TeamSolver


class VariantError(QuixoError):
    """A variant that does not exist (a number of players other than 2 or 4)."""


@dataclass(frozen=True)
class Variant:
    """A game of Quixo: its board and solver types and how its players are named."""

    name: str
    players: int
    board_type: type[BaseBoard]
    solver_type: type[BaseSolver[Any]]
    player_names: tuple[str, ...]     # in turn order, as `board.turn` names them
    turn_tokens: frozenset[str]       # how a position string names the player to move
    uses_tablebases: bool             # whether its solver probes two-player tablebase files
    help_text: str                    # the terminal game's help
    team_tables: bool = False         # whether its solver probes four-player table files

    @property
    def reads_tables(self) -> bool:
        """Whether its solver answers from a folder of tables (of either kind)."""
        return self.uses_tablebases or self.team_tables

    def start(self, size: int = 5) -> BaseBoard:
        """The empty board of this variant, first player to move."""
        return self.board_type(size=size)

    def new_solver(self, tt_mib: float = 64, tablebase: BaseTablebase | str | None = None,
                   weights: WeightSet | Weights | str | None = None, *,
                   traps: bool = True) -> BaseSolver[Any]:
        """A solver of this variant; `tablebase` only where the variant probes tables, and
        `traps` (Solver) is what its solver does with them."""
        solver_type: Any = self.solver_type     # (a solver type that takes a tablebase)
        solver: BaseSolver[Any]
        if self.team_tables:
            solver = solver_type(tt_mib, weights, tablebase=tablebase)
        elif self.uses_tablebases:
            solver = solver_type(tt_mib, tablebase=tablebase, weights=weights, traps=traps)
        elif tablebase is not None:
            raise VariantError(f"the {self.name} game has no tablebase files")
        else:
            solver = self.solver_type(tt_mib, weights)
        return solver


STANDARD = Variant(
    name="two-player", players=2, board_type=Board, solver_type=Solver,
    player_names=("X", "O"), turn_tokens=frozenset({"X", "O", "x", "o"}),
    uses_tablebases=True,
    help_text="Type a move such as a1e1 (take a1, push it in at e1).\n"
              "Other commands: moves (list your legal moves), undo (take back your last move),\n"
              "help, quit.")

TEAMS = Variant(
    name="four-player", players=4, board_type=TeamBoard, solver_type=TeamSolver,
    player_names=TEAM_PLAYERS, turn_tokens=frozenset(TEAM_PLAYERS),
    uses_tablebases=False,
    help_text="You play a team: both its players. Type a move such as a1e1 (take a1, push it "
              "in\nat e1, the dot pointing at the player who moves), a1e1+ (the dot pointing "
              "at the team-mate),\nor pass (only with no cube to take).\n"
              "Other commands: moves (list the legal moves), undo (take back your last move), "
              "help, quit.",
    team_tables=True)

VARIANTS = (STANDARD, TEAMS)
PLAYER_COUNTS = tuple(variant.players for variant in VARIANTS)


def find_variant(players: int) -> Variant:
    """The variant of `players` players; VariantError for any other number."""
    for variant in VARIANTS:
        if variant.players == players and not isinstance(players, bool):
            return variant
    raise VariantError(f"Quixo is played by {' or '.join(map(str, PLAYER_COUNTS))} players, "
                       f"not {clip(players)}")


def variant_of(board: BaseBoard) -> Variant:
    """The variant a board belongs to; PositionError for anything but a board."""
    for variant in VARIANTS:
        if isinstance(board, variant.board_type):
            return variant
    raise PositionError(f"expected a Quixo board, not {clip(board)}")


def parse_board(text: str) -> BaseBoard:
    """The board of a position string, of the variant its notation names (the player to move:
    X or O for two players, X1, O1, X2 or O2 for four); a string that names none is read as a
    two-player position, whose parser names what is wrong."""
    if not isinstance(text, str):
        raise PositionError(f"a position must be a string, not {type(text).__name__}")
    parts = text.split()
    for variant in VARIANTS:
        if len(parts) == 2 and parts[1] in variant.turn_tokens:
            return variant.board_type(text)
    return STANDARD.board_type(text)
