"""Exceptions of the Quixo package. Everything raised for bad input is a ``ValueError``."""


class QuixoError(ValueError):
    """Base of the errors raised for bad input."""


class BoardSizeError(QuixoError):
    """A board size other than 3, 4 or 5."""


class PositionError(QuixoError):
    """A position string that cannot be read."""


class MoveError(QuixoError):
    """A move that is malformed, or does not exist on this board."""


class IllegalMoveError(MoveError):
    """A well-formed move that the rules forbid in this position."""


class GameOverError(IllegalMoveError):
    """A move asked for in a position where the game is over."""


class SymmetryError(QuixoError):
    """A symmetry number other than 0 .. 7."""


class DepthError(QuixoError):
    """A negative or non-integer search depth."""


class LimitError(QuixoError):
    """A number out of its allowed range (threads, table sizes, times), or not a number."""


class ClockError(QuixoError):
    """A time control that cannot be read (`10m+5s`, `90s`, `300`), or a clock out of range."""


class MatchError(QuixoError):
    """An engine setting or a match that cannot be run as asked (a records file of another
    match, an unknown setting)."""
