"""The index of one side of a four-player tier (_tier_index.pxd): the Python face of its
kernels, for the tests, the readers and the generator's set-up."""
from libc.stdint cimport uint32_t, uint64_t

import numpy as np

from ...errors import PositionError
from ...rules._rules cimport mask_t
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
