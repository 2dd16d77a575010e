"""Chooses the rules engine behind ``Board`` and ``perft``: the Cython kernels, or their
pure-Python twin when the environment sets ``QUIXO_PURE_PYTHON=1`` (to debug, or to check a
result against the oracle). Both offer the same functions; see ``_twin`` for their meaning.
Tablebases and search always run on the compiled kernels."""
import os

PURE_PYTHON = os.environ.get("QUIXO_PURE_PYTHON", "") == "1"

if PURE_PYTHON:
    from . import _twin as engine
else:
    try:
        from . import _engine as engine
    except ImportError as error:  # pragma: no cover - depends on the installation
        raise ImportError(
            "the compiled quixo_solver._engine is missing; reinstall the package with a C "
            "compiler, or set QUIXO_PURE_PYTHON=1 to use the (slow) pure-Python engine"
        ) from error

__all__ = ["engine", "PURE_PYTHON"]
