# How a table stores a position's value, seen from the player to move: the one definition used
# by the generator (_retro), the verifier (_verify), the searches' table probes (_search) and
# the four-player solution (teams/_solve). Its Python twin is tablebase/values.py; the test
# tests/test_value_code.py checks that the two agree.
#
#     0 = draw,   2k + 1 = win in k plies,   2k + 2 = loss in k plies
#
# Even and odd codes never meet, so a win and a loss share the plies field; 0 is also "not
# known yet" while a pair is being solved.
from libc.stdint cimport uint16_t

cdef enum:
    DRAW_CODE = 0

# While the generator (_retro) solves a pair, each entry is one uint16 working word:
#   SETTLED | code   the entry has a value (a win may still be lowered to fewer plies);
#   n < SETTLED      undecided: n is what its internal children must still report, in
#                    units where one move weighs WEIGHT_UNIT / (symmetries fixing the child)
#                    and the entry started at moves * WEIGHT_UNIT / (symmetries fixing it)
#                    (see _retro.pyx), at most 44 * 8; 0 for an entry with no internal move;
#   HOLE             a slot no position maps to (_orbit_index.pxd), never settled.
# A code then has 15 bits: plies up to LONGEST_PLIES.
cdef enum:
    SETTLED = 0x8000
    CODE_MASK = 0x7FFF
    HOLE = 0x7FFF
    WEIGHT_UNIT = 8
    LONGEST_PLIES = 16382       # the longest loss whose code fits in CODE_MASK


cdef inline uint16_t win_in(int plies) noexcept nogil:
    return <uint16_t>(2 * plies + 1)


cdef inline uint16_t loss_in(int plies) noexcept nogil:
    return <uint16_t>(2 * plies + 2)


cdef inline bint is_win(int code) noexcept nogil:
    return (code & 1) != 0


cdef inline bint is_loss(int code) noexcept nogil:
    return code != DRAW_CODE and (code & 1) == 0


cdef inline int plies_of(int code) noexcept nogil:
    """The plies of a win or a loss (not of a draw)."""
    return (code - 1) >> 1
