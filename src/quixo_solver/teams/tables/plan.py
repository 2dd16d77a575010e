"""The plan of a four-player build: each tier's positions, entries, memory, disk and time,
before it is built.

Memory: a tier is solved with its sides' working words and the values of the sides it needs
all in memory (two bytes a slot each), its chunks' records, and what the process holds
besides (PROCESS_BYTES). Time and disk come from costs measured on a build (a committed
tier-costs-SIZExSIZE.json, made by benchmarks/quixo/teams/tier_costs.py from a journal): wall
seconds per entry and file bytes per slot, by number of blanks; a number of blanks the
measure lacks takes the cost of the nearest one measured. Entries are counted as raw
positions / 8 (the symmetry classes, but for the few positions a symmetry fixes).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from math import comb
from pathlib import Path
from typing import Any

from ...tablebase.errors import MissingTableError
from ._tier_index import side_entries
from .tiers import Tier, tiers

PROCESS_BYTES = 256 << 20       # the interpreter, the modules, the indexes, write buffers
CHUNK = 4096                    # the kernels' chunk (two bytes of plies record a chunk)


def costs_path(size: int) -> Path:
    return Path(__file__).with_name(f"tier-costs-{size}x{size}.json")


@lru_cache(maxsize=None)
def measured_costs(size: int) -> dict[str, Any]:
    """The committed costs of the board; MissingTableError where none were measured."""
    try:
        return dict(json.loads(costs_path(size).read_text()))
    except FileNotFoundError:
        raise MissingTableError(f"no four-player build of {size}x{size} has been measured "
                                "yet: the plan has no costs for it") from None


def raw_positions(tier: Tier) -> int:
    """Every arrangement of the tier's sides: the occupied squares, the teams' cubes among
    them, and each cube's dot."""
    cells = tier.size * tier.size
    k = tier.cubes
    return sum(comb(cells, k) * comb(k, t) * 2 ** k for t, _ in tier.sides)


def orbit_entries(tier: Tier) -> int:
    return -(-raw_positions(tier) // 8)


def memory_bytes(tier: Tier) -> int:
    needed = sum(side_entries(tier.size, t, u) for t, u in tier.needs)
    return 2 * (tier.entries + needed) + 2 * (tier.entries // CHUNK + 1) + PROCESS_BYTES


def _nearest(table: dict[str, float], blanks: int) -> float:
    measured = sorted(int(b) for b in table)
    return table[str(min(measured, key=lambda b: (abs(b - blanks), -b)))]


@dataclass(frozen=True)
class TierPlan:
    tier: Tier
    blanks: int
    positions: int
    entries: int
    slots: int
    memory_bytes: int
    disk_bytes: int
    seconds: float


def plan(size: int, max_blanks: int | None = None) -> list[TierPlan]:
    costs = measured_costs(size)
    rows = []
    for tier in tiers(size, max_blanks):
        blanks = size * size - tier.cubes
        entries = orbit_entries(tier)
        rows.append(TierPlan(
            tier, blanks, raw_positions(tier), entries, tier.entries, memory_bytes(tier),
            int(tier.entries * _nearest(costs["bytes_per_slot"], blanks)) + 4096,
            entries * _nearest(costs["seconds_per_entry"], blanks)))
    return rows
