# What the two-player and the four-player searches keep alike (_search_state.pyx): the board's
# geometry, the transposition table, the limits and counters, the cutoff history of move
# ordering, the evaluation weights and the path for repetitions. Each search subclasses it and
# adds its own move generation and evaluation; the hot path reads these fields directly.
from libc.stdint cimport int32_t, uint64_t

from ..rules._rules cimport Geometry
from ._heuristic cimport Weights
from ._ordering cimport MAX_MOVE_CODES
from ._repetition cimport Path
from ._transposition cimport TranspositionTable


cdef class SearchState:
    cdef const Geometry* g
    cdef readonly int size
    cdef TranspositionTable tt
    cdef readonly uint64_t nodes
    cdef uint64_t node_limit
    cdef double deadline
    cdef readonly bint stopped
    cdef int stop_request                  # set by stop() from another thread
    cdef int32_t cutoffs[MAX_MOVE_CODES]   # depth squared per cutoff, by move code
    cdef readonly int root_move
    cdef Weights weights
    cdef Path path

    cdef void begin(self, double seconds, uint64_t node_limit, uint64_t nodes_before)
