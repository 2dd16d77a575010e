"""Chooses the rules engine: the Cython kernels, or the pure-Python twin when the
environment sets ``QUIXO_PURE_PYTHON=1`` (for tests, debugging, or a machine without a
compiler). Both offer the same functions; see ``_twin`` for their meaning."""
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
