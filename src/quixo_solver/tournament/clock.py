"""Game clocks for tournament play (the rulebook: "it is possible to allot each player a
limited amount of time").

A time control is a total per player and an optional increment added after each of that
player's moves, written as chess players write it: `10m+5s`, `90s`, `1m30s+2s`, `300` (plain
numbers are seconds), `10+0.1`. A `GameClock` keeps every player's remaining time during a
game, charges each move its time, flags a player whose time runs out, and keeps the clocks
before every move so that taking moves back restores them.

How long the engine thinks under a clock is another matter: see `search/time_allocation.py`.
"""
from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass
from typing import Callable, Mapping

from solverkit.messages import clip

from ..errors import ClockError


MAX_TOTAL = 24 * 3600.0        # a day per player: far beyond any game, small enough to show
MAX_INCREMENT = 3600.0
UNITS = {"h": 3600.0, "m": 60.0, "s": 1.0, "ms": 0.001}
_NUMBER = r"(?:\d+(?:\.\d*)?|\.\d+)"
_PART = re.compile(rf"({_NUMBER})(ms|h|m|s)")
EXAMPLES = "10m+5s, 90s, 1m30s+2s or 300 (seconds)"


def parse_duration(text: str, what: str = "time") -> float:
    """Seconds of `90`, `90s`, `1m30s`, `1.5m`, `0.1s`, `500ms`, `1h`: a plain number, or
    numbers with units from the largest to the smallest, each unit once."""
    cleaned = text.strip().lower()
    if re.fullmatch(_NUMBER, cleaned):
        return float(cleaned)
    position, seconds, order = 0, 0.0, list(UNITS)
    last = -1
    for part in _PART.finditer(cleaned):
        rank = order.index(part.group(2))
        if part.start() != position or rank <= last:
            break
        seconds += float(part.group(1)) * UNITS[part.group(2)]
        position, last = part.end(), rank
    if position == 0 or position != len(cleaned):
        raise ClockError(f"bad {what} {clip(text)}: write a time such as {EXAMPLES}")
    return seconds


@dataclass(frozen=True)
class TimeControl:
    """`seconds` for each player's whole game, `increment` added after each of their moves."""

    seconds: float
    increment: float = 0.0

    def __post_init__(self) -> None:
        for name, value, low, high in (("the clock", self.seconds, 0.0, MAX_TOTAL),
                                       ("the increment", self.increment, 0.0, MAX_INCREMENT)):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ClockError(f"{name} must be a number of seconds, not {clip(value)}")
            if not (math.isfinite(value) and low <= value <= high):
                raise ClockError(f"{name} must be from {low:g} to {high:g} seconds, "
                                 f"not {value!r}")
        if self.seconds <= 0:
            raise ClockError("the clock must give each player more than 0 seconds")

    @classmethod
    def parse(cls, text: str) -> "TimeControl":
        """`10m+5s` -> TimeControl(600.0, 5.0); ClockError naming the text otherwise."""
        if not isinstance(text, str):
            raise ClockError(f"a clock is written as text such as {EXAMPLES}, "
                             f"not {clip(text)}")
        total, plus, increment = text.partition("+")
        if not total.strip() or (plus and not increment.strip()):
            raise ClockError(f"bad clock {clip(text)}: write a time such as {EXAMPLES}")
        return cls(parse_duration(total, "clock"),
                   parse_duration(increment, "increment") if plus else 0.0)

    def __str__(self) -> str:
        text = _short(self.seconds)
        return text + (f"+{_short(self.increment)}" if self.increment else "")


def _short(seconds: float) -> str:
    """`600` -> `10m`, `90` -> `1m30s`, `0.1` -> `0.1s`: the notation TimeControl reads."""
    minutes, rest = divmod(seconds, 60.0)
    if minutes and abs(rest - round(rest)) < 1e-9:
        return f"{int(minutes)}m" + (f"{int(round(rest))}s" if round(rest) else "")
    return f"{seconds:g}s"


def format_clock(seconds: float) -> str:
    """`9:58.3`; `1:02:03.4` from an hour up. Tenths are cut, not rounded, so that a clock
    never shows time its player does not have; below zero it shows 0:00.0."""
    tenths = max(0, math.floor(seconds * 10 + 1e-9))
    minutes, tenth_seconds = divmod(tenths, 600)
    hours, minutes = divmod(minutes, 60)
    shown = f"{tenth_seconds // 10:02d}.{tenth_seconds % 10}"
    return f"{hours}:{minutes:02d}:{shown}" if hours else f"{minutes}:{shown}"


class GameClock:
    """The clocks of a game's players (`controls`: each clocked player's name, such as "X" or
    "O1", with their time control; players without a clock are simply not in it).

    `start(player)` starts that player's clock (their turn begins), `stop()` charges the
    running player the time since then and adds their increment; a player whose time has run
    out is `flagged` (the increment does not save them: the flag fell before it was earned).
    `undo(n)` restores every clock to what it was before the last n moves. Time comes from
    `now` (seconds, monotonic), which tests replace by a clock of their own.
    """

    def __init__(self, controls: Mapping[str, TimeControl],
                 now: Callable[[], float] = time.monotonic) -> None:
        self.controls = dict(controls)
        self.remaining = {player: control.seconds for player, control in self.controls.items()}
        self.flagged: str | None = None
        self._now = now
        self._running: str | None = None
        self._since = 0.0
        self._history: list[dict[str, float]] = []

    @property
    def running(self) -> str | None:
        return self._running

    def start(self, player: str) -> None:
        """Start `player`'s clock; nothing changes if it is already running (a player who asks
        for help keeps thinking on their own time)."""
        if self._running == player:
            return
        self._running = player
        self._since = self._now()

    def left(self, player: str) -> float:
        """`player`'s time now, counting the move they are thinking about (inf: no clock)."""
        if player not in self.remaining:
            return math.inf
        left = self.remaining[player]
        if self._running == player:
            left -= self._now() - self._since
        return left

    def expired(self, player: str) -> bool:
        return self.left(player) <= 0

    def stop(self) -> bool:
        """End the running player's move: charge its time, then add the increment. False when
        the player ran out of time (then `flagged` names them)."""
        player, self._running = self._running, None
        self._history.append(dict(self.remaining))
        if player is None or player not in self.remaining:
            return True
        left = self.remaining[player] - (self._now() - self._since)
        if left <= 0:
            self.remaining[player] = 0.0
            self.flagged = player
            return False
        self.remaining[player] = left + self.controls[player].increment
        return True

    def undo(self, moves: int = 1) -> None:
        """The clocks as they were before the last `moves` moves (moves that were taken
        back); the clock that was running stops."""
        if not 0 <= moves <= len(self._history):
            raise ClockError(f"cannot take back {moves} moves: the clock has seen "
                             f"{len(self._history)}")
        if moves:
            self.remaining = self._history[-moves]
            del self._history[-moves:]
        self._running = None
        self.flagged = None

    def display(self) -> str:
        """`X 9:58.3 | O 10:00.0`: every clocked player, in the order given."""
        return " | ".join(f"{player} {format_clock(self.left(player))}"
                          for player in self.controls)
