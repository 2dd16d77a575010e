"""The four-player verifier's kernel: entries re-derived from their children's values.

An entry checks out when its value is what the rules make of its children's (SPEC "Plies"):
a position the rules decide has 0 plies; otherwise a win in 1 + the fewest plies of a lost
child if one is lost, else a draw if one is drawn, else a loss in 1 + the most plies of a won
child. Children are read from the tables (the tier's other side, and the tier with one more
cube), not from the generator: when every entry of every tier checks out, every value is
exact (by induction on the plies: a labelled win or loss is a proof, and every true win or
loss is labelled).
"""
from cython.parallel cimport prange
from libc.stdint cimport int64_t, uint16_t, uint64_t

import numpy as np

from ...rules._rules cimport Geometry, geometry_of
from ...tablebase.format._value_code cimport DRAW_CODE, is_loss, loss_in, plies_of, win_in
from .._team_rules cimport PASS_MOVE, Roles, is_legal_code, must_pass, play_code, team_status
from ._tier_index cimport TierIndex, TierSideIndex, position_at, stored_is_hole, tier_index


cdef inline uint16_t _from_children(const Geometry* g, const Roles* p,
                                    const TierIndex* other, const uint16_t* other_values,
                                    const TierIndex* next_index,
                                    const uint16_t* next_values) noexcept nogil:
    cdef Roles child
    cdef int code, plies, shortest_loss = -1, longest_win = -1
    cdef bint draw = False
    cdef uint16_t value
    cdef int last = 2 * g.move_count
    if must_pass(g, p):
        last = 1
    for code in range(last):
        if last == 1:
            play_code(g, PASS_MOVE, p, &child)
            value = other_values[tier_index(other, &child)]
        elif not is_legal_code(g, code, p):
            continue
        else:
            play_code(g, code, p, &child)
            if g.move_source[code >> 1] & p.cubes[0]:
                value = other_values[tier_index(other, &child)]
            else:
                value = next_values[tier_index(next_index, &child)]
        if value == DRAW_CODE:
            draw = True
            continue
        plies = plies_of(value)
        if is_loss(value):
            if shortest_loss < 0 or plies < shortest_loss:
                shortest_loss = plies
        elif plies > longest_win:
            longest_win = plies
    if shortest_loss >= 0:
        return win_in(1 + shortest_loss)
    if draw:
        return DRAW_CODE
    return loss_in(1 + longest_win)


cdef inline int _check_one(const Geometry* g, const TierIndex* x, const uint16_t* values,
                           const TierIndex* other, const uint16_t* other_values,
                           const TierIndex* next_index, const uint16_t* next_values,
                           uint64_t index) noexcept nogil:
    """-1 for a hole, 0 for an entry that checks out, 1 for one that does not. (A helper, so
    that its position is private to the thread that runs it.)"""
    cdef Roles p
    cdef uint64_t block = position_at(x, index, &p)
    cdef int status
    cdef uint16_t expected
    if stored_is_hole(x, index, block, &p):
        return -1
    status = team_status(g, &p)
    if status > 0:
        expected = win_in(0)
    elif status < 0:
        expected = loss_in(0)
    else:
        expected = _from_children(g, &p, other, other_values, next_index, next_values)
    return 1 if expected != values[index] else 0


def check_entries(TierSideIndex side, const uint16_t[::1] values, TierSideIndex other,
                  const uint16_t[::1] other_values, TierSideIndex next_side,
                  next_values, const uint64_t[::1] entries, int threads=0):
    """Check the given entries of `side` (the tier's other side `other`, the side of the
    next tier `next_side`, None on a full board). Returns (entries checked, not holes; a
    flag per given entry: 1 where it does not check out)."""
    cdef const Geometry* g = geometry_of(side.size)
    cdef const TierIndex* x = &side.index
    cdef const TierIndex* o = &other.index
    cdef const TierIndex* n = NULL
    cdef const uint16_t[::1] next_view
    cdef const uint16_t* next_pointer = NULL
    if next_side is not None:
        next_view = next_values
        n = &next_side.index
        next_pointer = &next_view[0]
    for table, index in ((values, side), (other_values, other), (next_values, next_side)):
        if index is not None and table.shape[0] != index.entries:
            raise ValueError("a side's values do not match its index")
    if entries.shape[0] and np.max(entries) >= side.entries:
        raise ValueError(f"an entry is beyond the side's {side.entries} slots")
    cdef Py_ssize_t i, count = entries.shape[0]
    flags = np.zeros(count, dtype=np.uint8)
    cdef unsigned char[::1] bad = flags
    cdef int64_t checked = 0
    cdef int outcome
    for i in prange(count, nogil=True, schedule="dynamic", chunksize=256, num_threads=threads):
        outcome = _check_one(g, x, &values[0], o, &other_values[0], n, next_pointer, entries[i])
        if outcome >= 0:
            checked += 1
            bad[i] = outcome
    return int(checked), flags
