"""The value coder of the compressed tables (see _codec.pxd): models, the encoder, the rows.

The encoder runs where a table is written (a build, `quixo tablebase compress`); the decoder
(_codec.pxd) wherever values are read. Its pure-Python twin is tablebase/format/_codec_twin.py.

Choosing a model. Every class gets the model that codes it in the fewest bits, its own size
included, among a few shapes (buckets of the two neighbours, the cut of the rows): each shape
is counted on a sample of the class's blocks, and the best one's counts (over the whole of a
small class, tablebase/format/coding.py) become frequencies that sum to PROBABILITY_SCALE in each
context (`frequencies_from_counts`, the same integer rule in the twin).
"""
from functools import lru_cache
from math import comb

from cython.parallel cimport prange, threadid
from libc.math cimport log2
from libc.stdint cimport int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc

import numpy as np

from ...rules._rules cimport Geometry, geometry_of, mask_t
from ._blockcheck cimport quixo_crc32
from ._orbit_index cimport OrbitClass


cdef enum:
    CODES = 0x8000                  # value codes are below this (_value_code.pxd CODE_MASK)

BLOCK_ENTRIES = 4096
SEGMENT_ENTRIES = 512
SAMPLE_ENTRIES = 1 << 20            # entries a large class's frequencies are counted on
CHOICE_ENTRIES = 1 << 17            # entries each candidate shape is counted on, at most
MODEL_HEADER = 4                    # symbols, escape, buckets, split (u8 each)
PARAMETERS = {"PROBABILITY_BITS": PROBABILITY_BITS, "RANS_LOW": RANS_LOW,
              "MAX_SYMBOLS": MAX_SYMBOLS, "MAX_BUCKETS": MAX_BUCKETS,
              "MAX_SEGMENT": MAX_SEGMENT, "RAW_BITS": RAW_BITS}


class DamagedSegmentError(ValueError):
    """Bytes that do not decode as a segment of the model."""


@lru_cache(maxsize=64)
def rows(int occupied, int movers, int split):
    """(run_start, run_offset) of the rows of the arrangements of `movers` cubes among
    `occupied` squares cut at `split` (see _codec.pxd): runs + 1 start ranks, the last one
    C(occupied, movers), and per run the distance back to the row above (0: none).

    The arrangements in rank order are their masks in increasing order, so a run is one
    value of the squares above the cut (`high`, in increasing order) with its
    C(split, movers - cubes of high) arrangements below: the runs come from the 2**(occupied -
    split) values of `high` alone, never from the C(occupied, movers) masks (a 5x5 class's
    table opens in milliseconds)."""
    if not 0 < split < occupied:
        raise ValueError(f"a cut at {split} of {occupied} squares has no rows")
    high = np.arange(1 << (occupied - split), dtype=np.int64)
    cubes = np.zeros(high.size, dtype=np.int64)
    for bit in range(occupied - split):
        cubes += (high >> bit) & 1
    below = movers - cubes
    kept = (below >= 0) & (below <= split)
    cubes, below = cubes[kept], below[kept]
    lengths = np.array([comb(split, n) for n in range(split + 1)], dtype=np.int64)[below]
    starts = np.cumsum(lengths) - lengths
    offsets = np.zeros(starts.size, dtype=np.uint32)
    for count in np.unique(cubes):          # each run's row above: the run before it with
        same = np.flatnonzero(cubes == count)   # as many cubes above the cut
        offsets[same[1:]] = starts[same[1:]] - starts[same[:same.size - 1]]
    run_start = np.append(starts, comb(occupied, movers)).astype(np.uint32)
    for array in (run_start, offsets):
        array.flags.writeable = False
    return run_start, offsets


def bucket_map(int symbols, int buckets):
    """symbol -> bucket: the first buckets - 1 symbols their own, the others the last."""
    if buckets == 0:
        return np.zeros(symbols, dtype=np.uint8)
    return np.minimum(np.arange(symbols), buckets - 1).astype(np.uint8)


def frequencies_from_counts(counts):
    """Per context, counts of each symbol -> frequencies summing to PROBABILITY_SCALE (every
    symbol seen gets at least 1), all zero for a context never seen. Integer arithmetic only,
    so that the twin (tablebase/format/_codec_twin.py) gets the same numbers: its loop over the
    contexts, here in arrays (a class's model is made once per class, with up to 64
    contexts)."""
    counts = np.asarray(counts, dtype=np.int64)
    totals = counts.sum(axis=1, keepdims=True)
    shares = (counts * PROBABILITY_SCALE) // np.maximum(totals, 1)
    frequency = np.where(counts == 0, 0, np.maximum(shares, 1))
    missing = np.where(totals[:, 0] == 0, 0, PROBABILITY_SCALE - frequency.sum(axis=1))
    short = np.flatnonzero(missing > 0)
    frequency[short, np.argmax(counts[short], axis=1)] += missing[short]
    for context in np.flatnonzero(missing < 0):     # too many symbols raised to 1 (rare)
        row, excess = frequency[context], -int(missing[context])
        while excess > 0:
            largest = int(np.argmax(row))            # the first of the largest
            taken = min(excess, int(row[largest]) - 1)
            row[largest] -= taken
            excess -= taken
    return frequency.astype(np.uint16)


cdef void _fill_slots(const uint32_t[:, ::1] rows, uint8_t[:, ::1] slot_symbol) noexcept:
    """slot_symbol[t][slot]: the symbol whose range of slots holds `slot`, for each row t of
    frequencies (each sums to PROBABILITY_SCALE, checked before)."""
    cdef Py_ssize_t table, symbol, slot
    cdef uint32_t i
    for table in range(rows.shape[0]):
        slot = 0
        for symbol in range(rows.shape[1]):
            for i in range(rows[table, symbol]):
                slot_symbol[table, slot] = <uint8_t>symbol
                slot += 1


cdef class CodecModel:
    """A class's model: its alphabet, context shape and (once counted) frequencies, with the
    decoder's tables (`model`) and the encoder's symbol of each code."""

    def __init__(self, alphabet, bint escape, int buckets, int split, int occupied,
                 int movers, frequencies=None):
        alphabet = np.ascontiguousarray(alphabet, dtype=np.uint16)
        cdef int symbols = alphabet.shape[0], contexts = (buckets + 1) ** 2
        if not 1 <= symbols <= MAX_SYMBOLS or (escape and symbols < 2):
            raise ValueError(f"an alphabet of {symbols} symbols")
        if not 0 <= buckets <= MAX_BUCKETS or not 0 <= split < max(occupied, 1):
            raise ValueError(f"a model with {buckets} buckets and a cut at {split}")
        if np.any(alphabet >= CODES) or np.unique(alphabet[:symbols - escape]).size != \
                symbols - escape:
            raise ValueError("an alphabet with repeated or impossible codes")
        self.alphabet = alphabet
        self.escape = escape
        self.buckets = buckets
        self.split = split
        self.occupied = occupied
        self.movers = movers
        self.contexts = contexts
        self.bucket_of = bucket_map(symbols, buckets)
        self.code_symbol = np.full(CODES, symbols - 1 if escape else 255, dtype=np.uint8)
        self.code_symbol[alphabet[:symbols - escape]] = np.arange(symbols - escape,
                                                                  dtype=np.uint8)
        if split:
            self.run_start, self.run_offset = rows(occupied, movers, split)
        else:
            self.run_start = np.array([0, 1], dtype=np.uint32)
            self.run_offset = np.zeros(1, dtype=np.uint32)
        self.frequencies = None
        if frequencies is not None:
            self._set_frequencies(np.asarray(frequencies, dtype=np.uint16))
        self._point()

    def _set_frequencies(self, frequencies):
        cdef int symbols = self.alphabet.shape[0]
        if frequencies.shape != (self.contexts, symbols):
            raise ValueError(f"frequencies of shape {frequencies.shape}, not "
                             f"{(self.contexts, symbols)}")
        sums = frequencies.astype(np.int64).sum(axis=1)
        if np.any((sums != 0) & (sums != PROBABILITY_SCALE)):
            raise ValueError("frequencies that do not sum to the probability scale")
        used = np.flatnonzero(sums)
        table_of = np.full(self.contexts, NO_TABLE, dtype=np.uint16)
        table_of[used] = np.arange(used.size, dtype=np.uint16)
        frequency = np.zeros((max(used.size, 1), MAX_SYMBOLS), dtype=np.uint32)
        slot_symbol = np.zeros((max(used.size, 1), PROBABILITY_SCALE), dtype=np.uint8)
        # per used context: each symbol's frequency and the sum of those before it; each
        # slot's symbol (a row of frequencies sums to PROBABILITY_SCALE: one row of slots)
        rows = frequencies[used].astype(np.uint32)
        cumulative = np.cumsum(rows, axis=1, dtype=np.uint32) - rows
        frequency[:used.size, :symbols] = rows | (cumulative << 16)
        _fill_slots(rows, slot_symbol)
        self.frequencies = frequencies
        self.table_of = table_of
        self.frequency = frequency
        self.slot_symbol = slot_symbol

    def _point(self):
        cdef const uint16_t[::1] alphabet = self.alphabet
        cdef const uint8_t[::1] bucket_of = self.bucket_of
        cdef const uint32_t[::1] run_start = self.run_start
        cdef const uint32_t[::1] run_offset = self.run_offset
        cdef const uint16_t[::1] table_of
        cdef const uint8_t[:, ::1] slot_symbol
        cdef const uint32_t[:, ::1] frequency
        self.model.symbols = alphabet.shape[0]
        self.model.escape = self.escape
        self.model.buckets = self.buckets
        self.model.split = self.split
        self.model.alphabet = &alphabet[0]
        self.model.bucket_of = &bucket_of[0]
        self.model.run_start = &run_start[0]
        self.model.run_offset = &run_offset[0]
        self.model.runs = run_offset.shape[0]
        self.model.arrangements = run_start[run_offset.shape[0]]
        self.model.table_of = NULL
        self.model.slot_symbol = NULL
        self.model.frequency = NULL
        if self.frequencies is not None:
            table_of = self.table_of
            slot_symbol = self.slot_symbol
            frequency = self.frequency
            self.model.table_of = &table_of[0]
            self.model.slot_symbol = &slot_symbol[0, 0]
            self.model.frequency = &frequency[0, 0]

    @property
    def symbols(self):
        return int(self.model.symbols)

    def to_bytes(self):
        """The model as a table file stores it: symbols, escape, buckets, split (u8 each),
        the alphabet (u16 each), then the frequencies (u16, contexts x symbols)."""
        if self.frequencies is None:
            raise ValueError("a model without frequencies")
        head = bytes([self.model.symbols, int(self.escape), self.buckets, self.split])
        return head + self.alphabet.astype("<u2").tobytes() + \
            self.frequencies.astype("<u2").tobytes()

    @staticmethod
    def from_bytes(data, int occupied, int movers):
        """The model stored in `data`; ValueError if it is not a model of that shape."""
        data = bytes(data)
        if len(data) < MODEL_HEADER:
            raise ValueError("a model of fewer bytes than its header")
        symbols, escape, buckets, split = data[0], data[1], data[2], data[3]
        contexts = (buckets + 1) ** 2
        if escape > 1 or buckets > MAX_BUCKETS or len(data) != \
                MODEL_HEADER + 2 * symbols + 2 * contexts * symbols:
            raise ValueError("a model whose header does not match its length")
        alphabet = np.frombuffer(data, dtype="<u2", count=symbols, offset=MODEL_HEADER)
        frequencies = np.frombuffer(data, dtype="<u2", offset=MODEL_HEADER + 2 * symbols)
        return CodecModel(alphabet, bool(escape), buckets, split, occupied, movers,
                          frequencies.reshape(contexts, symbols))


def model_bits(int symbols, int buckets):
    """The bits of a stored model (to_bytes) of `symbols` symbols and `buckets` buckets."""
    return 8 * (MODEL_HEADER + 2 * symbols + 2 * (buckets + 1) ** 2 * symbols)


cdef inline void _fill_segment(const Geometry* g, const OrbitIndex* x, const uint32_t* masks,
                               const uint16_t* values, uint64_t first, int count,
                               uint16_t first_code, uint16_t* out) noexcept nogil:
    """The codes of a segment as they are coded: an entry the file need not hold (a hole, a
    position the rules decide) takes the code before it (the first entry of the segment:
    `first_code`). Only codes that such a position can have, and symmetric blocks, need the
    position itself (_codec.pxd maybe_stored)."""
    cdef uint64_t block = first // x.arrangements
    cdef uint64_t arrangement = first - block * x.arrangements
    cdef uint16_t previous = first_code, code
    cdef int i
    for i in range(count):
        code = values[first + i]
        if (maybe_stored(code) and not x.block_symmetries[block]) or \
                entry_kind(g, x, masks, block, arrangement) == STORED:
            previous = code
        out[i] = previous
        arrangement += 1
        if arrangement == x.arrangements:
            arrangement = 0
            block += 1


cdef inline int _contexts(const Model* m, const uint8_t* code_symbol, const uint16_t* codes,
                          uint64_t first_index, int count, uint8_t* symbols,
                          uint16_t* contexts) noexcept nogil:
    """Each entry's symbol and context, as the decoder will see them."""
    cdef uint8_t buckets_seen[MAX_SEGMENT]
    cdef RowWalk walk
    cdef int i, left = m.buckets, above, width = m.buckets + 1
    row_walk_start(m, first_index, &walk)
    for i in range(count):
        above = row_walk_above(m, &walk, i, buckets_seen)
        contexts[i] = <uint16_t>(left * width + above)
        symbols[i] = code_symbol[codes[i]]
        left = m.bucket_of[symbols[i]]
        buckets_seen[i] = <uint8_t>left
    return 0


cdef inline void _count_segment(const Model* m, const uint8_t* code_symbol,
                                const uint16_t* codes, uint64_t first_index, int count,
                                int64_t* counts) noexcept nogil:
    cdef uint8_t symbols[MAX_SEGMENT]
    cdef uint16_t contexts[MAX_SEGMENT]
    cdef int i
    _contexts(m, code_symbol, codes, first_index, count, symbols, contexts)
    for i in range(count):
        counts[contexts[i] * m.symbols + symbols[i]] += 1


cdef inline int _put(uint32_t* x, uint8_t** p, const uint8_t* floor, uint32_t frequency,
                     uint32_t cumulative) noexcept nogil:
    """Push one symbol onto the rANS state (the encoder runs backwards, bytes go down)."""
    cdef uint32_t limit = ((RANS_LOW >> PROBABILITY_BITS) << 8) * frequency
    while x[0] >= limit:
        if p[0] == floor:
            return -1
        p[0] -= 1
        p[0][0] = <uint8_t>(x[0] & 0xFF)
        x[0] >>= 8
    x[0] = ((x[0] // frequency) << PROBABILITY_BITS) + (x[0] % frequency) + cumulative
    return 0


cdef inline int64_t _encode_segment(const Model* m, const uint8_t* code_symbol,
                                    const uint16_t* codes, uint64_t first_index, int count,
                                    uint8_t* out, uint64_t capacity) noexcept nogil:
    """Code one segment into `out`; returns its length, or -1 if `capacity` is too small or a
    code has no symbol (no escape)."""
    cdef uint8_t symbols[MAX_SEGMENT]
    cdef uint16_t contexts[MAX_SEGMENT]
    cdef uint8_t* end = out + capacity
    cdef uint8_t* p = end
    cdef uint32_t x = RANS_LOW, entry
    cdef int i, table, half, symbol
    cdef uint64_t length
    if capacity < 4:
        return -1
    _contexts(m, code_symbol, codes, first_index, count, symbols, contexts)
    for i in range(count - 1, -1, -1):
        symbol = symbols[i]
        if symbol >= m.symbols:
            return -1
        if m.escape and symbol == m.symbols - 1:
            for half in range(2):    # the low byte first: the decoder reads the high one first
                if _put(&x, &p, out + 4, 1 << (PROBABILITY_BITS - RAW_BITS),
                        ((codes[i] >> (RAW_BITS * half)) & 0xFF)
                        << (PROBABILITY_BITS - RAW_BITS)) < 0:
                    return -1
        table = m.table_of[contexts[i]]
        if table == NO_TABLE:
            return -1
        entry = m.frequency[table * MAX_SYMBOLS + symbol]
        if entry & 0xFFFF == 0 or _put(&x, &p, out + 4, entry & 0xFFFF, entry >> 16) < 0:
            return -1
    length = end - p
    # the start state, then the bytes in the order the decoder reads them
    for i in range(<int>length):
        out[4 + i] = p[i]
    out[0] = x & 0xFF
    out[1] = (x >> 8) & 0xFF
    out[2] = (x >> 16) & 0xFF
    out[3] = x >> 24
    return 4 + length


cdef inline int64_t _encode_block(const Model* m, const uint8_t* code_symbol,
                                  const uint16_t* codes, uint64_t first_index, int count,
                                  int segment_entries, uint8_t* out,
                                  uint64_t capacity) noexcept nogil:
    """Code one block (its segments' end offsets, then the segments) into `out`; its length,
    or -1."""
    cdef int segments = (count + segment_entries - 1) // segment_entries, s, n
    cdef uint64_t at = 2 * <uint64_t>(segments - 1)
    cdef int64_t written
    if at > capacity:
        return -1
    for s in range(segments):
        n = segment_entries if (s + 1) * segment_entries <= count else count - s * segment_entries
        written = _encode_segment(m, code_symbol, codes + s * segment_entries,
                                  first_index + s * segment_entries, n, out + at,
                                  capacity - at)
        if written < 0:
            return -1
        at += written
        if s < segments - 1:
            if at > 0xFFFF:
                return -1
            out[2 * s] = at & 0xFF
            out[2 * s + 1] = at >> 8
    return at


def _check_shape(int block_entries, int segment_entries):
    if not 1 <= segment_entries <= MAX_SEGMENT or block_entries % segment_entries or \
            block_entries // segment_entries > 256 or block_entries <= 0:
        raise ValueError(f"blocks of {block_entries} entries in segments of {segment_entries}")


def block_capacity(int block_entries, int segment_entries):
    """Bytes a block can take at most: 28 bits an entry (an escaped code), and per segment
    its start state, the rANS flush and its offset."""
    return (block_entries * 28 + 7) // 8 + 8 * (block_entries // segment_entries) + 16


def fill_blocks(OrbitClass orbits, values, blocks, int block_entries, int segment_entries,
                int first_code, int threads=1):
    """The codes of the given blocks as they are coded (_fill_segment), one row of
    `block_entries` per block (a short last block is padded with its last code)."""
    _check_shape(block_entries, segment_entries)
    cdef const uint16_t[::1] codes = values
    if codes.shape[0] != orbits.entries:
        raise ValueError(f"{codes.shape[0]} values for a class of {orbits.entries} entries")
    cdef const int64_t[::1] chosen = np.ascontiguousarray(blocks, dtype=np.int64)
    result = np.empty((chosen.shape[0], block_entries), dtype=np.uint16)
    cdef uint16_t[:, ::1] out = result
    cdef const Geometry* g = geometry_of(orbits.size)
    cdef const OrbitIndex* x = &orbits.index
    cdef const uint32_t* masks = &orbits.masks[0]
    cdef uint64_t total = codes.shape[0], first
    cdef Py_ssize_t i
    cdef int s, n, count, segments, j
    for i in prange(chosen.shape[0], nogil=True, schedule="dynamic",
                    num_threads=_threads_for(chosen.shape[0], threads)):
        first = chosen[i] * block_entries
        count = _entries_from(first, block_entries, total)
        segments = (count + segment_entries - 1) // segment_entries
        for s in range(segments):
            n = _entries_from(s * segment_entries, segment_entries, count)
            _fill_segment(g, x, masks, &codes[0], first + s * segment_entries, n,
                          <uint16_t>first_code, &out[i, s * segment_entries])
        for j in range(count, block_entries):
            out[i, j] = out[i, count - 1]
    return result


cdef inline int _entries_from(uint64_t first, int length, uint64_t total) noexcept nogil:
    """Entries of the block (or segment) of `length` entries that starts at `first`, of
    `total`: `length`, or fewer for the last."""
    return length if first + length <= total else <int>(total - first)


cdef inline int _threads_for(Py_ssize_t items, int threads) noexcept nogil:
    """Threads worth starting for `items` blocks: one for a small class (a parallel region
    costs more than it saves there)."""
    if items < 64 or threads < 1:
        return 1
    return threads


def count_filled(CodecModel shape, filled, blocks, uint64_t entries, int block_entries,
                 int segment_entries, int threads=1):
    """Counts (contexts x symbols) of the model's shape over blocks already filled
    (fill_blocks: one row per block of `blocks`) of a class of `entries` entries."""
    _check_shape(block_entries, segment_entries)
    cdef const uint16_t[:, ::1] codes = filled
    cdef const int64_t[::1] chosen = np.ascontiguousarray(blocks, dtype=np.int64)
    if codes.shape[0] != chosen.shape[0] or codes.shape[1] != block_entries:
        raise ValueError("filled codes that are not one row per block")
    cdef int symbols = shape.model.symbols, contexts = shape.contexts
    threads = _threads_for(chosen.shape[0], threads)
    counts_array = np.zeros((threads, contexts * symbols), dtype=np.int64)
    cdef int64_t[:, ::1] counts = counts_array
    cdef const Model* m = &shape.model
    cdef const uint8_t[::1] code_symbol = shape.code_symbol
    cdef uint64_t first
    cdef Py_ssize_t i
    cdef int s, n, count, segments, thread
    for i in prange(chosen.shape[0], nogil=True, schedule="dynamic", num_threads=threads):
        thread = threadid()
        first = chosen[i] * block_entries
        count = _entries_from(first, block_entries, entries)
        segments = (count + segment_entries - 1) // segment_entries
        for s in range(segments):
            n = _entries_from(s * segment_entries, segment_entries, count)
            _count_segment(m, &code_symbol[0], &codes[i, s * segment_entries],
                           first + s * segment_entries, n, &counts[thread, 0])
    return counts_array.sum(axis=0).reshape(contexts, symbols)


def coded_bits(counts):
    """The bits an ideal coder with these (per context) probabilities spends on the counts:
    per context, total * log2(total) - sum of count * log2(count)."""
    cdef const int64_t[:, ::1] c = np.ascontiguousarray(counts, dtype=np.int64)
    cdef double bits = 0.0, total
    cdef Py_ssize_t context, symbol
    with nogil:
        for context in range(c.shape[0]):
            total = 0.0
            for symbol in range(c.shape[1]):
                if c[context, symbol] > 0:
                    total += <double>c[context, symbol]
                    bits -= c[context, symbol] * log2(<double>c[context, symbol])
            if total > 0:
                bits += total * log2(total)
    return bits


def encode_blocks(CodecModel model, OrbitClass orbits, values, uint64_t first_block,
                  uint64_t blocks, int block_entries, int segment_entries, int threads=1,
                  filled=None):
    """Code `blocks` blocks of the class from `first_block` on. Returns (bytes of the blocks
    one after the other as a uint8 array, each block's length (u32), each block's CRC-32).
    `filled`, if given, holds these blocks' codes as coded (fill_blocks: one row per block),
    which spares filling them again."""
    _check_shape(block_entries, segment_entries)
    if model.frequencies is None:
        raise ValueError("a model without frequencies")
    cdef const uint16_t[::1] codes = values
    if codes.shape[0] != orbits.entries:
        raise ValueError(f"{codes.shape[0]} values for a class of {orbits.entries} entries")
    cdef const uint16_t[:, ::1] rows = None
    if filled is not None:
        rows = filled
        if rows.shape[0] != blocks or rows.shape[1] != block_entries:
            raise ValueError("filled codes that are not one row per block")
    cdef uint64_t total = codes.shape[0]
    cdef uint64_t capacity = block_capacity(block_entries, segment_entries)
    if first_block * block_entries > total or (first_block + blocks) * block_entries \
            >= total + block_entries:
        raise ValueError("blocks outside the class")
    scratch_array = np.empty(max(blocks, 1) * capacity, dtype=np.uint8)
    lengths_array = np.zeros(max(blocks, 1), dtype=np.int64)
    cdef uint8_t[::1] scratch = scratch_array
    cdef int64_t[::1] lengths = lengths_array
    cdef const Model* m = &model.model
    cdef const uint8_t[::1] code_symbol = model.code_symbol
    cdef const Geometry* g = geometry_of(orbits.size)
    cdef const OrbitIndex* x = &orbits.index
    cdef const uint32_t* masks = &orbits.masks[0]
    cdef uint16_t first_code = model.alphabet[0]
    cdef Py_ssize_t i
    cdef uint64_t first
    cdef int count, s, n, segments
    cdef uint16_t* buffer
    cdef bint refill = rows is None
    for i in prange(<Py_ssize_t>blocks, nogil=True, schedule="dynamic",
                    num_threads=_threads_for(blocks, threads)):
        buffer = <uint16_t*>malloc(block_entries * sizeof(uint16_t)) if refill else NULL
        lengths[i] = -1
        if buffer != NULL or not refill:
            first = (first_block + i) * block_entries
            count = block_entries if first + block_entries <= total else total - first
            if refill:
                segments = (count + segment_entries - 1) // segment_entries
                for s in range(segments):
                    n = segment_entries if (s + 1) * segment_entries <= count else \
                        count - s * segment_entries
                    _fill_segment(g, x, masks, &codes[0], first + s * segment_entries, n,
                                  first_code, buffer + s * segment_entries)
            lengths[i] = _encode_block(m, &code_symbol[0], buffer if refill else &rows[i, 0],
                                       first, count, segment_entries,
                                       &scratch[i * capacity], capacity)
        free(buffer)
    if blocks and np.any(lengths_array < 0):
        raise ValueError("a block could not be coded with this model (a code it has never "
                         "counted)")
    lengths_array = lengths_array[:blocks]
    starts = np.arange(blocks, dtype=np.int64) * capacity
    pieces = [scratch_array[start:start + length] for start, length in zip(starts, lengths_array)]
    data = np.concatenate(pieces) if pieces else np.zeros(0, dtype=np.uint8)
    checksums = np.array([_crc(piece) for piece in pieces], dtype=np.uint32)
    return data, lengths_array.astype(np.uint32), checksums


def _crc(const uint8_t[::1] data):
    return quixo_crc32(&data[0] if data.shape[0] else NULL, data.shape[0])


def encode_codes(CodecModel model, codes, uint64_t first_index, int segment_entries):
    """Code one block given its codes as coded (holes already filled): for the tests."""
    cdef const uint16_t[::1] view = np.ascontiguousarray(codes, dtype=np.uint16)
    cdef int count = view.shape[0]
    if model.frequencies is None or count == 0:
        raise ValueError("a model without frequencies, or no codes")
    _check_shape(segment_entries * ((count + segment_entries - 1) // segment_entries),
                 segment_entries)
    capacity = block_capacity(count + segment_entries, segment_entries)
    out_array = np.empty(capacity, dtype=np.uint8)
    cdef uint8_t[::1] out = out_array
    cdef const uint8_t[::1] code_symbol = model.code_symbol
    cdef int64_t length = _encode_block(&model.model, &code_symbol[0], &view[0], first_index,
                                        count, segment_entries, &out[0], capacity)
    if length < 0:
        raise ValueError("the codes cannot be coded with this model")
    return bytes(out_array[:length])


def decode_codes(CodecModel model, data, uint64_t first_index, int count,
                 int segment_entries):
    """Decode one block of `count` entries from its bytes; DamagedSegmentError if they are
    not a block of this model."""
    if model.frequencies is None or count <= 0:
        raise ValueError("a model without frequencies, or no entries")
    cdef const uint8_t[::1] view = np.frombuffer(bytes(data) or b"\0", dtype=np.uint8)
    cdef uint64_t length = len(data)
    result = np.empty(count, dtype=np.uint16)
    cdef uint16_t[::1] out = result
    cdef int segments = (count + segment_entries - 1) // segment_entries, s, n
    cdef uint64_t start, size
    if segments > 256 or segment_entries > MAX_SEGMENT:
        raise ValueError("too many segments")
    for s in range(segments):
        n = segment_entries if (s + 1) * segment_entries <= count else count - s * segment_entries
        if segment_bounds(&view[0], length, segments, s, &start, &size) != 0 or \
                decode_segment(&model.model, &view[0] + start, size,
                               first_index + s * segment_entries, n,
                               &out[s * segment_entries]) != 0:
            raise DamagedSegmentError(f"segment {s} of the block is damaged")
    return result


def fill_codes(OrbitClass orbits, values, uint64_t first, int count, int first_code):
    """The codes of entries first .. first + count - 1 as a segment codes them (holes and
    terminal positions take the code before them): for the tests."""
    cdef const uint16_t[::1] codes = values
    if first + count > <uint64_t>codes.shape[0] or count > MAX_SEGMENT or count <= 0:
        raise ValueError("entries outside the class")
    result = np.empty(count, dtype=np.uint16)
    cdef uint16_t[::1] out = result
    _fill_segment(geometry_of(orbits.size), &orbits.index, &orbits.masks[0], &codes[0], first, count,
                  <uint16_t>first_code, &out[0])
    return result
