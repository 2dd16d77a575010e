"""The class pairs a folder of tables is made of: which classes are solved (and checked)
together, what each pair needs, in which order they come, and what solving one takes.

A pair is the class (a, b) with its mirror (b, a): its positions move inside the pair (the
mover takes an own cube) or into the pairs {(a + 1, b)} and {(a, b + 1)} (the mover takes a
blank, which then shows the mover's symbol). So a pair needs exactly those two pairs, and
solving by decreasing number of cubes meets every need. ``units`` states each unit's inputs
and outputs explicitly, so that a scheduler other than the local builder (a cluster
scheduler, say) can run them; the readers (stats, verify) walk the same order.

A pair's costs (memory, disk, checkpoint) are here beside it rather than in the build's
plan, so that a scheduler and the plan read them from the pair alone; they are numbers
measured on the generator (docs/benchmarks.md), no part of it.
"""
from __future__ import annotations

from dataclasses import dataclass
from math import comb

from ..rules.geometry import check_size
from .format._index import class_size
from .format._orbit_index import ORBIT_CACHE_CLASSES, entry_count

BYTES_IN_MEMORY_PER_ENTRY = 2   # one uint16 word (value code or move count) while solving
# A compressed file, its model and block index (files.py): an upper estimate for a large class
# (see class_disk_bytes). The most balanced 5x5 classes cost more each blank: the worst took
# 0.318 bytes an entry at 5 blanks, 0.383 ((8, 11)) at 6 and 0.461 ((8, 10)) at 7
# (docs/benchmarks.md).
BYTES_ON_DISK_PER_ENTRY = 0.5
FILE_BYTES = 1 << 16            # a file's least bytes: head, model, trailer
# What a build process keeps besides its unit, whatever the unit: the interpreter and the
# modules (38 MiB measured); the index's subset tables of every number of cubes, computed
# once per process and kept (_orbit_index.subset_classes: 5.1-5.8 bytes a set of squares,
# measured on 3x3 to 5x5); the cached indexes of the last ORBIT_CACHE_CLASSES classes used
# (_orbit_index.orbit_class: at most one uint32 a mover arrangement, C(cells, cells // 2)).
PROCESS_BYTES = 64 << 20
BYTES_PER_SUBSET = 6
BYTES_PER_ARRANGEMENT = 4       # the index's uint32 per arrangement of the mover's cubes
# Reading a compressed table (_codec.pxd, _reader.pxd): its model's decoding tables (at most
# 64 contexts of 4096 slots and 64 frequencies) and rows (at most 2**16, two u32 each), its
# block index (12 bytes a block of 4096 entries) and checked flags, its cache of segments.
DECODER_BYTES = 64 * (4096 + 4 * 64) + 2**16 * 8 + 256 * 512 * 2
INDEX_BYTES_PER_ENTRY = 13 / 4096
# Writing one (coding.py): a batch of 1024 blocks coded at once (at most 14.4 KiB each, then
# joined), the sample of blocks its model is counted on, the per-thread counts.
WRITER_BYTES = 2 * 1024 * 14_400 + 256 * 4096 * 2 + (1 << 20)
# The kernels' per-chunk arrays, and each thread's cache of decoded segments of the next class
# (_retro.pyx: EXTERNAL_CACHE_SLOTS = 64 segments of 512 entries, 64 KiB), for up to 16 threads.
BUFFERS = (1 << 20) + 16 * 64 * 512 * 2
# Choosing a class's model (coding.choose_model): a candidate that splits the squares builds
# its rows (_codec.rows) from the values of the squares above the cut, at most 2**16 of them:
# a few arrays of int64 each.
ROWS_BYTES = 8 * 8 * 2**16


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
        """Peak memory of solving this unit: its words; the compressed tables it reads,
        mapped (the generator reads each whole, once, so their pages are resident), with
        their decoders (DECODER_BYTES, the index); the writer's buffers and its model's rows;
        the indexes of its classes and their inputs; and what the process keeps whatever it
        solves (process_bytes)."""
        own = self.entries * BYTES_IN_MEMORY_PER_ENTRY
        inputs = sum(class_disk_bytes(self.size, a, b) + DECODER_BYTES
                     + int(entry_count(self.size, a, b) * INDEX_BYTES_PER_ENTRY)
                     for a, b in self.needs)
        arrangements = sum(comb(a + b, a) for a, b in self.classes + self.needs)
        return (own + inputs + arrangements * BYTES_PER_ARRANGEMENT + WRITER_BYTES
                + ROWS_BYTES + BUFFERS + process_bytes(self.size))

    @property
    def disk_bytes(self) -> int:
        """The compressed files of the pair (an upper estimate: class_disk_bytes)."""
        return sum(class_disk_bytes(self.size, a, b) for a, b in self.classes)

    @property
    def checkpoint_bytes(self) -> int:
        """A checkpoint of the pair (checkpoint.py): its words, and each chunk's plies (two
        bytes a chunk of thousands of entries: counted as one byte in 1024 entries, more)."""
        return self.entries * BYTES_IN_MEMORY_PER_ENTRY + self.entries // 1024 + FILE_BYTES

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


def process_bytes(size: int) -> int:
    """What a build process of the board holds besides its unit (PROCESS_BYTES and below)."""
    cells = size * size
    return (PROCESS_BYTES + BYTES_PER_SUBSET * (1 << cells)
            + ORBIT_CACHE_CLASSES * BYTES_PER_ARRANGEMENT * comb(cells, cells // 2))


def class_disk_bytes(size: int, mover_count: int, opponent_count: int) -> int:
    """An upper estimate of a class's compressed file: BYTES_ON_DISK_PER_ENTRY a entry
    (measured on the built 5x5 classes: docs/benchmarks.md), and a few KiB however small."""
    return int(entry_count(size, mover_count, opponent_count) * BYTES_ON_DISK_PER_ENTRY) + \
        FILE_BYTES
