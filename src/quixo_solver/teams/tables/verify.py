"""The four-player verifier: entries of every built tier re-derived from their children's
values (_verify.pyx), whole or sampled, and each mismatch reported.

A tier is checked with its sides and the sides of the tier after a blank decoded into memory
(two bytes a slot). Whole, every entry is checked; sampled (``sample=N``), distinct slots are
drawn uniformly at random (seeded) until N entries that are not holes were checked on each
side, or every slot was drawn (a side of at most 8 N slots is checked whole).
"""
from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ...limits import check_threads
from ...rules.geometry import check_size
from ...tablebase.errors import MissingTableError
from . import _verify, files
from ._tier_index import TierSideIndex
from .tiers import Side, Tier, tiers

SAMPLE_BATCH = 1 << 20


@dataclass
class SideCheck:
    team_count: int
    other_count: int
    checked: int                 # entries checked (holes are not entries)
    mismatches: int
    examples: list[int]          # indices of the first mismatching entries


@dataclass
class TeamVerifyReport:
    size: int
    sides: list[SideCheck] = field(default_factory=list)

    @property
    def mismatches(self) -> int:
        return sum(side.mismatches for side in self.sides)

    @property
    def ok(self) -> bool:
        return self.mismatches == 0


def verify(directory: str | os.PathLike[str], size: int, *, max_blanks: int | None = None,
           sample: int | None = None, seed: int = 0, threads: int = 0) -> TeamVerifyReport:
    """Check every built tier of the board with at most `max_blanks` blanks (a tier whose
    files are missing is left out; MissingTableError when none is built, or when a built
    tier's inputs are missing)."""
    directory = Path(directory)
    size, threads = check_size(size), check_threads(threads)
    report = TeamVerifyReport(size)
    rng = np.random.default_rng(seed)
    for tier in tiers(size, max_blanks):
        if not all((directory / files.side_name(size, t, u)).exists() for t, u in tier.sides):
            continue
        for needed in tier.needs:
            if not (directory / files.side_name(size, *needed)).exists():
                raise MissingTableError(f"cannot verify {tier}: side {needed} of the tier "
                                        f"after a blank is missing")
        values = {side: _values(directory, size, side, threads)
                  for side in tier.sides + tier.needs}
        for t, u in tier.sides:
            report.sides.append(_check_side(tier, (t, u), values, sample, rng, threads))
    if not report.sides:
        raise MissingTableError(f"no four-player table of the {size}x{size} board in "
                                f"{directory}")
    return report


def _values(directory: Path, size: int, side: Side, threads: int) -> npt.NDArray[np.uint16]:
    table = files.open_side(directory, size, *side)
    try:
        return table.values(threads)
    finally:
        table.close()


def _check_side(tier: Tier, side: Side, values: dict[Side, npt.NDArray[np.uint16]],
                sample: int | None, rng: np.random.Generator, threads: int) -> SideCheck:
    t, u = side
    index = TierSideIndex(tier.size, t, u)
    other = TierSideIndex(tier.size, u, t)
    following = TierSideIndex(tier.size, u, t + 1) if tier.needs else None
    following_values = values[(u, t + 1)] if tier.needs else None
    checked = mismatches = 0
    examples: list[int] = []
    slots = index.entries
    # (a side may be up to 7/8 holes, as on a full board: a sample that large is the side)
    batches = (_all_slots(slots) if sample is None or 8 * sample >= slots
               else _random_slots(slots, min(SAMPLE_BATCH, 2 * sample), rng))
    for entries in batches:
        found, flags = _verify.check_entries(index, values[side], other, values[(u, t)],
                                             following, following_values, entries, threads)
        checked += found
        wrong = entries[flags.astype(bool)]
        mismatches += len(wrong)
        examples += [int(i) for i in wrong[:10 - len(examples)]]
        if sample is not None and checked >= sample:
            break
    return SideCheck(t, u, checked, mismatches, examples)


def _all_slots(slots: int) -> Iterator[npt.NDArray[np.uint64]]:
    for start in range(0, slots, SAMPLE_BATCH):
        yield np.arange(start, min(start + SAMPLE_BATCH, slots), dtype=np.uint64)


def _random_slots(slots: int, batch: int,
                  rng: np.random.Generator) -> Iterator[npt.NDArray[np.uint64]]:
    """Distinct slots drawn uniformly at random, a batch at a time, none drawn twice, until
    every slot was."""
    drawn = np.empty(0, dtype=np.uint64)
    while len(drawn) < slots:
        fresh = np.setdiff1d(np.unique(rng.integers(0, slots, batch, dtype=np.uint64)), drawn,
                             assume_unique=True)
        drawn = np.union1d(drawn, fresh)
        yield rng.permutation(fresh)
