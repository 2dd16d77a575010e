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


class GameError(QwixxError):
    """A game set up or played with arguments of the wrong kind (player count, decisions)."""


class StrategyError(QwixxError):
    """An unknown strategy name or a bad strategy list."""


class SimulationError(QwixxError):
    """Simulator arguments out of range (games, seed)."""


class TableError(QwixxError):
    """An expected-value table file that is missing, truncated or corrupt, or a table folder
    that cannot hold it (a regular file, not creatable, not writable)."""


CLIP = 60


def cut(text: str, limit: int = CLIP) -> str:
    """`text` cut to about `limit` characters (`...` marks a cut)."""
    return text if len(text) <= limit else text[:limit] + "..."


def cut_path(path, limit: int = 2 * CLIP) -> str:
    """A path for a message: whole up to `limit` characters, else its start and its end (the
    end names the file)."""
    text = str(path)
    if len(text) <= limit:
        return text
    return text[:limit // 3] + "..." + text[-(limit - limit // 3):]


def clip(value, limit: int = CLIP) -> str:
    """`repr(value)` cut to about `limit` characters, for error messages that echo input."""
    try:
        text = repr(value)
    except Exception:                     # a huge int, or a __repr__ that fails
        text = f"<{type(value).__name__}>"
    return cut(text, limit)
