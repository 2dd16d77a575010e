"""The OpenSpiel game ``python_quixo``: `QuixoGame`, its states (`QuixoState`) and its
observers; the rules are the project's boards (see the package's docstring for the actions,
the end of a game and the observations). Importing it registers the game with pyspiel.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from solverkit.messages import clip

from ..errors import QuixoError
from ..frameworks.actions import action_count, action_of_move, legal_actions, move_of_action
from ..frameworks.episodes import MAX_PLIES, final_rewards, seats
from ..frameworks.views import plane_count, planes
from ..rules import geometry
from ..rules.baseboard import BaseBoard
from ..tournament.game import REPETITIONS
from ..variants import Variant, VariantError, find_variant, parse_board

SHORT_NAME = "python_quixo"
MAX_GAME_LENGTH = MAX_PLIES    # 200 plies, `quixo match`'s default limit (package docstring)
DEFAULT_SIZE = 5
DEFAULT_PLAYERS = 2

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Quixo (quixo-solver)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"size": DEFAULT_SIZE, "players": DEFAULT_PLAYERS})


class QuixoGame(pyspiel.Game):  # type: ignore[misc]   # pyspiel has no type information
    """The OpenSpiel game ``python_quixo`` (see the package's docstring); made by
    ``pyspiel.load_game("python_quixo(size=4,players=2)")``. BoardSizeError for a size other
    than 3, 4 or 5, VariantError for a number of players other than 2 or 4."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {"size": DEFAULT_SIZE, "players": DEFAULT_PLAYERS, **(params or {})}
        size = geometry.check_size(params["size"])
        variant = find_variant(params["players"])
        super().__init__(_GAME_TYPE, pyspiel.GameInfo(
            num_distinct_actions=action_count(size, variant.players),
            max_chance_outcomes=0,
            num_players=variant.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=MAX_GAME_LENGTH), params)
        self.size = size
        self.variant: Variant = variant

    def new_initial_state(self) -> QuixoState:
        """The empty board, the first player (X, X1) to move."""
        return QuixoState(self)

    def state_at(self, position: str | BaseBoard) -> QuixoState:
        """A state whose game starts at `position` (SPEC text or a board of this game; its
        earlier moves, if any, are not part of it); VariantError for a position of another
        size or number of players."""
        board = parse_board(position) if isinstance(position, str) else position.copy(
            stack=False)
        if board.size != self.size or board.players != self.variant.players:
            raise VariantError(f"{board} is not a position of python_quixo(size={self.size},"
                               f"players={self.variant.players})")
        state = QuixoState(self)
        state._board = board
        state._occurrences = Counter([str(board)])
        return state

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> Any:
        """The observer of OpenSpiel's observations: the position (the default, and any
        observation without perfect recall), the position and its history (perfect recall:
        the information state); an observation of private information alone is empty, as the
        game has none."""
        if params:
            raise QuixoError(f"{SHORT_NAME} observations take no parameters, not {clip(params)}")
        if iig_obs_type is None or (iig_obs_type.public_info
                                    and not iig_obs_type.perfect_recall):
            return PositionObserver(self)
        if iig_obs_type.public_info:
            return HistoryObserver(self)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class QuixoState(pyspiel.State):  # type: ignore[misc]
    """A position of ``python_quixo`` with the game that led to it (the project's `Board` or
    `TeamBoard` with its moves, and how often each position occurred)."""

    def __init__(self, game: QuixoGame) -> None:
        super().__init__(game)
        self._board: BaseBoard = game.variant.start(game.size)
        self._occurrences: Counter[str] = Counter([str(self._board)])
        self._draw: str | None = None     # "repetition" or "move limit" once drawn

    # -- the OpenSpiel API -----------------------------------------------------------------
    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return seats(self._board.players).index(self._board.turn)

    def _legal_actions(self, player: int) -> list[int]:
        """The actions of the legal moves, ascending; none for a player not to move."""
        if self.is_terminal() or player != self.current_player():
            return []
        return legal_actions(self._board)

    def _apply_action(self, action: int) -> None:
        self._board.push(move_of_action(self._board.size, self._board.players, action))
        position = str(self._board)
        self._occurrences[position] += 1
        if self._board.is_game_over():
            return                     # a line: it ends the game whatever else happened
        if self._occurrences[position] >= REPETITIONS:
            self._draw = "repetition"
        elif len(self._board.move_stack) >= MAX_GAME_LENGTH:
            self._draw = "move limit"

    def _action_to_string(self, player: int, action: int) -> str:
        return str(move_of_action(self._board.size, self._board.players, action))

    def string_to_action(self, *player_and_text: Any) -> int:
        """The action of a move's SPEC text (``string_to_action(player, text)`` or
        ``string_to_action(text)``, as pyspiel offers both); MoveError for text that is no move
        of this board."""
        return self.action_of(player_and_text[-1])

    def is_terminal(self) -> bool:
        return self._board.is_game_over() or self._draw is not None

    def returns(self) -> list[float]:
        """+1 for each player of the winning team, -1 for the others; 0 for all in a draw and
        while the game goes on."""
        rewards = final_rewards(self._board)
        order = seats(self._board.players)         # the seats in the order of player ids
        return [0.0] * len(order) if rewards is None else [rewards[seat] for seat in order]

    def __str__(self) -> str:
        return str(self._board)

    # -- what the project adds -------------------------------------------------------------
    def action_of(self, move: object) -> int:
        """The action number of a move (a move object or its SPEC text)."""
        if not isinstance(move, str):
            move = str(move)          # a move object of either variant, read as its variant's
        return action_of_move(self._board.size, move, self._board.players)

    def to_board(self) -> BaseBoard:
        """A copy of the position as the project's board (`Board` or `TeamBoard`), with the
        game's moves on its move stack (the solvers count repetitions of them)."""
        return self._board.copy()

    def end_reason(self) -> str | None:
        """Why the game ended, in the words of ``quixo match``: "line", "repetition" or
        "move limit"; None while it goes on."""
        return "line" if self._board.is_game_over() else self._draw

    def information_string(self) -> str:
        """The start position and the moves played, as the engine protocol's ``position``
        command takes them."""
        board = self._board
        start = str(find_variant(board.players).start(board.size))   # every game starts empty
        moves = " ".join(str(move) for move in board.move_stack)
        return f"{start} moves {moves}" if moves else start

    def mover_planes(self) -> npt.NDArray[np.int8]:
        """The planes of the observation (see the package's docstring), shape (planes, N, N)."""
        return planes(self._board, self._board.turn).transpose(2, 0, 1)


# -- observations ----------------------------------------------------------------------------
class PositionObserver:
    """The observation (OpenSpiel's PyObserver): the board's planes, seen from the mover, and
    the SPEC position."""

    def __init__(self, game: QuixoGame) -> None:
        shape = (plane_count(game.variant.players), game.size, game.size)
        self.tensor: npt.NDArray[np.float32] = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"board": self.tensor.reshape(shape)}

    def set_from(self, state: QuixoState, player: int) -> None:
        self.dict["board"][:] = state.mover_planes()

    def string_from(self, state: QuixoState, player: int) -> str:
        return str(state)


class HistoryObserver:
    """The information state (perfect recall): the board's planes, then the actions played,
    one-hot, a row per ply; the start position and the moves."""

    def __init__(self, game: QuixoGame) -> None:
        board_shape = (plane_count(game.variant.players), game.size, game.size)
        history_shape = (MAX_GAME_LENGTH, game.num_distinct_actions())
        board_cells, history_cells = int(np.prod(board_shape)), int(np.prod(history_shape))
        self.tensor: npt.NDArray[np.float32] = np.zeros(board_cells + history_cells, np.float32)
        self.dict = {"board": self.tensor[:board_cells].reshape(board_shape),
                     "history": self.tensor[board_cells:].reshape(history_shape)}

    def set_from(self, state: QuixoState, player: int) -> None:
        self.dict["board"][:] = state.mover_planes()
        history = self.dict["history"]
        history.fill(0)
        for ply, action in enumerate(state.history()):
            history[ply, action] = 1

    def string_from(self, state: QuixoState, player: int) -> str:
        return state.information_string()


pyspiel.register_game(_GAME_TYPE, QuixoGame)
