"""Checkpoints of a four-player tier being solved: a build stopped at any moment resumes
inside the tier.

A tier's solve (tiers.solve_tier) is `mark` on each side, then the passes n = 2, 3, ... on
each side. Between two of those steps its whole state is its sides' working words and chunk
records, the pass to come and the largest plies so far; that state does not depend on the
threads (as the two-player generator's: tablebase/generator/checkpoint.py, whose file format
this shares), so a solve resumed from it writes the very files of a solve never stopped.
"""
from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ...tablebase.generator.checkpoint import (DEFAULT_SECONDS, BudgetSpent, Spent, Stopwatch,
                                               load_state, save_state)
from . import _tier_retro, files
from .tiers import Tier

__all__ = ["DEFAULT_SECONDS", "BudgetSpent", "TierCheckpoints", "inputs_identity", "path_of"]


def path_of(directory: Path, tier: Tier) -> Path:
    return Path(directory) / (f".checkpoint-4p-{tier.size}-{tier.team_count:02d}-"
                              f"{tier.other_count:02d}")


def inputs_identity(headers: Sequence[files.SideHeader]) -> list[list[int]]:
    """What a checkpoint records of the sides it was computed from: a checkpoint is used only
    with the same inputs."""
    return [[h.team_count, h.other_count, h.entries, h.wins, h.draws, h.losses, h.blocks]
            for h in headers]


def _arrays(sides: Sequence[_tier_retro.TierSide]) -> list[tuple[str, np.ndarray]]:
    found = []
    for side in sides:
        name = f"{side.index.team_count}-{side.index.other_count}"
        assert side.words is not None            # (a side whose values were taken is done)
        found += [(f"words {name}", side.words), (f"chunk_plies {name}", side.chunk_plies)]
    return found


class TierCheckpoints:
    """When a tier's solve saves its state: every `every` seconds of solving (0: after every
    step), and at the build's `deadline` (time.monotonic(); None: none), where it saves and
    raises BudgetSpent."""

    def __init__(self, path: Path, tier: Tier, inputs: list[list[int]], *,
                 every: float = DEFAULT_SECONDS, deadline: float | None = None) -> None:
        self.path, self.tier, self.inputs = path, tier, inputs
        self.every, self.deadline = every, deadline
        self.last_saved = time.monotonic()
        self.stopwatch = Stopwatch()
        self.earlier = Spent()      # the solving time of earlier runs, kept by the checkpoint
        self.resumed = False
        self.saved = 0

    @property
    def key(self) -> tuple[int, int, int]:
        return self.tier.size, self.tier.team_count, self.tier.other_count

    def spent(self) -> Spent:
        return self.earlier + self.stopwatch.spent()

    def restore(self, sides: Sequence[_tier_retro.TierSide]) -> tuple[int, int] | None:
        """(the pass to come, the largest plies) read into the sides, or None when there is
        no saved state (CheckpointError when it does not check out)."""
        if not self.path.exists():
            return None
        state, self.earlier = load_state(self.path, self.key, _arrays(sides), self.inputs,
                                         _tier_retro.STATE_VERSION)
        self.resumed = True
        return int(state["plies"]), int(state["longest"])

    def reached(self, sides: Sequence[_tier_retro.TierSide], plies: int, longest: int) -> None:
        """Called between steps, `plies` the pass to come: save when due; at the deadline save
        and stop."""
        now = time.monotonic()
        over = self.deadline is not None and now >= self.deadline
        if over or now - self.last_saved >= self.every:
            save_state(self.path, self.key, _arrays(sides),
                       {"plies": plies, "longest": longest}, self.inputs, self.spent(),
                       _tier_retro.STATE_VERSION)
            self.saved += 1
            self.last_saved = time.monotonic()
        if over:
            raise BudgetSpent(f"the time budget ran out in {self.tier}; its state is saved")

    def discard(self) -> None:
        self.path.unlink(missing_ok=True)
