"""Two OpenSpiel bots (``pyspiel.Bot``) that play the project's answers in ``python_quixo``:
`PerfectBot`, the tables' best move (refusing, with `UnsolvedPositionError`, where the tables do
not answer), and `EngineBot`, the engine within a budget per move.
"""
from __future__ import annotations

import os
from typing import Any

import pyspiel

from solverkit.messages import clip

from ..errors import GameOverError, LimitError, QuixoError
from ..frameworks.actions import AnyMove
from ..limits import check_tt_mib, whole_number
from ..search import SearchResult, check_limits
from ..tablebase import BaseTablebase, Tablebase
from ..teams.solve import SOLVED_SIZE
from .game import SHORT_NAME, QuixoGame, QuixoState


class UnsolvedPositionError(QuixoError):
    """`PerfectBot` asked to play where its tables do not answer exactly: a position outside
    the tables built, or a four-player board larger than the solved 3x3."""


class QuixoBot(pyspiel.Bot):  # type: ignore[misc]   # pyspiel has no type information
    """What both bots share: the arguments' checks, reading the position from a state, a
    deterministic policy (the chosen move alone). A bot plays the move of the player to move
    in the state it is given; subclasses choose it (`choose`)."""

    def __init__(self, game: object, player_id: int) -> None:
        pyspiel.Bot.__init__(self)
        if not isinstance(game, QuixoGame):
            raise QuixoError(f"a {type(self).__name__} plays {SHORT_NAME} "
                             f"(pyspiel.load_game(\"{SHORT_NAME}(size=3)\")), not {clip(game)}")
        self._game = game
        self._player_id = whole_number("player_id", player_id, 0, game.num_players() - 1)

    def choose(self, board: Any) -> AnyMove:
        """The move to play on the project's board of the state."""
        raise NotImplementedError

    def player_id(self) -> int:
        return self._player_id

    def restart_at(self, state: Any) -> None:
        """Nothing to forget: each move is chosen from the state alone."""

    def provides_policy(self) -> bool:
        return True

    def step_with_policy(self, state: Any) -> tuple[list[tuple[int, float]], int]:
        action = self.step(state)
        return [(action, 1.0)], action

    def step(self, state: Any) -> int:
        if not isinstance(state, QuixoState):
            raise QuixoError(f"a {type(self).__name__} reads states of {SHORT_NAME}, "
                             f"not {clip(state)}")
        if state.is_terminal():
            raise GameOverError(f"the game is over in {state}; {type(self).__name__} has no "
                                "move to play")
        return state.action_of(self.choose(state.to_board()))


class PerfectBot(QuixoBot):
    """Plays a best move from exact tables: the first move of the solver's analysis (the
    fastest win, a draw, the slowest loss) where the tables answer every move exactly.

    Two players: ``tablebase`` is a `Tablebase`, a folder of table files, or None for the
    default folder (``$QUIXO_TABLEBASE_DIR``, else the user's cache folder);
    ``quixo_solver.tablebase.build(folder, 3)`` builds the whole 3x3 game in a moment, 4x4 in
    seconds. Four players: the complete 3x3 solution, and the four-player tables of the folder
    (``quixo tablebase build --players 4 --size 4``) on larger boards.
    `step` raises UnsolvedPositionError where the tables do not answer: a perfect bot plays no
    guess."""

    def __init__(self, game: object, player_id: int, *,
                 tablebase: BaseTablebase | str | os.PathLike[str] | None = None) -> None:
        super().__init__(game, player_id)
        variant = self._game.variant
        chosen: Any = tablebase          # the solver checks it
        self._solver = variant.new_solver(tablebase=Tablebase() if chosen is None else chosen)
        tables = getattr(self._solver, "tables", None)     # a four-player solver's
        size = self._game.size
        if variant.team_tables and size != SOLVED_SIZE and (
                tables is None or not tables.has_size(size)):
            raise UnsolvedPositionError(
                f"the {variant.name} game is solved on {SOLVED_SIZE}x{SOLVED_SIZE}, and on "
                f"{size}x{size} where its tables are built (quixo tablebase build --players 4 "
                f"--size {size}): a PerfectBot finds none")

    def choose(self, board: Any) -> AnyMove:
        rows = self._solver.exact_analysis(board)
        if rows is None:
            raise UnsolvedPositionError(
                f"the tables do not answer {board} exactly (build the classes of its moves: "
                f"quixo tablebase build --size {board.size}); a PerfectBot plays no guess")
        move: AnyMove = rows[0][0]
        return move


class EngineBot(QuixoBot):
    """Plays the project's engine (`Solver`, `TeamSolver`: iterative deepening PVS) within a
    budget per move: ``time`` in seconds, ``nodes``, ``depth`` in plies (at least one of
    them; the search stops at the first reached). ``tt_mib`` sizes its transposition table;
    ``tablebase`` (two players: a `Tablebase` or a folder) lets it probe tables as it searches.
    The result of its last search is ``last_result``."""

    def __init__(self, game: object, player_id: int, *, time: float | None = None,
                 nodes: int | None = None, depth: int | None = None, tt_mib: float = 64,
                 tablebase: BaseTablebase | str | os.PathLike[str] | None = None) -> None:
        super().__init__(game, player_id)
        check_limits(depth, time, nodes)
        if time is None and nodes is None and depth is None:
            raise LimitError("an EngineBot needs a budget per move: time (seconds), nodes or "
                             "depth")
        self.time, self.nodes, self.depth = time, nodes, depth
        chosen: Any = tablebase     # the solver checks it
        self._solver = self._game.variant.new_solver(check_tt_mib(tt_mib), tablebase=chosen)
        self.last_result: SearchResult | None = None

    def choose(self, board: Any) -> AnyMove:
        result = self._solver.solve(board, depth=self.depth, time=self.time, nodes=self.nodes)
        self.last_result = result
        assert result.best_move is not None     # the game goes on: the engine has a move
        move: AnyMove = result.best_move
        return move
