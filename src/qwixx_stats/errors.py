"""Exceptions: every refusal is a ValueError subclass that names the problem."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, Optional


class QwixxError(ValueError):
    """Base class of the errors raised for bad input."""


class SheetError(QwixxError):
    """A sheet that cannot exist (bad notation, marks out of order, a lock without 5 marks)."""


class DiceError(QwixxError):
    """Dice that are not six numbers 1..6."""


class IllegalMarkError(QwixxError):
    """A mark the rules do not allow on this sheet now."""


def seat_name(seat: int) -> str:
    """How a message names a seat unless its view names it otherwise (`player 1`)."""
    return f"player {seat + 1}"


class TurnFault(IllegalMarkError):
    """A decision of a turn that the rules refuse (game.Turn): `text(name)` says it with the
    seat named as the view names it (the tracker's `player 2 (you)`); str() says `player 2`."""

    def __init__(self, seat: Optional[int], reason: str):
        self.seat, self.reason = seat, reason     # seat None: the fault is the turn's
        super().__init__(self.text())

    def text(self, name: Callable[[int], str] = seat_name) -> str:
        return self.reason if self.seat is None else f"{name(self.seat)} {self.reason}"

    def __reduce__(self) -> tuple[Any, ...]:
        return TurnFault, (self.seat, self.reason)


class GameOverError(QwixxError):
    """A turn asked of a game that has ended."""


class GameError(QwixxError):
    """A game set up or played with arguments of the wrong kind (player count, decisions)."""


class GameRecordError(GameError):
    """A tracked game's settings or turn, as JSON, not of the form that the save file and the
    explorer's tracker both take (track/game_json.py)."""


class TrackError(GameError):
    """A bad `qwixx track` option (the command line reports it and exits 2)."""


class SaveFileError(TrackError):
    """A `qwixx track` save file that cannot be read, is damaged, or holds no legal game."""


class StrategyError(QwixxError):
    """An unknown strategy name or a bad strategy list."""


class SimulationError(QwixxError):
    """Simulator arguments out of range (games, seed)."""


class TableError(QwixxError):
    """An expected-value table file that is missing, truncated or corrupt, or a table folder
    that cannot hold it (a regular file, not creatable, not writable)."""

