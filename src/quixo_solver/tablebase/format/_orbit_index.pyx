"""The symmetry-class index of the tables (see _orbit_index.pxd), and its Python face."""
from functools import lru_cache

from libc.stdint cimport int64_t, uint8_t, uint16_t, uint32_t, uint64_t

import numpy as np

from ...rules._rules cimport geometry_of
from ...rules import geometry as _geometry
from ...errors import PositionError
from ._index cimport BINOMIAL, bits_below_bytes, next_subset, pdep, set_rank
from ._index import class_size, subsets_in_order

@lru_cache(maxsize=None)
def subset_classes(int size, int count):
    """The blocks of the `count`-sets of the board: (of_rank, block_sets, block_below,
    block_symmetries), as _orbit_index.pxd defines them. Read-only arrays, computed once per process."""
    cdef int cells = size * size
    cdef uint64_t total = BINOMIAL[cells][count], rank, image_rank, best_rank
    of_rank_array = np.empty(total, dtype=np.uint32)
    sets_array = np.empty(total, dtype=np.uint32)        # trimmed to the blocks below
    symmetries_array = np.empty(total, dtype=np.uint8)
    cdef uint32_t[::1] of_rank = of_rank_array
    cdef uint32_t[::1] block_sets = sets_array
    cdef uint8_t[::1] block_symmetries = symmetries_array
    cdef const mask_t* images = &geometry_of(size).symmetry_bytes[0][0][0]
    cdef mask_t subset = ((<mask_t>1) << count) - 1, image
    cdef uint64_t blocks = 0
    cdef int u, best_symmetry
    cdef uint8_t fixing
    with nogil:
        for rank in range(total):
            best_rank, best_symmetry, fixing = rank, 0, 0
            for u in range(1, SYMMETRIES):
                image = image_of(images, u, subset)
                if image == subset:
                    fixing |= 1 << u
                    continue
                image_rank = set_rank(image)
                if image_rank < best_rank:
                    best_rank, best_symmetry = image_rank, u
            if best_rank == rank:
                # canonical: a new block (every image ranks higher, or is the set itself)
                block_sets[blocks] = subset
                block_symmetries[blocks] = fixing
                of_rank[rank] = <uint32_t>(blocks << 3)
                blocks += 1
            else:
                # the canonical image ranks lower, so its block is known already
                of_rank[rank] = (of_rank[best_rank] & ~(<uint32_t>7)) | best_symmetry
            if count > 0 and rank + 1 < total:
                subset = next_subset(subset)
    sets_array = sets_array[:blocks].copy()
    below_array = np.array([bits_below_bytes(subset) for subset in sets_array], dtype=np.uint32)
    result = (of_rank_array, sets_array, below_array, symmetries_array[:blocks].copy())
    for array in result:
        array.flags.writeable = False
    return result


cdef class OrbitClass:
    """The entries of one class (size, mover_count, opponent_count): one per orbit, plus the
    holes of the symmetric blocks."""

    def __init__(self, int size, int mover_count, int opponent_count):
        total = class_size(size, mover_count, opponent_count)   # checks the class
        self.size = size
        self.mover_count = mover_count
        self.opponent_count = opponent_count
        cdef int occupied = mover_count + opponent_count
        self.of_rank, self.block_sets, self.block_below, self.block_symmetries = \
            subset_classes(size, occupied)
        self.arrangement_masks = subsets_in_order(mover_count, occupied)
        self.masks = self.arrangement_masks
        cdef const uint32_t[::1] of_rank = self.of_rank
        cdef const uint32_t[::1] block_sets = self.block_sets
        cdef const uint32_t[::1] block_below = self.block_below
        cdef const uint8_t[::1] block_symmetries = self.block_symmetries
        self.index.of_rank = &of_rank[0]
        self.index.block_sets = &block_sets[0]
        self.index.block_below = &block_below[0]
        self.index.block_symmetries = &block_symmetries[0]
        self.index.images = &geometry_of(size).symmetry_bytes[0][0][0]
        self.index.arrangements = BINOMIAL[occupied][mover_count]
        self.index.blocks = block_sets.shape[0]

    @property
    def entries(self):
        """Slots of the table: blocks * C(k, a), holes included."""
        return int(self.index.blocks * self.index.arrangements)

    @property
    def blocks(self):
        return int(self.index.blocks)

    @property
    def arrangements(self):
        return int(self.index.arrangements)

    def index_of(self, mask_t mover, mask_t opponent):
        """The entry of a position of this class, in any of its symmetric forms."""
        _geometry.check_masks(self.size, mover, opponent)
        if (bin(mover).count("1"), bin(opponent).count("1")) != (self.mover_count,
                                                                 self.opponent_count):
            raise PositionError(f"the position is not in class ({self.mover_count}, "
                                f"{self.opponent_count})")
        return int(orbit_index(&self.index, mover, opponent))

    def position_at(self, index):
        """(mover, opponent) stored at `index`, and whether that slot is a hole."""
        if not 0 <= index < self.entries:
            raise PositionError(f"index {index} is outside class ({self.mover_count}, "
                                f"{self.opponent_count}), which has {self.entries} entries")
        cdef uint64_t block = index // self.index.arrangements
        cdef uint64_t arrangement = index % self.index.arrangements
        cdef mask_t occupied = self.index.block_sets[block]
        cdef mask_t mover = pdep(self.arrangement_masks[arrangement], occupied)
        return int(mover), int(occupied & ~mover), bool(is_hole(&self.index, block, mover))

    def hole_mask(self, start=0, stop=None):
        """A uint8 array over entries start .. stop - 1: 1 where the slot is a hole (no
        position maps to it), else 0."""
        if stop is None:
            stop = self.entries
        if not 0 <= start <= stop <= self.entries:
            raise ValueError(f"entries {start} .. {stop} are outside class "
                             f"({self.mover_count}, {self.opponent_count})")
        result = np.zeros(stop - start, dtype=np.uint8)
        cdef uint8_t[::1] out = result
        cdef uint64_t first = start, last = stop, index, block, arrangement
        cdef mask_t mover
        with nogil:
            index = first
            while index < last:
                block = index // self.index.arrangements
                if self.index.block_symmetries[block] == 0:
                    # an asymmetric set: no holes; skip to the next block
                    index = (block + 1) * self.index.arrangements
                    continue
                arrangement = index - block * self.index.arrangements
                mover = pdep(self.masks[arrangement], self.index.block_sets[block])
                out[index - first] = is_hole(&self.index, block, mover)
                index += 1
        return result

    def code_counts(self, values):
        """Raw positions per value code: each entry counts for the 8 / s positions of its
        orbit (s = the symmetries fixing it), holes for none. Returns an int64 array indexed
        by code."""
        cdef const uint16_t[::1] codes = np.ascontiguousarray(values, dtype=np.uint16)
        if codes.shape[0] != self.entries:
            raise ValueError(f"{codes.shape[0]} values for a class of {self.entries} entries")
        longest = int(np.max(values)) if codes.shape[0] else 0
        result = np.zeros(longest + 1, dtype=np.int64)
        cdef int64_t[::1] counts = result
        cdef uint64_t block, arrangement, index = 0
        cdef mask_t occupied, mover
        with nogil:
            for block in range(self.index.blocks):
                if self.index.block_symmetries[block] == 0:
                    for arrangement in range(self.index.arrangements):
                        counts[codes[index]] += SYMMETRIES
                        index += 1
                    continue
                occupied = self.index.block_sets[block]
                for arrangement in range(self.index.arrangements):
                    mover = pdep(self.masks[arrangement], occupied)
                    if not is_hole(&self.index, block, mover):
                        counts[codes[index]] += SYMMETRIES // fixing_symmetries(
                            &self.index, block, mover)
                    index += 1
        return result


# A pair being solved uses four classes at once (its own two and the two it reads), and a local
# build runs two small pairs side by side: a larger cache would keep, for the whole of a long
# build, the indexes of every class whose file the build checked when it began (up to 21 MB
# each on the 5x5 board), memory the plan cannot give to a pair (plan.process_bytes).
ORBIT_CACHE_CLASSES = 8


@lru_cache(maxsize=ORBIT_CACHE_CLASSES)
def orbit_class(int size, int mover_count, int opponent_count):
    """The (cached) index of a class."""
    return OrbitClass(size, mover_count, opponent_count)


def entry_count(int size, int mover_count, int opponent_count):
    """Slots of a class's table (orbits plus holes), without building its index."""
    class_size(size, mover_count, opponent_count)
    return subset_orbits(size, mover_count + opponent_count) * int(
        BINOMIAL[mover_count + opponent_count][mover_count])


def position_index(int size, mover, opponent):
    """The entry of (mover, opponent) in the table of its class, whichever symmetric form."""
    _geometry.check_size(size)
    _geometry.check_masks(size, mover, opponent)
    return orbit_class(size, bin(mover).count("1"), bin(opponent).count("1")).index_of(
        mover, opponent)


def position_at(int size, int mover_count, int opponent_count, index):
    """The (mover, opponent) stored at an entry (its canonical form): the inverse of
    position_index on every entry that is not a hole; PositionError on a hole."""
    mover, opponent, hole = orbit_class(size, mover_count, opponent_count).position_at(index)
    if hole:
        raise PositionError(f"entry {index} of class ({mover_count}, {opponent_count}) is a "
                            "hole: no position is stored there")
    return mover, opponent


# Burnside's lemma: the orbits of a set X under the group equal the mean, over the 8
# symmetries u, of the elements u fixes. A set or a colouring fixed by u is constant on each
# cycle of u's permutation, so counting them is a product over the cycles.
def _cycle_lengths(size: int, symmetry: int) -> list[int]:
    permutation = _geometry.symmetry_permutations(size)[symmetry]
    seen, lengths = set(), []
    for start in range(size * size):
        if start not in seen:
            length, sq = 0, start
            while sq not in seen:
                seen.add(sq)
                sq = permutation[sq]
                length += 1
            lengths.append(length)
    return lengths


@lru_cache(maxsize=None)
def _fixed_colourings(size: int, symmetry: int) -> dict[tuple[int, int], int]:
    """(mover cubes, opponent cubes) -> positions fixed by the symmetry."""
    counts = {(0, 0): 1}
    for length in _cycle_lengths(size, symmetry):
        grown: dict[tuple[int, int], int] = {}
        for (a, b), n in counts.items():
            for key in ((a, b), (a + length, b), (a, b + length)):   # blank, mover, opponent
                grown[key] = grown.get(key, 0) + n
        counts = grown
    return counts


def position_orbits(size: int, mover_count: int, opponent_count: int) -> int:
    """Orbits of the positions of a class (= entries that are not holes), by Burnside."""
    total = sum(_fixed_colourings(size, u).get((mover_count, opponent_count), 0)
                for u in range(SYMMETRIES))
    return total // SYMMETRIES


def subset_orbits(size: int, count: int) -> int:
    """Orbits of the `count`-sets of squares (= blocks), by Burnside."""
    return sum(_fixed_colourings(size, u).get((count, 0), 0)
               for u in range(SYMMETRIES)) // SYMMETRIES
