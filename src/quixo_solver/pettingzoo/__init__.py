"""Quixo as PettingZoo environments (the extra `rl`): `quixo_v0`, for two and four players.

>>> from quixo_solver.pettingzoo import quixo_v0
>>> env = quixo_v0.env(size=3)
>>> env.reset(seed=1)
>>> env.agents
['X', 'O']
"""
from . import quixo_v0

__all__ = ["quixo_v0"]
