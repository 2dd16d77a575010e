"""Four-player Quixo rules on bitboards: move generation, pushes with dots, lines, perft.

The kernels are the inline functions of _team_rules.pxd; the Python functions below validate
their arguments (the twin's checks), then run a kernel. A move is (source, target, to_mate)
or None for a pass, as in the twin.
"""
from libc.stdint cimport uint64_t

from .._interrupt cimport interrupted
from ..rules._rules cimport MAX_MOVES, POLL_DEPTH, geometry_of, perft_in_parallel

from ..errors import DepthError
from ..rules.geometry import check_size
from ._team_rules_twin import check_roles


cdef const Geometry* _checked(int size, roles, Roles* p) except NULL:
    check_size(size)
    check_roles(size, roles)
    for role in range(ROLES):
        p.cubes[role] = roles[role]
    return geometry_of(size)


cdef inline int move_codes(const Geometry* g, const Roles* p, int* codes) noexcept nogil:
    """The legal move codes in (source, target, to_mate) order; PASS_MOVE alone when the
    player must pass. The game is assumed not over."""
    cdef int count = 0, move
    if must_pass(g, p):
        codes[0] = PASS_MOVE
        return 1
    for move in range(g.move_count):
        if (g.move_source[move] & untakeable(p)) == 0:
            codes[count] = 2 * move
            codes[count + 1] = 2 * move + 1
            count += 2
    return count


def legal_moves(int size, roles):
    cdef Roles p
    cdef const Geometry* g = _checked(size, roles, &p)
    cdef int codes[2 * MAX_MOVES]
    cdef int count, i
    if team_status(g, &p) != 0:
        return []
    count = move_codes(g, &p, codes)
    if codes[0] == PASS_MOVE:
        return [None]
    return [(g.move_source_square[codes[i] >> 1], g.move_target_square[codes[i] >> 1],
             bool(codes[i] & 1)) for i in range(count)]


def play_move(int size, roles, move):
    """The role masks after a legal move (the caller checks legality), seen from the next
    player."""
    cdef Roles p, out
    cdef const Geometry* g = _checked(size, roles, &p)
    cdef int code
    if move is None:
        code = PASS_MOVE
    else:
        code = 2 * g.move_index[move[0]][move[1]] + (1 if move[2] else 0)
    play_code(g, code, &p, &out)
    return (out.cubes[0], out.cubes[1], out.cubes[2], out.cubes[3])


def position_status(int size, roles):
    cdef Roles p
    cdef const Geometry* g = _checked(size, roles, &p)
    return team_status(g, &p)


cdef uint64_t _perft(const Geometry* g, const Roles* p, int depth) noexcept nogil:
    # Contract: the position is not over and depth >= 1. A move that ends the game has no
    # continuations: with plies still to go it adds nothing (SPEC perft, as in chess).
    cdef int codes[2 * MAX_MOVES]
    cdef int count = move_codes(g, p, codes), i
    cdef uint64_t total = 0
    cdef Roles child
    if depth == 1:
        return count
    if depth >= POLL_DEPTH and interrupted():
        return 0
    for i in range(count):
        play_code(g, codes[i], p, &child)
        if team_status(g, &child) == 0:
            total += _perft(g, &child, depth - 1)
    return total


def perft(int size, roles, int depth, int threads=0):
    """Number of move sequences (passes included) of exactly `depth` moves; a move that ends
    the game counts only at depth 1. `threads` <= 0 uses every core. Ctrl-C stops it."""
    cdef Roles p
    cdef const Geometry* g = _checked(size, roles, &p)
    if depth < 0:
        raise DepthError(f"depth must be a non-negative integer, not {depth!r}")
    if depth == 0:
        return 1
    if team_status(g, &p) != 0:
        return 0

    def children(position):
        cdef Roles here, child
        cdef int codes[2 * MAX_MOVES]
        cdef int count, i, role
        for role in range(ROLES):
            here.cubes[role] = position[role]
        count = move_codes(g, &here, codes)
        found = []
        for i in range(count):
            play_code(g, codes[i], &here, &child)
            if team_status(g, &child) == 0:
                found.append((child.cubes[0], child.cubes[1], child.cubes[2], child.cubes[3]))
        return found

    return perft_in_parallel(g, tuple(roles), depth, threads, children, _perft_row)


cdef uint64_t _perft_row(const Geometry* g, const mask_t* row, int depth) noexcept nogil:
    cdef Roles p
    p.cubes[0] = row[0]
    p.cubes[1] = row[1]
    p.cubes[2] = row[2]
    p.cubes[3] = row[3]
    return _perft(g, &p, depth)
