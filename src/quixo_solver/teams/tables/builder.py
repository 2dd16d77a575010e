"""Building a board's four-player tables in a folder, tier after tier from the full board.

Each tier reads the sides it needs whole into memory (checked block by block), is solved in
memory (tiers.solve_tier: two bytes a slot), and writes each side's file atomically
(files.py), then one line in the folder's journal. A tier whose files are there and
undamaged is not solved again. A tier being solved saves its state every
`checkpoint_seconds` (checkpoint.py), so a build killed at any moment loses at most that much
and the same build resumes inside the tier, byte for byte the same files; with `stop_after`
it saves and stops when the time is spent.
"""
from __future__ import annotations

import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...tablebase.generator.checkpoint import (DEFAULT_SECONDS, BudgetSpent, CheckpointError,
                                               Spent, Stopwatch)
from ...tablebase.generator.journal import (append, finished_now, peak_memory_bytes, read_lines,
                                            reset_peak_memory)
from . import checkpoint, files
from .tiers import Progress, Tier, solve_tier, tiers

JOURNAL_NAME = "BUILD-JOURNAL-4P.jsonl"


@dataclass
class TeamBuildReport:
    directory: Path
    size: int
    solved: list[Tier] = field(default_factory=list)
    skipped: list[Tier] = field(default_factory=list)   # built before
    left: list[Tier] = field(default_factory=list)      # not done: the time was spent (the
                                                        # first may have its state saved)
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
          on_tier: Callable[[Tier, bool], None] | None = None,
          checkpoint_seconds: float | None = DEFAULT_SECONDS) -> TeamBuildReport:
    """Solve every tier of the board with at most `max_blanks` blanks into `directory`;
    `on_tier(tier, solved)` hears of each tier as it is done or found built."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    report = TeamBuildReport(directory, size)
    start = time.monotonic()
    deadline = None if stop_after is None else start + stop_after
    order = tiers(size, max_blanks)
    for position, tier in enumerate(order):
        if is_built(directory, tier):
            report.skipped.append(tier)
            if on_tier is not None:
                on_tier(tier, False)
            continue
        try:
            if deadline is not None and time.monotonic() >= deadline:
                raise BudgetSpent(f"the time budget ran out before {tier}")
            solve_in_folder(directory, tier, threads, progress,
                            checkpoint_seconds=checkpoint_seconds, deadline=deadline)
        except BudgetSpent:
            report.left = order[position:]
            break
        report.solved.append(tier)
        if on_tier is not None:
            on_tier(tier, True)
    report.seconds = time.monotonic() - start
    return report


def solve_in_folder(directory: Path, tier: Tier, threads: int,
                    progress: Progress | None = None, *,
                    checkpoint_seconds: float | None = DEFAULT_SECONDS,
                    deadline: float | None = None) -> None:
    """Solve one tier from the sides it needs in `directory` and write its files there,
    saving its state every `checkpoint_seconds` (None: never) and resuming from a saved
    state; at the `deadline` (time.monotonic()) it saves and raises BudgetSpent."""
    stopwatch = Stopwatch()
    reset_peak_memory()
    inputs, headers = {}, []
    for side in tier.needs:
        table = files.open_side(directory, tier.size, *side)
        try:
            inputs[side] = table.values(threads)
            headers.append(table.header)
        finally:
            table.close()
    saved_state = checkpoint.path_of(directory, tier)
    checkpoints = None
    if checkpoint_seconds is not None or deadline is not None:
        checkpoints = checkpoint.TierCheckpoints(
            saved_state, tier, checkpoint.inputs_identity(headers),
            every=DEFAULT_SECONDS if checkpoint_seconds is None else checkpoint_seconds,
            deadline=deadline)
    passes = 0

    def heard(solving: Tier, plies: int, longest: int) -> None:
        nonlocal passes
        passes = plies
        if progress is not None:
            progress(solving, plies, longest)

    try:
        solved = solve_tier(tier, inputs, threads, heard, checkpoints)
    except CheckpointError as error:
        warnings.warn(f"{error}; solving {tier} from its start", stacklevel=2)
        saved_state.unlink(missing_ok=True)
        checkpoints = None
        solved = solve_tier(tier, inputs, threads, heard)
    inputs.clear()
    written = [files.write_side(directory, tier.size, t, u, values, threads)
               for (t, u), values in solved.items()]
    saved_state.unlink(missing_ok=True)
    longest = max(files.read_header(directory, tier.size, t, u).longest_plies
                  for t, u in solved)
    spent = stopwatch.spent() + (checkpoints.earlier if checkpoints is not None else Spent())
    append(directory / JOURNAL_NAME, {
        "players": 4, "size": tier.size, "team": tier.team_count, "other": tier.other_count,
        "entries": tier.entries, "threads": threads, "seconds": round(spent.wall, 3),
        "cpu_seconds": round(spent.cpu, 3), "passes": passes, "longest_plies": longest,
        "resumed": checkpoints is not None and checkpoints.resumed,
        "peak_memory_bytes": peak_memory_bytes(),
        "bytes": sum(path.stat().st_size for path in written),
        "finished": finished_now()})


def read_journal(directory: Path) -> list[dict[str, Any]]:
    """The journal's lines (one that does not parse is left out; the last line of a tier
    wins)."""
    return read_lines(Path(directory) / JOURNAL_NAME, ("size", "team", "other"))
