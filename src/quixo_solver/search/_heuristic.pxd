# The search heuristic, from the side to move: `mine` are the cubes of the side to move (a
# team's in the four-player game), `theirs` the other side's. Its weights are data
# (`Weights`, set from Python: search/weights.py), so that they can be tuned and compared; the
# defaults follow the strategy tips of the French rulebook (build several lines of 3 then 4,
# own more cubes, hold both ends of a line). Its Python twin is weights.features().
#
#   score = sum over lines holding only my cubes:     own_line[my cubes in it]
#         - sum over lines holding only their cubes:  their_line[their cubes in it]
#         + own_ends for each rank or file whose two end cubes are mine (who can push along it)
#         - their_ends for each whose two end cubes are theirs
#         + cube * (my cubes - their cubes) + tempo
#
# A line's count is 0..size; a full line ends the game before any evaluation, and an empty one
# counts for nobody, so only indices 1..size-1 matter (weights.py keeps the others 0).
from ..rules._rules cimport Geometry, mask_t, popcount

cdef struct Weights:
    int own_line[6]
    int their_line[6]
    int own_ends
    int their_ends
    int cube
    int tempo


cdef inline mask_t line_ends(const Geometry* g, int i) noexcept nogil:
    cdef int n = g.size
    if i < n:  # rank i: files a and N
        return (<mask_t>1 << (i * n)) | (<mask_t>1 << (i * n + n - 1))
    i -= n      # file i: ranks 1 and N
    return (<mask_t>1 << i) | (<mask_t>1 << ((n - 1) * n + i))


cdef inline int evaluate(const Geometry* g, const Weights* w, mask_t mine,
                         mask_t theirs) noexcept nogil:
    cdef int score = w.cube * (popcount(mine) - popcount(theirs)) + w.tempo, i, own, other
    cdef mask_t line, ends
    for i in range(g.line_count):
        line = g.lines[i]
        own = popcount(mine & line)
        other = popcount(theirs & line)
        if other == 0:
            score += w.own_line[own]
        if own == 0:
            score -= w.their_line[other]
        if i < 2 * g.size:  # ranks and files
            ends = line_ends(g, i)
            if mine & ends == ends:
                score += w.own_ends
            elif theirs & ends == ends:
                score -= w.their_ends
    return score
