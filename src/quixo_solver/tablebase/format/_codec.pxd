# The value coder of the compressed tables (format 4, tablebase/format/files.py): a static
# context model per class and range asymmetric numeral systems (rANS), one segment at a time.
#
# A class's values, in index order, are cut into blocks of `block entries` (the unit of the
# block index and of the checksums) and each block into segments of `segment entries` (the
# unit of decoding: a probe decodes the one segment that holds its entry). A segment is coded
# on its own: it needs nothing but the class's model, so any segment decodes at once.
#
# The model. Each code (tablebase/values.py) is a symbol of the class's alphabet (its codes
# by decreasing frequency, at most MAX_SYMBOLS - 1 of them, then ESCAPE for any other code,
# which follows as 16 raw bits). A symbol is coded with the probabilities of its context:
#     context = bucket(left) * (buckets + 1) + bucket(above)
# where left is the entry before it and above the entry at the same low squares in the
# previous "row" (below), both inside the segment; bucket(s) is s for the buckets - 1 most
# frequent symbols, buckets - 1 for every other symbol, and `buckets` where there is no such
# entry. With buckets = 0 there is one context (an order-0 model).
#
# Rows. An entry's arrangement rank r (index mod C(k, a), _orbit_index.pxd) is the colex rank
# of the mover's cubes among the k occupied squares, in increasing order of the arrangement's
# bit mask. Cut the k squares at `split`: the masks with the same high part (the squares from
# `split` up) form a run of consecutive ranks that enumerates every low part with the same
# number of cubes, in the same order. The previous run with as many high cubes is the row
# above: the entry above r is r - offset(run). Runs come from the class's arrangement masks
# (`run_start`, `run_offset`; offset 0: no row above); split = 0 turns the context off.
#
# rANS (byte-wise, 32-bit state, PROBABILITY_BITS of precision): a segment is a u32 start
# state, then the bytes the decoder reads in order. The decoder ends exactly on the last byte
# with the state RANS_LOW (the encoder's start): anything else is a damaged segment.
#
# Entries whose value the file need not hold ("don't care"): holes (slots of no position,
# _orbit_index.pxd) and terminal positions (a line on the board: their value is win or loss in
# 0 plies by the rules, SPEC "Terminal positions"; every reader finds that from the position,
# `entry_kind`). They are written as the code before them (the first of a segment: the most
# frequent code), which costs next to nothing in that context and keeps runs unbroken; what a
# decoder returns for them is not their value.
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t

from ...rules._rules cimport STATUS_LOSS, STATUS_WIN, Geometry, mask_t, status
from ._index cimport pdep
from ._orbit_index cimport OrbitIndex, is_hole
from ._value_code cimport DRAW_CODE, loss_in, win_in

cdef enum:
    PROBABILITY_BITS = 12
    PROBABILITY_SCALE = 4096        # 1 << PROBABILITY_BITS: the frequencies of a context sum to it
    RANS_LOW = 8388608              # 1 << 23: the state stays in [RANS_LOW, RANS_LOW << 8)
    MAX_SYMBOLS = 64
    MAX_BUCKETS = 7                 # contexts: at most (MAX_BUCKETS + 1) ** 2
    MAX_SEGMENT = 4096              # entries of a segment at most
    RAW_BITS = 8                    # an escaped code: two uniform symbols of 8 bits
    DAMAGED_DATA = -1
    NO_TABLE = 0xFFFF


cdef struct Model:
    int symbols                 # alphabet size (the last one is the escape when `escape`)
    bint escape
    int buckets                 # 0: one context
    int split                   # squares below the cut of the rows; 0: no `above` context
    const uint16_t* alphabet    # symbol -> code
    const uint8_t* bucket_of    # symbol -> bucket
    const uint16_t* table_of    # per context: its table, NO_TABLE if no entry has it
    const uint8_t* slot_symbol  # per table PROBABILITY_SCALE slots -> symbol
    const uint32_t* frequency   # per table MAX_SYMBOLS: frequency | cumulative << 16
    const uint32_t* run_start   # runs + 1 ascending ranks (the last: the arrangements)
    const uint32_t* run_offset  # per run: the distance to the row above, 0 for none
    uint32_t runs
    uint64_t arrangements       # C(k, a): ranks per set of occupied squares


cdef enum:
    STORED = -2            # entry_kind, position_kind: the file holds the entry's value


cdef inline int entry_kind(const Geometry* g, const OrbitIndex* x, const uint32_t* masks,
                           uint64_t block, uint64_t arrangement) noexcept nogil:
    """STORED if the file holds the value of the entry (set block `block`, arrangement
    `arrangement`), else the value it has without the file: see position_kind; DRAW_CODE for
    a hole (what a whole table's values show there)."""
    cdef mask_t occupied = x.block_sets[block]
    cdef mask_t mover = pdep(masks[arrangement], occupied)
    if is_hole(x, block, mover):
        return DRAW_CODE
    return position_kind(g, mover, occupied & ~mover)


cdef inline int position_kind(const Geometry* g, mask_t mover, mask_t opponent) noexcept nogil:
    """STORED, or the value the rules give a position without any table: win in 0 if the
    mover shows a line, loss in 0 if only the opponent does or if the mover has no move (every
    border cube shows the opponent's symbol)."""
    cdef int found = status(g, mover, opponent)
    if found == STATUS_WIN:
        return win_in(0)
    if found == STATUS_LOSS or ((g.edges | g.corners) & ~opponent) == 0:
        return loss_in(0)
    return STORED


cdef inline bint maybe_stored(int code) noexcept nogil:
    """False only where the entry cannot be stored: a position the rules decide has code
    win_in(0) or loss_in(0) (position_kind), so any other code is stored (or a hole)."""
    return code != win_in(0) and code != loss_in(0)


cdef inline uint32_t find_run(const Model* m, uint64_t rank) noexcept nogil:
    """The run holding arrangement rank `rank` (binary search)."""
    cdef uint32_t low = 0, high = m.runs, middle
    while high - low > 1:
        middle = (low + high) >> 1
        if m.run_start[middle] <= rank:
            low = middle
        else:
            high = middle
    return low


cdef struct RowWalk:              # where a segment's entries stand among the rows of a split
    uint32_t run                   # model: the run of arrangements of the current entry,
    uint32_t offset                # the distance back to the entry "above" it (0: none),
    uint64_t rank                  # its arrangement's rank and the end of its run
    uint64_t run_end


cdef inline void row_walk_start(const Model* m, uint64_t first_index,
                                RowWalk* w) noexcept nogil:
    w.run = 0
    w.offset = 0
    w.rank = 0
    w.run_end = 0
    if m.split:
        w.rank = first_index % m.arrangements
        w.run = find_run(m, w.rank)
        w.run_end = m.run_start[w.run + 1]
        w.offset = m.run_offset[w.run]


cdef inline int row_walk_above(const Model* m, RowWalk* w, int i,
                               const uint8_t* buckets_seen) noexcept nogil:
    """The bucket of the entry above entry i (m.buckets where there is none), stepping the
    walk to the next entry: the context's second half, for the coder and the decoder alike."""
    cdef int above = m.buckets
    if m.split:
        if w.rank == w.run_end:
            w.run += 1
            if w.run == m.runs:           # the next set of occupied squares
                w.run = 0
                w.rank = 0
            w.run_end = m.run_start[w.run + 1]
            w.offset = m.run_offset[w.run]
        if w.offset and w.offset <= <uint32_t>i:
            above = buckets_seen[i - w.offset]
        w.rank += 1
    return above


cdef inline int decode_segment(const Model* m, const uint8_t* data, uint64_t length,
                               uint64_t first_index, int count, uint16_t* out,
                               int wanted=0) noexcept nogil:
    """Decode the `count` codes of the segment whose first entry is `first_index` from its
    `length` bytes into `out`, or with 0 < `wanted` < `count` only its first `wanted` (the
    codes decode in order: a probe needs the segment only up to its entry). Returns 0, or
    DAMAGED_DATA if the bytes are not a segment of this model (short, long, or, decoded whole,
    not ending on the encoder's start state)."""
    cdef uint8_t buckets_seen[MAX_SEGMENT]
    cdef const uint8_t* end = data + length
    cdef const uint8_t* p = data + 4
    cdef uint32_t x, slot, entry
    cdef RowWalk walk
    cdef int i, symbol, table, left, above, width = m.buckets + 1
    cdef int half, code
    if length < 4 or count <= 0 or count > MAX_SEGMENT:
        return DAMAGED_DATA
    if 0 < wanted < count:
        count = wanted
    else:
        wanted = 0
    x = (<uint32_t>data[0] | <uint32_t>data[1] << 8 | <uint32_t>data[2] << 16
         | <uint32_t>data[3] << 24)
    row_walk_start(m, first_index, &walk)
    left = m.buckets
    for i in range(count):
        above = row_walk_above(m, &walk, i, buckets_seen)
        table = m.table_of[left * width + above]
        if table == NO_TABLE:
            return DAMAGED_DATA
        slot = x & (PROBABILITY_SCALE - 1)
        symbol = m.slot_symbol[table * PROBABILITY_SCALE + slot]
        entry = m.frequency[table * MAX_SYMBOLS + symbol]
        x = (entry & 0xFFFF) * (x >> PROBABILITY_BITS) + slot - (entry >> 16)
        while x < RANS_LOW:
            if p == end:
                return DAMAGED_DATA
            x = (x << 8) | p[0]
            p += 1
        if m.escape and symbol == m.symbols - 1:
            code = 0
            for half in range(2):
                slot = x & (PROBABILITY_SCALE - 1)
                code = (code << RAW_BITS) | (slot >> (PROBABILITY_BITS - RAW_BITS))
                x = (1 << (PROBABILITY_BITS - RAW_BITS)) * (x >> PROBABILITY_BITS) + (
                    slot & ((1 << (PROBABILITY_BITS - RAW_BITS)) - 1))
                while x < RANS_LOW:
                    if p == end:
                        return DAMAGED_DATA
                    x = (x << 8) | p[0]
                    p += 1
            out[i] = <uint16_t>code
        else:
            out[i] = m.alphabet[symbol]
        left = m.bucket_of[symbol]
        buckets_seen[i] = <uint8_t>left
    if wanted == 0 and (p != end or x != RANS_LOW):
        return DAMAGED_DATA
    return 0


cdef inline int segment_bounds(const uint8_t* block, uint64_t block_length, int segments,
                               int segment, uint64_t* start, uint64_t* length) noexcept nogil:
    """Where segment `segment` of a block lies: the block opens with the end offsets of its
    first segments - 1 segments (u16 each, from the block's start); the last one ends with
    the block. Returns 0, or DAMAGED_DATA if the offsets do not fit the block."""
    cdef uint64_t table = 2 * <uint64_t>(segments - 1), first, last
    if table > block_length:
        return DAMAGED_DATA
    if segment == 0:
        first = table
    else:
        first = <uint64_t>block[2 * segment - 2] | <uint64_t>block[2 * segment - 1] << 8
    if segment == segments - 1:
        last = block_length
    else:
        last = <uint64_t>block[2 * segment] | <uint64_t>block[2 * segment + 1] << 8
    if first < table or last < first or last > block_length:
        return DAMAGED_DATA
    start[0] = first
    length[0] = last - first
    return 0


cdef class CodecModel:
    cdef Model model
    cdef readonly object alphabet, bucket_of, code_symbol, run_start, run_offset
    cdef readonly object frequencies, table_of, frequency, slot_symbol
    cdef readonly bint escape
    cdef readonly int buckets, split, occupied, movers, contexts
