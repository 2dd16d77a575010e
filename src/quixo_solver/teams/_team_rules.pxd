# The typed contract of the four-player (two teams) rules on bitboards. A position is four
# masks by role, seen from the player to move (notation.py): roles[0] the mover's own cubes,
# [1] the next player's, [2] the team-mate's, [3] the last player's. The push tables are the
# two-player engine's: a push slides every mask alike.
from ..rules._rules cimport Geometry, has_line, mask_t, slide

cdef enum:
    ROLES = 4
    PASS_MOVE = 255        # a move code: 2 * geometry move + (1 if the dot goes to the mate)

ctypedef struct Roles:
    mask_t cubes[ROLES]


cdef inline mask_t team_cubes(const Roles* p) noexcept nogil:
    return p.cubes[0] | p.cubes[2]


cdef inline mask_t other_team_cubes(const Roles* p) noexcept nogil:
    return p.cubes[1] | p.cubes[3]


cdef inline int team_status(const Geometry* g, const Roles* p) noexcept nogil:
    """+1 if the team to move shows a line, -1 if only the other team does, else 0."""
    if has_line(g, team_cubes(p)):
        return 1
    if has_line(g, other_team_cubes(p)):
        return -1
    return 0


cdef inline mask_t untakeable(const Roles* p) noexcept nogil:
    return p.cubes[1] | p.cubes[2] | p.cubes[3]


cdef inline bint must_pass(const Geometry* g, const Roles* p) noexcept nogil:
    """No blank and no own cube on the border (the game is assumed not over)."""
    return ((g.corners | g.edges) & ~untakeable(p)) == 0


cdef inline bint is_legal_code(const Geometry* g, int code, const Roles* p) noexcept nogil:
    return (g.move_source[code >> 1] & untakeable(p)) == 0


cdef inline void play_code(const Geometry* g, int code, const Roles* p, Roles* out) noexcept nogil:
    """Apply a legal move code (or PASS_MOVE); `out` is seen from the next player."""
    cdef int move = code >> 1, role
    cdef mask_t cubes[ROLES]
    if code == PASS_MOVE:
        for role in range(ROLES):
            cubes[role] = p.cubes[role]
    else:
        for role in range(ROLES):
            cubes[role] = slide(g, move, p.cubes[role])
        cubes[2 if code & 1 else 0] |= g.move_target[move]
    # role r becomes r - 1 for the next player
    out.cubes[0] = cubes[1]
    out.cubes[1] = cubes[2]
    out.cubes[2] = cubes[3]
    out.cubes[3] = cubes[0]
