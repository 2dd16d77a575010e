# The move-ordering rules of both searches (two and four players). At a node, after the moves
# that win at once (which end the node before any ordering):
#   1. the transposition table's move;
#   2. with THREAT_DEPTH or more plies left, the moves that leave the opponent no immediate
#      win before those that hand one over;
#   3. by the history of cutoffs (depth squared per cutoff);
#   4. last, the moves that complete the opponent's line (they lose at once).
# Each search generates its moves and says, for each, what the rules need to know; `order_key`
# ranks them and `bring_next` does one step of a selection sort, so that a cutoff after the
# first moves costs no full sort.
cdef enum:
    THREAT_DEPTH = 3
    TABLE_MOVE_KEY = 1000000
    HANDS_OVER_A_WIN = 500000
    LOSING_KEY = -1000000


cdef inline int order_key(bint losing, bint table_move, int history,
                          bint hands_over_a_win) noexcept nogil:
    if losing:
        return LOSING_KEY
    if table_move:
        return TABLE_MOVE_KEY
    return history - HANDS_OVER_A_WIN if hands_over_a_win else history


cdef inline void bring_next(int i, int count, int* moves, int* keys, bint* losing) noexcept nogil:
    """Swap the best-ranked of moves[i:count] into place i (with its key and losing flag)."""
    cdef int best = i, j
    for j in range(i + 1, count):
        if keys[j] > keys[best]:
            best = j
    moves[i], moves[best] = moves[best], moves[i]
    keys[i], keys[best] = keys[best], keys[i]
    losing[i], losing[best] = losing[best], losing[i]
