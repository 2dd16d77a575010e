"""A progress bar on a terminal, silence elsewhere."""
from __future__ import annotations

import sys
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
