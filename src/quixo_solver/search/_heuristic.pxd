# The search heuristic (documented in search.py), from the side to move: `mine` are the cubes
# of the side to move (a team's in the four-player game), `theirs` the other side's.
from .._rules cimport Geometry, mask_t, popcount

cdef enum:
    ENDS = 6     # both end cubes of a rank or file: who can push along it
    CUBE = 3     # each cube more than the other side


cdef inline int line_weight(int cubes) noexcept nogil:
    """A line holding only one side's cubes: 1, 4, 16, 64 for 1..4 of them."""
    return 0 if cubes == 0 or cubes > 4 else 1 << (2 * (cubes - 1))


cdef inline mask_t line_ends(const Geometry* g, int i) noexcept nogil:
    cdef int n = g.size
    if i < n:  # rank i: files a and N
        return (<mask_t>1 << (i * n)) | (<mask_t>1 << (i * n + n - 1))
    i -= n      # file i: ranks 1 and N
    return (<mask_t>1 << i) | (<mask_t>1 << ((n - 1) * n + i))


cdef inline int evaluate(const Geometry* g, mask_t mine, mask_t theirs) noexcept nogil:
    cdef int score = CUBE * (popcount(mine) - popcount(theirs)), i, own, other
    cdef mask_t line, ends
    for i in range(g.line_count):
        line = g.lines[i]
        own = popcount(mine & line)
        other = popcount(theirs & line)
        if other == 0:
            score += line_weight(own)
        if own == 0:
            score -= line_weight(other)
        if i < 2 * g.size:  # ranks and files
            ends = line_ends(g, i)
            if mine & ends == ends:
                score += ENDS
            elif theirs & ends == ends:
                score -= ENDS
    return score
