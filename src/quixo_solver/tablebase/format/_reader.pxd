# Reading one value of a compressed table (format 4, tablebase/format/files.py) inside a kernel: the
# block index, the block's checksum (checked once, before any of its values is used), the
# segment decoder (_codec.pxd) and a small cache of decoded segments.
#
# A TableReader points into a table's memory (the mapped file, its index, its model), set up
# by tablebase._compressed_table.CompressedTable; it is shared, read-only but for the `checked`
# flags (a benign race: two threads may check a block at once, both write 1). A SegmentCache
# belongs to one thread: each searcher, each Python table, has its own.
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t

from ...rules._rules cimport Geometry, mask_t
from ._blockcheck cimport quixo_crc32
from ._codec cimport DAMAGED_DATA, STORED, Model, decode_segment, position_kind, segment_bounds
from ._orbit_index cimport OrbitIndex, orbit_index


cdef struct TableReader:
    const Model* model
    const OrbitIndex* index       # the class's symmetry-class index (_orbit_index.pxd)
    const uint8_t* data           # the blocks, one after the other
    const uint64_t* offsets       # blocks + 1: where each block starts in `data`, then the end
    const uint32_t* checksums     # CRC-32 of each block's bytes
    uint8_t* checked              # per block: 1 once its bytes matched their checksum
    uint64_t entries
    uint64_t blocks
    uint64_t block_entries
    uint64_t segment_entries


cdef struct SegmentCache:
    uint64_t* keys                # per slot: segment number + 1, 0 when empty
    uint16_t* codes               # per slot: segment_entries decoded codes
    uint64_t slots                # a power of two; a segment goes to slot (segment % slots)


cdef inline bint block_is_intact(const TableReader* t, uint64_t block) noexcept nogil:
    """Whether a block's bytes match its checksum (checked once)."""
    if t.checked[block]:
        return True
    if quixo_crc32(t.data + t.offsets[block], t.offsets[block + 1] - t.offsets[block]) != \
            t.checksums[block]:
        return False
    t.checked[block] = 1
    return True


cdef inline int decode_table_segment(const TableReader* t, uint64_t segment,
                                     uint16_t* out, int wanted=0) noexcept nogil:
    """Decode segment `segment` of the table into `out` (its block checked first), whole or
    (0 < `wanted`) its first `wanted` codes. Returns the number of codes decoded, or
    DAMAGED_DATA."""
    cdef uint64_t per_block = t.block_entries // t.segment_entries
    cdef uint64_t block = segment // per_block, first = segment * t.segment_entries
    cdef uint64_t in_block, start, length
    cdef int count, segments
    if first >= t.entries or not block_is_intact(t, block):
        return DAMAGED_DATA
    in_block = t.entries - block * t.block_entries
    if in_block > t.block_entries:
        in_block = t.block_entries
    segments = <int>((in_block + t.segment_entries - 1) // t.segment_entries)
    count = <int>(t.entries - first if t.entries - first < t.segment_entries
                  else t.segment_entries)
    if segment_bounds(t.data + t.offsets[block], t.offsets[block + 1] - t.offsets[block],
                      segments, <int>(segment - block * per_block), &start, &length) != 0:
        return DAMAGED_DATA
    if decode_segment(t.model, t.data + t.offsets[block] + start, length, first, count,
                      out, wanted) != 0:
        return DAMAGED_DATA
    return wanted if 0 < wanted < count else count


cdef enum:
    DECODED_BITS = 13      # a cache key: (segment + 1) << DECODED_BITS | codes decoded (<= MAX_SEGMENT)


cdef inline int read_code(const TableReader* t, SegmentCache* cache,
                          uint64_t index) noexcept nogil:
    """The code stored at entry `index` (for an entry the file need not hold, whatever was
    written there: see read_position), or DAMAGED_DATA if its block is damaged. A segment is
    decoded the first time only up to the entry asked for (half a segment on average, for
    random probes), and whole when an entry beyond that is asked for."""
    cdef uint64_t segment = index // t.segment_entries
    cdef uint64_t offset = index - segment * t.segment_entries
    cdef uint64_t slot = segment & (cache.slots - 1)
    cdef uint64_t key = cache.keys[slot]
    cdef uint16_t* codes = cache.codes + slot * t.segment_entries
    cdef bint held = key >> DECODED_BITS == segment + 1     # this segment, in part or whole
    cdef int decoded
    if not held or (key & ((1 << DECODED_BITS) - 1)) <= offset:
        cache.keys[slot] = 0
        decoded = decode_table_segment(t, segment, codes, 0 if held else <int>offset + 1)
        if decoded == DAMAGED_DATA:
            return DAMAGED_DATA
        cache.keys[slot] = ((segment + 1) << DECODED_BITS) | <uint64_t>decoded
    return codes[offset]


cdef inline int read_position(const TableReader* t, SegmentCache* cache, const Geometry* g,
                              mask_t mover, mask_t opponent) noexcept nogil:
    """The value code of a position of the table's class (in any of its 8 forms), or
    DAMAGED_DATA: a position the rules decide is answered without the file."""
    cdef int kind = position_kind(g, mover, opponent)
    if kind != STORED:
        return kind
    return read_code(t, cache, orbit_index(t.index, mover, opponent))
