"""A turn-based game as a PettingZoo AEC environment, in the style of PettingZoo's classic
games (connect_four_v3, tictactoe_v3): what both games' environments share
(`quixo_solver.pettingzoo.quixo_v0`, `qwixx_stats.pettingzoo.qwixx_v0`; the extra `rl`).

One agent decides at a time. Its observation is a dict: `observation`, what it sees of the
game, and `action_mask`, int8, 1 for each legal action (all 0 for an agent that is not to
decide). Rewards come at the end of the game alone. An illegal action makes the raw
environment raise the game's ValueError; `env()` (`classic_wrappers`) wraps it as PettingZoo's
classic games are, so that an illegal action ends the game instead, with -1 for its agent.

A game fills in the hooks: `_start` (a new game; chance is drawn from `np_random`, the
generator that `reset(seed=...)` seeds), `_to_decide`, `_legal_actions`, `_describe`,
`_play`, `_outcome`, `_cut_off`, `_observation`, `_text`, `_image`, and the class's
`metadata`, `error_type` and `illegal_action_error`.
"""
from __future__ import annotations

from collections.abc import Sequence
from numbers import Integral
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .messages import clip
from .rendering import RENDER_MODES, check_render_mode, render_frame

Mask = npt.NDArray[np.int8]
Observation = dict[str, Any]      # `observation` and `action_mask`, numpy arrays


def environment_metadata(name: str) -> dict[str, Any]:
    """The metadata of an environment of this module (PettingZoo reads it)."""
    return {"render_modes": list(RENDER_MODES), "name": name, "is_parallelizable": False,
            "render_fps": 1}


class TurnBasedEnv(AECEnv[str, Observation, Any]):
    """A turn-based game, one decision a step (see the module's docstring). Actions are any
    integer (a numpy integer too); the agent of a finished game steps with None."""

    error_type: ClassVar[type[ValueError]]           # what a bad argument raises
    illegal_action_error: ClassVar[type[ValueError]]  # ... and an illegal action

    def __init__(self, agents: Sequence[str], observation_low: npt.NDArray[Any],
                 observation_high: npt.NDArray[Any], action_count: int,
                 render_mode: str | None) -> None:
        """`observation_low` and `observation_high`: the bounds of every number of an
        observation (arrays of its shape and dtype)."""
        self.render_mode = check_render_mode(render_mode, self.error_type)
        self.possible_agents = list(agents)
        self.agents = list(agents)
        self.action_count = action_count
        # one space object per agent: PettingZoo's seed test seeds each agent's own
        self.observation_spaces = {agent: spaces.Dict({
            "observation": spaces.Box(observation_low, observation_high,
                                      dtype=observation_low.dtype),
            "action_mask": spaces.Box(0, 1, (action_count,), dtype=np.int8)})
            for agent in agents}
        self.action_spaces = {agent: spaces.Discrete(action_count) for agent in agents}
        self.np_random, _ = seeding.np_random(None)
        self.options: dict[str, Any] = {}      # reset's options, for the game's `_start`
        self._mask: Mask | None = None         # the legal actions of the decision to take
        self._new_episode()

    # -- the hooks of a game ------------------------------------------------------------------
    def _start(self) -> None:
        """Set up a new game (its chance events drawn from `self.np_random`)."""
        raise NotImplementedError

    def _to_decide(self) -> str:
        """The agent whose decision is next (or who took the last one, once the game is
        over)."""
        raise NotImplementedError

    def _legal_actions(self) -> list[int]:
        """The legal actions of the agent to decide (none once the game is over)."""
        raise NotImplementedError

    def _describe(self, action: int) -> str:
        """An action in words, for a refusal."""
        raise NotImplementedError

    def _play(self, action: int) -> None:
        """Play a legal action of the agent to decide."""
        raise NotImplementedError

    def _outcome(self) -> dict[str, float] | None:
        """Every agent's reward once the game is over, None while it goes on."""
        raise NotImplementedError

    def _cut_off(self) -> bool:
        """Whether the game goes on but the episode ends here (truncated)."""
        raise NotImplementedError

    def _observation(self, agent: str) -> npt.NDArray[Any]:
        """What `agent` sees of the game (the `observation` of its observation dict)."""
        raise NotImplementedError

    def _text(self) -> str:
        raise NotImplementedError

    def _image(self) -> npt.NDArray[np.uint8]:
        raise NotImplementedError

    # -- the AEC interface --------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; `seed` seeds the generator of its chance events (if it has any), None
        goes on with the generator as it is. `options` go to the game's `_start` (as
        `self.options`: what a game reads of them, it says)."""
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        self.options = dict(options or {})
        self._new_episode()
        if self.render_mode == "human":
            self.render()

    def _new_episode(self) -> None:
        self._start()
        self._mask = None
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.infos = infos
        self.agent_selection = self._to_decide()

    def action_mask(self) -> Mask:
        """The legal actions of the agent to decide now, as its observation's mask holds them
        (a copy)."""
        agent = self.agent_selection
        if self.terminations.get(agent, True) or self.truncations.get(agent, True):
            return np.zeros(self.action_count, dtype=np.int8)
        if self._mask is None:
            self._mask = np.zeros(self.action_count, dtype=np.int8)
            self._mask[self._legal_actions()] = 1
        return self._mask.copy()

    def observe(self, agent: str) -> Observation:
        mask = (self.action_mask() if agent == self.agent_selection
                else np.zeros(self.action_count, dtype=np.int8))
        return {"observation": self._observation(agent), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        number = self._checked(action)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._play(number)
        self._mask = None
        outcome = self._outcome()
        if outcome is not None:
            self.rewards.update(outcome)
            self.terminations = dict.fromkeys(self.agents, True)
        elif self._cut_off():
            self.truncations = dict.fromkeys(self.agents, True)
        self.agent_selection = self._to_decide()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _checked(self, action: object) -> int:
        """`action` as an int if it is legal now, else the game's error, naming it."""
        # ints and numpy integers (numbers.Integral), not bools, floats or text
        number = (int(action) if isinstance(action, Integral) and not isinstance(action, bool)
                  else -1)
        if not 0 <= number < self.action_count:
            raise self.illegal_action_error(f"an action is a whole number 0 .. "
                                            f"{self.action_count - 1}, not {clip(action)}")
        if not self.action_mask()[number]:
            raise self.illegal_action_error(f"action {number} ({self._describe(number)}) is "
                                            f"not legal for {self.agent_selection} now")
        return number

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """`ansi`: the game's text drawing; `rgb_array`: a picture (uint8, (H, W, 3));
        `human`: prints the text drawing (and returns None)."""
        return render_frame(self.render_mode, self._text, self._image)

    def close(self) -> None:
        """Nothing to let go of (no window is opened)."""


def classic_wrappers(raw: TurnBasedEnv) -> AECEnv[str, Observation, Any]:
    """`raw` wrapped as PettingZoo's classic games are: an illegal action ends the game with
    -1 for its agent (and 0 for the others), an action out of range is refused, and the
    methods are called in order (reset first)."""
    wrapped: AECEnv[str, Observation, Any] = wrappers.TerminateIllegalWrapper(
        raw, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
