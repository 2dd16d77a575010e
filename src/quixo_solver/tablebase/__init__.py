"""Retrograde tablebases: exact value and plies of every position of the built classes."""
from . import stats
from .build_setup import BuildReport, InsufficientResourcesError
from .builder import build
from .compress import CompressReport, compress_folder
from .errors import (BlankRangeError, CorruptTableError, MissingTableError, OldFormatError,
                     RemoteError, RemoteRateLimited, RemoteTimeout, RemoteUnreachable,
                     TablebaseError)
from .plan import Unit, units
from .probe import BaseTablebase, ProbeResult, Tablebase, default_directory
from .remote import RemoteTablebase
from .verify import VerifyReport, verify

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
