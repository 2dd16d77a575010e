"""Every four-player position of a small board, solved with exact plies.

A position is indexed by its cells in base 5 (0 blank, 1 + the role of the player the dot
points at; square sq is digit sq), seen from the player to move: 5^9 = 1,953,125 positions on
3x3. Values are the value codes of the two-player tablebases (_value_code.pxd), for the team
to move.

Solved by rounds (the positions have cycles, so there is no order to sweep in): terminal
positions are decided first; round n decides a position as a win in n when a child is a loss
decided before round n, and as a loss in n when every child is a win decided before round n.
Reading only earlier rounds' decisions (a round writes to a second buffer) makes the plies exact and the result independent of
the threads; a round that decides nothing ends the solve (the rest are draws).
"""
from cython.parallel cimport prange
from libc.stdint cimport uint16_t, uint32_t

import numpy as np

from ..tablebase.format._value_code cimport DRAW_CODE, is_loss, loss_in, win_in
from ..rules._rules cimport Geometry, geometry_of, mask_t
from ._team_rules cimport PASS_MOVE, ROLES, Roles, is_legal_code, must_pass, play_code, team_status


cdef inline uint32_t index_of(const uint32_t* digit_values, int cell_count,
                              const Roles* p) noexcept nogil:
    # digit_values[role * 512 + mask] is the base-5 value of those squares holding role + 1
    return (digit_values[p.cubes[0]] + digit_values[512 + p.cubes[1]]
            + digit_values[1024 + p.cubes[2]] + digit_values[1536 + p.cubes[3]])


cdef inline void roles_of(uint32_t index, int cell_count, Roles* p) noexcept nogil:
    cdef int sq, digit
    p.cubes[0] = p.cubes[1] = p.cubes[2] = p.cubes[3] = 0
    for sq in range(cell_count):
        digit = index % 5
        index //= 5
        if digit:
            p.cubes[digit - 1] |= 1 << sq


cdef inline int status_of(const Geometry* g, uint32_t index) noexcept nogil:
    # A helper, not inline code in the prange: a Roles filled through a pointer inside a
    # prange body would be shared by the threads.
    cdef Roles p
    roles_of(index, g.cell_count, &p)
    return team_status(g, &p)


cdef inline uint16_t decide(const Geometry* g, const uint32_t* digit_values,
                            const uint16_t* codes, uint32_t index, int round_) noexcept nogil:
    """The code of an undecided position in round `round_`, or 0. `codes` holds the decisions
    of the earlier rounds only."""
    cdef Roles p, child
    cdef int k
    cdef uint16_t child_code
    cdef bint all_wins = True
    roles_of(index, g.cell_count, &p)
    for k in range(2 * g.move_count + 1):
        if k == 2 * g.move_count:              # the pass, only when nothing can be taken
            if not must_pass(g, &p):
                break
            k = PASS_MOVE
        elif not is_legal_code(g, k, &p):
            continue
        play_code(g, k, &p, &child)
        child_code = codes[index_of(digit_values, g.cell_count, &child)]
        if child_code == DRAW_CODE:
            all_wins = False
        elif is_loss(child_code):                # a loss for the child's mover: we win
            return win_in(round_)
    return loss_in(round_) if all_wins else DRAW_CODE


def solve(int size, progress=None):
    """Codes of every position of the board (size 3: 1,953,125 positions)."""
    cdef const Geometry* g = geometry_of(size)
    cdef int cell_count = size * size
    if cell_count > 9:
        raise ValueError("only boards up to 3x3 have few enough positions (5^9)")
    cdef uint32_t total = int(5 ** cell_count)
    cdef uint32_t[::1] digit_values = np.zeros(4 * 512, dtype=np.uint32)
    cdef uint16_t[::1] codes = np.zeros(total, dtype=np.uint16)
    cdef uint16_t[::1] decided = np.zeros(total, dtype=np.uint16)
    cdef int role, mask, sq, round_ = 0
    cdef Py_ssize_t index        # signed: OpenMP 2.0 (MSVC) takes no unsigned loop variable
    cdef uint32_t changed
    cdef int status
    for role in range(ROLES):
        for mask in range(1 << cell_count):
            digit_values[role * 512 + mask] = sum((role + 1) * 5 ** sq
                                                  for sq in range(cell_count) if mask >> sq & 1)
    with nogil:
        for index in prange(total, schedule="static"):
            status = status_of(g, index)
            if status > 0:
                codes[index] = win_in(0)
            elif status < 0:
                codes[index] = loss_in(0)
    while True:
        round_ += 1
        changed = 0
        with nogil:
            for index in prange(total, schedule="dynamic", chunksize=4096):
                if codes[index] == 0:
                    decided[index] = decide(g, &digit_values[0], &codes[0], index, round_)
                    if decided[index]:
                        changed += 1
                else:
                    decided[index] = 0
            for index in prange(total, schedule="static"):
                if decided[index]:
                    codes[index] = decided[index]
        if progress is not None:
            progress(round_, changed)
        if changed == 0:
            break
    return np.asarray(codes)


def position_index(int size, roles):
    cdef int sq, role
    cdef uint32_t index = 0
    for sq in range(size * size - 1, -1, -1):
        digit = 0
        for role in range(ROLES):
            if roles[role] >> sq & 1:
                digit = role + 1
        index = index * 5 + digit
    return index
