# What a node of either search (two players, four) keeps while it tries its moves: the best
# score and move so far, the window's lower edge, and whether a repetition decided the result
# (path dependence, _search.pyx); and how it reports and stores the result once it is done.
from libc.stdint cimport uint64_t

from ._mate cimport INFINITE
from ._transposition cimport NO_BOUND, TranspositionTable, bound_of, tt_store

cdef struct Node:
    int best
    int best_move
    int alpha
    int original_alpha
    bint any_dependent              # a move's score rested on a repetition
    bint cutoff_dependent           # the move that caused the cutoff did


cdef inline void node_start(Node* n, int alpha, int no_move) noexcept nogil:
    n.best = -INFINITE
    n.best_move = no_move
    n.alpha = alpha
    n.original_alpha = alpha
    n.any_dependent = False
    n.cutoff_dependent = False


cdef inline bint node_take(Node* n, int score, int move, bint dependent, int beta,
                           int ply, int* root_move) noexcept nogil:
    """A move's score: keep it if it is the best so far (the root's best move too); True if
    it causes a cutoff."""
    n.any_dependent = n.any_dependent or dependent
    if score > n.best:
        n.best = score
        n.best_move = move
        if ply == 0:
            root_move[0] = move
    if score > n.alpha:
        n.alpha = score
    if n.alpha >= beta:
        n.cutoff_dependent = dependent
        return True
    return False


cdef inline bint node_finish(const Node* n, TranspositionTable* tt, uint64_t low, uint64_t high,
                             int depth, int ply, int beta) noexcept nogil:
    """Store the node's result (only its best move when a repetition decided it: a cutoff
    when its move's score did, any other result when any move's did) and say whether it is
    path-dependent."""
    cdef bint dependent = n.cutoff_dependent if n.best >= beta else n.any_dependent
    if dependent:
        tt_store(tt, low, high, -1, ply, 0, NO_BOUND, n.best_move)
    else:
        tt_store(tt, low, high, depth, ply, n.best, bound_of(n.best, n.original_alpha,
                                                             beta), n.best_move)
    return dependent
