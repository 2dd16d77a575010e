"""The four-player rules engine: the Cython kernels, or the pure-Python twin when the
environment sets QUIXO_PURE_PYTHON=1 (as for two players)."""
from .._backend import PURE_PYTHON

if PURE_PYTHON:
    from . import _twin as engine
else:
    from . import _rules as engine

__all__ = ["engine"]
