"""Quixo for Gymnasium (the extra `rl`): importing this package registers
`quixo_solver/Quixo-v0`, two-player Quixo for a single agent against an opponent
(quixo_env.QuixoEnv): keyword arguments `size` (3, 4, 5), `players` (2), `opponent`
(`random`, `engine`, `perfect`), and `seat`, `tablebase`, `engine_nodes`, `max_plies`.

>>> import gymnasium
>>> import quixo_solver.gymnasium
>>> env = gymnasium.make("quixo_solver/Quixo-v0", size=3, opponent="engine")
>>> observation, info = env.reset(seed=1)
>>> observation.shape, int(info["action_mask"].sum())
((3, 3, 3), 20)
"""
import gymnasium

from .opponents import OPPONENTS, OpponentError, UncoveredPositionError
from .quixo_env import QuixoEnv

ENV_ID = "quixo_solver/Quixo-v0"

if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point=f"{__name__}.quixo_env:QuixoEnv")

__all__ = ["ENV_ID", "OPPONENTS", "OpponentError", "QuixoEnv", "UncoveredPositionError"]
