"""The errors of the tablebase package (apart from the kernels, which everything imports)."""
from __future__ import annotations

from ..errors import QuixoError


class TablebaseError(QuixoError):
    """A table file that cannot be used."""


class CorruptTableError(TablebaseError):
    """A table file that is truncated, damaged or not a table at all."""


class OldFormatError(CorruptTableError):
    """A table file of an older format that this program does not read (it may convert it)."""


class BlankRangeError(QuixoError):
    """A range of blank counts that is empty or off the board."""
