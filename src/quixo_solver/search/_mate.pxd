# What the two-player and the four-player searches share: scores, bounds, the clock.
#
# Scores are from the side to move. A proven result is a mate score that carries its plies:
#     win in k plies (from the root) -> MATE - k;  loss in k plies -> -(MATE - k)
#     heuristic (unproven)           -> |score| < EVAL_LIMIT
# In the transposition table mate scores are stored relative to the node (node_relative), so that
# an entry stays right wherever the position recurs.
from libc.stdint cimport uint64_t

from .._interrupt cimport interrupted
from .._portable cimport quixo_monotonic_seconds

cdef enum:
    MATE = 30000
    MATE_BOUND = 28000      # |score| >= MATE_BOUND: a proven win or loss
    EVAL_LIMIT = 20000
    INFINITE = 32000
    MAX_DEPTH = 120
    LOWER = 1               # the score is a lower bound (fail high)
    UPPER = 2               # the score is an upper bound (fail low)
    EXACT = 3
    CHECK_EVERY = 1023      # nodes between two looks at the clock


cdef inline double now() noexcept nogil:
    return quixo_monotonic_seconds()


cdef inline int node_relative(int score, int ply) noexcept nogil:
    if score >= MATE_BOUND:
        return score + ply
    if score <= -MATE_BOUND:
        return score - ply
    return score


cdef inline int root_relative(int score, int ply) noexcept nogil:
    if score >= MATE_BOUND:
        return score - ply
    if score <= -MATE_BOUND:
        return score + ply
    return score


cdef inline uint64_t bucket_count(double tt_mib, size_t bucket_bytes) noexcept nogil:
    """The most buckets, a power of two (at least one), that fit in `tt_mib` MiB. The caller
    bounds `tt_mib` by the memory available (limits.check_tt_mib); the loop stops at 2**40
    buckets whatever it is given, so that it can never overflow and spin."""
    cdef uint64_t buckets = 1
    while buckets < (<uint64_t>1 << 40) and buckets * 2 * bucket_bytes <= tt_mib * 1024 * 1024:
        buckets *= 2
    return buckets


cdef extern from *:
    """
    /* A flag another thread sets while the search runs without the GIL: read it through a
       volatile pointer, so that the compiler reads memory each time. */
    static int quixo_flag_is_set(const int* flag) { return *(const volatile int*)flag != 0; }
    """
    bint quixo_flag_is_set(const int* flag) noexcept nogil


cdef inline bint out_of_budget(uint64_t nodes, uint64_t node_limit, double deadline,
                               const int* stop_request) noexcept nogil:
    """Every CHECK_EVERY + 1 nodes: whether the node limit, the deadline, a stop asked for by
    another thread (the searcher's `stop()`) or Ctrl-C stops the search."""
    return (nodes & CHECK_EVERY) == 0 and (
        (node_limit != 0 and nodes >= node_limit) or (deadline > 0 and now() > deadline)
        or quixo_flag_is_set(stop_request) or interrupted())


cdef inline bint count_node(uint64_t* nodes, uint64_t node_limit, double deadline,
                            const int* stop_request, bint* stopped) noexcept nogil:
    """Count a node of a search; whether the search is to stop (setting `stopped` when the
    budget is spent: out_of_budget)."""
    nodes[0] += 1
    if out_of_budget(nodes[0], node_limit, deadline, stop_request):
        stopped[0] = True
    return stopped[0]


cdef inline bint mate_distance_prunes(int ply, int alpha, int* beta) noexcept nogil:
    """No line is shorter than winning with the next move: lower `beta` to that; True if the
    window closes."""
    if beta[0] > MATE - (ply + 1):
        beta[0] = MATE - (ply + 1)
        return alpha >= beta[0]
    return False
