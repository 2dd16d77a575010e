# Ranking sets of squares: the combinatorial steps of the tables' index (_orbit_index.pxd).
#
# rank() is the colex rank of a set, sum over its elements p_0 < p_1 < ... of C(p_i, i + 1):
# the k-sets of n squares are numbered 0 .. C(n, k) - 1 with no gaps. The raw index of a
# position of class (a, b) (a cubes for the mover, b for the opponent, k = a + b),
#
#     rank(occupied squares) * C(k, a) + rank(mover's cubes among the occupied squares),
#
# numbers every arrangement of the class (position_index in _index.pyx, a reference); the
# tables store one entry per symmetry class instead.
#
# The kernels work through tables (no BMI2 needed):
#   rank:  RANK_LOW[squares 0..12] + RANK_HIGH[squares 13..24][elements among 0..12]
#   pext:  PEXT_BYTE[occupied byte][mover byte] -> the mover's bits packed to the bottom
#   pdep:  PDEP_BYTE[occupied byte][packed bits] -> the reverse
#   POPCOUNT_BYTE[byte]: its elements
from libc.stdint cimport uint8_t, uint32_t, uint64_t

from ...rules._rules cimport mask_t, popcount

cdef uint64_t BINOMIAL[26][26]
cdef uint32_t RANK_LOW[1 << 13]
cdef uint32_t RANK_HIGH[1 << 12][14]
cdef uint8_t COUNT_LOW[1 << 13]
cdef uint8_t PEXT_BYTE[256][256]
cdef uint8_t PDEP_BYTE[256][256]
cdef uint8_t POPCOUNT_BYTE[256]


cdef inline uint32_t bits_below_bytes(mask_t x) noexcept nogil:
    """Byte j (j = 1, 2, 3) of the result counts the bits of x in bytes 0 .. j - 1: one SWAR
    pass replaces three popcounts."""
    x = x - ((x >> 1) & 0x55555555u)
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u)
    x = (x + (x >> 4)) & 0x0F0F0F0Fu
    return x * 0x01010100u


cdef inline uint64_t set_rank(mask_t members) noexcept nogil:
    """The colex rank of a set of squares 0..24."""
    cdef mask_t low = members & 0x1FFF
    return <uint64_t>RANK_LOW[low] + RANK_HIGH[members >> 13][COUNT_LOW[low]]


cdef inline mask_t pext_with(mask_t bits, mask_t within, uint32_t below) noexcept nogil:
    return (<mask_t>PEXT_BYTE[within & 0xFF][bits & 0xFF]
            | <mask_t>PEXT_BYTE[(within >> 8) & 0xFF][(bits >> 8) & 0xFF] << ((below >> 8) & 0xFF)
            | <mask_t>PEXT_BYTE[(within >> 16) & 0xFF][(bits >> 16) & 0xFF] << ((below >> 16) & 0xFF)
            | <mask_t>PEXT_BYTE[within >> 24][(bits >> 24) & 0xFF] << (below >> 24))


cdef inline mask_t pext(mask_t bits, mask_t within) noexcept nogil:
    """The bits of ``bits`` that lie on ``within``, packed to the bottom in order."""
    return pext_with(bits, within, bits_below_bytes(within))


cdef inline mask_t pdep(mask_t packed, mask_t within) noexcept nogil:
    """Spread the low bits of ``packed`` over the squares of ``within``, in order."""
    cdef uint32_t below = bits_below_bytes(within)
    return (<mask_t>PDEP_BYTE[within & 0xFF][packed & 0xFF]
            | <mask_t>PDEP_BYTE[(within >> 8) & 0xFF][(packed >> ((below >> 8) & 0xFF)) & 0xFF] << 8
            | <mask_t>PDEP_BYTE[(within >> 16) & 0xFF][(packed >> ((below >> 16) & 0xFF)) & 0xFF] << 16
            | <mask_t>PDEP_BYTE[within >> 24][(packed >> (below >> 24)) & 0xFF] << 24)


cdef inline mask_t next_subset(mask_t x) noexcept nogil:
    """The next set with as many elements in colex order (Gosper's hack); x != 0."""
    cdef mask_t low = x & (~x + 1)
    cdef mask_t ripple = x + low
    return ripple | (((x ^ ripple) >> 2) // low)


cdef mask_t set_at_rank(uint64_t rank, int count, int universe) noexcept nogil
