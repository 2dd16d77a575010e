"""The four-player rules kernel: the Cython kernels, or the pure-Python twin when the
environment sets QUIXO_PURE_PYTHON=1 (as for two players)."""
from typing import TYPE_CHECKING

from ..rules._backend import PURE_PYTHON

if TYPE_CHECKING:
    from typing import Protocol

    from ._team_rules import Move, Roles

    class TeamRules(Protocol):
        """What both rule kernels offer (``_team_rules.pyi``); mypy checks each module against it."""

        def legal_moves(self, size: int, roles: Roles) -> list[Move]: ...
        def play_move(self, size: int, roles: Roles, move: Move) -> Roles: ...
        def position_status(self, size: int, roles: Roles) -> int: ...
        def perft(self, size: int, roles: Roles, depth: int, threads: int = ...) -> int: ...

rules: "TeamRules"
if PURE_PYTHON:
    from . import _team_rules_twin as rules
else:
    from . import _team_rules as rules

__all__ = ["rules"]
