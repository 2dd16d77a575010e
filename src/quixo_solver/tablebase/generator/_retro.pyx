"""Retrograde analysis of one class pair: the kernels of the tablebase generator.

A pair is the class (a, b) with its mirror (b, a): a move that takes the mover's own cube
leads from one to the other ("internal" moves), a move that takes a blank leads to the pair
with one more cube ("external" moves), already solved and read from its compressed files
(_reader.pxd). Tables hold one entry per symmetry class of positions (_orbit_index.pxd); each
entry holds the canonical form of its orbit, and every position reached (a parent, a child) is
mapped to its entry. Values are seen from the player to move (_value_code.pxd).

The build (tablebase/generator/pair_solver.py) runs, for a pair (each step over a range of
chunks, so that the build can save its state between slices: checkpoint.py):
  1. ``mark`` on each class: terminal entries get their 0-ply value; every other entry plays
     the moves that can reach a position the rules decide (_moves_into_decided_children):
     one that leaves the opponent lost at once makes it a win in 1, else it counts its
     internal moves less those that lose at once. ``pull``: the next class is read once, in
     order, a segment at a time, and each of its entries that matters is un-moved to the
     parents that took a blank: a loss in k >= 1 makes each parent a (tentative) win in
     k + 1, the fewest plies kept; a draw, or a win in 2 plies or more, is noted in each
     undecided parent's external field (the draw, else the most plies). ``settle``: an entry
     whose count is 0 (no internal move, or each loses at once) is settled from its external
     children.
  2. ``propagate(n)`` for n = 2, 3, ... (FIRST_PASS) on each class, until n - 1 passes the
     largest plies yet assigned: every entry whose value has exactly n - 1 plies is un-moved
     to its internal parents. A loss makes each parent a win in n (lowering a longer
     tentative win); a win takes its weight from each undecided parent's count, and the
     parent whose count reaches 0 is a draw if an external child is one, else a loss in
     max(n, 1 + its longest external win). Plies are exact because n only grows.

Why pass 1 is played forward. Pass 1 would un-move the entries with 0 plies: exactly the
positions the rules decide, a third to a half of a large class, each to some 20 parents
through the full index (and the next class's losses in 0 likewise, in the pull). Their
parents are found more cheaply the other way: a move reaches a position the rules decide only
if one side is near a line, or the mover holds nearly the whole border (near_line), which a
bit test tells, and then playing its moves needs no index and no memory but the position.
The count a parent loses this way is exact: each of its moves into a won child weighs
WEIGHT_UNIT / |fix(P)| (the identity below, summed over the child's orbit). The state after
step 1 is the state the un-moving generator had after its pass 1 (the same files; about
1.8 times faster on 5- and 6-blank pairs).

Why the external field is enough. A parent P settled at pass n has all its internal children
won; its value needs, of its external children, whether one is a draw and the most plies of a
win among them. Wins in 0 or 1 ply are not noted (they are most of the wins, and un-moving
them would cost as much as a pass): they would give P at most 1 + 1 = 2 plies, which is no
more than n when n >= 2. So P looks its external children up (a random read of the next
class's file) only when it is settled at n <= 1 (every own-cube move completes the
opponent's line: a few thousand entries in the largest pairs built), when it has no internal
move, or when its field says a win too long to note (EXTERNAL_LONG). Reading the next class in
order is what its compressed file does well; the random reads of the old generator (one per
external child of each of the 10-20% of entries settled by their count) would cost a segment
decode each.

Why the long external wins wait for RESOLVE_PASS. Where the next class has many wins of
EXTERNAL_LONG - 1 plies or more (7.6% of the class (5, 4), 4.9% of (6, 5)), nearly every
parent of the pair has one among its 20-odd external children, so nearly every entry settled
by its count would look them all up, at random, a segment decode each: the pairs of such
classes cost 5 to 40 times an entry of their neighbours in the first whole-game build. But an
entry settled at n < RESOLVE_PASS with a long external win is a loss in 1 + its longest
external win plies >= RESOLVE_PASS, whatever n: only that win says how long, and nothing reads
its value before pass RESOLVE_PASS + 1. So it is left as it is, undecided with a count of 0
and the field EXTERNAL_LONG (DEFERRED), and `resolve` looks all of them up at once, in the
order of the class, where the entries of one block take their blanks into the same blocks of
the next class and the cache of decoded segments serves them: at the start of pass
RESOLVE_PASS, or of the pass where the propagation would end before it.

Why the counts stay exact with one entry per orbit. Un-moving the stored form R of a won
child C finds, for every parent P with a move into C's orbit, some image of P, so P hears
from C; but the number of un-moves that land on P is not the number of P's moves into the
orbit. Counting the pairs (symmetry s, un-move (Y, m) of R with s(Y) = P) two ways gives:
    P's moves into C's orbit * |fix(R)| = un-moves of R landing on P * |fix(P)|,
where fix(X) are the symmetries that fix X. So the count starts at moves(P) * 8 / |fix(P)|
and each un-move of R takes 8 / |fix(R)| (WEIGHT_UNIT = 8: both are whole numbers, 8 for the
positions no symmetry fixes, nearly all of them); it reaches 0 exactly when every internal
child of P is a win. (Counting distinct child entries instead would need every child of every
entry canonicalised up front: a second pass as costly as the whole propagation.) The external
field keeps a maximum, which any number of un-moves from one child leaves the same.

While a pair is solved each entry is one uint16 word (_value_code.pxd): SETTLED | code, or
the undecided count and external field, or HOLE; an un-move touches one word. Codes above 15
bits (a win in more than 16383 plies) set the overflow flag instead, and the build refuses
the pair. Both kernels are nogil and split the class into chunks over the cores (OpenMP); the
result does not depend on the thread count.
"""
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cython.parallel cimport prange, threadid
from libc.stdint cimport int32_t, uint8_t, uint16_t, uint32_t, uint64_t

import numpy as np

from ...rules._rules cimport (MAX_MOVES, Geometry, geometry_of, has_line, mask_t, near_line, play,
                       popcount, take_lowest_square, unslide)
from ..._interrupt cimport chunk_stop, stop_watching, watch_interrupts
from ..._portable cimport (quixo_atomic_load16, quixo_atomic_store16, quixo_compare_exchange16,
                          quixo_ctz32, quixo_prefetch_write)
from ..format._value_code cimport (CODE_MASK, COUNT_MASK, DRAW_CODE, EXTERNAL_DRAW, EXTERNAL_LONG,
                          EXTERNAL_NONE, EXTERNAL_SHIFT, HOLE, LONGEST_PLIES, SETTLED,
                          WEIGHT_UNIT, is_loss, is_win, loss_in, plies_of, win_in)
from ..format._codec cimport DAMAGED_DATA, MAX_SEGMENT, STORED, entry_kind, position_kind
from ..format._index cimport pdep
from ..format._orbit_index cimport (OrbitClass, OrbitIndex, fixing_symmetries, is_hole, orbit_index)
from ..format._reader cimport SegmentCache, TableReader, decode_table_segment, read_code
from ..format._compressed_table cimport CompressedTable
from ..format._orbit_index import orbit_class
from ..errors import CorruptTableError

cdef enum:
    CHUNK = 4096        # entries of one unit of parallel work (a whole number of segments)
    EXTERNAL_CACHE_SLOTS = 64   # decoded segments of the next class each thread keeps
    BATCH = 32          # frontier entries whose parents are looked up together
    NO_PLIES = 0x7FFF
    OVERFLOW = 0x7FFFFFFF
    NOTED_WIN = 2       # external wins in this many plies or more are noted in the parents
    DAMAGED_CHILD = -3  # look_up_external: a block of the next class's file is damaged
    DEFERRED = -4       # settle_by_children: a loss of RESOLVE_PASS plies or more, for `resolve`
    RESOLVE_PASS = EXTERNAL_LONG    # 1 + the fewest plies of a win noted as EXTERNAL_LONG
    WINS_AT_ONCE = -1   # _moves_into_decided_children: a move wins in 1 ply


cdef struct External:
    int shortest_loss     # fewest plies of a losing child, NO_PLIES if none
    int longest_win       # most plies of a winning child, -1 if none
    bint draw             # some child is a draw


cdef inline External look_up_external(const Geometry* g, mask_t mover, mask_t opponent,
                                      const TableReader* children,
                                      SegmentCache* cache) noexcept nogil:
    """The values of the children reached by taking a blank (class one cube larger), read
    from its file through the thread's cache of decoded segments (shortest_loss is
    DAMAGED_CHILD if a block is damaged)."""
    cdef External found
    cdef mask_t sources = g.full & ~(mover | opponent) & (g.edges | g.corners)
    cdef mask_t child_mover, child_opponent
    cdef int code, move, square, last
    found.shortest_loss = NO_PLIES
    found.longest_win = -1
    found.draw = False
    while sources:
        square = take_lowest_square(&sources)
        last = g.source_first_move[square] + g.source_move_count[square]
        for move in range(g.source_first_move[square], last):
            play(g, move, mover, opponent, &child_mover, &child_opponent)
            code = position_kind(g, child_mover, child_opponent)
            if code == STORED:
                code = read_code(children, cache, orbit_index(children.index, child_mover,
                                                              child_opponent))
                if code == DAMAGED_DATA:
                    found.shortest_loss = DAMAGED_CHILD
                    return found
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


cdef inline uint16_t settled_word(int plies) noexcept nogil:
    """The word of a position settled by settled_loss_plies: a loss, or a draw (-1)."""
    return SETTLED | (loss_in(plies) if plies >= 0 else DRAW_CODE)


cdef inline int settle_by_children(const Geometry* g, mask_t mover, mask_t opponent,
                                   uint16_t word, int at_least, const TableReader* children,
                                   SegmentCache* cache) noexcept nogil:
    """Plies of the loss of an undecided position whose internal children are all won (its
    count just reached 0; `at_least` is the pass, or 0 at the start), -1 for a draw, or
    DAMAGED_CHILD: from its external field when that is exact (see the module's notes),
    else by looking its external children up; DEFERRED for a long external win before
    RESOLVE_PASS (the word is left for `resolve`)."""
    cdef int noted = (word >> EXTERNAL_SHIFT) & 0x3F
    cdef External found
    if noted == EXTERNAL_DRAW:
        return -1
    if noted == EXTERNAL_LONG and at_least < RESOLVE_PASS and children != NULL:
        return DEFERRED
    if at_least >= NOTED_WIN and noted != EXTERNAL_LONG:
        return at_least if at_least > noted else noted
    if children == NULL:       # a full board: no external move
        return at_least
    found = look_up_external(g, mover, opponent, children, cache)
    if found.shortest_loss == DAMAGED_CHILD:
        return DAMAGED_CHILD
    return settled_loss_plies(found, at_least)


cdef inline int weight_of(const OrbitIndex* x, uint64_t block, mask_t mover) noexcept nogil:
    """WEIGHT_UNIT / the symmetries fixing a stored position (8 when none does)."""
    if x.block_symmetries[block] == 0:
        return WEIGHT_UNIT
    return WEIGHT_UNIT // fixing_symmetries(x, block, mover)


cdef inline mask_t unmoved_mover(const Geometry* g, int move, mask_t opponent,
                                 bint took_own_cube) noexcept nogil:
    """The cubes of the player who played ``move`` into (mover, opponent), before it: they
    are now ``opponent``, the one at the target included; the source square held one of
    them, or a blank. (The other player's cubes before: ``unslide(g, move, mover)``.)
    Returned, not written through a pointer, so that prange keeps the result private."""
    cdef mask_t cubes = unslide(g, move, opponent & ~g.move_target[move])
    return cubes | g.move_source[move] if took_own_cube else cubes


cdef class ClassSide:
    """One class of the pair being solved: its packed words and the table of the class that
    taking a blank leads to (a files.CompressedTable; None on a full board)."""
    cdef readonly int size, mover_count, opponent_count
    cdef readonly object words, external, orbits, external_orbits, chunk_plies, damaged
    cdef OrbitIndex index
    cdef const OrbitIndex* external_index
    cdef const TableReader* external_reader
    cdef uint16_t[::1] chunk_plies_view
    cdef const uint32_t[::1] arrangement_masks
    cdef const uint32_t[::1] external_arrangement_masks
    cdef uint16_t[::1] words_view
    cdef uint8_t[::1] damaged_view
    cdef SegmentCache* external_caches   # one per thread (thread_caches), and their memory:
    cdef object external_cache_keys, external_cache_codes
    cdef int external_cache_threads

    def __dealloc__(self):
        PyMem_Free(self.external_caches)

    cdef SegmentCache* thread_caches(self, int threads) except NULL:
        """A cache of decoded segments of the next class's table for each of `threads`
        threads, kept from pass to pass: the positions of a chunk take their blanks into a
        few blocks of the next class, so most lookups find their segment decoded."""
        cdef uint64_t[:, ::1] keys
        cdef uint16_t[:, ::1] codes
        cdef uint64_t segment_entries = (self.external_reader.segment_entries
                                         if self.external_reader != NULL else 1)
        cdef int thread
        threads = max(threads, 1)
        if threads > self.external_cache_threads:
            self.external_cache_keys = np.zeros((threads, EXTERNAL_CACHE_SLOTS), np.uint64)
            self.external_cache_codes = np.zeros(
                (threads, EXTERNAL_CACHE_SLOTS * segment_entries), np.uint16)
            keys, codes = self.external_cache_keys, self.external_cache_codes
            PyMem_Free(self.external_caches)
            self.external_cache_threads = 0
            self.external_caches = <SegmentCache*>PyMem_Malloc(threads * sizeof(SegmentCache))
            if self.external_caches == NULL:
                raise MemoryError()
            for thread in range(threads):
                self.external_caches[thread] = SegmentCache(&keys[thread, 0],
                                                            &codes[thread, 0],
                                                            EXTERNAL_CACHE_SLOTS)
            self.external_cache_threads = threads
        return self.external_caches

    def __init__(self, int size, int mover_count, int opponent_count, external):
        self.size = size
        self.mover_count = mover_count
        self.opponent_count = opponent_count
        self.orbits = orbit_class(size, mover_count, opponent_count)
        self.index = (<OrbitClass>self.orbits).index
        self.arrangement_masks = self.orbits.arrangement_masks
        self.words = np.zeros(self.orbits.entries, dtype=np.uint16)
        self.words_view = self.words
        # the most plies of a value settled in each chunk: a pass skips the chunks that
        # cannot hold its frontier (in the long tail of a pair, nearly all of them)
        self.chunk_plies = np.zeros(max(1, chunk_count(self.words.shape[0])),
                                    dtype=np.uint16)
        self.chunk_plies_view = self.chunk_plies
        # set by a kernel that met a damaged block of the next class's file: its first entry
        self.damaged = np.zeros(1, dtype=np.uint8)
        self.damaged_view = self.damaged
        self.external = external
        self.external_index = NULL
        self.external_reader = NULL
        # taking a blank leads to class (opponent_count, mover_count + 1)
        self.external_orbits = (orbit_class(size, opponent_count, mover_count + 1)
                                if mover_count + opponent_count < size * size else None)
        if self.external_orbits is None:
            if external is not None:
                raise ValueError("a full board has no external children")
            return
        if not isinstance(external, CompressedTable):
            raise ValueError(f"class ({mover_count}, {opponent_count}) needs the table of "
                             f"class ({opponent_count}, {mover_count + 1})")
        cdef CompressedTable table = external
        if (table.orbits.size, table.orbits.mover_count, table.orbits.opponent_count) != \
                (size, opponent_count, mover_count + 1):
            raise ValueError(f"{table.path} is not the table of class ({opponent_count}, "
                             f"{mover_count + 1})")
        self.external_reader = &table.reader
        self.external_index = table.reader.index
        self.external_arrangement_masks = self.external_orbits.arrangement_masks

    @property
    def chunks(self):
        """Units of parallel work (CHUNK entries) of the class: the ranges of mark, settle
        and propagate."""
        return chunk_count(self.words_view.shape[0])

    @property
    def external_chunks(self):
        """Chunks of the next class (where taking a blank leads): the range of pull."""
        return chunk_count(self.external_reader.entries) if self.external_reader != NULL else 0

    def check_children(self):
        """CorruptTableError naming the next class's file if a kernel met a damaged block."""
        if self.damaged[0]:
            raise CorruptTableError(f"{self.external.path} is damaged: a block does not match "
                                    "its checksum or does not decode; rebuild it")

    def values(self):
        """The solved value codes, in place of the words (holes and undecided entries: 0, a
        draw): call once, after the last step."""
        cdef uint16_t[::1] words = self.words_view
        cdef Py_ssize_t i
        with nogil:
            for i in range(words.shape[0]):
                words[i] = words[i] & CODE_MASK if words[i] & SETTLED else DRAW_CODE
        return self.words


cdef inline Py_ssize_t chunk_count(uint64_t entries) noexcept nogil:
    """How many chunks (units of parallel work, CHUNK entries each) cover `entries`."""
    return (entries + CHUNK - 1) // CHUNK


cdef inline uint64_t chunk_end(Py_ssize_t chunk, uint64_t total) noexcept nogil:
    """Where the loop over a chunk stops (_interrupt.pxd's chunk_stop)."""
    return chunk_stop(chunk * CHUNK, CHUNK, total)


cdef inline void _note(uint16_t* chunk_plies, uint64_t index, int plies) noexcept nogil:
    """Entry `index` was settled with `plies`: raise its chunk's most plies."""
    cdef uint16_t* most = &chunk_plies[index // CHUNK]
    cdef uint16_t seen = quixo_atomic_load16(most)
    while seen < plies and not quixo_compare_exchange16(most, seen, <uint16_t>plies):
        seen = quixo_atomic_load16(most)


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


cdef inline Py_ssize_t _checked_range(Py_ssize_t first, Py_ssize_t last,
                                      Py_ssize_t chunks) except -1:
    if not 0 <= first <= last <= chunks:
        raise ValueError(f"chunks {first}..{last} are not within 0..{chunks}")
    return last - first


cdef enum ChunkStep:
    MARK_STEP, PULL_STEP, SETTLE_STEP, RESOLVE_STEP


cdef _run_step(ChunkStep step, ClassSide side, int threads, Py_ssize_t first, Py_ssize_t last):
    """Chunks first .. last - 1 through one step (mark, pull, settle, resolve), without the GIL and
    stoppable by Ctrl-C. Returns the largest plies assigned (-1 if none)."""
    cdef Py_ssize_t chunks = side.external_chunks if step == PULL_STEP else side.chunks
    cdef int32_t[::1] longest = np.full(
        max(1, _checked_range(first, last, chunks)), -1, dtype=np.int32)
    cdef SegmentCache* caches = (side.thread_caches(threads)
                                 if step == SETTLE_STEP or step == RESOLVE_STEP else NULL)
    watch_interrupts()
    try:
        with nogil:
            if step == MARK_STEP:
                _mark_terminals_and_count_moves(side, threads, first, last, longest)
            elif step == PULL_STEP:
                _pull_external(side, threads, first, last, longest)
            elif step == SETTLE_STEP:
                _settle_positions_without_own_border_cubes(side, threads, caches, first, last,
                                                           longest)
            else:
                _resolve_long_external_wins(side, threads, caches, first, last, longest)
    finally:
        stop_watching()
    if step != MARK_STEP:
        side.check_children()
    return _longest(longest)


def mark(ClassSide side, int threads, Py_ssize_t first, Py_ssize_t last):
    """Step 1a on chunks first .. last - 1 of the class: holes, the positions the rules
    decide (0 plies), and every other entry's count of moves. Returns the largest plies
    assigned (-1 if none)."""
    return _run_step(MARK_STEP, side, threads, first, last)


def pull(ClassSide side, int threads, Py_ssize_t first, Py_ssize_t last):
    """Step 1b on chunks first .. last - 1 of the next class (its `external_chunks`): their
    entries told to the parents that took a blank (after `mark` on every chunk). Returns the
    largest plies assigned (-1 if none)."""
    return _run_step(PULL_STEP, side, threads, first, last)


def settle(ClassSide side, int threads, Py_ssize_t first, Py_ssize_t last):
    """Step 1c on chunks first .. last - 1 of the class (after `pull` on every chunk): the
    entries with no internal move settled from their external children. Returns the largest
    plies assigned (-1 if none)."""
    return _run_step(SETTLE_STEP, side, threads, first, last)


def resolve(ClassSide side, int threads, Py_ssize_t first, Py_ssize_t last):
    """On chunks first .. last - 1 of the class, between two passes: the entries left
    DEFERRED (a long external win) settled from their external children, looked up in the
    order of the class (see the module's notes). Returns the largest plies assigned (-1 if
    none)."""
    return _run_step(RESOLVE_STEP, side, threads, first, last)


cdef void _mark_terminals_and_count_moves(ClassSide side, int threads, Py_ssize_t first,
                                         Py_ssize_t last, int32_t[::1] longest) noexcept nogil:
    cdef uint64_t total = side.words_view.shape[0]
    cdef Py_ssize_t chunk
    for chunk in prange(first, last, schedule="dynamic", num_threads=threads):
        _mark_chunk(side, chunk * CHUNK, chunk_end(chunk, total), &longest[chunk - first])


cdef void _mark_chunk(ClassSide side, uint64_t index, uint64_t stop,
                      int32_t* longest) noexcept nogil:
    """Entries index .. stop - 1 of _mark_terminals_and_count_moves: a hole, a position the
    rules decide, a win in 1, or the count of its moves (weighted by the orbit) still to be
    heard from, less the moves that lose at once (_moves_into_decided_children)."""
    cdef const Geometry* g = geometry_of(side.size)
    cdef const OrbitIndex* x = &side.index
    cdef uint64_t block = index // x.arrangements, arrangement = index % x.arrangements
    cdef mask_t occupied = x.block_sets[block], mover, opponent
    cdef int moves, weight, losing
    while index < stop:
        mover = pdep(side.arrangement_masks[arrangement], occupied)
        opponent = occupied & ~mover
        if is_hole(x, block, mover):
            side.words_view[index] = HOLE
        elif has_line(g, mover):
            side.words_view[index] = SETTLED | win_in(0)
            _record(longest, 0)
        elif has_line(g, opponent):
            side.words_view[index] = SETTLED | loss_in(0)
            _record(longest, 0)
        else:
            losing = _moves_into_decided_children(g, mover, opponent)
            if losing == WINS_AT_ONCE:
                side.words_view[index] = SETTLED | win_in(1)
                _note(&side.chunk_plies_view[0], index, 1)
                _record(longest, 1)
            else:
                moves = 3 * popcount(g.edges & mover) + 2 * popcount(g.corners & mover)
                weight = weight_of(x, block, mover)
                side.words_view[index] = <uint16_t>((moves - losing) * weight)
        index = index + 1
        arrangement = arrangement + 1
        if arrangement == x.arrangements and index < stop:
            arrangement = 0
            block = block + 1
            occupied = x.block_sets[block]


cdef inline int _moves_into_decided_children(const Geometry* g, mask_t mover,
                                             mask_t opponent) noexcept nogil:
    """Of a position the rules do not decide: WINS_AT_ONCE if a move leads to a position the
    rules give as a loss in 0 (the mover completes a line and not the opponent's, or leaves
    the opponent no move: _codec.position_kind), else how many of its internal moves (an own
    cube taken) lead to a win in 0 for the opponent (the move completes an opponent's line).
    That is what pass 1 of the propagation found by un-moving every position the rules decide
    (see the module's notes). A move completes a line of a side only if that side is near one
    (near_line), and leaves the opponent no move only if the mover holds all but at most 2
    border squares (a push changes at most 2 of them): so only the moves and the lines that
    can matter are looked at, and most positions need none."""
    cdef mask_t border = g.edges | g.corners
    cdef bint wins_by_line = near_line(g, mover)
    cdef bint wins_by_border = popcount(border & ~mover) <= 2
    cdef bint loses_by_line = near_line(g, opponent)
    cdef mask_t sources, child_mover, child_opponent
    cdef int square, move, last, losing = 0
    if wins_by_line or wins_by_border:
        sources = border & ~opponent      # every move
    elif loses_by_line:
        sources = border & mover          # the internal moves, to count those that lose
    else:
        return 0
    while sources:
        square = take_lowest_square(&sources)
        last = g.source_first_move[square] + g.source_move_count[square]
        for move in range(g.source_first_move[square], last):
            play(g, move, mover, opponent, &child_mover, &child_opponent)
            if loses_by_line and has_line(g, child_mover):      # whatever the mover shows
                if mover & g.move_source[move]:
                    losing += 1
            elif (wins_by_line and has_line(g, child_opponent)) or (
                    wins_by_border and border & ~child_opponent == 0):
                return WINS_AT_ONCE
    return losing


cdef inline int _parents(const Geometry* g, mask_t mover, mask_t opponent, bint took_own_cube,
                         const OrbitIndex* parent_index, const uint16_t* words,
                         uint64_t* indices, mask_t* parent_movers,
                         mask_t* parent_opponents) noexcept nogil:
    """The parents of (mover, opponent) by the un-moves that took the mover's own cube (or a
    blank): their entries (prefetched in `words`) and cubes. Returns how many."""
    cdef int count = 0, move, slot, square, last
    # the parent's cube entered at a target that now shows the parent's symbol
    cdef mask_t targets = opponent & (g.edges | g.corners)
    while targets:
        square = take_lowest_square(&targets)
        last = g.target_first_move[square] + g.target_move_count[square]
        for slot in range(g.target_first_move[square], last):
            move = g.target_moves[slot]
            parent_movers[count] = unmoved_mover(g, move, opponent, took_own_cube)
            parent_opponents[count] = unslide(g, move, mover)
            indices[count] = orbit_index(parent_index, parent_movers[count],
                                         parent_opponents[count])
            quixo_prefetch_write(&words[indices[count]])
            count += 1
    return count


cdef inline void _lower_win(uint16_t* word_at, uint16_t wanted) noexcept nogil:
    """Make an entry a win in the plies of `wanted` (a settled word) unless it is settled as
    a win in fewer, or as a loss (compare-and-swap, so concurrent writers keep the least)."""
    cdef uint16_t word = quixo_atomic_load16(word_at)
    while (word < SETTLED or (is_win(word & CODE_MASK) and word > wanted)) \
            and not quixo_compare_exchange16(word_at, word, wanted):
        word = quixo_atomic_load16(word_at)


cdef inline void _raise_external(uint16_t* word_at, int noted) noexcept nogil:
    """Raise an undecided entry's external field to `noted` (compare-and-swap: concurrent
    writers keep the most)."""
    cdef uint16_t word = quixo_atomic_load16(word_at)
    while word < SETTLED and ((word >> EXTERNAL_SHIFT) & 0x3F) < noted \
            and not quixo_compare_exchange16(
                word_at, word, <uint16_t>((word & COUNT_MASK) | (noted << EXTERNAL_SHIFT))):
        word = quixo_atomic_load16(word_at)


cdef inline void _tell_blank_parents(const Geometry* g, mask_t mover, mask_t opponent,
                                     uint16_t code, uint16_t* words, uint16_t* chunk_plies,
                                     const OrbitIndex* parent_index) noexcept nogil:
    """Tell every parent that took a blank what this external child is: a loss in k makes
    it a win in k + 1 at most, a draw or a win in k >= NOTED_WIN plies goes to its external
    field."""
    cdef uint64_t indices[MAX_MOVES]
    cdef mask_t parent_movers[MAX_MOVES]
    cdef mask_t parent_opponents[MAX_MOVES]
    cdef int count = _parents(g, mover, opponent, False, parent_index, words, indices,
                              parent_movers, parent_opponents), i, noted
    if is_loss(code):
        for i in range(count):
            _lower_win(&words[indices[i]], SETTLED | win_in(plies_of(code) + 1))
            _note(chunk_plies, indices[i], plies_of(code) + 1)
        return
    if code == DRAW_CODE:
        noted = EXTERNAL_DRAW
    elif plies_of(code) + 1 < EXTERNAL_LONG:
        noted = plies_of(code) + 1
    else:
        noted = EXTERNAL_LONG
    for i in range(count):
        _raise_external(&words[indices[i]], noted)


cdef void _pull_external(ClassSide side, int threads, Py_ssize_t first, Py_ssize_t last,
                         int32_t[::1] longest) noexcept nogil:
    """Read the next class (where taking a blank leads) once, in order, a segment at a time,
    and un-move its losses, draws and wins in NOTED_WIN plies or more to the parents that
    took a blank (the source is left blank): see _tell_blank_parents."""
    if side.external_reader == NULL:
        return
    cdef const TableReader* t = side.external_reader
    cdef const Geometry* g = geometry_of(side.size)
    cdef uint64_t total = t.entries
    cdef Py_ssize_t chunk
    cdef uint16_t* words = &side.words_view[0]
    cdef uint16_t* chunk_plies = &side.chunk_plies_view[0]
    cdef const uint32_t* masks = &side.external_arrangement_masks[0]
    for chunk in prange(first, last, schedule="dynamic", num_threads=threads):
        _pull_chunk(side, t, g, masks, words, chunk_plies, chunk * CHUNK,
                    chunk_end(chunk, total), &longest[chunk - first])


cdef void _pull_chunk(ClassSide side, const TableReader* t, const Geometry* g,
                      const uint32_t* masks, uint16_t* words, uint16_t* chunk_plies,
                      uint64_t index, uint64_t stop, int32_t* longest) noexcept nogil:
    """Entries index .. stop - 1 of _pull_external (a helper, so that its segment buffer is
    the thread's)."""
    cdef uint16_t codes[MAX_SEGMENT]
    cdef const OrbitIndex* x = t.index
    cdef uint64_t block, arrangement, segment_start, segment_stop
    cdef int kind, count, code
    cdef mask_t mover
    while index < stop:
        segment_start = index - index % t.segment_entries
        count = decode_table_segment(t, segment_start // t.segment_entries, codes)
        if count == DAMAGED_DATA:
            side.damaged_view[0] = 1
            return
        segment_stop = segment_start + <uint64_t>count
        if segment_stop > stop:
            segment_stop = stop
        block = index // x.arrangements
        arrangement = index - block * x.arrangements
        while index < segment_stop:
            kind = entry_kind(g, x, masks, block, arrangement)
            if kind == STORED:
                code = codes[index - segment_start]
            elif kind == DRAW_CODE:
                code = -1         # a hole
            else:
                code = kind       # a position the rules decide (win or loss in 0)
            # losses in 0 (the rules decide them) made their parents wins in 1 in `mark`
            if code >= 0 and ((is_loss(code) and plies_of(code) > 0) or code == DRAW_CODE or (
                    is_win(code) and plies_of(code) >= NOTED_WIN)):
                mover = pdep(masks[arrangement], x.block_sets[block])
                _tell_blank_parents(g, mover, x.block_sets[block] & ~mover, <uint16_t>code,
                                    words, chunk_plies, &side.index)
                if is_loss(code):
                    _record(longest, plies_of(code) + 1)
            index = index + 1
            arrangement = arrangement + 1
            if arrangement == x.arrangements:
                arrangement = 0
                block = block + 1


cdef void _settle_positions_without_own_border_cubes(ClassSide side, int threads,
                                                     SegmentCache* caches, Py_ssize_t first,
                                                     Py_ssize_t last,
                                                     int32_t[::1] longest) noexcept nogil:
    """Entries with no internal move and no losing external child: a loss, or a draw."""
    cdef const Geometry* g = geometry_of(side.size)
    cdef const OrbitIndex* x = &side.index
    cdef uint64_t total = side.words_view.shape[0]
    cdef Py_ssize_t chunk
    cdef uint64_t index, block, stop
    cdef mask_t occupied, mover
    cdef uint16_t word
    cdef int32_t plies
    for chunk in prange(first, last, schedule="dynamic", num_threads=threads):
        index = chunk * CHUNK
        stop = chunk_end(chunk, total)
        while index < stop:
            word = side.words_view[index]
            if word < SETTLED and (word & COUNT_MASK) == 0:
                block = index // x.arrangements
                occupied = x.block_sets[block]
                mover = pdep(side.arrangement_masks[index - block * x.arrangements], occupied)
                # an entry with an internal move emptied by `mark` (each loses at once)
                # makes at least 1 ply
                plies = settle_by_children(g, mover, occupied & ~mover, word,
                                           1 if mover & (g.edges | g.corners) else 0,
                                           side.external_reader, &caches[threadid()])
                if plies != DEFERRED:
                    _write_settled(side, index, plies, &longest[chunk - first])
            index = index + 1


cdef inline void _write_settled(ClassSide side, uint64_t index, int plies,
                         int32_t* longest) noexcept nogil:
    """Write the word of entry `index` settled by settle_by_children with `plies` (a loss, -1
    a draw, or DAMAGED_CHILD) in a step that has it alone."""
    if plies == DAMAGED_CHILD:
        side.damaged_view[0] = 1
        plies = -1
    side.words_view[index] = settled_word(plies)
    if plies >= 0:
        _note(&side.chunk_plies_view[0], index, plies)
    _record(longest, plies)


cdef void _resolve_long_external_wins(ClassSide side, int threads, SegmentCache* caches,
                                      Py_ssize_t first, Py_ssize_t last,
                                      int32_t[::1] longest) noexcept nogil:
    """The DEFERRED entries (undecided, a count of 0, the field EXTERNAL_LONG): a loss in 1 +
    their longest external win, looked up."""
    cdef const Geometry* g = geometry_of(side.size)
    cdef const OrbitIndex* x = &side.index
    cdef uint64_t total = side.words_view.shape[0]
    cdef Py_ssize_t chunk
    cdef uint64_t index, block, stop
    cdef mask_t occupied, mover
    cdef uint16_t word
    cdef External found
    for chunk in prange(first, last, schedule="dynamic", num_threads=threads):
        index = chunk * CHUNK
        stop = chunk_end(chunk, total)
        while index < stop:
            word = side.words_view[index]
            if word < SETTLED and (word & COUNT_MASK) == 0 and \
                    (word >> EXTERNAL_SHIFT) & 0x3F == EXTERNAL_LONG:
                block = index // x.arrangements
                occupied = x.block_sets[block]
                mover = pdep(side.arrangement_masks[index - block * x.arrangements], occupied)
                found = look_up_external(g, mover, occupied & ~mover, side.external_reader,
                                         &caches[threadid()])
                _write_settled(side, index,
                               DAMAGED_CHILD if found.shortest_loss == DAMAGED_CHILD
                               else settled_loss_plies(found, 0), &longest[chunk - first])
            index = index + 1


cdef struct Pass:
    # what every chunk of one propagate pass reads or writes
    const Geometry* g
    int plies
    const OrbitIndex* frontier_index
    const uint16_t* frontier_words
    const uint32_t* arrangement_masks
    uint16_t* parents
    uint16_t* parent_chunk_plies
    const OrbitIndex* parent_index
    const TableReader* parent_external
    SegmentCache* parent_caches          # one per thread (ClassSide.thread_caches)
    uint8_t* damaged


cdef inline int _apply_unmoves(const Pass* p, SegmentCache* cache, const uint64_t* indices,
                               const mask_t* parent_movers, const mask_t* parent_opponents,
                               const uint8_t* weights, int count) noexcept nogil:
    """Hear from frontier children at their parents (entries `indices`, prefetched): from a
    lost child (weight 0) a parent becomes a win in n; a won child takes its weight from each
    undecided parent's count, settling the parents it empties. Returns the largest plies
    assigned, -1 if none."""
    cdef int i, settled, longest = -1
    cdef uint16_t win_now = SETTLED | win_in(p.plies), word
    cdef uint16_t* at
    for i in range(count):
        at = &p.parents[indices[i]]
        word = quixo_atomic_load16(at)
        if weights[i] == 0:
            if word < SETTLED or (is_win(word & CODE_MASK) and word > win_now):
                _lower_win(at, win_now)
                _note(p.parent_chunk_plies, indices[i], p.plies)
                longest = p.plies
            continue
        while word < SETTLED and not quixo_compare_exchange16(at, word, word - weights[i]):
            word = quixo_atomic_load16(at)
        if word < SETTLED and (word & COUNT_MASK) == weights[i]:   # this un-move emptied it
            settled = settle_by_children(p.g, parent_movers[i], parent_opponents[i], word,
                                         p.plies, p.parent_external, cache)
            if settled == DEFERRED:
                continue        # left as it is (count 0), for `resolve`
            if settled == DAMAGED_CHILD:
                p.damaged[0] = 1
                settled = -1
            quixo_atomic_store16(at, settled_word(settled))
            if settled >= 0:
                _note(p.parent_chunk_plies, indices[i], settled)
            if settled > longest:
                longest = settled
    return longest


cdef int _propagate_chunk(const Pass* p, SegmentCache* cache, uint64_t index,
                          uint64_t stop) noexcept nogil:
    """Un-move the entries of one chunk whose value has n - 1 plies to their internal
    parents. The parents of BATCH frontier entries are found and prefetched before any is
    read, so that many cache misses are in flight at once. (A helper, so that its arrays are
    private to the thread that runs it.) Returns the largest plies assigned, -1 if none."""
    cdef uint64_t indices[BATCH * MAX_MOVES]
    cdef mask_t parent_movers[BATCH * MAX_MOVES]
    cdef mask_t parent_opponents[BATCH * MAX_MOVES]
    cdef uint8_t weights[BATCH * MAX_MOVES]   # 0 for a lost child, else a won child's weight
    cdef const OrbitIndex* x = p.frontier_index
    cdef uint16_t win_before = SETTLED | win_in(p.plies - 1)
    cdef uint16_t loss_before = SETTLED | loss_in(p.plies - 1), word
    cdef int count = 0, children = 0, found, i, longest = -1, settled
    cdef uint8_t weight
    cdef uint64_t block
    cdef mask_t occupied, mover
    while index < stop:
        word = p.frontier_words[index]
        if word == win_before or word == loss_before:
            block = index // x.arrangements
            occupied = x.block_sets[block]
            mover = pdep(p.arrangement_masks[index - block * x.arrangements], occupied)
            weight = 0 if word == loss_before else weight_of(x, block, mover)
            found = _parents(p.g, mover, occupied & ~mover, True, p.parent_index, p.parents,
                             &indices[count], &parent_movers[count], &parent_opponents[count])
            for i in range(count, count + found):
                weights[i] = weight
            count += found
            children += 1
            if children == BATCH:
                settled = _apply_unmoves(p, cache, indices, parent_movers, parent_opponents,
                                         weights, count)
                if settled > longest:
                    longest = settled
                count = children = 0
        index += 1
    settled = _apply_unmoves(p, cache, indices, parent_movers, parent_opponents, weights, count)
    return settled if settled > longest else longest


def propagate(ClassSide frontier_side, ClassSide parent_side, int plies, int threads,
              Py_ssize_t first=0, Py_ssize_t last=-1):
    """Step 2 for one n = ``plies`` on chunks first .. last - 1 of ``frontier_side`` (-1: to
    its end): un-move its entries whose value has n - 1 plies into ``parent_side``. Returns
    the largest plies assigned (-1 if none)."""
    if last == -1:
        last = frontier_side.chunks
    if plies < FIRST_PASS:
        raise ValueError(f"propagation starts at n = {FIRST_PASS}: `mark` did pass 1's work")
    cdef Pass p
    p.g = geometry_of(frontier_side.size)
    p.plies = plies
    p.frontier_index = &frontier_side.index
    p.frontier_words = &frontier_side.words_view[0]
    p.arrangement_masks = &frontier_side.arrangement_masks[0]
    p.parents = &parent_side.words_view[0]
    p.parent_chunk_plies = &parent_side.chunk_plies_view[0]
    p.parent_index = &parent_side.index
    p.parent_external = parent_side.external_reader
    p.parent_caches = parent_side.thread_caches(threads)
    p.damaged = &parent_side.damaged_view[0]
    cdef uint64_t total = frontier_side.words.shape[0]
    cdef Py_ssize_t chunk
    cdef const uint16_t[::1] chunk_plies = frontier_side.chunk_plies_view
    cdef int32_t[::1] chunk_longest = np.full(
        max(1, _checked_range(first, last, frontier_side.chunks)), -1, dtype=np.int32)
    cdef uint64_t start, stop
    cdef int settled
    watch_interrupts()
    try:
        for chunk in prange(first, last, nogil=True, schedule="dynamic", num_threads=threads):
            start = chunk * CHUNK
            stop = chunk_end(chunk, total)
            if chunk_plies[chunk] < plies - 1:
                stop = start      # nothing in this chunk has n - 1 plies
            settled = _propagate_chunk(&p, &p.parent_caches[threadid()], start, stop)
            if settled >= 0:
                _record(&chunk_longest[chunk - first], settled)
    finally:
        stop_watching()
    parent_side.check_children()
    return _longest(chunk_longest)


# The meaning of a pair's state between kernel calls (the working words, chunk_plies, the
# order of the calls): a checkpoint (checkpoint.py) written by kernels of another state
# version is not used. Raise it with any change to what a kernel leaves behind.
STATE_VERSION = 3
# The first n of propagate: `mark` does what pass 1 did (positions with 0 plies all are
# positions the rules decide, whose parents it finds by playing their moves forward).
FIRST_PASS = 2
# `resolve` runs at the start of this pass at the latest (see the module's notes).
LAST_RESOLVE_PASS = RESOLVE_PASS

WORKING_WORD = {"SETTLED": SETTLED, "CODE_MASK": CODE_MASK, "HOLE": HOLE,
                "WEIGHT_UNIT": WEIGHT_UNIT, "LONGEST_PLIES": LONGEST_PLIES,
                "COUNT_MASK": COUNT_MASK, "EXTERNAL_SHIFT": EXTERNAL_SHIFT,
                "EXTERNAL_NONE": EXTERNAL_NONE, "EXTERNAL_LONG": EXTERNAL_LONG,
                "EXTERNAL_DRAW": EXTERNAL_DRAW}
