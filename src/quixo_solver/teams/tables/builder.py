"""Building a board's four-player tables in a folder, tier after tier from the full board.

Each tier reads the sides it needs whole into memory (checked block by block), is solved in
memory (tiers.solve_tier: two bytes a slot), and writes each side's file atomically
(files.py), then one line in the folder's journal. A build resumes tier by tier: a tier
whose files are there and complete is not solved again; a tier cut short is solved again
from its start, and so is a tier whose file is found damaged. With `stop_after`, no tier is begun once the time is spent.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...tablebase.generator.checkpoint import Stopwatch
from ...tablebase.generator.journal import (append, finished_now, peak_memory_bytes, read_lines,
                                            reset_peak_memory)
from . import files
from .tiers import Progress, Tier, solve_tier, tiers

JOURNAL_NAME = "BUILD-JOURNAL-4P.jsonl"


@dataclass
class TeamBuildReport:
    directory: Path
    size: int
    solved: list[Tier] = field(default_factory=list)
    skipped: list[Tier] = field(default_factory=list)   # built before
    left: list[Tier] = field(default_factory=list)      # not begun: the time was spent
    seconds: float = 0.0

    @property
    def complete(self) -> bool:
        return not self.left


def is_built(directory: Path, tier: Tier) -> bool:
    """Whether every file of the tier is there and undamaged (every block checked: a damaged
    tier is solved again)."""
    return all(files.is_intact(directory, tier.size, t, u, check_data=True)
               for t, u in tier.sides)


def build(directory: Path, size: int, max_blanks: int | None = None, *, threads: int = 0,
          stop_after: float | None = None, progress: Progress | None = None,
          on_tier: Callable[[Tier, bool], None] | None = None) -> TeamBuildReport:
    """Solve every tier of the board with at most `max_blanks` blanks into `directory`;
    `on_tier(tier, solved)` hears of each tier as it is done or found built."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    report = TeamBuildReport(directory, size)
    start = time.monotonic()
    order = tiers(size, max_blanks)
    for position, tier in enumerate(order):
        if is_built(directory, tier):
            report.skipped.append(tier)
            if on_tier is not None:
                on_tier(tier, False)
            continue
        if stop_after is not None and time.monotonic() - start >= stop_after:
            report.left = order[position:]
            break
        solve_in_folder(directory, tier, threads, progress)
        report.solved.append(tier)
        if on_tier is not None:
            on_tier(tier, True)
    report.seconds = time.monotonic() - start
    return report


def solve_in_folder(directory: Path, tier: Tier, threads: int,
                    progress: Progress | None = None) -> None:
    """Solve one tier from the sides it needs in `directory` and write its files there."""
    stopwatch = Stopwatch()
    reset_peak_memory()
    inputs = {}
    for side in tier.needs:
        table = files.open_side(directory, tier.size, *side)
        try:
            inputs[side] = table.values(threads)
        finally:
            table.close()
    passes = 0

    def heard(solving: Tier, plies: int, longest: int) -> None:
        nonlocal passes
        passes = plies
        if progress is not None:
            progress(solving, plies, longest)

    solved = solve_tier(tier, inputs, threads, heard)
    inputs.clear()
    written = [files.write_side(directory, tier.size, t, u, values, threads)
               for (t, u), values in solved.items()]
    longest = max(files.read_header(directory, tier.size, t, u).longest_plies
                  for t, u in solved)
    spent = stopwatch.spent()
    append(directory / JOURNAL_NAME, {
        "players": 4, "size": tier.size, "team": tier.team_count, "other": tier.other_count,
        "entries": tier.entries, "threads": threads, "seconds": round(spent.wall, 3),
        "cpu_seconds": round(spent.cpu, 3), "passes": passes, "longest_plies": longest,
        "peak_memory_bytes": peak_memory_bytes(),
        "bytes": sum(path.stat().st_size for path in written),
        "finished": finished_now()})


def read_journal(directory: Path) -> list[dict[str, Any]]:
    """The journal's lines (one that does not parse is left out; the last line of a tier
    wins)."""
    return read_lines(Path(directory) / JOURNAL_NAME, ("size", "team", "other"))
