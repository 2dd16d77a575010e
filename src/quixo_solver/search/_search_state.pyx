"""The search state both searches share (see _search_state.pxd): allocation, clearing, stopping
from another thread, the evaluation weights and the game's earlier positions."""
from libc.stdint cimport uint64_t
from libc.string cimport memset

from ..rules._rules cimport geometry_of
from ._mate cimport now
from ._repetition cimport MAX_GAME
from ._transposition cimport tt_allocate, tt_clear, tt_free, tt_new_search

from .weights import DEFAULTS

WEIGHT_COUNT = 16     # own_line[6], their_line[6], own_ends, their_ends, cube, tempo


cdef class SearchState:
    """Search state for one board size (a base: _search.Searcher and
    _team_search.TeamSearcher are the searches)."""

    def __cinit__(self, int size, double tt_mib, *args):
        self.g = geometry_of(size)
        self.size = size
        if tt_allocate(&self.tt, tt_mib) != 0:
            raise MemoryError(f"cannot allocate a {tt_mib} MiB transposition table")
        memset(self.cutoffs, 0, sizeof(self.cutoffs))
        self.set_weights(DEFAULTS.for_size(size).kernel())
        self.path.game_length = 0

    def __dealloc__(self):
        tt_free(&self.tt)

    @property
    def entries(self):
        """Entries of the transposition table."""
        return self.tt.size

    def clear(self):
        """Forget everything learnt: a fresh search is then deterministic."""
        tt_clear(&self.tt)
        memset(self.cutoffs, 0, sizeof(self.cutoffs))

    def stop(self):
        """Ask the running search (in another thread) to stop within about a thousand nodes;
        every search stops at once until `allow()`."""
        self.stop_request = 1

    def allow(self):
        """Let searches run again after `stop()`."""
        self.stop_request = 0

    def get_weights(self):
        """The evaluation weights, WEIGHT_COUNT whole numbers (_heuristic.pxd's order)."""
        cdef const int* values = <const int*>&self.weights
        return tuple(values[i] for i in range(WEIGHT_COUNT))

    def set_weights(self, values):
        """Set by search/weights.py, which checks them first."""
        if len(values) != WEIGHT_COUNT:
            raise ValueError(f"expected {WEIGHT_COUNT} weights, not {len(values)}")
        cdef int* target = <int*>&self.weights
        for i, value in enumerate(values):
            target[i] = value

    def set_game(self, keys):
        """The game's positions before the root, oldest first, as (key low word, key high word,
        cubes) in the search's own key: a position of the search that repeats one of them is
        a draw. The last MAX_GAME are kept."""
        keys = list(keys)[-MAX_GAME:]
        cdef int slot
        self.path.game_length = len(keys)
        self.path.game_repetitions = 0
        for slot, (low, high, cubes) in enumerate(keys):
            self.path.low[slot] = low
            self.path.high[slot] = high
            self.path.cubes[slot] = cubes
            if slot and self.path.cubes[slot - 1] == cubes:
                self.path.run_start[slot] = self.path.run_start[slot - 1]
            else:
                self.path.run_start[slot] = slot

    @property
    def game_repetitions(self):
        """Positions of the search that repeated a game position, since `set_game`."""
        return self.path.game_repetitions

    cdef void begin(self, double seconds, uint64_t node_limit, uint64_t nodes_before):
        """Before a root search: reset the counters, set the limits, age the transposition table."""
        self.nodes = nodes_before
        self.node_limit = node_limit
        self.deadline = now() + seconds if seconds > 0 else 0
        self.stopped = False
        self.root_move = -1
        tt_new_search(&self.tt)
