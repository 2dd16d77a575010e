"""Which classes a build solves, in which order, and what it will cost.

A unit of work is a class pair {(a, b), (b, a)}: its positions move inside the pair (the
mover takes an own cube) or into the pairs {(a + 1, b)} and {(a, b + 1)} (the mover takes a
blank, which then shows the mover's symbol). So a pair needs exactly those two pairs, and
solving by decreasing number of cubes meets every need. ``units`` states each unit's inputs
and outputs explicitly, so that a scheduler other than ``builder.build`` (a cluster scheduler,
say) can run them.
"""
from __future__ import annotations

from dataclasses import dataclass
from math import comb

from ._index import class_size
from ._orbit_index import entry_count
from ..geometry import check_size

BYTES_IN_MEMORY_PER_ENTRY = 2   # one uint16 word (value code or move count) while solving
BYTES_ON_DISK_PER_ENTRY = 1.01  # a byte, and a margin for the escapes (files.py; 5x5 <= 5
                                # blanks: 10 bytes for 1 entry in 30,000)
BYTES_PER_SUBSET = 4            # the index's uint32 per set of squares (_orbit_index)
BUFFERS = 1 << 20               # blocks of a file being written or read, per-chunk arrays


@dataclass(frozen=True)
class Unit:
    size: int
    mover_count: int        # the pair is (mover_count, opponent_count) and its mirror;
    opponent_count: int     # mover_count >= opponent_count

    @property
    def classes(self) -> tuple[tuple[int, int], ...]:
        a, b = self.mover_count, self.opponent_count
        return ((a, b),) if a == b else ((a, b), (b, a))

    @property
    def cubes(self) -> int:
        return self.mover_count + self.opponent_count

    @property
    def needs(self) -> tuple[tuple[int, int], ...]:
        """Classes whose tables must exist first: where taking a blank leads."""
        if self.cubes == self.size * self.size:
            return ()
        return tuple(sorted({(b, a + 1) for a, b in self.classes}))

    @property
    def positions(self) -> int:
        """Raw positions of the pair (every arrangement)."""
        return sum(class_size(self.size, a, b) for a, b in self.classes)

    @property
    def entries(self) -> int:
        """Table entries of the pair (one per symmetry class, and the holes)."""
        return sum(entry_count(self.size, a, b) for a, b in self.classes)

    @property
    def memory_bytes(self) -> int:
        """Peak memory of solving this unit: its words, the tables it reads (as uint16) and
        the index's subset tables (one per occupied count, and one per class). (Files are
        written and read a block at a time beside them.)"""
        own = self.entries * BYTES_IN_MEMORY_PER_ENTRY
        inputs = sum(entry_count(self.size, a, b) for a, b in self.needs) * 2
        cells = self.size * self.size
        subsets = sum(class_size(self.size, cubes, 0)
                      for cubes in {self.cubes, min(self.cubes + 1, cells)})
        subsets += sum(comb(a + b, a) for a, b in self.classes + self.needs)
        return own + inputs + subsets * BYTES_PER_SUBSET + BUFFERS

    def __str__(self) -> str:
        return f"pair ({self.mover_count}, {self.opponent_count})"


def units(size: int, max_blanks: int | None = None) -> list[Unit]:
    """Every pair with at most ``max_blanks`` blank cubes (all of them for None), ordered so
    that each unit comes after the units it needs."""
    check_size(size)
    cells = size * size
    fewest_cubes = 0 if max_blanks is None else max(0, cells - max_blanks)
    result = []
    for cubes in range(cells, fewest_cubes - 1, -1):
        for a in range(cubes, (cubes - 1) // 2, -1):
            result.append(Unit(size, a, cubes - a))
    return result


def disk_bytes(plan: list[Unit]) -> int:
    return int(sum(unit.entries for unit in plan) * BYTES_ON_DISK_PER_ENTRY)


def memory_bytes(plan: list[Unit]) -> int:
    return max((unit.memory_bytes for unit in plan), default=0)
