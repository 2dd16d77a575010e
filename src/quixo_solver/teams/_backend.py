"""The four-player rules engine: the Cython kernels, or the pure-Python twin when the
environment sets QUIXO_PURE_PYTHON=1 (as for two players)."""
from typing import TYPE_CHECKING

from .._backend import PURE_PYTHON

if TYPE_CHECKING:
    from typing import Protocol

    from ._rules import Move, Roles

    class TeamEngine(Protocol):
        """What both engines offer (``_rules.pyi``); mypy checks each module against it."""

        def legal_moves(self, size: int, roles: Roles) -> list[Move]: ...
        def play_move(self, size: int, roles: Roles, move: Move) -> Roles: ...
        def position_status(self, size: int, roles: Roles) -> int: ...
        def perft(self, size: int, roles: Roles, depth: int, threads: int = ...) -> int: ...

engine: "TeamEngine"
if PURE_PYTHON:
    from . import _twin as engine
else:
    from . import _rules as engine

__all__ = ["engine"]
