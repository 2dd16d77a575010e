"""The progress line of a build: the whole job's entries done and left, the rate, an ETA, and
where the pair being solved stands (on a terminal; silent elsewhere)."""
from __future__ import annotations

import time
from typing import TextIO

from solverkit.progress import Progress

from .. import pairs
from .checkpoint import KERNELS, Place


def _duration(seconds: float) -> str:
    seconds = int(max(seconds, 0))
    if seconds >= 3600:
        return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
    return f"{seconds // 60}m{seconds % 60:02d}s"


def place_label(unit: pairs.Unit, place: Place, longest: int, chunks: int) -> str:
    """Where a pair's solve stands, in words: its first steps, or the pass and the most plies
    assigned yet (passes run until they pass it); then how far the step under way is (the
    pull of a large pair runs for tens of minutes)."""
    a, b = unit.classes[place.side]
    done = f" {100 * place.chunk // max(chunks, 1)}%"
    if place.stage == 0:
        return f"{unit}: class ({a}, {b}) {KERNELS[place.kernel]}{done}"
    return f"{unit}: ply {place.plies}/{longest + 1}{done}"


class BuildProgress(Progress):
    """Entries of the units finished in this run count as done; the rate is theirs over the
    time the run has solved, and the ETA takes off the time the running unit has had."""

    redraw_seconds = 0.5

    def __init__(self, todo: list[pairs.Unit], label: str, *, stream: TextIO | None = None,
                 enabled: bool | None = None):
        super().__init__(sum(unit.entries for unit in todo), label, stream=stream,
                         enabled=enabled)
        self.solved_entries = 0
        self.unit_started = self.started

    def start(self, unit: pairs.Unit) -> None:
        self.unit_started = time.monotonic()
        self.label = f"{unit}"
        self.draw()

    def step(self, unit: pairs.Unit, place: Place, longest: int, chunks: int) -> None:
        self.label = place_label(unit, place, longest, chunks)
        self.draw()

    def finish(self, unit: pairs.Unit, solved: bool) -> None:
        if solved:
            self.solved_entries += unit.entries
        self.advance(unit.entries, f"{unit} done" if solved else
                     f"{unit} built by another process")

    def line(self, now: float, fraction: float) -> str:
        left = self.total - self.done
        elapsed = now - self.started
        rate = self.solved_entries / elapsed if self.solved_entries and elapsed > 0 else 0.0
        eta = (f"ETA {_duration(left / rate - (now - self.unit_started))}" if rate and left
               else "")
        bar = "#" * int(20 * fraction)
        return (f"[{bar:<20}] {100 * fraction:5.1f}% {self.done / 1e9:.2f}/{self.total / 1e9:.2f}"
                f" G entries, {rate / 1e6:.2f} M/s {eta} | {self.label:<42.42}")
