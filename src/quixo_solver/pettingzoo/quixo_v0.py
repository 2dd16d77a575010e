"""Quixo as a PettingZoo AEC environment, two or four players, in the style of PettingZoo's
classic games.

| Import             | `from quixo_solver.pettingzoo import quixo_v0`                  |
|--------------------|-----------------------------------------------------------------|
| Agents             | `['X', 'O']`; four players: `['X1', 'O1', 'X2', 'O2']` (turn order) |
| Actions            | Discrete: 20 / 32 / 44 on 3x3 / 4x4 / 5x5; four players 41 / 65 / 89 |
| Observation shape  | (N, N, 3); four players (N, N, 5)                              |
| Observation values | 0, 1                                                           |

`quixo_v0.env(size=5, players=2, render_mode=None, max_plies=200)`; `raw_env` takes the same
arguments and has no wrappers (an illegal action raises `IllegalMoveError` there; `env`
ends the game instead, -1 for the agent that played it).

**Rules**: those of the conventions (SPEC "Quixo", "Four players"), played by
`quixo_solver.Board` and `quixo_solver.teams.TeamBoard` (`env.unwrapped.board`).

**Observation**: a dict; `observation` holds planes seen from the agent
(`quixo_solver.frameworks.views`): its own cubes, the opponent's, the blanks; four players, by
team and dot: its own team's cubes whose dot points at it, at its team-mate, the other team's
pointing at the next player, at the player before, the blanks. Row 0 is the board's top rank.
`action_mask` (int8) has a 1 for each legal action of the agent to move, 0s for the others.

**Actions**: the numbering every framework adapter of the project shares
(`quixo_solver.frameworks.actions`): action i is move i of `geometry.moves(N)`; four players:
2i keeps the dot at the mover, 2i + 1 turns it to the team-mate, and the last action is
`pass` (legal only for a player with no cube to take).

**Rewards**: at the end alone: +1 for the winner, -1 for the loser; four players, +1 for
both players of the winning team, -1 for both of the other. A game cut off is 0 for all.

**Truncation**: Quixo has no draw rule, and drawn games can go round for ever: an episode is
truncated after `max_plies` plies, 200 by default, the ply limit of `quixo match`
(`quixo_solver.frameworks.episodes.MAX_PLIES` says why that number).

**Render modes**: `ansi` (the board's text drawing, `Board.render`), `rgb_array` (a small
picture drawn with numpy), `human` (prints the text drawing).

>>> env = raw_env(size=3, render_mode="ansi")
>>> env.reset()
>>> env.agent_selection, int(env.observe("X")["action_mask"].sum())
('X', 20)
>>> env.step(0)                      # a1c1
>>> print(env.render())
3 | . . .
2 | . . .
1 | . . X
    -----
    a b c
O to move
"""
from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from pettingzoo import AECEnv

from solverkit.aec import Observation, TurnBasedEnv, classic_wrappers, environment_metadata

from ..errors import IllegalMoveError, QuixoError
from ..rules import geometry
from ..rules.baseboard import BaseBoard
from ..variants import VariantError, find_variant, parse_board
from ..frameworks.actions import (action_count, action_text, check_players, legal_actions,
                                  play_legal_action)
from ..frameworks.episodes import MAX_PLIES, check_max_plies, final_rewards, seats
from ..frameworks.views import image, plane_count, planes


def env(size: int = 5, players: int = 2, render_mode: str | None = None,
        max_plies: int = MAX_PLIES) -> AECEnv[str, Observation, Any]:
    """The environment with PettingZoo's classic wrappers (see the module's docstring)."""
    return classic_wrappers(raw_env(size, players, render_mode, max_plies))


class raw_env(TurnBasedEnv):
    """Quixo on a `size` board for `players` players (2 or 4), without wrappers."""

    metadata = environment_metadata("quixo_v0")
    error_type = QuixoError
    illegal_action_error = IllegalMoveError

    def __init__(self, size: int = 5, players: int = 2, render_mode: str | None = None,
                 max_plies: int = MAX_PLIES) -> None:
        self.size = geometry.check_size(size)
        self.players = check_players(players)
        self.max_plies = check_max_plies(max_plies)
        self.board: BaseBoard = find_variant(players).start(size)
        shape = (size, size, plane_count(players))
        super().__init__(seats(players), np.zeros(shape, dtype=np.int8),
                         np.ones(shape, dtype=np.int8), action_count(size, players),
                         render_mode)

    def _start(self) -> None:
        """The empty board, or the position of reset's option "position" (SPEC text of this
        size and players: the game starts there)."""
        position = self.options.get("position")
        if position is None:
            self.board = find_variant(self.players).start(self.size)
            return
        board = parse_board(str(position))
        if board.size != self.size or board.players != self.players:
            raise VariantError(f"{board} is not a position of quixo_v0(size={self.size}, "
                               f"players={self.players})")
        self.board = board

    def _to_decide(self) -> str:
        return self.board.turn

    def _legal_actions(self) -> list[int]:
        return legal_actions(self.board)

    def _describe(self, action: int) -> str:
        return action_text(self.size, self.players, action)

    def _play(self, action: int) -> None:
        play_legal_action(self.board, action)     # (checked against the mask by step)

    def _outcome(self) -> dict[str, float] | None:
        return final_rewards(self.board)

    def _cut_off(self) -> bool:
        return len(self.board.move_stack) >= self.max_plies

    def _observation(self, agent: str) -> npt.NDArray[np.int8]:
        return planes(self.board, agent)

    def _text(self) -> str:
        drawing = self.board.render()
        if any(self.truncations.values()):
            drawing += f"\ncut off after {self.max_plies} plies (Quixo has no draw rule)"
        return drawing

    def _image(self) -> npt.NDArray[np.uint8]:
        return image(self.board)
