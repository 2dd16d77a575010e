"""The verifier's kernel: re-derives each position's value from its children, forward.

It shares nothing with the generator's method (no un-moves, no move counters, no ply
frontier): every legal move is played, every child is looked up, and the position's value
must be exactly what best play makes of the children's values:
    a losing child      -> win in 1 + the fewest plies among the losing children
    else a drawn child  -> draw
    else                -> loss in 1 + the most plies among the (winning) children
Terminal positions must hold their 0-ply value (SPEC). Children are found in their tables
through the symmetry-class index (_orbit_index.pxd); every entry is checked, and every hole
must hold 0.
"""
from cython.parallel cimport prange, threadid
from libc.stdint cimport int64_t, uint16_t, uint32_t, uint64_t

import numpy as np

from .._portable cimport quixo_prefetch_read
from ..rules._rules cimport (
    MAX_MOVES, Geometry, STATUS_LOSS, STATUS_WIN, geometry_of, has_line, is_legal, mask_t, play,
    popcount, status,
)
from .._interrupt cimport interrupted, stop_watching, watch_interrupts
from .format._value_code cimport DRAW_CODE, is_loss, is_win, loss_in, plies_of, win_in
from .format._index cimport pdep
from .format._orbit_index cimport OrbitClass, OrbitIndex, is_hole, orbit_index
from .format._codec cimport DAMAGED_DATA
from .format._reader cimport SegmentCache, TableReader, read_position
from .format._compressed_table cimport CompressedTable
from .format._orbit_index import orbit_class

cdef enum:
    CHUNK = 16384       # entries of one unit of parallel work


cdef struct BestOfChildren:
    # what best play makes of the children seen so far: a losing child (the fewest plies), a
    # draw, or only wins (the most plies)
    int fewest_loss
    int most_win
    bint draw


cdef inline void hear_child(BestOfChildren* best, int child) noexcept nogil:
    if child == DRAW_CODE:
        best.draw = True
    elif is_win(child):
        if plies_of(child) > best.most_win:
            best.most_win = plies_of(child)
    elif best.fewest_loss < 0 or plies_of(child) < best.fewest_loss:
        best.fewest_loss = plies_of(child)


cdef inline uint16_t value_of_best(const BestOfChildren* best) noexcept nogil:
    if best.fewest_loss >= 0:
        return win_in(best.fewest_loss + 1)
    if best.draw:
        return DRAW_CODE
    return loss_in(best.most_win + 1)


cdef enum:
    UNDECIDED = -1      # not a value code (they are uint16_t): the rules do not decide


cdef inline int decided_value(const Geometry* g, mask_t mover, mask_t opponent) noexcept nogil:
    """The position's 0-ply value if the rules decide it, else UNDECIDED."""
    cdef int position_status = status(g, mover, opponent)
    if position_status == STATUS_WIN:
        return win_in(0)
    if position_status == STATUS_LOSS:
        return loss_in(0)
    return UNDECIDED


cdef inline int next_child(const Geometry* g, int move, mask_t mover, mask_t opponent,
                           mask_t* child_mover, mask_t* child_opponent) noexcept nogil:
    """The first legal move from `move` on, its child in *child_mover, *child_opponent;
    g.move_count when none is left. Both checks walk the moves with it."""
    while move < g.move_count and not is_legal(g, move, opponent):
        move += 1
    if move < g.move_count:
        play(g, move, mover, opponent, child_mover, child_opponent)
    return move


cdef inline uint16_t expected_value(const Geometry* g, mask_t mover, mask_t opponent,
                                    const uint16_t* same_pair, const OrbitIndex* same_index,
                                    const uint16_t* next_pair, const OrbitIndex* next_index,
                                    int mover_count) noexcept nogil:
    cdef int move, count = 0, i, decided = decided_value(g, mover, opponent)
    cdef BestOfChildren best = BestOfChildren(-1, -1, False)
    cdef mask_t child_mover, child_opponent
    # the children's values lie anywhere in tables of up to gigabytes: find them all and ask
    # for their cache lines first, then read them, so that the misses overlap (a quarter less
    # time than one child at a time on the 5x5 class (13, 10), whose children take 140 MB)
    cdef const uint16_t* children[MAX_MOVES]
    if decided != UNDECIDED:
        return decided
    move = next_child(g, 0, mover, opponent, &child_mover, &child_opponent)
    while move < g.move_count:
        if popcount(child_opponent) == mover_count:     # kept the blanks: the same pair
            children[count] = same_pair + orbit_index(same_index, child_mover, child_opponent)
        else:
            children[count] = next_pair + orbit_index(next_index, child_mover, child_opponent)
        quixo_prefetch_read(children[count])
        count += 1
        move = next_child(g, move + 1, mover, opponent, &child_mover, &child_opponent)
    for i in range(count):
        hear_child(&best, children[i][0])
    return value_of_best(&best)


def verify_class(int size, int mover_count, int opponent_count, values, same_pair, next_pair,
                 int threads, int report_limit=10):
    """Check every position of class (mover_count, opponent_count). ``same_pair`` is the
    table of class (opponent_count, mover_count), ``next_pair`` that of (opponent_count,
    mover_count + 1) (empty on a full board). Returns (mismatches, first mismatching
    indices)."""
    cdef const Geometry* g = geometry_of(size)
    cdef OrbitClass own_class = orbit_class(size, mover_count, opponent_count)
    cdef OrbitClass same_class = orbit_class(size, opponent_count, mover_count)
    cdef OrbitClass next_class = (orbit_class(size, opponent_count, mover_count + 1)
                                  if mover_count + opponent_count < size * size else None)
    cdef const OrbitIndex* x = &own_class.index
    cdef const OrbitIndex* next_index = &next_class.index if next_class is not None else NULL
    cdef const uint16_t[::1] own = values
    cdef const uint16_t[::1] inside = same_pair
    cdef const uint16_t[::1] outside = next_pair
    cdef const uint32_t[::1] arrangement_masks = own_class.arrangement_masks
    _check_length(own.shape[0], own_class, "own")
    _check_length(inside.shape[0], same_class, "same pair")
    if next_class is not None:
        _check_length(outside.shape[0], next_class, "next pair")
    cdef const uint16_t* outside_ptr = &outside[0] if outside.shape[0] else NULL
    cdef uint64_t total = own.shape[0]
    cdef Py_ssize_t chunks = (total + CHUNK - 1) // CHUNK, chunk
    cdef uint64_t index, stop, block, arrangement
    cdef mask_t occupied, mover
    cdef uint16_t expected
    cdef int64_t[::1] bad_in_chunk = np.zeros(max(chunks, 1), dtype=np.int64)
    cdef int64_t[::1] first_bad = np.full(max(chunks, 1), -1, dtype=np.int64)
    watch_interrupts()
    try:
        for chunk in prange(chunks, nogil=True, schedule="dynamic", num_threads=threads):
            index = chunk * CHUNK
            stop = index + CHUNK if index + CHUNK < total else total
            if interrupted():   # Ctrl-C: the caller raises KeyboardInterrupt
                stop = index
            while index < stop:
                block = index // x.arrangements
                arrangement = index % x.arrangements
                occupied = x.block_sets[block]
                mover = pdep(arrangement_masks[arrangement], occupied)
                if is_hole(x, block, mover):
                    expected = DRAW_CODE
                else:
                    expected = expected_value(g, mover, occupied & ~mover, &inside[0],
                                              &same_class.index, outside_ptr, next_index,
                                              mover_count)
                if expected != own[index]:
                    bad_in_chunk[chunk] += 1
                    if first_bad[chunk] < 0:
                        first_bad[chunk] = index
                index = index + 1
    finally:
        stop_watching()
    bad = np.asarray(bad_in_chunk)
    firsts = np.asarray(first_bad)
    return int(bad.sum()), [int(i) for i in firsts[firsts >= 0][:report_limit]]


cdef enum:
    # decoded segments each thread keeps of each table: a run of sampled entries (one segment
    # of its class) reaches, by each of its moves, one block of a child class (some 50
    # segments), so the run's children are decoded once for the whole run
    SAMPLE_CACHE_SLOTS = 4096
    SAMPLE_CHUNK = 512          # sampled entries of one unit of parallel work: a run


cdef inline int value_from_files(const Geometry* g, mask_t mover, mask_t opponent,
                                 const TableReader* same, SegmentCache* same_cache,
                                 const TableReader* after_blank, SegmentCache* blank_cache,
                                 int mover_count) noexcept nogil:
    """expected_value with the children read from their compressed files (DAMAGED_DATA if a
    block of one is damaged): the same rule, other storage."""
    cdef int move, child, decided = decided_value(g, mover, opponent)
    cdef BestOfChildren best = BestOfChildren(-1, -1, False)
    cdef mask_t child_mover, child_opponent
    if decided != UNDECIDED:
        return decided
    move = next_child(g, 0, mover, opponent, &child_mover, &child_opponent)
    while move < g.move_count:
        if popcount(child_opponent) == mover_count:     # kept the blanks: the same pair
            child = read_position(same, same_cache, g, child_mover, child_opponent)
        else:
            child = read_position(after_blank, blank_cache, g, child_mover, child_opponent)
        if child == DAMAGED_DATA:
            return DAMAGED_DATA
        hear_child(&best, child)
        move = next_child(g, move + 1, mover, opponent, &child_mover, &child_opponent)
    return value_of_best(&best)


def verify_sample(int size, int mover_count, int opponent_count, CompressedTable own,
                  CompressedTable same_pair, CompressedTable next_pair, indices,
                  int threads, int report_limit=10):
    """Check the entries `indices` (uint64, ascending) of class (mover_count,
    opponent_count) against their children, every value read from the compressed files
    (a few KiB of memory whatever the class): ``own`` is the class's table, ``same_pair`` that
    of (opponent_count, mover_count), ``next_pair`` that of (opponent_count, mover_count + 1)
    (None on a full board). Returns (entries checked (holes are not), mismatches, entries
    whose value or a child's could not be read (a damaged block of one of the three files:
    they count as mismatches too), first mismatching indices)."""
    cdef const Geometry* g = geometry_of(size)
    cdef OrbitClass own_class = orbit_class(size, mover_count, opponent_count)
    cdef const OrbitIndex* x = &own_class.index
    cdef const uint32_t[::1] arrangement_masks = own_class.arrangement_masks
    cdef const uint64_t[::1] wanted = np.ascontiguousarray(indices, dtype=np.uint64)
    cdef const TableReader* own_reader = &own.reader
    cdef const TableReader* same_reader = &same_pair.reader
    cdef const TableReader* blank_reader = &next_pair.reader if next_pair is not None else NULL
    if own.orbits.entries != own_class.entries or (same_pair.orbits.mover_count,
                                                   same_pair.orbits.opponent_count) != (
            opponent_count, mover_count) or (next_pair is not None and (
            next_pair.orbits.mover_count, next_pair.orbits.opponent_count) != (
            opponent_count, mover_count + 1)):
        raise ValueError("the tables given are not those of the class, its mirror and the "
                         "class after a blank")
    if wanted.shape[0] and wanted[wanted.shape[0] - 1] >= own_class.entries:
        raise ValueError(f"an index beyond the {own_class.entries} entries of the class")
    if wanted.shape[0] == 0:
        return 0, 0, 0, []
    threads = max(threads, 1)
    cdef uint64_t segment = max(own_reader.segment_entries, same_reader.segment_entries,
                                blank_reader.segment_entries if blank_reader != NULL else 1)
    keys_array = np.zeros((threads, 3, SAMPLE_CACHE_SLOTS), dtype=np.uint64)
    codes_array = np.zeros((threads, 3, SAMPLE_CACHE_SLOTS * segment), dtype=np.uint16)
    cdef uint64_t[:, :, ::1] keys = keys_array
    cdef uint16_t[:, :, ::1] codes = codes_array
    cdef Py_ssize_t n = wanted.shape[0]
    cdef Py_ssize_t chunks = (n + SAMPLE_CHUNK - 1) // SAMPLE_CHUNK, chunk
    cdef SampledClass sampled = SampledClass(
        g, x, &arrangement_masks[0], &wanted[0], n, own_reader, same_reader, blank_reader,
        segment, mover_count)
    # one SampleTally (four int64) a chunk
    tallies = np.zeros((max(chunks, 1), 4), dtype=np.int64)
    tallies[:, 3] = -1
    cdef int64_t[:, ::1] tally = tallies
    watch_interrupts()
    try:
        for chunk in prange(chunks, nogil=True, schedule="dynamic", num_threads=threads):
            _sample_chunk(&sampled, chunk, &keys[threadid(), 0, 0], &codes[threadid(), 0, 0],
                          <SampleTally*>&tally[chunk, 0])
    finally:
        stop_watching()
    firsts = tallies[:, 3]
    return (int(tallies[:, 0].sum()), int(tallies[:, 1].sum()), int(tallies[:, 2].sum()),
            [int(i) for i in firsts[firsts >= 0][:report_limit]])


cdef struct SampledClass:
    # what every chunk of verify_sample reads: the class, its sampled indices and the three
    # tables whose values decide them
    const Geometry* g
    const OrbitIndex* x
    const uint32_t* masks
    const uint64_t* wanted
    Py_ssize_t count
    const TableReader* own
    const TableReader* same
    const TableReader* after_blank
    uint64_t segment
    int mover_count


cdef struct SampleTally:
    # one chunk's counts: entries checked (holes are not), mismatches (damaged ones among
    # them), entries whose value or a child's could not be read, the first mismatch (-1)
    int64_t checked
    int64_t bad
    int64_t damaged
    int64_t first_bad


cdef void _sample_chunk(const SampledClass* c, Py_ssize_t chunk, uint64_t* keys,
                        uint16_t* codes, SampleTally* tally) noexcept nogil:
    """The sampled entries of one chunk of verify_sample, on the thread's caches (keys and
    codes: SAMPLE_CACHE_SLOTS slots of each of the three tables)."""
    cdef SegmentCache caches[3]
    cdef int found, expected
    cdef Py_ssize_t k
    cdef uint64_t index, block
    cdef mask_t occupied, mover
    for k in range(3):
        caches[k] = SegmentCache(keys + k * SAMPLE_CACHE_SLOTS,
                                 codes + k * SAMPLE_CACHE_SLOTS * c.segment, SAMPLE_CACHE_SLOTS)
    for k in range(chunk * SAMPLE_CHUNK, min(c.count, (chunk + 1) * SAMPLE_CHUNK)):
        if interrupted():   # Ctrl-C: the caller raises KeyboardInterrupt
            return
        index = c.wanted[k]
        block = index // c.x.arrangements
        occupied = c.x.block_sets[block]
        mover = pdep(c.masks[index - block * c.x.arrangements], occupied)
        if is_hole(c.x, block, mover):
            continue
        tally.checked += 1
        found = read_position(c.own, &caches[0], c.g, mover, occupied & ~mover)
        expected = value_from_files(c.g, mover, occupied & ~mover, c.same, &caches[1],
                                    c.after_blank, &caches[2], c.mover_count)
        if found == DAMAGED_DATA or expected == DAMAGED_DATA:
            tally.damaged += 1
        elif found == expected:
            continue
        tally.bad += 1
        if tally.first_bad < 0:
            tally.first_bad = <int64_t>index


def _check_length(Py_ssize_t length, OrbitClass orbits, str which):
    if length != orbits.entries:
        raise ValueError(f"the {which} table has {length} values, not the {orbits.entries} "
                         f"entries of class ({orbits.mover_count}, {orbits.opponent_count})")


def value_code_kernels(int plies, int code):
    """(win_in(plies), loss_in(plies), is_win(code), is_loss(code), plies_of(code)) from
    _value_code.pxd, for the test that compares them with their twin, tablebase/values.py."""
    return win_in(plies), loss_in(plies), is_win(code), is_loss(code), plies_of(code)
