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

    def draw(self, force: bool = False) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if not force and now - self._last_draw < 0.1:
            return
        self._last_draw = now
        fraction = min(self.done / self.total, 1.0)
        elapsed = now - self.started
        eta = f"{elapsed / fraction - elapsed:6.0f}s left" if fraction > 0.001 else ""
        bar = "#" * int(30 * fraction)
        self.stream.write(f"\r[{bar:<30}] {100 * fraction:5.1f}% {eta} {self.label:<40.40}")
        self.stream.flush()

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
