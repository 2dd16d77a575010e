"""A progress bar on a terminal, silence elsewhere."""
from __future__ import annotations

import sys
import threading
import time
from typing import TextIO


class Progress:
    def __init__(self, total: int, label: str = "", *, stream: TextIO | None = None,
                 enabled: bool | None = None):
        self.total = max(total, 1)
        self.done = 0
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.started = time.monotonic()
        self._last_draw = 0.0

    def advance(self, amount: int, label: str | None = None) -> None:
        self.done += amount
        if label is not None:
            self.label = label
        self.draw()

    # A terminal redrawn more often than this only flickers.
    redraw_seconds = 0.1

    def draw(self, force: bool = False) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if not force and now - self._last_draw < self.redraw_seconds:
            return
        self._last_draw = now
        self.stream.write("\r" + self.line(now, min(self.done / self.total, 1.0)))
        self.stream.flush()

    def line(self, now: float, fraction: float) -> str:
        """The bar as drawn at `now`, `fraction` of the total done."""
        elapsed = now - self.started
        eta = f"{elapsed / fraction - elapsed:6.0f}s left" if fraction > 0.001 else ""
        bar = "#" * int(30 * fraction)
        return f"[{bar:<30}] {100 * fraction:5.1f}% {eta} {self.label:<40.40}"

    def close(self) -> None:
        if self.enabled:
            self.draw(force=True)
            self.stream.write("\n")
            self.stream.flush()


class ByteProgress:
    """A bar of bytes done out of `total`, labelled in MB, that several threads advance at
    once (files hashed or fetched side by side); a negative amount takes bytes back (a
    transfer that starts over)."""

    def __init__(self, total: int, *, enabled: bool | None = None) -> None:
        self.bar = Progress(total, "", enabled=enabled)
        self.lock = threading.Lock()

    def __call__(self, amount: int) -> None:
        with self.lock:
            done = self.bar.done + amount
            self.bar.advance(amount, f"{done / 1e6:,.1f} of {self.bar.total / 1e6:,.1f} MB")

    def close(self) -> None:
        with self.lock:
            self.bar.close()
