# The decisions of the strategies that rate each choice by the table right after it (a
# `Judge`): `win` by its chance of winning (_winning.pxd), `weighted` and `scored` by their
# formulas (_heuristics.pxd); a choice that ends the game is rated by its exact result. The
# twins: winning.WinPlayer and heuristics.HeuristicPlayer.
from ..rules._constants cimport game_ends
from ..rules._game cimport Table, final_share
from ..rules._options cimport MAX_OPTIONS, active_options, apply_option, second_marks
from ..rules._sheet cimport NO_ROW, ROWS, Option, Sheet, box_of, can_mark, closed_count, mark
from ..tables._race cimport RaceModel
from ._codes cimport WEIGHTED, WIN
from ._heuristics cimport ENDING_POINTS, scored_change, weighted_features
from ._winning cimport better, win_value


ctypedef struct Judge:       # how a player of the judged family rates a choice
    int strategy             # WIN, WEIGHTED or SCORED
    const RaceModel* race    # WIN
    const double* weights    # WEIGHTED, SCORED: HEURISTIC_WEIGHTS numbers


cdef inline double choice_value(const Judge* judge, const Sheet* sheets, int players, int me,
                                const Sheet* mine, int closed, double* mean) noexcept nogil:
    """What the player `me` makes of having `mine` as its sheet after a choice (sheets[me] is
    its sheet before it), `closed` the closed rows: the race chance for `win`, the weighted
    value for the heuristics (mean[0] = 0; a game-ending choice: ENDING_VALUE times the
    share minus half of it)."""
    if judge.strategy == WIN:
        return win_value(judge.race, sheets, players, me, mine, closed, mean)
    mean[0] = 0.0
    if game_ends(mine.penalties, closed_count(closed)):
        return ENDING_POINTS * final_share(sheets, players, me, mine) - ENDING_POINTS / 2.0
    if judge.strategy == WEIGHTED:
        return (weighted_features(judge.weights, mine, closed)
                - weighted_features(judge.weights, &sheets[me], closed))
    return scored_change(judge.weights, &sheets[me], mine)


cdef inline void judged_active(const Judge* judge, const Table* table, int me, const int* dice,
                               Option* chosen) noexcept nogil:
    """The active player's whole plan: the option of the best value (the first of them)."""
    cdef Option options[MAX_OPTIONS]
    cdef int count = active_options(&table.sheets[me], table.closed, dice, options), i, best = 0
    cdef double chance, mean, best_chance = -1.0, best_mean = 0.0
    cdef Sheet after
    for i in range(count):
        after = table.sheets[me]
        chance = choice_value(judge, table.sheets, table.players, me, &after,
                              apply_option(&after, table.closed, &options[i]), &mean)
        if i == 0 or better(chance, mean, best_chance, best_mean):
            best, best_chance, best_mean = i, chance, mean
    chosen[0] = options[best]


cdef inline int judged_passive(const Judge* judge, const Table* table, int me,
                               const int* dice) noexcept nogil:
    """A non-active player's white sum: a row, or NO_ROW (no mark first; a tie to the first)."""
    cdef int row, box, best = NO_ROW, total = dice[0] + dice[1]
    cdef double chance, mean, best_chance, best_mean
    cdef Sheet after = table.sheets[me]
    best_chance = choice_value(judge, table.sheets, table.players, me, &after, table.closed,
                               &best_mean)
    for row in range(ROWS):
        box = box_of(row, total)
        if can_mark(&table.sheets[me], table.closed, row, box):
            after = table.sheets[me]
            chance = choice_value(judge, table.sheets, table.players, me, &after,
                                  mark(&after, table.closed, row, box), &mean)
            if better(chance, mean, best_chance, best_mean):
                best, best_chance, best_mean = row, chance, mean
    return best


cdef inline int judged_second(const Judge* judge, const Table* table, int me, const int* dice,
                              bint marked_first, int* chosen_box) noexcept nogil:
    """The active player's action 2 once action 1 is resolved: a row (its box in chosen_box)
    or NO_ROW (no mark first: a penalty when action 1 marked nothing)."""
    cdef int rows[2 * ROWS]
    cdef int boxes[2 * ROWS]
    cdef int i, count, best = NO_ROW, best_box = 0
    cdef double chance, mean, best_chance, best_mean
    cdef Sheet after = table.sheets[me]
    if not marked_first:
        after.penalties += 1
    best_chance = choice_value(judge, table.sheets, table.players, me, &after, table.closed,
                               &best_mean)
    count = second_marks(&table.sheets[me], table.closed, dice, rows, boxes)
    for i in range(count):
        after = table.sheets[me]
        chance = choice_value(judge, table.sheets, table.players, me, &after,
                              mark(&after, table.closed, rows[i], boxes[i]), &mean)
        if better(chance, mean, best_chance, best_mean):
            best, best_box, best_chance, best_mean = rows[i], boxes[i], chance, mean
    chosen_box[0] = best_box
    return best


cdef inline int judged_first(const Judge* judge, const Table* table, int me,
                             const int* dice) noexcept nogil:
    """A player's action 1 (the active one's from its whole plan): a row or NO_ROW."""
    cdef Option plan
    if me == table.active:
        judged_active(judge, table, me, dice, &plan)
        return plan.first
    return judged_passive(judge, table, me, dice)
