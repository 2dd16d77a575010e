# One table entry per symmetry class of four-player positions, on the two-player index.
#
# A four-player position, seen from the player to move, is four masks by role (_team_rules.pxd:
# own, next, mate, last). Its teams' cubes, A = own | mate and B = next | last, are a
# two-player position of class (|A|, |B|), and the dots add one bit a cube: for a cube of A,
# whether its dot points at the mover (own) or at the mate; for a cube of B, whether at the next
# player or at the last. So a side of a tier (the mover's team with T cubes, the other with U)
# is indexed as
#
#   index = two-player entry of (A, B) in class (T, U) (_orbit_index.pxd) << k  |  dots,
#   dots  = pext(own, A) | pext(next, B) << T,          k = T + U cubes,
#
# after the position is moved by the symmetry that makes (A, B) canonical. Where symmetries
# fix the canonical occupied set, the image with the smallest A mask is kept, and among the
# images with that A the smallest dots: every position of an orbit has the same index. The
# price, as in two-player tables, is the holes: slots no position maps to.
#
# A stored position stands for 8 / s raw positions, s = the symmetries that fix all four masks.
from libc.stdint cimport uint32_t, uint64_t

from ..._portable cimport quixo_ctz32
from ...rules._rules cimport mask_t
from ...tablebase.format._index cimport PEXT_BYTE, POPCOUNT_BYTE, pdep, pext, set_rank
from ...tablebase.format._orbit_index cimport OrbitIndex, arrangement_rank, image_of
from ...tablebase.format._orbit_index cimport is_hole as is_two_player_hole
from .._team_rules cimport Roles


cdef struct TierIndex:
    const OrbitIndex* teams           # the two-player index of the teams' cubes, class (T, U)
    const uint32_t* arrangement_masks # its arrangement rank -> A's cubes packed on the set
    int team_count                    # T: the cubes of the mover's team
    int cubes                         # k = T + U: the dots' bits
    uint64_t entries                  # the side's slots: two-player entries << k


cdef inline mask_t pext_small(mask_t bits, mask_t within) noexcept nogil:
    """pext for boards of at most 16 squares (3x3, 4x4): two table steps instead of four."""
    if within > 0xFFFF:
        return pext(bits, within)
    return (<mask_t>PEXT_BYTE[within & 0xFF][bits & 0xFF]
            | <mask_t>PEXT_BYTE[within >> 8][(bits >> 8) & 0xFF]
            << POPCOUNT_BYTE[within & 0xFF])


cdef inline uint64_t dots_of(mask_t team, mask_t others, mask_t own, mask_t next_,
                             int team_count) noexcept nogil:
    return pext_small(own, team) | (<uint64_t>pext_small(next_, others) << team_count)


cdef inline uint64_t tier_index(const TierIndex* x, const Roles* p) noexcept nogil:
    """The entry of position p (of this side), in any of its 8 forms."""
    cdef const OrbitIndex* o = x.teams
    cdef mask_t team = p.cubes[0] | p.cubes[2], own = p.cubes[0], next_ = p.cubes[1]
    cdef mask_t occupied = team | p.cubes[1] | p.cubes[3]
    cdef uint32_t entry = o.of_rank[set_rank(occupied)]
    cdef uint64_t block = entry >> 3
    if entry & 7:
        team = image_of(o.images, entry & 7, team)
        own = image_of(o.images, entry & 7, own)
        next_ = image_of(o.images, entry & 7, next_)
    cdef mask_t canonical = o.block_sets[block]
    cdef mask_t best_team = team, image
    cdef uint64_t best_dots = dots_of(team, canonical & ~team, own, next_, x.team_count), dots
    cdef unsigned int fixing = o.block_symmetries[block]
    cdef int u
    while fixing:
        u = quixo_ctz32(fixing)
        fixing &= fixing - 1
        image = image_of(o.images, u, team)
        if image > best_team:
            continue
        dots = dots_of(image, canonical & ~image, image_of(o.images, u, own),
                       image_of(o.images, u, next_), x.team_count)
        if image < best_team or dots < best_dots:
            best_team = image
            best_dots = dots
    return ((block * o.arrangements
             + arrangement_rank(best_team, canonical, o.block_below[block])) << x.cubes
            ) | best_dots


cdef inline uint64_t position_at(const TierIndex* x, uint64_t index, Roles* p) noexcept nogil:
    """Fill p with the position stored at `index`; returns its block (of the teams' index)."""
    cdef const OrbitIndex* o = x.teams
    cdef uint64_t dots = index & ((<uint64_t>1 << x.cubes) - 1)
    cdef uint64_t rest = index >> x.cubes
    cdef uint64_t block = rest // o.arrangements
    cdef mask_t canonical = o.block_sets[block]
    cdef mask_t team = pdep(x.arrangement_masks[rest - block * o.arrangements], canonical)
    cdef mask_t others = canonical & ~team
    p.cubes[0] = pdep(<mask_t>(dots & ((<uint64_t>1 << x.team_count) - 1)), team)
    p.cubes[2] = team & ~p.cubes[0]
    p.cubes[1] = pdep(<mask_t>(dots >> x.team_count), others)
    p.cubes[3] = others & ~p.cubes[1]
    return block


cdef inline int fixing_symmetries(const TierIndex* x, uint64_t block, const Roles* p) noexcept nogil:
    """How many symmetries fix a stored position (its block from position_at): 1, 2, 4 or 8."""
    cdef const OrbitIndex* o = x.teams
    cdef unsigned int fixing = o.block_symmetries[block]
    cdef int u, count = 1
    while fixing:
        u = quixo_ctz32(fixing)
        fixing &= fixing - 1
        if (image_of(o.images, u, p.cubes[0]) == p.cubes[0]
                and image_of(o.images, u, p.cubes[1]) == p.cubes[1]
                and image_of(o.images, u, p.cubes[2]) == p.cubes[2]):
            count += 1
    return count


cdef inline bint teams_slot_is_hole(const TierIndex* x, uint64_t teams_slot) noexcept nogil:
    """Whether slot `teams_slot` (an index >> k) of the teams' two-player index is a hole:
    then so are the 2^k slots of its dots (most of a full board's slots: the occupied set is
    the whole board, which every symmetry fixes)."""
    cdef const OrbitIndex* o = x.teams
    cdef uint64_t block = teams_slot // o.arrangements
    return is_two_player_hole(o, block, pdep(
        x.arrangement_masks[teams_slot - block * o.arrangements], o.block_sets[block]))


cdef inline bint is_hole(const TierIndex* x, uint64_t index) noexcept nogil:
    """Whether no position maps to slot `index`: its stored form is not the one tier_index
    keeps."""
    cdef Roles p
    return stored_is_hole(x, index, position_at(x, index, &p), &p)


cdef inline bint stored_is_hole(const TierIndex* x, uint64_t index, uint64_t block,
                                const Roles* p) noexcept nogil:
    """is_hole for the position p that position_at found at `index`, in `block`: only where
    a symmetry fixes the block's occupied set can an image rank lower."""
    return x.teams.block_symmetries[block] != 0 and tier_index(x, p) != index



cdef class TierSideIndex:
    cdef TierIndex index
    cdef readonly int size, team_count, other_count
    cdef readonly object teams        # the OrbitClass of (T, U), kept alive for `index`
