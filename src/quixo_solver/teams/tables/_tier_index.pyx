"""The index of one side of a four-player tier (_tier_index.pxd): the Python face of its
kernels, for the tests, the readers and the generator's set-up."""
from cython.parallel cimport prange
from libc.stdint cimport int64_t, uint16_t, uint32_t, uint64_t


import numpy as np

from ...errors import PositionError
from ...rules._rules cimport mask_t, popcount
from ...tablebase.format._orbit_index cimport OrbitClass, OrbitIndex
from ...tablebase.format._orbit_index import entry_count as _two_player_entries, orbit_class
from .._team_rules cimport Roles
from .._team_rules_twin import check_roles


cdef class TierSideIndex:
    """The entries of one side of a tier: positions whose mover's team has `team_count` cubes
    and the other team `other_count`, one entry per symmetry class, plus holes."""

    def __init__(self, int size, int team_count, int other_count):
        self.teams = orbit_class(size, team_count, other_count)     # checks the counts
        self.size = size
        self.team_count = team_count
        self.other_count = other_count
        cdef const uint32_t[::1] masks = self.teams.arrangement_masks
        self.index.teams = _orbit_pointer(self.teams)
        self.index.arrangement_masks = &masks[0]
        self.index.team_count = team_count
        self.index.cubes = team_count + other_count
        self.index.entries = <uint64_t>self.teams.entries << self.index.cubes

    @property
    def entries(self):
        """Slots of the side's table, holes included."""
        return int(self.index.entries)

    def index_of(self, roles):
        """The entry of a position of this side (four role masks), in any of its forms."""
        cdef Roles p
        _check_side(self, roles)
        for role in range(4):
            p.cubes[role] = roles[role]
        return int(tier_index(&self.index, &p))

    def position_at(self, index):
        """(roles, hole): the position stored at `index` and whether the slot is a hole."""
        if not 0 <= index < self.index.entries:
            raise PositionError(f"entry {index} is not within 0..{self.entries - 1}")
        cdef Roles p
        position_at(&self.index, index, &p)
        return (int(p.cubes[0]), int(p.cubes[1]), int(p.cubes[2]), int(p.cubes[3])), bool(
            is_hole(&self.index, index))

    def indexes_of(self, const uint32_t[::1] own, const uint32_t[::1] next_,
                   const uint32_t[::1] mate, const uint32_t[::1] last):
        """The entries of many positions of this side at once (arrays of role masks; they are
        trusted to be of this side: check one with index_of)."""
        cdef Py_ssize_t i, n = own.shape[0]
        if not next_.shape[0] == mate.shape[0] == last.shape[0] == n:
            raise ValueError("the four arrays of role masks differ in length")
        out = np.empty(n, dtype=np.uint64)
        cdef uint64_t[::1] result = out
        cdef Roles p
        with nogil:
            for i in range(n):
                p.cubes[0] = own[i]
                p.cubes[1] = next_[i]
                p.cubes[2] = mate[i]
                p.cubes[3] = last[i]
                result[i] = tier_index(&self.index, &p)
        return out


    def raw_counts(self, const uint16_t[::1] values, int threads=0):
        """(counts, longest plies): counts[own, next, result] are the raw positions of the
        side whose mover holds `own` cubes and the next player `next` (the mate and the last
        player hold the rest of their teams'), won (result 0), drawn (1) and lost (2) by the
        team to move, from the value codes of its entries (_value_code.pxd): an entry counts
        for the 8 / s positions of its orbit (s: the symmetries that fix it), a hole for none."""
        if values.shape[0] != self.index.entries:
            raise ValueError(f"side ({self.team_count}, {self.other_count}) has "
                             f"{self.entries} entries, not {values.shape[0]}")
        cdef int columns = (self.team_count + 1) * (self.other_count + 1) * 3 + 1
        cdef Py_ssize_t chunk, chunks = (values.shape[0] + COUNT_CHUNK - 1) // COUNT_CHUNK
        counts = np.zeros((max(chunks, 1), columns), dtype=np.int64)
        cdef int64_t[:, ::1] sums = counts
        cdef uint64_t total = values.shape[0]
        for chunk in prange(chunks, nogil=True, schedule="dynamic", num_threads=threads):
            _count_chunk(&self.index, &values[0], chunk * COUNT_CHUNK,
                         min(chunk * COUNT_CHUNK + COUNT_CHUNK, total), self.other_count,
                         &sums[chunk, 0], columns - 1)
        by_class = counts[:, :-1].sum(axis=0).reshape(self.team_count + 1,
                                                      self.other_count + 1, 3)
        return by_class, int(counts[:, -1].max())


cdef enum:
    COUNT_CHUNK = 1 << 16


cdef void _count_chunk(const TierIndex* x, const uint16_t* values, uint64_t index,
                       uint64_t stop, int other_count, int64_t* sums,
                       int longest_column) noexcept nogil:
    """raw_counts over one chunk, into its row of sums. (A helper, so that its position is
    private to the thread that runs it.)"""
    cdef Roles p
    cdef uint64_t block
    cdef uint16_t code
    cdef int plies, cell
    while index < stop:
        if teams_slot_is_hole(x, index >> x.cubes):
            index = (index >> x.cubes) + 1 << x.cubes
            continue
        block = position_at(x, index, &p)
        if not stored_is_hole(x, index, block, &p):
            code = values[index]
            cell = (popcount(p.cubes[0]) * (other_count + 1) + popcount(p.cubes[1])) * 3 + (
                0 if code & 1 else (1 if code == 0 else 2))
            sums[cell] += 8 // fixing_symmetries(x, block, &p)
            plies = (code - 1) >> 1 if code else 0
            if plies > sums[longest_column]:
                sums[longest_column] = plies
        index = index + 1


cdef const OrbitIndex* _orbit_pointer(object teams) except NULL:
    cdef OrbitClass orbit = teams
    return &orbit.index


def _check_side(TierSideIndex side, roles):
    check_roles(side.size, roles)
    team = bin(roles[0] | roles[2]).count("1")
    others = bin(roles[1] | roles[3]).count("1")
    if (team, others) != (side.team_count, side.other_count):
        raise PositionError(f"the position's teams hold ({team}, {others}) cubes, not "
                            f"({side.team_count}, {side.other_count})")


def side_entries(int size, int team_count, int other_count):
    """Slots of one side of a tier, without building its index."""
    return _two_player_entries(size, team_count, other_count) << (team_count + other_count)
