"""Retrograde tablebases: exact value and plies of every position of the built classes."""
from . import stats
from .builder import BuildReport, InsufficientResourcesError, build
from .files import CorruptTableError, TablebaseError
from .plan import Unit, units
from .probe import MissingTableError, ProbeResult, Tablebase, default_directory
from .verify import VerifyReport, verify

__all__ = [
    "BuildReport",
    "CorruptTableError",
    "InsufficientResourcesError",
    "MissingTableError",
    "ProbeResult",
    "Tablebase",
    "TablebaseError",
    "Unit",
    "VerifyReport",
    "build",
    "default_directory",
    "units",
    "verify",
]
