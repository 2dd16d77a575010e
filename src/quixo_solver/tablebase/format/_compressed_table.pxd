# A compressed table file opened for reading (tablebase/format/files.py checks it and builds this).
from ._reader cimport SegmentCache, TableReader


cdef class CompressedTable:
    cdef TableReader reader       # for the kernels: _search, _retro, _verify read through it
    cdef SegmentCache cache       # this object's own cache (Python probes)
    cdef readonly object path, header, model, orbits, data, offsets, checksums, checked
    cdef object _cache_keys, _cache_codes
