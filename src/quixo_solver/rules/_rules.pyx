# cython: freethreading_compatible = False
"""Two-player Quixo rules on bitboards: move generation, pushes, lines, symmetries, perft.

The tables are copied from geometry.py at import; the kernels are the inline functions of
_rules.pxd. The Python functions below validate their arguments, then run a kernel.
"""
from cython.parallel cimport prange
from libc.stdint cimport uint64_t
from libc.string cimport memset

from .._interrupt cimport interrupted, stop_watching, watch_interrupts

import os

import numpy as np

from . import geometry as _geometry
from ..errors import DepthError


cdef Geometry _tables[MAX_SIZE + 1]


cdef const Geometry* geometry_of(int size) noexcept nogil:
    return &_tables[size]


cdef void _fill(int size) except *:
    cdef Geometry* g = &_tables[size]
    cdef int i, k, j, value, sq
    cdef mask_t image
    memset(g, 0, sizeof(Geometry))
    g.size = size
    g.cell_count = size * size
    g.full = (1 << g.cell_count) - 1
    for sq in _geometry.border_squares(size):
        if len(_geometry.move_targets(size, sq)) == 2:
            g.corners |= 1 << sq
        else:
            g.edges |= 1 << sq
    for i in range(MAX_CELLS):
        for k in range(MAX_CELLS):
            g.move_index[i][k] = NO_MOVE
    pushes = _geometry.pushes(size)
    g.move_count = len(pushes)
    for i, p in enumerate(pushes):
        g.move_source[i] = 1 << p.source
        g.move_target[i] = 1 << p.target
        g.move_keep[i] = p.keep
        g.move_slide[i] = p.slide
        g.move_left_shift[i] = p.left_shift
        g.move_right_shift[i] = p.right_shift
        g.move_source_square[i] = p.source
        g.move_target_square[i] = p.target
        g.move_index[p.source][p.target] = i
        if g.source_move_count[p.source] == 0:
            g.source_first_move[p.source] = i
        g.source_move_count[p.source] += 1
    by_target = sorted(range(len(pushes)), key=lambda m: (pushes[m].target, m))
    for i, move in enumerate(by_target):
        target = pushes[move].target
        g.target_moves[i] = move
        if g.target_move_count[target] == 0:
            g.target_first_move[target] = i
        g.target_move_count[target] += 1
    lines = _geometry.lines(size)
    g.line_count = len(lines)
    for i, line in enumerate(lines):
        g.lines[i] = line
    for k, permutation in enumerate(_geometry.symmetry_permutations(size)):
        for j in range(4):
            for value in range(256):
                image = 0
                for i in range(8):
                    sq = 8 * j + i
                    if value >> i & 1 and sq < g.cell_count:
                        image |= 1 << permutation[sq]
                g.symmetry_bytes[k][j][value] = image


for _size in _geometry.SIZES:
    _fill(_size)


cdef const Geometry* _checked(int size, mask_t mover, mask_t opponent) except NULL:
    _geometry.check_size(size)
    _geometry.check_masks(size, mover, opponent)
    return geometry_of(size)


def legal_moves(int size, mover, opponent):
    """(source, target) squares of the legal moves, in geometry.moves order; none once the
    game is over."""
    cdef const Geometry* g = _checked(size, mover, opponent)
    cdef int move
    if status(g, mover, opponent) != STATUS_ONGOING:
        return []
    return [(g.move_source_square[move], g.move_target_square[move])
            for move in range(g.move_count) if is_legal(g, move, opponent)]


def play_move(int size, mover, opponent, int source, int target):
    """The position after a legal move, seen from the next player. The caller checks
    legality."""
    cdef const Geometry* g = _checked(size, mover, opponent)
    cdef mask_t next_mover, next_opponent
    cdef int move = g.move_index[source][target]
    play(g, move, mover, opponent, &next_mover, &next_opponent)
    return next_mover, next_opponent


def children(int size, mover, opponent):
    """(source, target, next mover, next opponent, its status) of every legal move, in
    geometry.moves order, the positions seen from the next player: legal_moves, play_move and
    position_status in one call (a position's analysis from the tables makes no board per
    move); none once the game is over."""
    cdef const Geometry* g = _checked(size, mover, opponent)
    cdef mask_t cubes = mover, others = opponent, next_mover, next_opponent
    cdef int move
    found = []
    if status(g, cubes, others) != STATUS_ONGOING:
        return found
    for move in range(g.move_count):
        if is_legal(g, move, others):
            play(g, move, cubes, others, &next_mover, &next_opponent)
            found.append((g.move_source_square[move], g.move_target_square[move],
                          next_mover, next_opponent, status(g, next_mover, next_opponent)))
    return found


def position_status(int size, mover, opponent):
    """+1 if the player to move shows a line (win in 0), -1 if only the opponent does, else 0."""
    cdef const Geometry* g = _checked(size, mover, opponent)
    return status(g, mover, opponent)


def transform_mask(int size, symmetry, cubes):
    cdef const Geometry* g = _checked(size, cubes, 0)
    return transform(g, _geometry.check_symmetry(symmetry), cubes)


def canonical_position(int size, mover, opponent):
    """(mover, opponent, symmetry): the least image of the position under the 8 symmetries,
    and the symmetry that maps the position onto it."""
    cdef const Geometry* g = _checked(size, mover, opponent)
    cdef int symmetry
    cdef uint64_t packed = canonical(g, mover, opponent, &symmetry)
    return int(packed & g.full), int(packed >> g.cell_count), symmetry


def position_key(int size, mover, opponent):
    """A 64-bit hash key: a bijective mix of the packed position, distinct per board size."""
    cdef const Geometry* g = _checked(size, mover, opponent)
    return mix64(pack(g, mover, opponent) ^ (<uint64_t>size << 56))


cdef uint64_t _perft(const Geometry* g, mask_t mover, mask_t opponent, int depth) noexcept nogil:
    # Contract: the position is not over and depth >= 1. The last ply is counted, not played.
    # A move that ends the game has no continuations, so with plies still to go it adds
    # nothing (SPEC: sequences of exactly `depth` moves, as chess perft).
    cdef uint64_t total = 0
    cdef mask_t next_mover, next_opponent
    cdef int move
    if depth == 1:
        return count_moves(g, opponent)
    if depth >= POLL_DEPTH and interrupted():
        return 0
    for move in range(g.move_count):
        if not is_legal(g, move, opponent):
            continue
        play(g, move, mover, opponent, &next_mover, &next_opponent)
        if has_line(g, next_mover) or has_line(g, next_opponent):
            continue
        if depth == 2:
            total += count_moves(g, next_opponent)
        else:
            total += _perft(g, next_mover, next_opponent, depth - 1)
    return total


def perft(int size, mover, opponent, int depth, int threads=0):
    """Number of move sequences of exactly ``depth`` moves; a move that ends the game has no
    continuations, so it counts only at depth 1. ``threads`` <= 0 uses every core. Ctrl-C
    stops it (KeyboardInterrupt)."""
    cdef const Geometry* g = _checked(size, mover, opponent)
    if depth < 0:
        raise DepthError(f"depth must be a non-negative integer, not {depth!r}")
    if depth == 0:
        return 1
    if status(g, mover, opponent) != STATUS_ONGOING:
        return 0

    def children(position):
        cdef mask_t next_mover, next_opponent
        cdef int move
        found = []
        for move in range(g.move_count):
            if is_legal(g, move, position[1]):
                play(g, move, position[0], position[1], &next_mover, &next_opponent)
                if not (has_line(g, next_mover) or has_line(g, next_opponent)):
                    found.append((next_mover, next_opponent))
        return found

    return perft_in_parallel(g, (mover, opponent), depth, threads, children, _perft_row)


cdef uint64_t _perft_row(const Geometry* g, const mask_t* row, int depth) noexcept nogil:
    return _perft(g, row[0], row[1], depth)


cdef object perft_in_parallel(const Geometry* g, tuple start, int depth, int threads,
                              children, RowPerft count):
    """Perft of a position that is not over (both variants): expand a few plies breadth-first
    with `children(position)` (the positions after each move that does not end the game: a
    game that ends during the expansion has plies left to go, it adds nothing), so that the
    cores share many independent subtrees, then `count(g, row, plies left)` each of them."""
    if threads <= 0:
        threads = os.cpu_count() or 1
    cdef int remaining = depth
    frontier = [start]
    while remaining > 3 and len(frontier) < 512 * threads:
        frontier = [child for position in frontier for child in children(position)]
        remaining -= 1
    cdef mask_t[:, ::1] rows = np.array(frontier, dtype=np.uint32).reshape(-1, len(start))
    cdef Py_ssize_t i
    cdef uint64_t total = 0
    watch_interrupts()
    try:
        for i in prange(rows.shape[0], nogil=True, schedule="dynamic", num_threads=threads):
            total += count(g, &rows[i, 0], remaining)
    finally:
        stop_watching()
    return int(total)
