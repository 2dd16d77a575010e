"""Ranking sets of squares (see _index.pxd), and the raw index of a class, as a reference."""
from libc.stdint cimport uint32_t, uint64_t

import numpy as np

from ...rules._rules cimport popcount
from ...rules import geometry as _geometry
from ...errors import PositionError


cdef uint64_t _rank_part(int members, int first_square, int below) noexcept:
    """The terms of rank() for the squares first_square + p (p in members), the first of them
    with `below` elements of the set below it."""
    cdef uint64_t total = 0
    cdef int p, i = below
    for p in range(13):
        if members >> p & 1:
            i += 1
            if first_square + p < 26 and i < 26:
                total += BINOMIAL[first_square + p][i]
    return total


cdef void _fill_tables() noexcept:
    cdef int n, k, j, value, below, p, r, occupied, bits, packed, spread, i
    cdef uint64_t total
    for n in range(26):
        for k in range(26):
            BINOMIAL[n][k] = 0
        BINOMIAL[n][0] = 1
        for k in range(1, n + 1):
            BINOMIAL[n][k] = BINOMIAL[n - 1][k - 1] + (BINOMIAL[n - 1][k] if k < n else 0)
    for value in range(1 << 13):
        COUNT_LOW[value] = bin(value).count("1")
        RANK_LOW[value] = <uint32_t>_rank_part(value, 0, 0)
    for value in range(1 << 12):
        for below in range(14):
            RANK_HIGH[value][below] = <uint32_t>_rank_part(value, 13, below)
    for occupied in range(256):
        POPCOUNT_BYTE[occupied] = bin(occupied).count("1")
        for bits in range(256):
            # the i-th occupied square p pairs bit p of the byte with bit i of the packed form
            packed = spread = 0
            i = 0
            for p in range(8):
                if occupied >> p & 1:
                    if bits >> p & 1:
                        packed |= 1 << i
                    if bits >> i & 1:
                        spread |= 1 << p
                    i += 1
            PEXT_BYTE[occupied][bits] = packed
            PDEP_BYTE[occupied][bits] = spread


_fill_tables()


cdef mask_t set_at_rank(uint64_t rank, int count, int universe) noexcept nogil:
    # Greedy descent of the combinatorial number system: the largest element first.
    cdef mask_t result = 0
    cdef int p = universe - 1
    while count > 0:
        while BINOMIAL[p][count] > rank:
            p -= 1
        rank -= BINOMIAL[p][count]
        result |= (<mask_t>1) << p
        count -= 1
        p -= 1
    return result


def class_size(int size, int mover_count, int opponent_count):
    """Number of positions of a class (every arrangement, terminal ones included)."""
    _geometry.check_size(size)
    cells = size * size
    if mover_count < 0 or opponent_count < 0 or mover_count + opponent_count > cells:
        raise PositionError(f"no class ({mover_count}, {opponent_count}) on a {size}x{size} board")
    occupied = mover_count + opponent_count
    return int(BINOMIAL[cells][occupied] * BINOMIAL[occupied][mover_count])


def position_index(int size, mover, opponent):
    """Index of (mover, opponent) in its class (popcount(mover), popcount(opponent))."""
    _geometry.check_size(size)
    _geometry.check_masks(size, mover, opponent)
    cdef mask_t occupied = mover | opponent
    cdef uint64_t arrangements = BINOMIAL[popcount(occupied)][popcount(mover)]
    return int(set_rank(occupied) * arrangements + set_rank(pext(mover, occupied)))


def position_at(int size, int mover_count, int opponent_count, index):
    """The (mover, opponent) masks at ``index`` of a class: the inverse of position_index."""
    total = class_size(size, mover_count, opponent_count)
    if not 0 <= index < total:
        raise PositionError(f"index {index} is outside class ({mover_count}, {opponent_count}), "
                            f"which has {total} positions")
    occupied_count = mover_count + opponent_count
    block, offset = divmod(index, int(BINOMIAL[occupied_count][mover_count]))
    cdef mask_t occupied = set_at_rank(block, occupied_count, size * size)
    cdef mask_t mover = pdep(set_at_rank(offset, mover_count, occupied_count), occupied)
    return int(mover), int(occupied & ~mover)


def subsets_in_order(int count, int universe):
    """Every ``count``-element subset of range(universe) as a mask, in colex (rank) order."""
    cdef uint64_t total = BINOMIAL[universe][count], i
    result = np.empty(total, dtype=np.uint32)
    cdef uint32_t[::1] out = result
    cdef mask_t subset = ((<mask_t>1) << count) - 1
    with nogil:
        for i in range(total):
            out[i] = subset
            if count > 0 and i + 1 < total:
                subset = next_subset(subset)
    return result
