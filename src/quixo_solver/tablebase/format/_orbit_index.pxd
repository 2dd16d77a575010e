# One table entry per symmetry class ("orbit") of positions.
#
# The 8 symmetries of the square (geometry.symmetry_permutations) map a position to one with
# the same value, so a table stores one of them. The index of a position (mover, opponent) of
# class (a, b), k = a + b occupied squares:
#
#   1. Its occupied set S is reduced to the canonical set of its orbit: of all 8 images of S,
#      the one of smallest colex rank. The canonical k-sets, in rank order, are the "blocks"
#      0, 1, ...; `of_rank[rank(S)]` gives S's block and one symmetry t with t(S) = canonical.
#   2. The mover's cubes are moved by t and ranked among the canonical set's squares
#      (pext, then colex rank, as in _index.pxd): an arrangement rank in 0 .. C(k, a) - 1.
#      When the canonical set is itself symmetric (symmetries u with u(canonical) = canonical,
#      `block_symmetries`), the arrangement is also moved by each such u and the smallest rank
#      is kept, so that every position of an orbit has the same index.
#
#   index = block * C(k, a) + smallest arrangement rank
#
# So each orbit has exactly one entry. The price is in the symmetric blocks: there an
# arrangement whose rank is not the smallest of its images is a "hole", a slot no position
# maps to (its value is written as 0 and never read). Holes are many only where nearly every
# square is occupied (the full board is one symmetric set), so over a whole board they cost
# little (slots / orbits / raw positions, from entry_count and position_orbits):
#     3x3:           4,599 /           2,862 /          19,683   (slots 23.4% of raw)
#     4x4:       5,864,611 /       5,398,083 /      43,046,721   (13.6%)
#     5x5: 107,207,255,529 / 105,918,450,471 / 847,288,609,443   (12.65%; 1.2% holes)
# and for the 5x5 classes with at most 2 / 3 / 4 / 5 blanks: 18.4% / 14.9% / 13.7% / 13.2%.
#
# A stored position stands for 8 / s raw positions, s = the number of symmetries that fix it
# (1, 2, 4 or 8): counts over all arrangements weigh each entry by that orbit size.
from libc.stdint cimport uint8_t, uint32_t, uint64_t

from ..._portable cimport quixo_ctz32
from ...rules._rules cimport SYMMETRIES, mask_t
from ._index cimport PEXT_BYTE, bits_below_bytes, pext_with, set_rank

cdef enum:
    IMAGE_TABLE = 4 * 256          # mask_t per symmetry in Geometry.symmetry_bytes


cdef struct OrbitIndex:
    const uint32_t* of_rank           # per k-set (colex rank): its block << 3 | a symmetry t
    const mask_t* block_sets          # the canonical set of each block
    const uint32_t* block_below       # bits_below_bytes of each block's set (_index.pxd)
    const uint8_t* block_symmetries   # bit u set: symmetry u (1..7) fixes the block's set
    const mask_t* images              # the board's Geometry.symmetry_bytes (rules/_rules.pxd)
    uint64_t arrangements             # C(k, a): slots per block
    uint64_t blocks


# Sets within squares 0..15 (every 3x3 and 4x4 set) take two table steps instead of four.

cdef inline mask_t image_of(const mask_t* images, int symmetry, mask_t squares) noexcept nogil:
    """The squares `squares` are sent to by symmetry `symmetry`."""
    cdef const mask_t* table = images + symmetry * IMAGE_TABLE
    if squares <= 0xFFFF:
        return table[squares & 0xFF] | table[256 + (squares >> 8)]
    return (table[squares & 0xFF] | table[256 + ((squares >> 8) & 0xFF)]
            | table[512 + ((squares >> 16) & 0xFF)] | table[768 + (squares >> 24)])


cdef inline uint64_t arrangement_rank(mask_t mover, mask_t canonical,
                                      uint32_t below) noexcept nogil:
    """The rank of the mover's cubes among the squares of `canonical` (below: its
    bits_below_bytes)."""
    cdef mask_t packed
    if canonical <= 0xFFFF:
        return set_rank(<mask_t>PEXT_BYTE[canonical & 0xFF][mover & 0xFF]
                        | <mask_t>PEXT_BYTE[canonical >> 8][(mover >> 8) & 0xFF]
                        << ((below >> 8) & 0xFF))
    return set_rank(pext_with(mover, canonical, below))


cdef inline uint64_t smallest_arrangement(const OrbitIndex* x, uint64_t block,
                                          mask_t mover) noexcept nogil:
    """The smallest arrangement rank of `mover` (on the block's canonical set) and its images
    under the symmetries that fix the set. Ranks among one set's arrangements are in the
    order of their masks (a colex rank is in the order of the bit mask, and pext keeps the
    order of subsets of the set), so the smallest image is found by its mask and ranked once."""
    cdef mask_t smallest = mover, image
    cdef unsigned int fixing = x.block_symmetries[block]
    cdef int u
    while fixing:
        u = quixo_ctz32(fixing)
        fixing &= fixing - 1
        image = image_of(x.images, u, mover)
        if image < smallest:
            smallest = image
    return arrangement_rank(smallest, x.block_sets[block], x.block_below[block])


cdef inline uint64_t orbit_index(const OrbitIndex* x, mask_t mover,
                                 mask_t opponent) noexcept nogil:
    """The entry of the orbit of (mover, opponent), in any of its 8 forms."""
    cdef uint32_t entry = x.of_rank[set_rank(mover | opponent)]
    cdef uint64_t block = entry >> 3
    if entry & 7:
        mover = image_of(x.images, entry & 7, mover)
    return block * x.arrangements + smallest_arrangement(x, block, mover)


cdef inline int fixing_symmetries(const OrbitIndex* x, uint64_t block,
                                  mask_t mover) noexcept nogil:
    """How many symmetries fix the stored position (`mover` on the block's set): 1, 2, 4 or 8.
    Its orbit holds 8 / that many raw positions."""
    cdef unsigned int fixing = x.block_symmetries[block]
    cdef int u, count = 1
    while fixing:
        u = quixo_ctz32(fixing)
        fixing &= fixing - 1
        if image_of(x.images, u, mover) == mover:
            count += 1
    return count


cdef inline bint is_hole(const OrbitIndex* x, uint64_t block, mask_t mover) noexcept nogil:
    """Whether the slot of `mover` in the block (on its canonical set) is no orbit's entry: an
    image of it ranks lower, that is, has a smaller mask (smallest_arrangement)."""
    cdef unsigned int fixing = x.block_symmetries[block]
    cdef int u
    while fixing:
        u = quixo_ctz32(fixing)
        fixing &= fixing - 1
        if image_of(x.images, u, mover) < mover:
            return True
    return False


cdef class OrbitClass:
    cdef OrbitIndex index
    cdef readonly int size, mover_count, opponent_count
    cdef readonly object of_rank, block_sets, block_below, block_symmetries, arrangement_masks
    cdef const uint32_t[::1] masks    # arrangement_masks: rank -> the mover's packed bits
