"""Retrograde tablebases: exact value and plies of every position of the built classes."""
from typing import TYPE_CHECKING, Any

from . import stats
from .build_setup import BuildReport, InsufficientResourcesError
from .builder import build
from .compress import CompressReport, compress_folder
from .errors import (BlankRangeError, CorruptTableError, MissingTableError, OldFormatError,
                     RemoteError, RemoteRateLimited, RemoteTimeout, RemoteUnreachable,
                     TablebaseError)
from .plan import Unit, units
from .probe import BaseTablebase, ProbeResult, Tablebase, default_directory
from .verify import VerifyReport, verify

if TYPE_CHECKING:
    from .remote import RemoteTablebase


def __getattr__(name: str) -> Any:
    # RemoteTablebase brings the HTTP client with it: imported when asked for, so that a
    # program that never reaches another server (a build, a local probe) starts without it
    if name == "RemoteTablebase":
        from .remote import RemoteTablebase
        return RemoteTablebase
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
