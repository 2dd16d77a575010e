"""Qwixx as a PettingZoo environment (the extra `rl`): `qwixx_v0`, for 2 to 5 players.

>>> from qwixx_stats.pettingzoo import qwixx_v0
>>> env = qwixx_v0.env(players=3)
>>> env.reset(seed=1)
>>> env.agents
['player_0', 'player_1', 'player_2']
"""
from . import qwixx_v0

__all__ = ["qwixx_v0"]
