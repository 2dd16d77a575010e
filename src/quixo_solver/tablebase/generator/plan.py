"""What a build of many pairs will cost at once: its peak memory and disk, and which pairs a
local build runs side by side. What one pair costs is the pair's own (pairs.py).
"""
from __future__ import annotations

from ..pairs import Unit

# A local build runs pairs of at most this many entries side by side, one thread each
# (builder.py): a small pair has too few chunks to keep the cores busy on its own.
SMALL_UNIT_ENTRIES = 1 << 20


def disk_bytes(plan: list[Unit]) -> int:
    """The most disk the units take while they are built: their files, and twice the largest
    checkpoint (a new one is written beside the last before it replaces it)."""
    checkpoints = 2 * max((unit.checkpoint_bytes for unit in plan), default=0)
    return sum(unit.disk_bytes for unit in plan) + checkpoints


def runs_side_by_side(unit: Unit) -> bool:
    """Whether a local build runs this unit beside others, one thread each (builder.py):
    pairs of SMALL_UNIT_ENTRIES or fewer."""
    return unit.entries <= SMALL_UNIT_ENTRIES


def memory_bytes(plan: list[Unit], threads: int = 1) -> int:
    """Peak memory of building these units on `threads` threads: the largest unit, or as
    many small units at once as there are threads (runs_side_by_side)."""
    largest = max((unit.memory_bytes for unit in plan), default=0)
    small = max((unit.memory_bytes for unit in plan if runs_side_by_side(unit)), default=0)
    return max(largest, max(threads, 1) * small)
