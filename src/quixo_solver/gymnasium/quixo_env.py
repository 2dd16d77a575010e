"""Two-player Quixo as a single-agent Gymnasium environment: the agent plays one seat, an
opponent the other (`quixo_solver/Quixo-v0`, registered by importing `quixo_solver.gymnasium`).

- Observation: the planes of the agent's seat (`quixo_solver.frameworks.views`): its own
  cubes, the opponent's, the blanks, shape (N, N, 3), int8; row 0 is the board's top rank.
- Action: Discrete(20 / 32 / 44 on 3x3 / 4x4 / 5x5), the numbering every framework adapter of
  the project shares (`quixo_solver.frameworks.actions`); `info["action_mask"]` (int8) has a 1
  for each legal action.
- Reward: at the end alone, +1 won, -1 lost; 0 for a game cut off.
- An illegal action (one the mask refuses: taking the opponent's cube) ends the episode with
  -1 and `info["illegal_action"]`, as PettingZoo's classic games end it: a learner that
  samples from the whole action space (as Gymnasium's own checker does) gets a signal rather
  than an exception. A number outside the action space raises ActionError.
- Truncation: after `max_plies` plies of both sides (200 by default, the ply limit of `quixo
  match`; `quixo_solver.frameworks.episodes.MAX_PLIES` says why): Quixo has no draw rule.
- `reset(options={"position": "XX./O../... O"})` starts from a position of the board's size
  (the opponent moves first when it is its turn there; should that move end the game, reset
  raises GameOverError: reset cannot end an episode nor pay its reward).

>>> env = QuixoEnv(size=3, opponent="random")
>>> observation, info = env.reset(seed=7)
>>> observation.shape, int(info["action_mask"].sum())
((3, 3, 3), 20)
"""
from __future__ import annotations

import os
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from solverkit.messages import clip
from solverkit.rendering import RENDER_MODES, check_render_mode, render_frame

from ..errors import GameOverError, PositionError, QuixoError
from ..rules import geometry
from ..rules.board import Board
from ..tablebase import BaseTablebase
from ..frameworks.actions import action_count, check_action, legal_actions, move_of_action
from ..frameworks.episodes import MAX_PLIES, check_max_plies, final_rewards, seats
from ..frameworks.views import image, plane_count, planes
from .opponents import ENGINE_NODES, OpponentError, new_opponent

SEATS = seats(2)
ILLEGAL_ACTION_REWARD = -1.0     # as a loss, and as PettingZoo's TerminateIllegalWrapper pays
OPTIONS = ("position",)

Planes = npt.NDArray[np.int8]


class QuixoEnv(gymnasium.Env[Planes, np.int64]):
    """The agent plays `seat` (X, who moves first, or O) of two-player Quixo on a `size`
    board against `opponent`: `random`, `engine` (the search, `engine_nodes` nodes a move)
    or `perfect` (the tables of `tablebase`: a folder, a Tablebase, or None for the default
    folder; on 3x3 and 4x4 they are built there when missing). `players` must be 2: the
    four-player game is the PettingZoo environment `quixo_solver.pettingzoo.quixo_v0`."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}

    def __init__(self, size: int = 5, players: int = 2, opponent: str = "random",
                 seat: str = "X", render_mode: str | None = None,
                 tablebase: BaseTablebase | str | os.PathLike[str] | None = None,
                 engine_nodes: int = ENGINE_NODES, max_plies: int = MAX_PLIES) -> None:
        self.size = geometry.check_size(size)
        if isinstance(players, bool) or players != 2:
            raise OpponentError(f"the single-agent environment is the two-player game, not "
                                f"{clip(players)} players (four players: the PettingZoo "
                                "environment quixo_solver.pettingzoo.quixo_v0)")
        if seat not in SEATS:
            raise OpponentError(f"seat must be X (moves first) or O, not {clip(seat)}")
        self.seat = seat
        self.render_mode = check_render_mode(render_mode, QuixoError)
        self.max_plies = check_max_plies(max_plies)
        self.opponent = new_opponent(opponent, size, tablebase, engine_nodes)
        shape = (size, size, plane_count(2))
        self.observation_space = spaces.Box(0, 1, shape, dtype=np.int8)
        self.action_count = action_count(size, 2)
        self.action_space = spaces.Discrete(self.action_count)
        self.board = Board(size=size)
        self.over = True                 # until reset

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Planes, dict[str, Any]]:
        super().reset(seed=seed)
        self.board = self._start_board(options or {})
        self.over = False
        if self.board.turn != self.seat:
            start = str(self.board)
            self._opponent_moves()
            if self._ended():
                # only from a position of the options; reset cannot end an episode (nor pay
                # its reward), so the position is refused
                self.over = True
                raise GameOverError(f"from {start} the opponent's first move, "
                                    f"{self.board.peek()}, ends the game: start from a "
                                    "position where the agent gets to move")
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def _start_board(self, options: dict[str, Any]) -> Board:
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise QuixoError(f"unknown reset options {clip(unknown)}: the one option is "
                             "'position'")
        if "position" not in options:
            return Board(size=self.size)
        board = Board(options["position"])
        if board.size != self.size:
            raise PositionError(f"{board} is a {board.size}x{board.size} position; this "
                                f"environment plays on {self.size}x{self.size}")
        if board.is_game_over():
            raise GameOverError(f"the game is over in {board}: an episode starts from a game "
                                "that goes on")
        return board

    def step(self, action: object) -> tuple[Planes, SupportsFloat, bool, bool, dict[str, Any]]:
        if self.over:
            raise GameOverError("the episode is over: call reset() to start another")
        number = check_action(self.size, 2, action)
        if number not in legal_actions(self.board):
            self.over = True
            return (self._observation(), ILLEGAL_ACTION_REWARD, True, False,
                    self._info(illegal_action=True))
        self.board.push(move_of_action(self.size, 2, number))
        if not self._ended():
            self._opponent_moves()
        reward = self._reward()
        terminated = reward is not None
        truncated = not terminated and self._cut_off()
        self.over = terminated or truncated
        if self.render_mode == "human":
            self.render()
        return (self._observation(), 0.0 if reward is None else reward, terminated, truncated,
                self._info())

    def _opponent_moves(self) -> None:
        self.board.push(self.opponent.choose(self.board, self.np_random))

    def _ended(self) -> bool:
        """Whether the game is over or cut off."""
        return self.board.is_game_over() or self._cut_off()

    def _cut_off(self) -> bool:
        return len(self.board.move_stack) >= self.max_plies

    def _reward(self) -> float | None:
        """The agent's reward once the game is over, None while it goes on."""
        rewards = final_rewards(self.board)
        return None if rewards is None else rewards[self.seat]

    def _observation(self) -> Planes:
        return planes(self.board, self.seat)

    def _info(self, illegal_action: bool = False) -> dict[str, Any]:
        mask = np.zeros(self.action_count, dtype=np.int8)
        if not self.over:
            mask[legal_actions(self.board)] = 1
        info: dict[str, Any] = {"action_mask": mask}
        if illegal_action:
            info["illegal_action"] = True
        return info

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """`ansi`: the board's text drawing; `rgb_array`: a picture; `human`: prints the text
        drawing."""
        return render_frame(self.render_mode, self.board.render, lambda: image(self.board))
