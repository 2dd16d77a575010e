"""Retrograde analysis of one four-player tier: the kernels of the team game's generator.

A tier is every position with k cubes whose teams hold T and U of them, with either team to
move: two sides, (T, U) and (U, T) (one when T = U), indexed by _tier_index.pxd. Every move
hands the turn to the other team, so it leads from one side to the other ("internal": the
mover took a cube of their own, or passed) or into the tier with one more cube ("external":
the mover took a blank), already solved and held here whole, one uint16 value an entry. Team
mates choose together, so the team game is a two-player game between the teams, and its
values are those of the two-player tables (_value_code.pxd), for the team to move: the
winner hurrying, the loser delaying.

The solve (tiers.py) runs, as the two-player generator does (tablebase/generator/_retro.pyx,
whose notes explain the working words and the weights):
  1. ``mark`` on each side: holes; terminal entries get their 0-ply value; every other entry
     plays its moves forward. An external child is read from the next tier; an internal one
     is only told apart by the rules (lost at once, won at once, or not decided yet). A lost
     child makes the entry a (tentative) win, the fewest plies kept; an entry whose every
     internal child is won at once is settled from its external children (a draw if one is,
     else a loss in 1 + the longest win); any other entry keeps its count of undecided
     internal moves, weighted by its symmetries.
  2. ``propagate(n)`` for n = 2, 3, ... on each side, until n - 1 passes the largest plies
     yet assigned: every entry whose value has exactly n - 1 plies is un-moved to its
     internal parents on the other side. A loss makes each parent a win in n (lowering a
     longer tentative win); a win takes its weight from each undecided parent's count, and a
     parent whose count reaches 0 is a draw if an external child is one, else a loss in
     max(n, 1 + its longest external win). Plies are exact because n only grows; entries
     never settled are draws.

Un-moving a position R (seen from its mover) into a parent Y: Y's mover is R's last player,
so Y's roles are R's turned back (Y own = R last, Y next = R own, ...). The cube Y took
entered at a move's target and shows Y's team: its own dot (a move without `+`) or its
mate's. Un-sliding every mask and putting Y's own cube back on the source gives Y; a pass is
un-moved when Y, turned back, must pass.

The working words are read and written with relaxed atomics (compare-and-swap), so that the
result does not depend on the thread count.
"""
from cython.parallel cimport prange
from libc.stdint cimport int32_t, uint8_t, uint16_t, uint64_t

import numpy as np

from ..._interrupt cimport chunk_stop, stop_watching, watch_interrupts
from ..._portable cimport (quixo_atomic_load16, quixo_atomic_store16, quixo_compare_exchange16,
                          quixo_prefetch_write)
from ...rules._rules cimport Geometry, geometry_of, mask_t, take_lowest_square, unslide
from ...tablebase.format._value_code cimport (CODE_MASK, DRAW_CODE, HOLE, LONGEST_PLIES,
                                              SETTLED, WEIGHT_UNIT, is_loss, is_win, loss_in,
                                              plies_of, win_in)

from .._team_rules cimport PASS_MOVE, Roles, is_legal_code, must_pass, play_code, team_status
from ._tier_index cimport (TierIndex, TierSideIndex, fixing_symmetries, position_at,
                          stored_is_hole, teams_slot_is_hole, tier_index)

cdef enum:
    CHUNK = 4096            # entries of one unit of parallel work
    OVERFLOW = 0x7FFFFFFF
    BATCH = 16              # frontier entries whose parents are looked up together
    MAX_PARENTS = 64        # internal parents of one position, at most 45 on 5x5: a pass,
                            # 8 moves into each corner and 1 into each other border square


cdef struct Children:
    # what the children of a position say, as far as they are known
    int shortest_loss       # the fewest plies of a lost child, -1 if none
    int longest_win         # the most plies of a won child, -1 if none
    bint draw               # an external child is a draw
    int undecided           # internal moves into children the rules do not decide


cdef class TierSide:
    """One side of the tier being solved: its working words (one uint16 an entry) and the
    values of the side of the next tier where taking a blank leads (None on a full board)."""
    cdef readonly TierSideIndex index
    cdef readonly object words
    cdef uint16_t[::1] words_view
    cdef readonly TierSideIndex next_index
    cdef readonly object next_values
    cdef const uint16_t[::1] next_view
    cdef readonly object chunk_plies
    cdef uint16_t[::1] chunk_plies_view

    def __init__(self, int size, int team_count, int other_count, next_values=None):
        self.index = TierSideIndex(size, team_count, other_count)
        if team_count + other_count < size * size:
            self.next_index = TierSideIndex(size, other_count, team_count + 1)
            if next_values is None or next_values.dtype != np.uint16 \
                    or next_values.shape != (self.next_index.entries,):
                raise ValueError(f"side ({team_count}, {other_count}) needs the "
                                 f"{self.next_index.entries} values of side ({other_count}, "
                                 f"{team_count + 1}) as uint16")
            self.next_values = next_values
            self.next_view = next_values
        elif next_values is not None:
            raise ValueError("a full board has no blank to take: no next tier")
        self.words = np.zeros(self.index.entries, dtype=np.uint16)
        self.words_view = self.words
        # per chunk, bit p % 16 set: an entry of the chunk was settled with p plies; a pass
        # n reads only the chunks whose bit (n - 1) % 16 is set
        self.chunk_plies = np.zeros(max(1, self.chunks), dtype=np.uint16)
        self.chunk_plies_view = self.chunk_plies

    @property
    def chunks(self):
        return (self.index.entries + CHUNK - 1) // CHUNK

    def take_values(self, int threads=0):
        """The value code of every entry (holes and undecided entries: draws), made in place
        of the working words, which are gone: the side is solved, and a copy of a large side
        would cost as much memory again."""
        cdef uint16_t[::1] words = self.words_view
        cdef Py_ssize_t i
        for i in prange(words.shape[0], nogil=True, schedule="static", num_threads=threads):
            words[i] = words[i] & CODE_MASK if words[i] >= SETTLED else DRAW_CODE
        values, self.words = self.words, None
        self.words_view = None
        return values


cdef inline void _hear_internal(Children* c, int child_status) noexcept nogil:
    # the child's team to move shows a line (it won at once), only the other team does (it
    # lost at once), or neither (not decided yet)
    if child_status < 0:
        c.shortest_loss = 0
    elif child_status > 0:
        if c.longest_win < 0:
            c.longest_win = 0
    else:
        c.undecided += 1


cdef inline void _hear_external(Children* c, uint16_t code) noexcept nogil:
    cdef int plies
    if code == DRAW_CODE:
        c.draw = True
        return
    plies = plies_of(code)
    if is_loss(code):
        if c.shortest_loss < 0 or plies < c.shortest_loss:
            c.shortest_loss = plies
    elif plies > c.longest_win:
        c.longest_win = plies


cdef inline Children _children(const Geometry* g, const Roles* p, const TierIndex* next_index,
                               const uint16_t* next_values) noexcept nogil:
    """What the children of a position the rules do not decide say."""
    cdef Children c
    cdef Roles child
    cdef int code
    c.shortest_loss = -1
    c.longest_win = -1
    c.draw = False
    c.undecided = 0
    if must_pass(g, p):
        play_code(g, PASS_MOVE, p, &child)
        _hear_internal(&c, team_status(g, &child))
        return c
    for code in range(2 * g.move_count):
        if not is_legal_code(g, code, p):
            continue
        play_code(g, code, p, &child)
        if g.move_source[code >> 1] & p.cubes[0]:
            _hear_internal(&c, team_status(g, &child))
        else:
            _hear_external(&c, next_values[tier_index(next_index, &child)])
    return c


cdef inline void _note(uint16_t* chunk_plies, uint64_t index, int plies) noexcept nogil:
    """Entry `index` was settled with `plies`: set its chunk's bit plies % 16."""
    cdef uint16_t* seen = &chunk_plies[index // CHUNK]
    cdef uint16_t bit = <uint16_t>(1 << (plies & 15)), now = quixo_atomic_load16(seen)
    while not (now & bit) and not quixo_compare_exchange16(seen, now, now | bit):
        now = quixo_atomic_load16(seen)


cdef inline bint _may_hold(const uint16_t* chunk_plies, Py_ssize_t chunk, int plies) noexcept nogil:
    return (chunk_plies[chunk] >> (plies & 15)) & 1


cdef inline int _settled_plies(uint16_t word) noexcept nogil:
    cdef uint16_t code = word & CODE_MASK
    return -1 if code == DRAW_CODE else plies_of(code)


cdef inline uint16_t _mark_entry(const Geometry* g, const TierIndex* x,
                                 const TierIndex* next_index, const uint16_t* next_values,
                                 uint64_t index) noexcept nogil:
    cdef Roles p
    cdef uint64_t block = position_at(x, index, &p)
    cdef int status
    cdef Children c
    if stored_is_hole(x, index, block, &p):
        return HOLE
    status = team_status(g, &p)
    if status > 0:
        return SETTLED | win_in(0)
    if status < 0:
        return SETTLED | loss_in(0)
    c = _children(g, &p, next_index, next_values)
    if c.shortest_loss >= 0:
        return SETTLED | win_in(1 + c.shortest_loss)     # tentative while moves are undecided
    if c.undecided == 0:
        return SETTLED | (DRAW_CODE if c.draw else loss_in(1 + c.longest_win))
    return <uint16_t>(c.undecided * (WEIGHT_UNIT // fixing_symmetries(x, block, &p)))


cdef inline uint64_t _chunk_end(Py_ssize_t chunk, uint64_t total) noexcept nogil:
    """Where the loop over a chunk stops (_interrupt.pxd's chunk_stop)."""
    return chunk_stop(chunk * CHUNK, CHUNK, total)


cdef inline void _record(int32_t* longest, int plies) noexcept nogil:
    if plies > LONGEST_PLIES:
        longest[0] = OVERFLOW
    elif plies > longest[0]:
        longest[0] = plies


def _longest(chunk_longest):
    longest = int(np.max(chunk_longest)) if len(chunk_longest) else -1
    if longest == OVERFLOW:
        raise OverflowError(f"a position needs more than {LONGEST_PLIES} plies, beyond what "
                            "the solver's words hold")
    return longest


def _check_unsolved(TierSide side):
    if side.words is None:
        raise ValueError("the side's values were taken: its working words are gone")


def mark(TierSide side, int threads):
    """Step 1 on every entry of a side. Returns the largest plies assigned (-1 if none)."""
    _check_unsolved(side)
    cdef const Geometry* g = geometry_of(side.index.size)
    cdef const TierIndex* x = &side.index.index
    cdef const TierIndex* next_index = NULL
    cdef const uint16_t* next_values = NULL
    if side.next_index is not None:
        next_index = &side.next_index.index
        next_values = &side.next_view[0]
    cdef uint16_t[::1] words = side.words_view
    cdef uint16_t* chunk_plies = &side.chunk_plies_view[0]
    cdef uint64_t total = words.shape[0], index, stop, dots_end
    cdef Py_ssize_t chunk, chunks = side.chunks
    cdef int32_t[::1] chunk_longest = np.full(max(chunks, 1), -1, dtype=np.int32)
    cdef uint16_t word
    cdef int plies
    watch_interrupts()
    try:
        for chunk in prange(chunks, nogil=True, schedule="dynamic", num_threads=threads):
            index = chunk * CHUNK
            stop = _chunk_end(chunk, total)
            while index < stop:
                if teams_slot_is_hole(x, index >> x.cubes):
                    dots_end = (index >> x.cubes) + 1 << x.cubes
                    while index < stop and index < dots_end:
                        words[index] = HOLE
                        index = index + 1
                    continue
                word = _mark_entry(g, x, next_index, next_values, index)
                words[index] = word
                if word >= SETTLED:
                    plies = _settled_plies(word)
                    _record(&chunk_longest[chunk], plies)
                    if plies >= 0:
                        _note(chunk_plies, index, plies)
                index = index + 1
    finally:
        stop_watching()
    return _longest(chunk_longest)


cdef struct Pass:
    # what every chunk of one propagate pass reads or writes
    const Geometry* g
    int plies
    const TierIndex* frontier_index
    const uint16_t* frontier_words
    const uint16_t* frontier_chunk_plies
    const TierIndex* parent_index
    uint16_t* parents
    uint16_t* parent_chunk_plies
    const TierIndex* next_index        # the parents' next tier
    const uint16_t* next_values


cdef inline int _hear_child(const Pass* q, uint64_t index, const Roles* parent,
                            int weight) noexcept nogil:
    """A frontier child (lost: weight 0; won: its weight) tells one parent, entry `index`.
    Returns the plies the parent was settled with, -1 if none."""
    cdef uint16_t* at = &q.parents[index]
    cdef uint16_t wanted = SETTLED | win_in(q.plies), word = quixo_atomic_load16(at)
    cdef Children c
    cdef int plies
    if weight == 0:
        if not (word < SETTLED or (is_win(word & CODE_MASK) and word > wanted)):
            return -1
        while (word < SETTLED or (is_win(word & CODE_MASK) and word > wanted)) \
                and not quixo_compare_exchange16(at, word, wanted):
            word = quixo_atomic_load16(at)
        _note(q.parent_chunk_plies, index, q.plies)
        return q.plies
    while word < SETTLED and not quixo_compare_exchange16(at, word, <uint16_t>(word - weight)):
        word = quixo_atomic_load16(at)
    if word >= SETTLED or word != weight:
        return -1
    # this un-move emptied the count: every internal child is won, in n - 1 plies at most
    c = _children(q.g, parent, q.next_index, q.next_values)
    if c.draw:
        quixo_atomic_store16(at, SETTLED | DRAW_CODE)
        return -1
    plies = q.plies if 1 + c.longest_win < q.plies else 1 + c.longest_win
    quixo_atomic_store16(at, SETTLED | loss_in(plies))
    _note(q.parent_chunk_plies, index, plies)
    return plies


cdef inline int _add_parent(const Pass* q, const Roles* parent, Roles* parents,
                            uint64_t* indices, int count) noexcept nogil:
    """Queue one parent: its roles and entry, whose word is prefetched."""
    parents[count] = parent[0]
    indices[count] = tier_index(q.parent_index, parent)
    quixo_prefetch_write(&q.parents[indices[count]])
    return count + 1


cdef inline int _parents_of(const Pass* q, const Roles* r, Roles* parents,
                            uint64_t* indices) noexcept nogil:
    """Queue every internal parent of frontier position r; returns how many."""
    cdef const Geometry* g = q.g
    cdef Roles before, parent
    cdef mask_t targets, target
    cdef int square, slot, move, role, count = 0
    # r seen from its parent's mover, before the un-slide
    before.cubes[0] = r.cubes[3]
    before.cubes[1] = r.cubes[0]
    before.cubes[2] = r.cubes[1]
    before.cubes[3] = r.cubes[2]
    if must_pass(g, &before) and team_status(g, &before) == 0:
        count = _add_parent(q, &before, parents, indices, count)
    targets = (before.cubes[0] | before.cubes[2]) & (g.edges | g.corners)
    while targets:
        square = take_lowest_square(&targets)
        target = <mask_t>1 << square
        for slot in range(g.target_first_move[square],
                          g.target_first_move[square] + g.target_move_count[square]):
            move = g.target_moves[slot]
            for role in range(4):
                parent.cubes[role] = unslide(g, move, before.cubes[role] & ~target)
            parent.cubes[0] |= g.move_source[move]
            count = _add_parent(q, &parent, parents, indices, count)
    return count


cdef inline int _tell_parents(const Pass* q, const Roles* parents, const uint64_t* indices,
                              const uint8_t* weights, int count) noexcept nogil:
    cdef int i, settled, longest = -1
    for i in range(count):
        settled = _hear_child(q, indices[i], &parents[i], weights[i])
        if settled > longest:
            longest = settled
    return longest


cdef int _propagate_chunk(const Pass* q, uint64_t index, uint64_t stop) noexcept nogil:
    """Un-move the entries of one chunk whose value has n - 1 plies to their parents, BATCH
    frontier entries at a time: their parents' words are all prefetched before any is read,
    so that many cache misses are in flight at once. (A helper, so that its arrays are
    private to the thread that runs it.) Returns the most plies settled, -1 if none."""
    cdef Roles parents[BATCH * MAX_PARENTS]
    cdef uint64_t indices[BATCH * MAX_PARENTS]
    cdef uint8_t weights[BATCH * MAX_PARENTS]
    cdef uint16_t win_before = SETTLED | win_in(q.plies - 1)
    cdef uint16_t loss_before = SETTLED | loss_in(q.plies - 1), word
    cdef Roles r
    cdef uint64_t block
    cdef int longest = -1, settled, weight, count = 0, found, children = 0, i
    while index < stop:
        word = q.frontier_words[index]
        if word == win_before or word == loss_before:
            block = position_at(q.frontier_index, index, &r)
            weight = 0 if word == loss_before else \
                WEIGHT_UNIT // fixing_symmetries(q.frontier_index, block, &r)
            found = _parents_of(q, &r, &parents[count], &indices[count])
            for i in range(count, count + found):
                weights[i] = weight
            count += found
            children += 1
            if children == BATCH:
                settled = _tell_parents(q, parents, indices, weights, count)
                if settled > longest:
                    longest = settled
                count = children = 0
        index += 1
    settled = _tell_parents(q, parents, indices, weights, count)
    return settled if settled > longest else longest


def propagate(TierSide frontier_side, TierSide parent_side, int plies, int threads):
    """Step 2 for n = ``plies``: un-move the entries of ``frontier_side`` whose value has
    n - 1 plies into ``parent_side``. Returns the largest plies assigned (-1 if none)."""
    if plies < FIRST_PASS:
        raise ValueError(f"propagation starts at n = {FIRST_PASS}: `mark` did pass 1's work")
    _check_unsolved(frontier_side)
    _check_unsolved(parent_side)
    if (frontier_side.index.team_count, frontier_side.index.other_count) != (
            parent_side.index.other_count, parent_side.index.team_count):
        raise ValueError("the parents of a side's positions are on the tier's other side")
    cdef Pass q
    q.g = geometry_of(frontier_side.index.size)
    q.plies = plies
    q.frontier_index = &frontier_side.index.index
    q.frontier_words = &frontier_side.words_view[0]
    q.frontier_chunk_plies = &frontier_side.chunk_plies_view[0]
    q.parent_index = &parent_side.index.index
    q.parents = &parent_side.words_view[0]
    q.parent_chunk_plies = &parent_side.chunk_plies_view[0]
    q.next_index = NULL
    q.next_values = NULL
    if parent_side.next_index is not None:
        q.next_index = &parent_side.next_index.index
        q.next_values = &parent_side.next_view[0]
    cdef uint64_t total = frontier_side.words_view.shape[0]
    cdef Py_ssize_t chunk, chunks = frontier_side.chunks
    cdef int32_t[::1] chunk_longest = np.full(max(chunks, 1), -1, dtype=np.int32)
    cdef int settled
    watch_interrupts()
    try:
        for chunk in prange(chunks, nogil=True, schedule="dynamic", num_threads=threads):
            if not _may_hold(q.frontier_chunk_plies, chunk, plies - 1):
                continue
            settled = _propagate_chunk(&q, chunk * CHUNK, _chunk_end(chunk, total))
            if settled >= 0:
                _record(&chunk_longest[chunk], settled)
    finally:
        stop_watching()
    return _longest(chunk_longest)


# The first n of propagate: `mark` did pass 1's work (the positions with 0 plies are those
# the rules decide, whose parents it finds by playing their moves forward).
FIRST_PASS = 2
# The meaning of a tier's state between kernel calls (the working words, chunk_plies, the order
# of the calls): a checkpoint (checkpoint.py) written by kernels of another state version is
# not used. Raise it with any change to what a kernel leaves behind.
STATE_VERSION = 1
