# The learned value of the `lookahead` strategy (its features and training: lookahead.py, the
# twin: lookahead.learned_features): at a table of two, the chance that one player finishes
# above the other from the start of a turn, as the logistic of a sum of weights: weight 0
# times the logit of the race model's chance, and one weight per feature of the position
# (each row's code against the other player's, pairs of rows, the penalties and who rolls).
from libc.math cimport exp, log

from ..rules._sheet cimport ROWS, Sheet, row_state
from ..tables._race cimport Outlook, RaceModel, win_chance
from ._winning cimport outlook

cdef extern from *:
    """
    #define QWIXX_SURE_CHANCE 1e-6   /* the race chance is clipped to [this, 1 - this] */
    """
    const double SURE_CHANCE "QWIXX_SURE_CHANCE"

cdef enum:
    ROW_CODES = 69           # a row: its open state (row_state, 0..55), or closed: 56 + marks
    OPEN_ROW_CODES = 56
    PAIR_WEIGHTS = 1         # weight 0: the race logit's; then (own row, their row, any closed)
    OWN_PAIR_WEIGHTS = PAIR_WEIGHTS + ROW_CODES * ROW_CODES * 2
    THEIR_PAIR_WEIGHTS = OWN_PAIR_WEIGHTS + ROW_CODES * ROW_CODES
    PENALTY_WEIGHTS = THEIR_PAIR_WEIGHTS + ROW_CODES * ROW_CODES
    LEARNED_SIZE = PENALTY_WEIGHTS + 4 * 4 * 2 * 2
    FEATURES = ROWS + 6 + 6 + 1      # weights summed for one position (besides weight 0)


ctypedef struct LookaheadValue:  # what a lookahead player rates a table at a turn's start by
    const RaceModel* race
    const double* learned        # LEARNED_SIZE weights (a table of two), or NULL: the race model


ctypedef struct LearnedTerms:    # one position's terms of the learned value
    int index[FEATURES]          # the weights summed (besides weight 0)
    double race_logit            # the logit of the race model's chance (weight 0 multiplies it)
    double mean                  # the race mean of the player's final score


cdef inline int row_code(const Sheet* sheet, int closed, int row) noexcept nogil:
    if closed & (1 << row):
        return OPEN_ROW_CODES + sheet.marks[row] + sheet.locked[row]
    return row_state(sheet, closed, row)


cdef inline int pair_code(int a, int b) noexcept nogil:
    """Two rows' codes as one, in either order (the dice treat the rows alike)."""
    if a > b:
        a, b = b, a
    return a * ROW_CODES + b


cdef inline double logistic(double x) noexcept nogil:
    return 1.0 / (1.0 + exp(-x))


cdef inline double learned_sum(const double* learned, const LearnedTerms* terms) noexcept nogil:
    """The learned value's logit of a position from its terms."""
    cdef double total = learned[0] * terms.race_logit
    cdef int k
    for k in range(FEATURES):
        total += learned[terms.index[k]]
    return total


cdef inline double learned_logit(const LookaheadValue* value, const Sheet* mine,
                                 const Sheet* theirs, int closed, bint mine_next,
                                 LearnedTerms* terms) noexcept nogil:
    """The learned value's logit of `mine` finishing above `theirs` at the start of a turn
    (mine_next: `mine` rolls it); `terms` gets the position's terms."""
    cdef Outlook own = outlook(value.race, mine, closed)
    cdef Outlook other = outlook(value.race, theirs, closed)
    cdef double chance = win_chance(own, &other, 1, value.race)
    cdef int own_codes[ROWS]
    cdef int their_codes[ROWS]
    cdef int row, low, k = 0, shut = 1 if closed else 0
    cdef int* index = terms.index
    terms.mean = own.mean
    chance = min(max(chance, SURE_CHANCE), 1.0 - SURE_CHANCE)
    terms.race_logit = log(chance / (1.0 - chance))
    for row in range(ROWS):
        own_codes[row] = row_code(mine, closed, row)
        their_codes[row] = row_code(theirs, closed, row)
        index[k] = PAIR_WEIGHTS + (own_codes[row] * ROW_CODES + their_codes[row]) * 2 + shut
        k += 1
    for row in range(ROWS):
        for low in range(row + 1, ROWS):
            index[k] = OWN_PAIR_WEIGHTS + pair_code(own_codes[row], own_codes[low])
            index[k + 1] = THEIR_PAIR_WEIGHTS + pair_code(their_codes[row], their_codes[low])
            k += 2
    index[k] = PENALTY_WEIGHTS + ((min(mine.penalties, 3) * 4 + min(theirs.penalties, 3)) * 2
                                  + shut) * 2 + mine_next
    return learned_sum(value.learned, terms)
