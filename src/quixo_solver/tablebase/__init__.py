"""Retrograde tablebases: exact value and plies of every position of the built classes."""
from . import stats
from .build_setup import BuildReport, InsufficientResourcesError
from .builder import build
from .compress import CompressReport, compress_folder
from .errors import BlankRangeError, CorruptTableError, OldFormatError, TablebaseError
from .plan import Unit, units
from .probe import MissingTableError, ProbeResult, Tablebase, default_directory
from .verify import VerifyReport, verify

__all__ = [
    "BlankRangeError",
    "BuildReport",
    "CompressReport",
    "CorruptTableError",
    "InsufficientResourcesError",
    "MissingTableError",
    "OldFormatError",
    "ProbeResult",
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
