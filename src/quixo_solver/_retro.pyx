"""Retrograde analysis of one class pair: the kernels of the tablebase generator.

A pair is the class (a, b) with its mirror (b, a): a move that takes the mover's own cube
leads from one to the other ("internal" moves), a move that takes a blank leads to the pair
with one more cube ("external" moves), already solved. Values are uint16, seen from the
player to move (value_codes.py):

    0 = draw (or not yet known),  2k + 1 = win in k plies,  2k + 2 = loss in k plies.

The build (tablebase/builder.py) runs, for a pair:
  1. ``initialise`` on each class: terminal positions get their 0-ply value; every other
     position counts its internal moves in ``remaining`` and looks its external children up:
     a losing child makes it a (tentative) win, and a position without internal moves is
     settled at once.
  2. ``propagate(n)`` for n = 1, 2, ... on each class, until n - 1 passes the largest plies
     yet assigned: every position whose value has exactly n - 1 plies is un-moved to its
     internal parents. A loss makes each parent a win in n (lowering a longer tentative win);
     a win takes one from each undecided parent's ``remaining``, and the parent whose count
     reaches 0 is a loss in max(n, 1 + its longest external win), unless an external child
     is a draw. Plies are exact because n only grows.
Both kernels are nogil and split the class into chunks over the cores (OpenMP); the result
does not depend on the thread count.
"""
from cython.parallel cimport prange
from libc.stdint cimport int32_t, uint8_t, uint16_t, uint32_t, uint64_t

import numpy as np

from ._engine cimport (
    Geometry, geometry_of, has_line, mask_t, play, popcount, slide,
)
from ._index cimport BINOMIAL, class_index, next_subset, pdep, set_at_rank
from ._index import subsets_in_order

cdef extern from *:
    """
    static inline unsigned char quixo_atomic_decrement(unsigned char *p) {
        return __atomic_sub_fetch(p, 1, __ATOMIC_RELAXED);
    }
    static inline void quixo_atomic_store16(unsigned short *p, unsigned short v) {
        __atomic_store_n(p, v, __ATOMIC_RELAXED);
    }
    static inline unsigned short quixo_atomic_load16(unsigned short *p) {
        return __atomic_load_n(p, __ATOMIC_RELAXED);
    }
    """
    uint8_t quixo_atomic_decrement(uint8_t* p) noexcept nogil
    void quixo_atomic_store16(uint16_t* p, uint16_t v) noexcept nogil
    uint16_t quixo_atomic_load16(uint16_t* p) noexcept nogil

DEF CHUNK = 16384
DEF NO_PLIES = 0x7FFF


cdef inline uint16_t win_in(int plies) noexcept nogil:
    return <uint16_t>(2 * plies + 1)


cdef inline uint16_t loss_in(int plies) noexcept nogil:
    return <uint16_t>(2 * plies + 2)


cdef inline int plies_of(uint16_t value) noexcept nogil:
    return (value - 1) >> 1


cdef struct External:
    int shortest_loss     # fewest plies of a losing child, NO_PLIES if none
    int longest_win       # most plies of a winning child, -1 if none
    bint draw             # some child is a draw


cdef inline External look_up_external(const Geometry* g, mask_t mover, mask_t opponent,
                                      const uint16_t* children) noexcept nogil:
    """The values of the children reached by taking a blank (class one cube larger)."""
    cdef External found
    cdef mask_t blanks = g.full & ~(mover | opponent)
    cdef mask_t child_mover, child_opponent
    cdef uint16_t value
    cdef int move
    found.shortest_loss = NO_PLIES
    found.longest_win = -1
    found.draw = False
    if blanks == 0:
        return found
    for move in range(g.move_count):
        if not (g.move_source[move] & blanks):
            continue
        play(g, move, mover, opponent, &child_mover, &child_opponent)
        value = children[class_index(child_mover, child_opponent)]
        if value == 0:
            found.draw = True
        elif value & 1:
            if plies_of(value) > found.longest_win:
                found.longest_win = plies_of(value)
        elif plies_of(value) < found.shortest_loss:
            found.shortest_loss = plies_of(value)
    return found


cdef inline uint16_t settled_loss(External found, int at_least) noexcept nogil:
    """Value of a position whose internal children are all wins: a loss, unless an external
    child is a draw."""
    if found.draw:
        return 0
    return loss_in(at_least if at_least > found.longest_win + 1 else found.longest_win + 1)


cdef inline mask_t unslide(const Geometry* g, int move, mask_t cubes) noexcept nogil:
    """Undo the slide of ``move`` on cubes other than the one that entered at the target."""
    cdef mask_t back = ((g.move_slide[move] << g.move_left_shift[move])
                        >> g.move_right_shift[move])
    return (cubes & g.move_keep[move]) | (
        ((cubes & back) << g.move_right_shift[move]) >> g.move_left_shift[move])


cdef class ClassSide:
    """One class of the pair being solved, with the arrays the kernels read and write."""
    cdef public int mover_count, opponent_count
    cdef public object values, remaining, external, subsets
    cdef uint16_t[::1] values_view
    cdef uint8_t[::1] remaining_view
    cdef const uint16_t[::1] external_view
    cdef const uint32_t[::1] subsets_view

    def __init__(self, int mover_count, int opponent_count, values, remaining, external):
        self.mover_count = mover_count
        self.opponent_count = opponent_count
        self.values = values
        self.remaining = remaining
        self.external = external
        self.subsets = subsets_in_order(mover_count, mover_count + opponent_count)
        self.values_view = values
        self.remaining_view = remaining
        self.external_view = external
        self.subsets_view = self.subsets


cdef inline void _first_position(int cells, int occupied_count, uint64_t block_size,
                                 uint64_t start, mask_t* occupied, uint64_t* offset) noexcept nogil:
    occupied[0] = set_at_rank(start // block_size, occupied_count, cells)
    offset[0] = start % block_size


def initialise(int size, ClassSide side, int threads):
    """Step 1 on one class. Returns the largest plies assigned (-1 if none)."""
    cdef const Geometry* g = geometry_of(size)
    cdef int occupied_count = side.mover_count + side.opponent_count
    cdef uint64_t block_size = BINOMIAL[occupied_count][side.mover_count]
    cdef uint64_t total = BINOMIAL[g.cell_count][occupied_count] * block_size
    cdef Py_ssize_t chunks = (total + CHUNK - 1) // CHUNK, chunk
    cdef uint16_t[::1] values = side.values_view
    cdef uint8_t[::1] remaining = side.remaining_view
    cdef const uint32_t[::1] subsets = side.subsets_view
    cdef const uint16_t* external = &side.external_view[0] if side.external_view.shape[0] else NULL
    cdef int32_t[::1] chunk_max = np.full(max(chunks, 1), -1, dtype=np.int32)
    cdef uint64_t index, offset, stop
    cdef mask_t occupied, mover, opponent
    cdef uint16_t value
    cdef External found
    cdef int moves
    for chunk in prange(chunks, nogil=True, schedule="dynamic", num_threads=threads):
        index = chunk * CHUNK
        stop = index + CHUNK if index + CHUNK < total else total
        _first_position(g.cell_count, occupied_count, block_size, index, &occupied, &offset)
        while index < stop:
            mover = pdep(subsets[offset], occupied)
            opponent = occupied & ~mover
            moves = 0
            if has_line(g, mover):
                value = win_in(0)
            elif has_line(g, opponent):
                value = loss_in(0)
            else:
                moves = 3 * popcount(g.edges & mover) + 2 * popcount(g.corners & mover)
                found = look_up_external(g, mover, opponent, external)
                if found.shortest_loss != NO_PLIES:
                    value = win_in(found.shortest_loss + 1)
                elif moves == 0:
                    value = settled_loss(found, 0)
                else:
                    value = 0
            values[index] = value
            remaining[index] = moves
            if value != 0 and plies_of(value) > chunk_max[chunk]:
                chunk_max[chunk] = plies_of(value)
            index = index + 1
            offset = offset + 1
            if offset == block_size and index < stop:
                offset = 0
                occupied = next_subset(occupied)
    return int(np.max(chunk_max))


def propagate(int size, ClassSide frontier_side, ClassSide parent_side, int plies, int threads):
    """Step 2 for one n = ``plies``: un-move the positions of ``frontier_side`` whose value has
    n - 1 plies into ``parent_side``. Returns the largest plies assigned (-1 if none)."""
    cdef const Geometry* g = geometry_of(size)
    cdef int occupied_count = frontier_side.mover_count + frontier_side.opponent_count
    cdef uint64_t block_size = BINOMIAL[occupied_count][frontier_side.mover_count]
    cdef uint64_t total = BINOMIAL[g.cell_count][occupied_count] * block_size
    cdef Py_ssize_t chunks = (total + CHUNK - 1) // CHUNK, chunk
    cdef const uint16_t[::1] values = frontier_side.values_view
    cdef const uint32_t[::1] subsets = frontier_side.subsets_view
    cdef uint16_t* parent_values = &parent_side.values_view[0]
    cdef uint8_t* parent_remaining = &parent_side.remaining_view[0]
    cdef const uint16_t* parent_external = (
        &parent_side.external_view[0] if parent_side.external_view.shape[0] else NULL)
    cdef int32_t[::1] chunk_max = np.full(max(chunks, 1), -1, dtype=np.int32)
    cdef uint16_t win_now = win_in(plies), loss_before = loss_in(plies - 1)
    cdef uint16_t win_before = win_in(plies - 1), value, parent_value, settled
    cdef uint64_t index, block, stop, parent
    cdef mask_t occupied, mover, opponent, parent_mover, parent_opponent
    cdef int move
    for chunk in prange(chunks, nogil=True, schedule="dynamic", num_threads=threads):
        index = chunk * CHUNK
        stop = index + CHUNK if index + CHUNK < total else total
        block = <uint64_t>-1
        occupied = 0
        while index < stop:
            value = values[index]
            if value == win_before or value == loss_before:
                if index // block_size != block:
                    block = index // block_size
                    occupied = set_at_rank(block, occupied_count, g.cell_count)
                mover = pdep(subsets[index - block * block_size], occupied)
                opponent = occupied & ~mover
                for move in range(g.move_count):
                    if not (opponent & g.move_target[move]):
                        continue
                    # the parent moved and handed over: its cubes are now `opponent`
                    parent_mover = unslide(g, move, opponent & ~g.move_target[move]) | g.move_source[move]
                    parent_opponent = unslide(g, move, mover)
                    parent = class_index(parent_mover, parent_opponent)
                    parent_value = quixo_atomic_load16(&parent_values[parent])
                    if value == loss_before:
                        if parent_value == 0 or (parent_value & 1 and parent_value > win_now):
                            quixo_atomic_store16(&parent_values[parent], win_now)
                            if plies > chunk_max[chunk]:
                                chunk_max[chunk] = plies
                    elif parent_value == 0:
                        if quixo_atomic_decrement(&parent_remaining[parent]) == 0:
                            settled = settled_loss(
                                look_up_external(g, parent_mover, parent_opponent,
                                                 parent_external), plies)
                            if settled != 0:
                                quixo_atomic_store16(&parent_values[parent], settled)
                                if plies_of(settled) > chunk_max[chunk]:
                                    chunk_max[chunk] = plies_of(settled)
            index = index + 1
    return int(np.max(chunk_max))
