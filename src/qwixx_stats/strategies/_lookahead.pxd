# The decisions of the `lookahead` strategy (its method: lookahead.py, the twin:
# lookahead.rate_first_twin and rate_second_twin): each of its choices is played to the end
# of the turn, everyone else answering as `win` would (_judged.pxd), and the table at the next
# turn's start is rated by the learned value (a table of two, _learned.pxd) or the race model.
from ..rules._game cimport MAX_PLAYERS, Table, mark_firsts, mark_second, plan_holds, share_of
from ..rules._options cimport MAX_OPTIONS, active_options, second_marks
from ..rules._sheet cimport NO_ROW, ROWS, Option, box_of, can_mark, score
from ._codes cimport WIN
from ._judged cimport Judge, judged_first, judged_second
from ._learned cimport FEATURES, LearnedTerms, LookaheadValue, learned_logit, logistic
from ._winning cimport better, win_value


cdef inline double turn_end_value(const LookaheadValue* value, const Table* table, int seat,
                                  bint over, double* mean) noexcept nogil:
    """The chance of `seat` at the start of the next turn: exact when the game is over; the
    learned value at two players (when there is one); else the race model's."""
    cdef LearnedTerms terms
    cdef double chance
    if over:
        mean[0] = score(&table.sheets[seat])
        return share_of(table, seat)
    if table.players == 2 and value.learned != NULL:
        chance = logistic(learned_logit(value, &table.sheets[seat], &table.sheets[1 - seat],
                                        table.closed, table.active == seat, &terms))
        mean[0] = terms.mean
        return chance
    return win_value(value.race, table.sheets, table.players, seat, &table.sheets[seat],
                     table.closed, mean)


cdef inline bint finish_as_win(const Judge* win, Table* table, const int* dice,
                               const int* firsts, const Option* plan) noexcept nogil:
    """The rest of a turn once every action 1 (`firsts`) is decided, the active player's
    action 2 being `plan`'s while it is legal, else `win`'s; returns whether the game is over."""
    cdef int second, box = 0
    cdef bint marked = firsts[table.active] >= 0
    if mark_firsts(table, dice, firsts):
        return True
    if plan_holds(table, plan):
        second, box = plan.second, plan.second_box
    else:
        second = judged_second(win, table, table.active, dice, marked, &box)
    return mark_second(table, second, box, marked)


cdef inline int lookahead_rates(const LookaheadValue* value, const Table* table, int seat,
                                const int* dice, Option* options, double* values,
                                double* means) noexcept nogil:
    """Every action-1 choice of `seat` (the active player's whole plans, in the order of
    active_options; else no mark, then each row for the white sum), played to the end of the
    turn with everyone else's choices, and its own action 2 should its plan's mark no longer
    be legal, made by `win`; values[i] gets the chance at the next turn's start, means[i] the
    race mean. Returns the number of choices."""
    cdef int firsts[MAX_PLAYERS]
    cdef Judge win
    cdef Table after
    cdef int i, count = 0, row, total = dice[0] + dice[1]
    cdef bint over
    win.strategy, win.race, win.weights = WIN, value.race, NULL
    for i in range(table.players):
        # the others decide on the sheets before action 1, whatever `seat` chooses
        firsts[i] = NO_ROW if i == seat else judged_first(&win, table, i, dice)
    if seat == table.active:
        count = active_options(&table.sheets[seat], table.closed, dice, options)
    else:
        options[0].first = NO_ROW
        count = 1
        for row in range(ROWS):
            if can_mark(&table.sheets[seat], table.closed, row, box_of(row, total)):
                options[count].first = row
                count += 1
        for i in range(count):
            options[i].first_box = box_of(options[i].first, total) if i else 0
            options[i].second = NO_ROW
            options[i].second_box = 0
    for i in range(count):
        after = table[0]
        firsts[seat] = options[i].first
        over = finish_as_win(&win, &after, dice, firsts,
                             &options[i] if seat == table.active else NULL)
        values[i] = turn_end_value(value, &after, seat, over, &means[i])
    return count


cdef inline int best_rated(const double* values, const double* means, int count) noexcept nogil:
    """The first best by `better` (a higher chance, then a higher mean)."""
    cdef int i, best = 0
    for i in range(1, count):
        if better(values[i], means[i], values[best], means[best]):
            best = i
    return best


cdef inline int lookahead_first(const LookaheadValue* value, const Table* table, int seat,
                                const int* dice) noexcept nogil:
    cdef Option options[MAX_OPTIONS]
    cdef double values[MAX_OPTIONS]
    cdef double means[MAX_OPTIONS]
    cdef int count = lookahead_rates(value, table, seat, dice, options, values, means)
    return options[best_rated(values, means, count)].first


cdef inline int second_rates(const LookaheadValue* value, const Table* table, const int* dice,
                             bint marked, Option* options, double* values,
                             double* means) noexcept nogil:
    """The active player's action-2 choices once action 1 is resolved (none first: a penalty
    when action 1 marked nothing; then per row the first white die's sum before the second's),
    each rated at the next turn's start like lookahead_rates. Returns their number."""
    cdef int active = table.active, count, i
    cdef int rows[1 + 2 * ROWS]
    cdef int boxes[1 + 2 * ROWS]
    cdef Table after
    cdef bint over
    rows[0] = NO_ROW
    boxes[0] = 0
    count = 1 + second_marks(&table.sheets[active], table.closed, dice, rows + 1, boxes + 1)
    for i in range(count):
        options[i].first = NO_ROW
        options[i].first_box = 0
        options[i].second = rows[i]
        options[i].second_box = boxes[i]
        after = table[0]
        over = mark_second(&after, rows[i], boxes[i], marked)
        values[i] = turn_end_value(value, &after, active, over, &means[i])
    return count


cdef inline int lookahead_second(const LookaheadValue* value, const Table* table,
                                 const int* dice, bint marked, int* chosen_box) noexcept nogil:
    cdef Option options[1 + 2 * ROWS]
    cdef double values[1 + 2 * ROWS]
    cdef double means[1 + 2 * ROWS]
    cdef int count = second_rates(value, table, dice, marked, options, values, means)
    cdef int best = best_rated(values, means, count)
    chosen_box[0] = options[best].second_box
    return options[best].second
