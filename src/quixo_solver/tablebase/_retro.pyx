"""Retrograde analysis of one class pair: the kernels of the tablebase generator.

A pair is the class (a, b) with its mirror (b, a): a move that takes the mover's own cube
leads from one to the other ("internal" moves), a move that takes a blank leads to the pair
with one more cube ("external" moves), already solved. Values are uint16, seen from the
player to move (_value_code.pxd: 0 draw or not yet known, 2k + 1 win in k plies, 2k + 2
loss in k plies).

The build (tablebase/builder.py) runs, for a pair:
  1. ``initialise`` on each class: terminal positions get their 0-ply value and every other
     position counts its internal moves (``remaining``); then every lost position of the
     next class is un-moved to the parents that took a blank, each of which becomes a
     (tentative) win in one ply more, the fewest plies kept; a position with no internal
     move is then settled from its external children at once.
  2. ``propagate(n)`` for n = 1, 2, ... on each class, until n - 1 passes the largest plies
     yet assigned: every position whose value has exactly n - 1 plies is un-moved to its
     internal parents. A loss makes each parent a win in n (lowering a longer tentative win);
     a win takes one from each undecided parent's ``remaining``, and the parent whose count
     reaches 0 is a loss in max(n, 1 + its longest external win), unless an external child
     is a draw. Plies are exact because n only grows.
While a pair is solved, each position is one uint16 word: the value code in the low 10 bits
and ``remaining`` in the high 6 (at most 44 moves), so that an un-move touches one word; the
remaining bits are dropped once the position has a value. Codes above 10 bits (a win in more
than 510 plies) set the overflow flag instead, and the build refuses the pair.
Both kernels are nogil and split the class into chunks over the cores (OpenMP); the result
does not depend on the thread count.
"""
from cython.parallel cimport prange
from libc.stdint cimport int32_t, uint16_t, uint32_t, uint64_t

import numpy as np

from .._engine cimport MAX_MOVES, Geometry, geometry_of, has_line, mask_t, play, popcount
from .._interrupt cimport interrupted, stop_watching, watch_interrupts
from ._value_code cimport (CODE_BITS, CODE_MASK, DRAW_CODE, NO_OWN_MOVES, ONE_MOVE, is_loss, is_win,
                          loss_in, plies_of, win_in)
from ._index cimport BINOMIAL, index_in_class, next_subset, pdep, set_at_rank
from ._index import subsets_in_order

cdef extern from *:
    int __builtin_ctz(unsigned int) nogil
    void __builtin_prefetch(const void*, int, int) nogil

cdef extern from *:
    """
    static inline void quixo_atomic_store16(unsigned short *p, unsigned short v) {
        __atomic_store_n(p, v, __ATOMIC_RELAXED);
    }
    static inline unsigned short quixo_atomic_load16(unsigned short *p) {
        return __atomic_load_n(p, __ATOMIC_RELAXED);
    }
    static inline int quixo_compare_exchange16(unsigned short *p, unsigned short expected,
                                               unsigned short desired) {
        return __atomic_compare_exchange_n(p, &expected, desired, 0, __ATOMIC_RELAXED,
                                           __ATOMIC_RELAXED);
    }
    """
    void quixo_atomic_store16(uint16_t* p, uint16_t v) noexcept nogil
    uint16_t quixo_atomic_load16(uint16_t* p) noexcept nogil
    bint quixo_compare_exchange16(uint16_t* p, uint16_t expected, uint16_t desired) noexcept nogil

DEF CHUNK = 16384
DEF NO_PLIES = 0x7FFF
DEF LONGEST_PLIES = 510     # the longest loss whose code fits in CODE_BITS (a win: 511)
DEF OVERFLOW = 0x7FFFFFFF


cdef struct External:
    int shortest_loss     # fewest plies of a losing child, NO_PLIES if none
    int longest_win       # most plies of a winning child, -1 if none
    bint draw             # some child is a draw


cdef inline External look_up_external(const Geometry* g, mask_t mover, mask_t opponent,
                                      const uint16_t* children,
                                      uint64_t children_block) noexcept nogil:
    """The values of the children reached by taking a blank (class one cube larger)."""
    cdef External found
    cdef mask_t sources = g.full & ~(mover | opponent) & (g.edges | g.corners)
    cdef mask_t child_mover, child_opponent
    cdef uint16_t code
    cdef int move, square, last
    found.shortest_loss = NO_PLIES
    found.longest_win = -1
    found.draw = False
    while sources:
        square = __builtin_ctz(sources)
        sources &= sources - 1
        last = g.source_first_move[square] + g.source_move_count[square]
        for move in range(g.source_first_move[square], last):
            play(g, move, mover, opponent, &child_mover, &child_opponent)
            code = children[index_in_class(child_mover, child_opponent, children_block)]
            if code == DRAW_CODE:
                found.draw = True
            elif is_win(code):
                if plies_of(code) > found.longest_win:
                    found.longest_win = plies_of(code)
            elif plies_of(code) < found.shortest_loss:
                found.shortest_loss = plies_of(code)
    return found


cdef inline int settled_loss_plies(External found, int at_least) noexcept nogil:
    """Plies of a position whose internal children are all wins, -1 if it is a draw (an
    external child is one)."""
    if found.draw:
        return -1
    return at_least if at_least > found.longest_win + 1 else found.longest_win + 1


cdef inline mask_t unslide(const Geometry* g, int move, mask_t cubes) noexcept nogil:
    """Undo the slide of ``move`` on cubes other than the one that entered at the target."""
    cdef mask_t back = ((g.move_slide[move] << g.move_left_shift[move])
                        >> g.move_right_shift[move])
    return (cubes & g.move_keep[move]) | (
        ((cubes & back) << g.move_right_shift[move]) >> g.move_left_shift[move])


cdef inline mask_t unmoved_mover(const Geometry* g, int move, mask_t opponent,
                                 bint took_own_cube) noexcept nogil:
    """The cubes of the player who played ``move`` into (mover, opponent), before it: they
    are now ``opponent``, the one at the target included; the source square held one of
    them, or a blank. (The other player's cubes before: ``unslide(g, move, mover)``.)
    Returned, not written through a pointer, so that prange keeps the result private."""
    cdef mask_t cubes = unslide(g, move, opponent & ~g.move_target[move])
    return cubes | g.move_source[move] if took_own_cube else cubes


def _class_size(int size, int mover_count, int opponent_count):
    cdef int occupied = mover_count + opponent_count
    return int(BINOMIAL[size * size][occupied] * BINOMIAL[occupied][mover_count])


cdef class ClassSide:
    """One class of the pair being solved: its packed words and the table it reads."""
    cdef readonly int size, mover_count, opponent_count
    cdef readonly uint64_t block, external_block    # C(k, a) of the class and of its next one
    cdef readonly object words, external, subsets, external_subsets
    cdef uint16_t[::1] words_view
    cdef const uint16_t[::1] external_view
    cdef const uint32_t[::1] subsets_view
    cdef const uint32_t[::1] external_subsets_view

    def __init__(self, int size, int mover_count, int opponent_count, external):
        self.size = size
        self.mover_count = mover_count
        self.opponent_count = opponent_count
        self.words = np.zeros(_class_size(size, mover_count, opponent_count), dtype=np.uint16)
        self.external = np.ascontiguousarray(external, dtype=np.uint16)
        self.subsets = subsets_in_order(mover_count, mover_count + opponent_count)
        self.block = BINOMIAL[mover_count + opponent_count][mover_count]
        # taking a blank leads to class (opponent_count, mover_count + 1)
        self.external_block = (BINOMIAL[mover_count + opponent_count + 1][opponent_count]
                               if mover_count + opponent_count < size * size else 0)
        self.external_subsets = (subsets_in_order(opponent_count, mover_count + opponent_count + 1)
                                 if self.external.shape[0] else np.zeros(1, dtype=np.uint32))
        self.words_view = self.words
        self.external_view = self.external
        self.subsets_view = self.subsets
        self.external_subsets_view = self.external_subsets

    def values(self):
        """The solved value codes, in place of the words: call once, after the last step."""
        np.bitwise_and(self.words, CODE_MASK, out=self.words)
        return self.words


cdef inline uint64_t chunk_end(Py_ssize_t chunk, uint64_t total) noexcept nogil:
    """Where the loop over a chunk stops: after its last index, or at its first once Ctrl-C
    was pressed (the caller then raises KeyboardInterrupt and nothing is kept)."""
    cdef uint64_t start = chunk * CHUNK
    if interrupted():
        return start
    return start + CHUNK if start + CHUNK < total else total


cdef inline int _record(int32_t* longest, int plies) noexcept nogil:
    if plies > LONGEST_PLIES:
        longest[0] = OVERFLOW
    elif plies > longest[0]:
        longest[0] = plies
    return 0


def _longest(chunk_longest):
    longest = int(np.max(chunk_longest))
    if longest == OVERFLOW:
        raise OverflowError(f"a position needs more than {LONGEST_PLIES} plies, beyond what "
                            "the solver's packed words hold")
    return longest


def initialise(ClassSide side, int threads):
    """Step 1 on one class. Returns the largest plies assigned (-1 if none)."""
    cdef Py_ssize_t chunks = max(1, (side.words.shape[0] + CHUNK - 1) // CHUNK)
    cdef Py_ssize_t external_chunks = max(1, (side.external.shape[0] + CHUNK - 1) // CHUNK)
    cdef int32_t[::1] terminal = np.full(chunks, -1, dtype=np.int32)
    cdef int32_t[::1] pulled = np.full(external_chunks, -1, dtype=np.int32)
    cdef int32_t[::1] settled = np.full(chunks, -1, dtype=np.int32)
    watch_interrupts()
    try:
        with nogil:
            _mark_terminals_and_count_moves(side, threads, terminal)
            _pull_external_losses(side, threads, pulled)
            _settle_positions_without_own_border_cubes(side, threads, settled)
    finally:
        stop_watching()
    return max(_longest(terminal), _longest(pulled), _longest(settled))


cdef void _mark_terminals_and_count_moves(ClassSide side, int threads,
                                         int32_t[::1] longest) noexcept nogil:
    cdef const Geometry* g = geometry_of(side.size)
    cdef int occupied_count = side.mover_count + side.opponent_count
    cdef uint64_t block_size = side.block, total = side.words_view.shape[0]
    cdef Py_ssize_t chunks = (total + CHUNK - 1) // CHUNK, chunk
    cdef uint64_t index, offset, stop
    cdef mask_t occupied, mover, opponent
    cdef int moves
    for chunk in prange(chunks, schedule="dynamic", num_threads=threads):
        index = chunk * CHUNK
        stop = chunk_end(chunk, total)
        occupied = set_at_rank(index // block_size, occupied_count, g.cell_count)
        offset = index % block_size
        while index < stop:
            mover = pdep(side.subsets_view[offset], occupied)
            opponent = occupied & ~mover
            if has_line(g, mover):
                side.words_view[index] = win_in(0)
                longest[chunk] = 0
            elif has_line(g, opponent):
                side.words_view[index] = loss_in(0)
                longest[chunk] = 0
            else:
                moves = 3 * popcount(g.edges & mover) + 2 * popcount(g.corners & mover)
                side.words_view[index] = <uint16_t>(moves * ONE_MOVE) if moves else NO_OWN_MOVES
            index = index + 1
            offset = offset + 1
            if offset == block_size and index < stop:
                offset = 0
                occupied = next_subset(occupied)


cdef inline int _parents(const Geometry* g, mask_t mover, mask_t opponent, bint took_own_cube,
                         uint64_t parent_block, const uint16_t* words, uint64_t* indices,
                         mask_t* parent_movers, mask_t* parent_opponents) noexcept nogil:
    """The parents of (mover, opponent) by the un-moves that took the mover's own cube (or a
    blank): their indices (prefetched in `words`) and cubes. Returns how many."""
    cdef int count = 0, move, slot, square, last
    # the parent's cube entered at a target that now shows the parent's symbol
    cdef mask_t targets = opponent & (g.edges | g.corners)
    while targets:
        square = __builtin_ctz(targets)
        targets = targets & (targets - 1)
        last = g.target_first_move[square] + g.target_move_count[square]
        for slot in range(g.target_first_move[square], last):
            move = g.target_moves[slot]
            parent_movers[count] = unmoved_mover(g, move, opponent, took_own_cube)
            parent_opponents[count] = unslide(g, move, mover)
            indices[count] = index_in_class(parent_movers[count], parent_opponents[count],
                                            parent_block)
            __builtin_prefetch(&words[indices[count]], 1, 3)
            count += 1
    return count


cdef inline void _win_blank_parents(const Geometry* g, mask_t mover, mask_t opponent,
                                    uint16_t wanted, uint16_t* words,
                                    uint64_t parent_block) noexcept nogil:
    """Every parent that took a blank wins in `wanted` plies at most (CAS-min)."""
    cdef uint64_t indices[MAX_MOVES]
    cdef mask_t parent_movers[MAX_MOVES]
    cdef mask_t parent_opponents[MAX_MOVES]
    cdef int count = _parents(g, mover, opponent, False, parent_block, words, indices,
                              parent_movers, parent_opponents), i
    cdef uint16_t word
    for i in range(count):
        word = quixo_atomic_load16(&words[indices[i]])
        while ((word & CODE_MASK) == 0 or (word & 1 and (word & CODE_MASK) > wanted)) \
                and not quixo_compare_exchange16(&words[indices[i]], word, wanted):
            word = quixo_atomic_load16(&words[indices[i]])


cdef void _pull_external_losses(ClassSide side, int threads,
                                int32_t[::1] longest) noexcept nogil:
    """A child lost in k plies, reached by taking a blank, makes its parent a win in at most
    k + 1: un-move every lost position of the next class to the parents that took a blank
    (the source is left blank) and keep the smallest plies."""
    cdef const Geometry* g = geometry_of(side.size)
    cdef uint64_t total = side.external_view.shape[0]
    if total == 0:
        return
    cdef int occupied_count = side.mover_count + side.opponent_count + 1
    cdef uint64_t block_size = side.external_block, parent_block = side.block
    cdef Py_ssize_t chunks = (total + CHUNK - 1) // CHUNK, chunk
    cdef uint64_t index, block, stop
    cdef mask_t occupied, mover
    cdef uint16_t code
    cdef uint16_t* words = &side.words_view[0]
    cdef int32_t plies
    for chunk in prange(chunks, schedule="dynamic", num_threads=threads):
        index = chunk * CHUNK
        stop = chunk_end(chunk, total)
        block = <uint64_t>-1
        occupied = 0
        while index < stop:
            code = side.external_view[index]
            if is_loss(code):
                if index // block_size != block:
                    block = index // block_size
                    occupied = set_at_rank(block, occupied_count, g.cell_count)
                mover = pdep(side.external_subsets_view[index - block * block_size], occupied)
                plies = plies_of(code) + 1
                _win_blank_parents(g, mover, occupied & ~mover, win_in(plies), words,
                                   parent_block)
                _record(&longest[chunk], plies)
            index = index + 1


cdef void _settle_positions_without_own_border_cubes(ClassSide side, int threads,
                                                     int32_t[::1] longest) noexcept nogil:
    """Positions with no internal move and no losing external child: a loss, or a draw."""
    cdef const Geometry* g = geometry_of(side.size)
    cdef int occupied_count = side.mover_count + side.opponent_count
    cdef uint64_t block_size = side.block, total = side.words_view.shape[0]
    cdef const uint16_t* external = &side.external_view[0] if side.external_view.shape[0] else NULL
    cdef Py_ssize_t chunks = (total + CHUNK - 1) // CHUNK, chunk
    cdef uint64_t index, stop
    cdef mask_t occupied, mover
    cdef int32_t plies
    for chunk in prange(chunks, schedule="dynamic", num_threads=threads):
        index = chunk * CHUNK
        stop = chunk_end(chunk, total)
        while index < stop:
            if side.words_view[index] == NO_OWN_MOVES:
                occupied = set_at_rank(index // block_size, occupied_count, g.cell_count)
                mover = pdep(side.subsets_view[index % block_size], occupied)
                plies = settled_loss_plies(
                    look_up_external(g, mover, occupied & ~mover, external,
                                     side.external_block), 0)
                side.words_view[index] = loss_in(plies) if plies >= 0 else 0
                _record(&longest[chunk], plies)
            index = index + 1


cdef inline int _unmove_to_parents(const Geometry* g, mask_t mover, mask_t opponent, bint lost,
                                   int plies, uint16_t* parents, uint64_t parent_block,
                                   const uint16_t* parent_external,
                                   uint64_t parent_external_block) noexcept nogil:
    """Un-move one frontier position (value n - 1 plies) to its internal parents: a loss makes
    each a win in n; a win takes one from each undecided parent's count, settling the parents
    it empties. The parents' indices are computed and prefetched first, so that their cache
    misses overlap. Returns the largest plies assigned, -1 if none. (Helpers, so that their
    arrays are private to the thread that runs them.)"""
    cdef uint64_t indices[MAX_MOVES]
    cdef mask_t parent_movers[MAX_MOVES]
    cdef mask_t parent_opponents[MAX_MOVES]
    cdef int count = _parents(g, mover, opponent, True, parent_block, parents, indices,
                              parent_movers, parent_opponents)
    cdef int i, settled, longest = -1
    cdef uint16_t win_now = win_in(plies), word
    for i in range(count):
        word = quixo_atomic_load16(&parents[indices[i]])
        if lost:
            if (word & CODE_MASK) == 0 or (word & 1 and (word & CODE_MASK) > win_now):
                quixo_atomic_store16(&parents[indices[i]], win_now)
                longest = plies
            continue
        # a won child: one internal move fewer to hear from
        while (word & CODE_MASK) == 0 and not quixo_compare_exchange16(
                &parents[indices[i]], word, word - ONE_MOVE):
            word = quixo_atomic_load16(&parents[indices[i]])
        if (word & CODE_MASK) == 0 and word - ONE_MOVE < ONE_MOVE:
            settled = settled_loss_plies(
                look_up_external(g, parent_movers[i], parent_opponents[i], parent_external,
                                 parent_external_block), plies)
            if settled >= 0:
                quixo_atomic_store16(&parents[indices[i]], loss_in(settled))
                if settled > longest:
                    longest = settled
    return longest


def propagate(ClassSide frontier_side, ClassSide parent_side, int plies, int threads):
    """Step 2 for one n = ``plies``: un-move the positions of ``frontier_side`` whose value has
    n - 1 plies into ``parent_side``. Returns the largest plies assigned (-1 if none)."""
    cdef const Geometry* g = geometry_of(frontier_side.size)
    cdef int occupied_count = frontier_side.mover_count + frontier_side.opponent_count
    cdef uint64_t block_size = BINOMIAL[occupied_count][frontier_side.mover_count]
    cdef uint64_t total = frontier_side.words.shape[0]
    cdef Py_ssize_t chunks = (total + CHUNK - 1) // CHUNK, chunk
    cdef const uint16_t[::1] words = frontier_side.words_view
    cdef const uint32_t[::1] subsets = frontier_side.subsets_view
    cdef uint16_t* parents = &parent_side.words_view[0]
    cdef const uint16_t* parent_external = (
        &parent_side.external_view[0] if parent_side.external_view.shape[0] else NULL)
    cdef uint64_t parent_block = parent_side.block
    cdef uint64_t parent_external_block = parent_side.external_block
    cdef int32_t[::1] chunk_longest = np.full(max(chunks, 1), -1, dtype=np.int32)
    cdef uint16_t loss_before = loss_in(plies - 1), win_before = win_in(plies - 1), code
    cdef uint64_t index, block, stop
    cdef mask_t occupied, mover
    cdef int settled
    watch_interrupts()
    try:
        for chunk in prange(chunks, nogil=True, schedule="dynamic", num_threads=threads):
            index = chunk * CHUNK
            stop = chunk_end(chunk, total)
            block = <uint64_t>-1
            occupied = 0
            while index < stop:
                code = words[index] & CODE_MASK
                if code == win_before or code == loss_before:
                    if index // block_size != block:
                        block = index // block_size
                        occupied = set_at_rank(block, occupied_count, g.cell_count)
                    mover = pdep(subsets[index - block * block_size], occupied)
                    settled = _unmove_to_parents(g, mover, occupied & ~mover, code == loss_before,
                                                 plies, parents, parent_block, parent_external,
                                                 parent_external_block)
                    if settled >= 0:
                        _record(&chunk_longest[chunk], settled)
                index = index + 1
    finally:
        stop_watching()
    return _longest(chunk_longest)


WORKING_WORD = {"CODE_BITS": CODE_BITS, "CODE_MASK": CODE_MASK, "ONE_MOVE": ONE_MOVE,
                "NO_OWN_MOVES": NO_OWN_MOVES}   # the layout the generator compiled with
