"""Exceptions: every refusal is a ValueError subclass that names the problem."""


class QwixxError(ValueError):
    """Base class of the errors raised for bad input."""


class SheetError(QwixxError):
    """A sheet that cannot exist (bad notation, marks out of order, a lock without 5 marks)."""


class DiceError(QwixxError):
    """Dice that are not six numbers 1..6."""


class IllegalMarkError(QwixxError):
    """A mark the rules do not allow on this sheet now."""


class GameOverError(QwixxError):
    """A turn asked of a game that has ended."""


class TableError(QwixxError):
    """An expected-value table file that is missing, truncated or corrupt."""
