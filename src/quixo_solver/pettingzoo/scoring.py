"""A PettingZoo policy scored on a set of positions with exact answers
(tournament/position_sets.py): its action in each position, as it sees it in a `quixo_v0`
environment reset there (``env.reset(options={"position": POSITION})``).

    from quixo_solver.pettingzoo.scoring import score_policy
    from quixo_solver.tournament.position_sets import PositionSet

    found = PositionSet.load("benchmarks/data/sets/quixo-4x4.json")
    def first_legal(observation, agent):
        return int(observation["action_mask"].argmax())
    score_policy(first_legal, found)
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..frameworks.actions import move_of_action
from ..rules.baseboard import BaseBoard
from ..tournament.position_sets import PositionSet, score
from . import quixo_v0

Policy = Callable[[dict[str, Any], str], int]     # (observation dict, agent) -> action


def score_policy(policy: Policy, position_set: PositionSet) -> dict[str, Any]:
    """The policy's score on the set (`position_sets.score`)."""
    env = quixo_v0.env(size=position_set.size, players=position_set.players)

    def choose(board: BaseBoard) -> str:
        env.reset(options={"position": str(board)})
        agent = env.agent_selection
        observation: Any = env.observe(agent)        # the dict of the observation space
        action = int(policy(observation, agent))
        return str(move_of_action(board.size, board.players, action))

    return score(position_set, choose)
