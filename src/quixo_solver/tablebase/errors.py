"""The errors of the tablebase package (apart from the kernels, which everything imports)."""
from __future__ import annotations

from ..errors import QuixoError


class TablebaseError(QuixoError):
    """A table file that cannot be used."""


class CorruptTableError(TablebaseError):
    """A table file that is truncated, damaged or not a table at all."""


class OldFormatError(CorruptTableError):
    """A table file of an older format that this program does not read (it may convert it)."""


class MissingTableError(KeyError):
    """The table of a position's class has not been built (or not found in the folder)."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class BlankRangeError(QuixoError):
    """A range of blank counts that is empty or off the board."""


class RemoteError(QuixoError):
    """A remote tablebase (another `quixo serve`) that did not answer, or answered what
    cannot be used."""


class RemoteTimeout(RemoteError):
    """A remote tablebase that did not answer in time."""


class RemoteUnreachable(RemoteError):
    """A remote tablebase whose host cannot be reached (no such host, connection refused)."""


class RemoteRateLimited(RemoteError):
    """A remote tablebase that refuses more requests for now (429); `retry_after`: the
    seconds it asked to wait, or None."""

    def __init__(self, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after
