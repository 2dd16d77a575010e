# The move-ordering rules of both searches (two and four players). At a node, after the moves
# that win at once (which end the node before any ordering):
#   1. the transposition table's move;
#   2. with THREAT_DEPTH or more plies left, the moves that leave the opponent no immediate
#      win before those that hand one over;
#   3. by the history of cutoffs (depth squared per cutoff);
#   4. last, the moves that complete the opponent's line (they lose at once).
# Each search generates its moves into a MoveList and says, for each, what the rules need to
# know; `order_key` ranks them and `bring_next` does one step of a selection sort, so that a
# cutoff after the first moves costs no full sort.
from ..rules._rules cimport MAX_MOVES

cdef enum:
    MAX_MOVE_CODES = 2 * MAX_MOVES + 1     # four players: two codes a move, and the pass
    THREAT_DEPTH = 3
    TT_MOVE_KEY = 1000000
    HANDS_OVER_A_WIN = 500000
    LOSING_KEY = -1000000


cdef inline int order_key(bint losing, bint tt_move, int history,
                          bint hands_over_a_win) noexcept nogil:
    if losing:
        return LOSING_KEY
    if tt_move:
        return TT_MOVE_KEY
    return history - HANDS_OVER_A_WIN if hands_over_a_win else history


cdef struct MoveList:
    int count
    int moves[MAX_MOVE_CODES]              # as the search numbers its moves
    int keys[MAX_MOVE_CODES]               # order_key of each
    bint losing[MAX_MOVE_CODES]            # it completes the opponent's line


cdef inline void add_move(MoveList* moves, int move, bint losing, int key) noexcept nogil:
    # the count read once: the stores into the arrays might alias it as far as C knows
    cdef int i = moves.count
    moves.moves[i] = move
    moves.losing[i] = losing
    moves.keys[i] = key
    moves.count = i + 1


cdef inline void bring_next(MoveList* moves, int i) noexcept nogil:
    """Swap the best-ranked of moves i.. into place i (with its key and losing flag)."""
    cdef int best = i, j
    for j in range(i + 1, moves.count):
        if moves.keys[j] > moves.keys[best]:
            best = j
    moves.moves[i], moves.moves[best] = moves.moves[best], moves.moves[i]
    moves.keys[i], moves.keys[best] = moves.keys[best], moves.keys[i]
    moves.losing[i], moves.losing[best] = moves.losing[best], moves.losing[i]
