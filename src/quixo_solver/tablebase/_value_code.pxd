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

# While the generator (_retro) solves a pair, each position is one uint16 working word: the
# value code in the low CODE_BITS bits and, above them, the count of internal moves not yet
# heard from (ONE_MOVE per move, at most 44); NO_OWN_MOVES is a count no position has ("no
# internal move: settle me from the external children"). Codes need more than CODE_BITS only
# for a win in more than 510 plies, which the build refuses.
cdef enum:
    CODE_BITS = 10
    CODE_MASK = 0x3FF
    ONE_MOVE = 0x400
    NO_OWN_MOVES = 0xFC00


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
