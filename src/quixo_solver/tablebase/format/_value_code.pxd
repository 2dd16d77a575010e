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
#   otherwise undecided, in two fields:
#     bits 0-8 (COUNT_MASK): what its internal children must still report, in units where one
#       move weighs WEIGHT_UNIT / (symmetries fixing the child) and the entry started at
#       moves * WEIGHT_UNIT / (symmetries fixing it) (see _retro.pyx), at most 44 * 8;
#     bits 9-14 (EXTERNAL_SHIFT): what its external children (one more cube, already solved)
#       said, the most of: EXTERNAL_NONE, 1 + the plies of a win (1 + k for a win in k, up
#       to EXTERNAL_LONG - 1), EXTERNAL_LONG (a win in EXTERNAL_LONG - 1 plies or more: the
#       exact plies are looked up), EXTERNAL_DRAW (a child is a draw);
#   HOLE             a slot no position maps to (_orbit_index.pxd), never settled.
# A code then has 15 bits: plies up to LONGEST_PLIES.
cdef enum:
    SETTLED = 0x8000
    CODE_MASK = 0x7FFF
    HOLE = 0x7FFF
    WEIGHT_UNIT = 8
    LONGEST_PLIES = 16382       # the longest loss whose code fits in CODE_MASK
    COUNT_MASK = 0x1FF
    EXTERNAL_SHIFT = 9
    EXTERNAL_NONE = 0
    EXTERNAL_LONG = 62
    EXTERNAL_DRAW = 63


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
