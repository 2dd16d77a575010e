"""Chooses the rules kernel behind ``Board`` and ``perft``: the Cython kernels, or their
pure-Python twin when the environment sets ``QUIXO_PURE_PYTHON=1`` (to debug, or to check a
result against the oracle). Both offer the same functions; see ``_rules_twin`` for their meaning.
Tablebases and search always run on the compiled kernels."""
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Protocol

    class Rules(Protocol):
        """What both rule kernels offer (``_rules.pyi``); mypy checks each module against it."""

        def legal_moves(self, size: int, mover: int, opponent: int) -> list[tuple[int, int]]: ...
        def play_move(self, size: int, mover: int, opponent: int, source: int,
                      target: int) -> tuple[int, int]: ...
        def children(self, size: int, mover: int,
                     opponent: int) -> list[tuple[int, int, int, int, int]]: ...
        def position_status(self, size: int, mover: int, opponent: int) -> int: ...
        def transform_mask(self, size: int, symmetry: int, cubes: int) -> int: ...
        def canonical_position(self, size: int, mover: int,
                               opponent: int) -> tuple[int, int, int]: ...
        def position_key(self, size: int, mover: int, opponent: int) -> int: ...
        def perft(self, size: int, mover: int, opponent: int, depth: int,
                  threads: int = ...) -> int: ...

PURE_PYTHON = os.environ.get("QUIXO_PURE_PYTHON", "") == "1"

rules: "Rules"
if PURE_PYTHON:
    from . import _rules_twin as rules
else:
    try:
        from . import _rules as rules
    except ImportError as error:  # pragma: no cover - depends on the installation
        raise ImportError(
            "the compiled quixo_solver.rules._rules is missing; reinstall the package with a C "
            "compiler, or set QUIXO_PURE_PYTHON=1 to use the (slow) pure-Python rules"
        ) from error

__all__ = ["rules", "PURE_PYTHON"]
