"""A compressed table file, mapped and checked (tablebase/format/files.py opens it): one value, a
position's value, or every value of the class, each block checked before it is used."""
from cython.parallel cimport prange
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc

import numpy as np

from ..._portable cimport quixo_monotonic_seconds
from ...rules._rules cimport Geometry, geometry_of, mask_t
from ._codec cimport CodecModel, DAMAGED_DATA, MAX_SEGMENT, STORED, entry_kind
from ._orbit_index cimport OrbitClass
from ._reader cimport block_is_intact, decode_table_segment, read_position
from ...rules import geometry as _geometry
from ...errors import PositionError
from ..errors import CorruptTableError


# Decoded segments a Python table keeps: enough for a whole table of up to 256 segments (every
# 4x4 class but the largest few: the explorer's analyses then decode each segment once), at
# most 256 KiB a table. A direct-mapped cache: a table with no more segments than slots never
# evicts.
MAX_CACHE_SLOTS = 256


def cache_slots(uint64_t entries, uint64_t segment_entries):
    """The slots of a table's cache: a power of two, at least 16, at most MAX_CACHE_SLOTS."""
    cdef uint64_t segments = (entries + segment_entries - 1) // segment_entries, slots = 16
    while slots < segments and slots < MAX_CACHE_SLOTS:
        slots *= 2
    return slots


def _popcounts(masks):
    counts = np.zeros(masks.shape, dtype=np.int64)
    for bit in range(25):
        counts += (masks >> bit) & 1
    return counts


cdef class CompressedTable:
    """The values of one class in a compressed file: `header` (files.TableHeader), `model`
    (_codec.CodecModel), the mapped `data` of the blocks, their `offsets` and `checksums`,
    and `checked` (one flag per block, set once its checksum matched: shared with every
    searcher that reads this table)."""

    def __init__(self, path, header, CodecModel model, OrbitClass orbits, data, offsets,
                 checksums):
        cdef uint64_t blocks = header.blocks
        self.path = path
        self.header = header
        self.model = model
        self.orbits = orbits
        self.data = data
        self.offsets = np.ascontiguousarray(offsets, dtype=np.uint64)
        self.checksums = np.ascontiguousarray(checksums, dtype=np.uint32)
        self.checked = np.zeros(max(blocks, 1), dtype=np.uint8)
        if self.offsets.shape[0] != blocks + 1 or self.checksums.shape[0] != blocks or \
                orbits.entries != header.entries or model.frequencies is None:
            raise CorruptTableError(f"{path} has an index that does not fit its header")
        cdef const uint8_t[::1] data_view = data if len(data) else np.zeros(1, np.uint8)
        cdef const uint64_t[::1] offsets_view = self.offsets
        cdef const uint32_t[::1] checksums_view = self.checksums
        cdef uint8_t[::1] checked_view = self.checked
        self.reader.model = &model.model
        self.reader.index = &orbits.index
        self.reader.data = &data_view[0]
        self.reader.offsets = &offsets_view[0]
        self.reader.checksums = &checksums_view[0] if blocks else NULL
        self.reader.checked = &checked_view[0]
        self.reader.entries = header.entries
        self.reader.blocks = blocks
        self.reader.block_entries = header.block_entries
        self.reader.segment_entries = header.segment_entries
        slots = cache_slots(header.entries, header.segment_entries)
        self._cache_keys = np.zeros(slots, dtype=np.uint64)
        self._cache_codes = np.zeros(slots * header.segment_entries, dtype=np.uint16)
        cdef uint64_t[::1] keys = self._cache_keys
        cdef uint16_t[::1] codes = self._cache_codes
        self.cache.keys = &keys[0]
        self.cache.codes = &codes[0]
        self.cache.slots = slots

    def damage(self, uint64_t block):
        """The error for a damaged block."""
        start = block * self.header.block_entries
        return CorruptTableError(
            f"{self.path} is damaged: block {block} (values from {start}) does not match its "
            "checksum or does not decode; rebuild it")

    def position_code(self, mover, opponent):
        """The value code of a position of this class, in any of its 8 forms."""
        _geometry.check_masks(self.orbits.size, mover, opponent)
        if (bin(mover).count("1"), bin(opponent).count("1")) != (self.orbits.mover_count,
                                                                 self.orbits.opponent_count):
            raise PositionError(f"the position is not in class ({self.orbits.mover_count}, "
                                f"{self.orbits.opponent_count})")
        cdef int code = read_position(&self.reader, &self.cache,
                                      geometry_of(self.orbits.size), mover, opponent)
        if code == DAMAGED_DATA:
            raise self.damage(self.orbits.index_of(mover, opponent)
                              // self.reader.block_entries)
        return code

    def stored_codes(self, uint64_t start, uint64_t stop):
        """What the file holds at entries start .. stop - 1, decoded a segment at a time
        (meaningless where the file need not hold the value): the raw decoder, for tests and
        measurements."""
        if not start <= stop <= self.reader.entries:
            raise IndexError(f"entries {start} .. {stop} are outside a table of "
                             f"{self.reader.entries}")
        result = np.empty(stop - start, dtype=np.uint16)
        cdef uint16_t[::1] out = result
        cdef uint16_t codes[MAX_SEGMENT]
        cdef const TableReader* t = &self.reader
        cdef uint64_t index = start, segment, first, end
        cdef int count
        with nogil:
            while index < stop:
                segment = index // t.segment_entries
                first = segment * t.segment_entries
                count = decode_table_segment(t, segment, codes)
                if count == DAMAGED_DATA:
                    break
                end = first + <uint64_t>count if first + <uint64_t>count < stop else stop
                while index < end:
                    out[index - start] = codes[index - first]
                    index += 1
        if index < stop:
            raise self.damage(index // self.reader.block_entries)
        return result

    def position_codes(self, movers, opponents, bint timed=False):
        """The value codes of many positions of this class (uint32 masks, checked: in the
        class, on the board), through this table's cache as one probe after another; with
        `timed`, also the nanoseconds each probe took (a monotonic clock read around each)."""
        cdef const uint32_t[::1] mover_view = np.ascontiguousarray(movers, dtype=np.uint32)
        cdef const uint32_t[::1] opponent_view = np.ascontiguousarray(opponents,
                                                                      dtype=np.uint32)
        cdef Py_ssize_t n = mover_view.shape[0], i
        if opponent_view.shape[0] != n:
            raise ValueError("as many opponents as movers")
        full = (1 << (self.orbits.size * self.orbits.size)) - 1
        m, o = np.asarray(mover_view).astype(np.int64), np.asarray(opponent_view).astype(
            np.int64)
        if n and (np.any((m & o) != 0) or np.any(((m | o) & ~full) != 0) or np.any(
                _popcounts(m) != self.orbits.mover_count) or np.any(
                _popcounts(o) != self.orbits.opponent_count)):
            raise PositionError(f"positions that are not in class ({self.orbits.mover_count}, "
                                f"{self.orbits.opponent_count}) of the {self.orbits.size}x"
                                f"{self.orbits.size} board")
        codes_array = np.empty(n, dtype=np.int32)
        times_array = np.zeros(n if timed else 0, dtype=np.int64)
        cdef int32_t[::1] codes = codes_array
        cdef int64_t[::1] times = times_array
        cdef const Geometry* g = geometry_of(self.orbits.size)
        cdef double before = 0
        with nogil:
            for i in range(n):
                if timed:
                    before = quixo_monotonic_seconds()
                codes[i] = read_position(&self.reader, &self.cache, g, mover_view[i],
                                         opponent_view[i])
                if timed:
                    times[i] = <int64_t>((quixo_monotonic_seconds() - before) * 1e9 + 0.5)
                if codes[i] == DAMAGED_DATA:
                    break
        if n and np.any(codes_array == DAMAGED_DATA):
            bad = int(np.flatnonzero(codes_array == DAMAGED_DATA)[0])
            raise self.damage(self.orbits.index_of(int(m[bad]), int(o[bad]))
                              // self.reader.block_entries)
        return (codes_array, times_array) if timed else codes_array

    def check_all(self, int threads=1):
        """Check every block's checksum; CorruptTableError naming the first damaged one."""
        cdef Py_ssize_t block
        cdef const TableReader* t = &self.reader
        damaged_array = np.zeros(max(t.blocks, 1), dtype=np.uint8)
        cdef uint8_t[::1] damaged = damaged_array
        for block in prange(<Py_ssize_t>t.blocks, nogil=True, schedule="static",
                            num_threads=max(threads, 1)):
            if not block_is_intact(t, block):
                damaged[block] = 1
        if damaged_array.any():
            raise self.damage(int(np.flatnonzero(damaged_array)[0]))
        return self

    def values(self, int threads=1):
        """Every value of the class as a uint16 array (holes 0, the positions the rules
        decide with their value), every block checked: what the verifier reads."""
        result = np.empty(self.reader.entries, dtype=np.uint16)
        cdef uint16_t[::1] out = result
        cdef const TableReader* t = &self.reader
        cdef const Geometry* g = geometry_of(self.orbits.size)
        cdef const uint32_t* masks = &(<OrbitClass>self.orbits).masks[0]
        cdef uint64_t segments = (t.entries + t.segment_entries - 1) // t.segment_entries
        cdef Py_ssize_t segment
        damaged_array = np.zeros(max(segments, 1), dtype=np.uint8)
        cdef uint8_t[::1] damaged = damaged_array
        cdef uint64_t first, index, block, arrangement
        cdef int count, i, kind
        for segment in prange(<Py_ssize_t>segments, nogil=True, schedule="static",
                              num_threads=max(threads, 1)):
            first = segment * t.segment_entries
            count = decode_table_segment(t, segment, &out[first])
            if count == DAMAGED_DATA:
                damaged[segment] = 1
                continue
            block = first // t.index.arrangements
            arrangement = first - block * t.index.arrangements
            for i in range(count):
                kind = entry_kind(g, t.index, masks, block, arrangement)
                if kind != STORED:
                    out[first + i] = <uint16_t>kind
                arrangement = arrangement + 1
                if arrangement == t.index.arrangements:
                    arrangement = 0
                    block = block + 1
        if damaged_array.any():
            raise self.damage(int(np.flatnonzero(damaged_array)[0]) * t.segment_entries
                              // t.block_entries)
        return result
