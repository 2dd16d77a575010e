"""Retrograde tablebases: exact value and plies of every position of the built classes.

The folders are the parts: `format/` the table files, `generator/` the retrograde builder,
`web/` manifests, downloads and remote tables; reading (probe, traps, sample, stats), the
pairs, verifying, the values and the errors are here at the root. Like python-chess's prober,
a probe loads no part of the generator: `build` and what only a build needs are imported when
first asked for, and so is the remote tablebase with its HTTP client.
"""
from __future__ import annotations

import importlib
import importlib.util
import sys
import warnings
from types import ModuleType
from typing import TYPE_CHECKING, Any

from . import stats
from .errors import (BlankRangeError, CorruptTableError, MissingTableError, OldFormatError,
                     RemoteError, RemoteRateLimited, RemoteTimeout, RemoteUnreachable,
                     TablebaseError)
from .format.compress import CompressReport, compress_folder
from .pairs import Unit, units
from .probe import BaseTablebase, ProbeResult, Tablebase, default_directory
from .verify import VerifyReport, verify

if TYPE_CHECKING:
    from importlib.machinery import ModuleSpec

    from .generator.builder import build
    from .generator.prepare import BuildReport, InsufficientResourcesError
    from .web.remote import RemoteTablebase

# The face's names imported when first asked for (the module that holds each).
_LAZY = {"build": "generator.builder", "BuildReport": "generator.prepare",
         "InsufficientResourcesError": "generator.prepare", "RemoteTablebase": "web.remote"}

# 0.1.0's modules of a flat tablebase/ and where they are now. The old names still import,
# with a DeprecationWarning, until 0.3.0 (CHANGELOG.md). `plan` held the pairs too: its old
# name leads to them, and a build's totals are in generator.plan.
_MOVED = {"files": "format.files", "format3": "format.format3", "coding": "format.coding",
          "compress": "format.compress", "plan": "pairs", "forecast": "generator.forecast",
          "builder": "generator.builder", "cluster": "generator.cluster",
          "pair_solver": "generator.pair_solver", "checkpoint": "generator.checkpoint",
          "journal": "generator.journal", "build_setup": "generator.prepare",
          "build_progress": "generator.progress", "manifest": "web.manifest",
          "download": "web.download", "remote": "web.remote"}


def _moved_module(old: str) -> ModuleType:
    warnings.warn(f"{__name__}.{old} moved to {__name__}.{_MOVED[old]}; the old name goes "
                  "in 0.3.0", DeprecationWarning, stacklevel=3)
    return importlib.import_module(f"{__name__}.{_MOVED[old]}")


class _MovedModules:
    """`import quixo_solver.tablebase.files` and the like: the module under its new name (a
    finder and loader of sys.meta_path's protocol; importlib.abc is not imported, for what it
    would add to every import of the tables)."""

    def find_spec(self, fullname: str, path: Any = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        package, _, old = fullname.rpartition(".")
        if package == __name__ and old in _MOVED:
            loader: Any = self        # (the protocol's, not importlib.abc's class)
            return importlib.util.spec_from_loader(fullname, loader)
        return None

    def create_module(self, spec: ModuleSpec) -> ModuleType:
        return _moved_module(spec.name.rpartition(".")[2])

    def exec_module(self, module: ModuleType) -> None:
        """The module is the moved one, already run."""


if not any(isinstance(finder, _MovedModules) for finder in sys.meta_path):
    sys.meta_path.append(_MovedModules())


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
    if name in _MOVED:
        return _moved_module(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "BaseTablebase",
    "BlankRangeError",
    "BuildReport",
    "CompressReport",
    "CorruptTableError",
    "InsufficientResourcesError",
    "MissingTableError",
    "OldFormatError",
    "ProbeResult",
    "RemoteError",
    "RemoteRateLimited",
    "RemoteTablebase",
    "RemoteTimeout",
    "RemoteUnreachable",
    "Tablebase",
    "TablebaseError",
    "Unit",
    "VerifyReport",
    "build",
    "compress_folder",
    "default_directory",
    "units",
    "verify",
]
