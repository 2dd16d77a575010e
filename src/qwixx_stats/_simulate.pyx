# cython: language_level=3
"""Whole games of Qwixx between strategies, without the GIL, one random stream per game.

This is the Cython mirror of rules/game.py (rules) and the Python players the registry lists
(strategies/registry.py; decisions): the same option order, tie-breaks and random draws, so
that a seed gives the same games in both (tested). A sheet is kept as, per row, the last marked box (-1 when empty), the
number of marked numbers and whether this player locked it; `closed` is a 4-bit mask shared by
the table. The lock rule (marks a row needs before its last number) is one number per game.

Seats rotate: in game g the strategy listed at entry e sits at seat (e + g) mod players when
rotation is on, so every strategy plays every seat equally often over `players` games.

The `win` strategy (its method: winning.py) rates each option by the race estimate of
_race.pxd on the sheets of every player, after the option. The two heuristics from outside the
project's family, `weighted` and `scored` (their method and sources: heuristics.py), rate each
option the same way (the sheet before and after it, and the exact result of a choice that ends
the game) with a weighted formula instead: one decision routine serves all three (a `Judge`).
`qwixxer-ga`, a public bot's champion (its method and source: qwixxer.py), has routines of its
own (champion_*): as in its program, the active champion decides its whole turn at once, and
play_turn hands that plan to finish_turn, which keeps its action 2 while it is legal.

The `lookahead` strategy (its method and the learned value's features: lookahead.py) plays
each of its choices to the end of the turn, everyone else answering as `win` would, and rates
the table at the next turn's start by the learned value (two players) or the race model.
`train_lookahead` learns that value by TD(0) in self-play.

Across the boundary, three objects are checked once and then read without the GIL: a `Race`
(the race model: race.RaceTable.kernel_race), a `Lineup` (who plays what with what they read:
the seat set-up of every entry point) and a `Position` (a table before a roll:
kernel_view.kernel_position).
"""
from cpython.exc cimport PyErr_CheckSignals
from cython.parallel cimport prange
from libc.math cimport exp, log
from libc.stdint cimport uint64_t

from ._options cimport (MAX_OPTIONS, apply_option, mark_gain, option_gain, option_marks,
                        option_skips, second_marks, skipped)
from ._rows cimport SHEET_STATES, state_index
from ._sheet cimport (NO_ROW, ROWS, Option, Sheet, box_of, can_mark, closed_count, mark,
                      row_state, score, sheet_value)
from ._stream cimport game_stream, random_below
from ._race cimport Outlook, RaceModel, SAME_CHANCE, win_chance
from ._constants cimport (CLOSED_ROWS_TO_END, PENALTIES_TO_END, PENALTY_POINTS,
                          PENALTY_STATES, compiled_rules, game_ends, is_lock_rule)

cdef enum:
    CHUNK = 4096       # games between two checks for Ctrl-C (a few hundredths of a second)
    MAX_PLAYERS = 8
    MAX_SCORE = 0
    GREEDY = 1
    CAUTIOUS = 2
    RANDOM = 3
    WIN = 4
    WEIGHTED = 5
    SCORED = 6
    LOOKAHEAD = 7
    QWIXXER = 8
    STRATEGIES = 9           # the number of strategy codes above
    HEURISTIC_WEIGHTS = 8    # weights of one heuristic player (heuristics.py)
    ENDING_POINTS = 1000     # heuristics.ENDING_VALUE: a game-ending choice, won (+) or lost (-)
    ENDED_BY_LOCKS = 1
    ENDED_BY_PENALTIES = 2

# the strategy codes, which the registry (registry.py) gives each strategy's name
CODE_MAX_SCORE, CODE_GREEDY, CODE_CAUTIOUS, CODE_RANDOM = MAX_SCORE, GREEDY, CAUTIOUS, RANDOM
CODE_WIN, CODE_WEIGHTED, CODE_SCORED = WIN, WEIGHTED, SCORED
CODE_LOOKAHEAD, CODE_QWIXXER = LOOKAHEAD, QWIXXER
HEURISTIC_WEIGHT_COUNT = HEURISTIC_WEIGHTS
ENDING_VALUE = float(ENDING_POINTS)
ENDINGS = {"locks": ENDED_BY_LOCKS, "penalties": ENDED_BY_PENALTIES}
RULES = compiled_rules()      # the rules this module was compiled with (_constants.pxd)




# -- the options of a roll (game.active_options; the rest: _options.pxd) -----------------
cdef int active_options(const Sheet* sheet, int closed, const int* dice,
                        Option* options) noexcept nogil:
    cdef int count = 0, first, first_box = 0, i, marks, closed_after
    cdef int total = dice[0] + dice[1]
    cdef int rows[2 * ROWS]
    cdef int boxes[2 * ROWS]
    cdef bint over_before = game_ends(sheet.penalties, closed_count(closed))
    cdef Sheet after
    for first in range(-1, ROWS):
        after = sheet[0]
        closed_after = closed
        if first >= 0:
            first_box = box_of(first, total)
            if not can_mark(sheet, closed, first, first_box):
                continue
            closed_after = mark(&after, closed, first, first_box)
        options[count].first = first
        options[count].first_box = first_box
        options[count].second = NO_ROW
        options[count].second_box = 0
        count += 1
        # action 1 ended the game (it closed a row): no action 2
        if (over_before if closed_after == closed
                else game_ends(after.penalties, closed_count(closed_after))):
            continue
        marks = second_marks(&after, closed_after, dice, rows, boxes)
        for i in range(marks):
            options[count].first = first
            options[count].first_box = first_box
            options[count].second = rows[i]
            options[count].second_box = boxes[i]
            count += 1
    return count


# -- decisions ----------------------------------------------------------------------------
cdef void choose_active(int strategy, int limit, const Sheet* sheet, int closed, const int* dice,
                        const double* future, uint64_t* stream, Option* chosen) noexcept nogil:
    """The active player's (action 1, action 2) plan, into chosen[0]. There is always one:
    option 0, no mark (a penalty), skips no box, so even cautious:0 may take it."""
    cdef Option options[MAX_OPTIONS]
    cdef int count = active_options(sheet, closed, dice, options)
    cdef int i, best = -1, largest, skips, key_a, key_b, best_a = 0, best_b = 0
    cdef double value, best_value = 0.0
    cdef Sheet after
    if strategy == RANDOM:
        best = random_below(stream, count)
    for i in range(count):
        if strategy == RANDOM:
            break
        if strategy == MAX_SCORE:
            after = sheet[0]
            value = sheet_value(future, &after, apply_option(&after, closed, &options[i]))
            if best < 0 or value > best_value:
                best, best_value = i, value
            continue
        skips = option_skips(sheet, &options[i], &largest)
        if strategy == GREEDY:
            key_a = option_gain(sheet, &options[i])
            key_b = -skips
        else:
            if largest > limit:
                continue
            key_a = option_marks(&options[i])
            key_b = -skips
        if best < 0 or key_a > best_a or (key_a == best_a and key_b > best_b):
            best, best_a, best_b = i, key_a, key_b
    chosen[0] = options[best]


cdef int choose_passive(int strategy, int limit, const Sheet* sheet, int closed, const int* dice,
                        const double* future, uint64_t* stream) noexcept nogil:
    """A non-active player's action 1: a row, or NO_ROW."""
    cdef int choices[ROWS + 1]
    cdef int count = 1, row, i, best = NO_ROW, box, key_a, key_b, best_a = 0, best_b = 0
    cdef int total = dice[0] + dice[1], closed_after
    cdef double value, best_value
    cdef Sheet after
    choices[0] = NO_ROW
    for row in range(ROWS):
        if can_mark(sheet, closed, row, box_of(row, total)):
            choices[count] = row
            count += 1
    if strategy == RANDOM:
        return choices[random_below(stream, count)]
    if strategy == MAX_SCORE:
        best_value = sheet_value(future, sheet, closed)
        for i in range(1, count):
            after = sheet[0]
            closed_after = mark(&after, closed, choices[i], box_of(choices[i], total))
            value = sheet_value(future, &after, closed_after)
            if value > best_value:
                best, best_value = choices[i], value
        return best
    for i in range(1, count):
        row = choices[i]
        box = box_of(row, total)
        if strategy == GREEDY:
            key_a = mark_gain(sheet.marks[row], box)
        else:
            if skipped(sheet, row, box) > limit:
                continue
            key_a = 1
        key_b = -skipped(sheet, row, box)
        if key_a > best_a or (key_a == best_a and key_b > best_b):
            best, best_a, best_b = row, key_a, key_b
    return best


cdef int choose_second(int strategy, int limit, const Sheet* sheet, int closed, const int* dice,
                       bint marked_first, const double* future, uint64_t* stream,
                       int* chosen_box) noexcept nogil:
    """The active player's action 2 once action 1 is resolved: a row (box in chosen_box) or
    NO_ROW."""
    cdef int rows[1 + 2 * ROWS]
    cdef int boxes[1 + 2 * ROWS]
    cdef int count, i, best = 0, key_a, key_b, best_a, best_b
    cdef double value, best_value
    cdef Sheet after
    rows[0] = NO_ROW
    boxes[0] = 0
    count = 1 + second_marks(sheet, closed, dice, rows + 1, boxes + 1)
    if strategy == RANDOM:
        best = random_below(stream, count)
    elif strategy == MAX_SCORE:
        after = sheet[0]
        if not marked_first:
            after.penalties += 1
        best_value = sheet_value(future, &after, closed)
        for i in range(1, count):
            after = sheet[0]
            value = sheet_value(future, &after, mark(&after, closed, rows[i], boxes[i]))
            if value > best_value:
                best, best_value = i, value
    else:
        best_a = 0 if (marked_first or strategy == CAUTIOUS) else -PENALTY_POINTS
        best_b = 0
        for i in range(1, count):
            if strategy == GREEDY:
                key_a = mark_gain(sheet.marks[rows[i]], boxes[i])
            else:
                if skipped(sheet, rows[i], boxes[i]) > limit:
                    continue
                key_a = 1
            key_b = -skipped(sheet, rows[i], boxes[i])
            if key_a > best_a or (key_a == best_a and key_b > best_b):
                best, best_a, best_b = i, key_a, key_b
    chosen_box[0] = boxes[best]
    return rows[best]


# -- the `win` strategy (winning.WinPlayer) ------------------------------------------------
cdef inline Outlook outlook(const RaceModel* race, const Sheet* sheet, int closed) noexcept nogil:
    """The race estimate of one sheet's final score (race.RaceTable.outlook)."""
    cdef Outlook result
    cdef Py_ssize_t index
    cdef double mean, second
    result.mean = score(sheet)
    result.variance = 0.0
    if game_ends(sheet.penalties, closed_count(closed)):
        return result
    index = state_index(row_state(sheet, closed, 0), row_state(sheet, closed, 1),
                        row_state(sheet, closed, 2), row_state(sheet, closed, 3))
    index = index * PENALTY_STATES + sheet.penalties
    if closed != 0 and race.late_mean != NULL:
        mean = race.late_mean[index]
        second = race.late_second[index]
    else:
        mean = race.mean[index]
        second = race.second[index]
    result.mean += mean
    result.variance = second - mean * mean
    if result.variance < 0.0:
        result.variance = 0.0
    return result


cdef double final_share(const Sheet* sheets, int players, int me,
                        const Sheet* mine) noexcept nogil:
    """The share of a game that is over for player `me` with `mine` as its sheet: 1 for the
    top score, 1/k for a tie of k at the top, else 0."""
    cdef int j, level = 1, own_score = score(mine)
    for j in range(players):
        if j == me:
            continue
        if score(&sheets[j]) > own_score:
            return 0.0
        if score(&sheets[j]) == own_score:
            level += 1
    return 1.0 / level


cdef double win_value(const RaceModel* race, const Sheet* sheets, int players, int me,
                      const Sheet* mine, int closed, double* mean) noexcept nogil:
    """The chance that player `me`, with `mine` as its sheet and `closed` as the closed rows,
    wins (winning.win_value); mean[0] gets its expected final score. A game that is over is
    scored exactly: 1 for the top score, 1/k for a tie of k at the top, else 0."""
    cdef Outlook others[MAX_PLAYERS]
    cdef Outlook own = outlook(race, mine, closed)
    cdef int j, count = 0
    mean[0] = own.mean
    if game_ends(mine.penalties, closed_count(closed)):
        return final_share(sheets, players, me, mine)
    for j in range(players):
        if j != me:
            others[count] = outlook(race, &sheets[j], closed)
            count += 1
    return win_chance(own, others, count, race)


# -- the learned value of the `lookahead` strategy (lookahead.learned_logit, the twin) ------
cdef enum:
    ROW_CODES = 69           # a row: its open state (row_state, 0..55), or closed: 56 + marks
    OPEN_ROW_CODES = 56
    PAIR_WEIGHTS = 1         # weight 0: the race logit's; then (own row, their row, any closed)
    OWN_PAIR_WEIGHTS = PAIR_WEIGHTS + ROW_CODES * ROW_CODES * 2
    THEIR_PAIR_WEIGHTS = OWN_PAIR_WEIGHTS + ROW_CODES * ROW_CODES
    PENALTY_WEIGHTS = THEIR_PAIR_WEIGHTS + ROW_CODES * ROW_CODES
    LEARNED_SIZE = PENALTY_WEIGHTS + 4 * 4 * 2 * 2
    FEATURES = ROWS + 6 + 6 + 1      # weights summed for one position (besides weight 0)

LEARNED_WEIGHT_COUNT = LEARNED_SIZE
LEARNED_FEATURE_COUNT = FEATURES
cdef double SURE_CHANCE = 1e-6    # the race chance is clipped to [SURE_CHANCE, 1 - SURE_CHANCE]
LEARNED_SURE_CHANCE = SURE_CHANCE


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


cdef double learned_logit(const RaceModel* race, const double* learned, const Sheet* mine,
                          const Sheet* theirs, int closed, bint mine_next, int* index,
                          double* race_logit, double* mean) noexcept nogil:
    """The learned value's logit of `mine` finishing above `theirs` at the start of a turn
    (mine_next: `mine` rolls it); index gets the FEATURES weights summed, race_logit the logit
    of the race model's chance (weight 0 multiplies it), mean the race mean of `mine`."""
    cdef Outlook own = outlook(race, mine, closed)
    cdef Outlook other = outlook(race, theirs, closed)
    cdef double chance = win_chance(own, &other, 1, race), total
    cdef int own_codes[ROWS]
    cdef int their_codes[ROWS]
    cdef int row, low, k = 0, shut = 1 if closed else 0
    mean[0] = own.mean
    chance = min(max(chance, SURE_CHANCE), 1.0 - SURE_CHANCE)
    race_logit[0] = log(chance / (1.0 - chance))
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
    total = learned[0] * race_logit[0]
    for k in range(FEATURES):
        total += learned[index[k]]
    return total


# -- the heuristics from outside the project (heuristics.py, the twin) ----------------------
cdef inline double weighted_features(const double* w, const Sheet* sheet,
                                     int closed) noexcept nogil:
    """heuristics.weighted_features: the weighted sheet evaluation."""
    cdef double total = 0.0, m, k, p
    cdef int row, lockable = 0
    for row in range(ROWS):
        m = sheet.marks[row] + sheet.locked[row]
        k = sheet.last[row] + 1 - sheet.marks[row]
        total += w[0] * m + w[1] * m * m + w[2] * k + w[3] * k * k + w[4] * m * k
        if not (closed & (1 << row)) and sheet.marks[row] >= sheet.lock_after:
            lockable += 1
    p = sheet.penalties
    total += w[5] * p + w[6] * p * p + w[7] * lockable
    return total


cdef inline int sum_ways(int box) noexcept nogil:
    """The rolls of two dice (of 36) whose sum is the number in `box` (either row order)."""
    return 6 - (box - 5 if box >= 5 else 5 - box)


cdef inline double scored_change(const double* w, const Sheet* before,
                                 const Sheet* after) noexcept nogil:
    """heuristics.scored_change: the sum of the move scores of the rows an option marks, and
    its penalty."""
    cdef double total = 0.0, gap, likelihood
    cdef int row, box, ways
    for row in range(ROWS):
        if after.marks[row] == before.marks[row]:
            continue
        gap = after.last[row] - before.last[row] - (after.marks[row] - before.marks[row])
        ways = 0
        for box in range(before.last[row] + 1, after.last[row]):
            ways += sum_ways(box)
        likelihood = ways / 36.0
        total += (w[0] + w[1] * gap + w[2] * gap * gap + w[3] * before.marks[row]
                  + w[4] * after.last[row] + w[5] * likelihood + w[6] * after.locked[row])
    total += w[7] * (after.penalties - before.penalties)
    return total


ctypedef struct Judge:       # how a player of the judged family rates a choice
    int strategy             # WIN, WEIGHTED or SCORED
    const RaceModel* race    # WIN
    const double* weights    # WEIGHTED, SCORED: HEURISTIC_WEIGHTS numbers


cdef double choice_value(const Judge* judge, const Sheet* sheets, int players, int me,
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


cdef inline bint better(double chance, double mean, double best_chance,
                        double best_mean) noexcept nogil:
    """A higher chance of winning; at the same chance, a higher expected score."""
    if chance > best_chance + SAME_CHANCE:
        return True
    return chance >= best_chance - SAME_CHANCE and mean > best_mean


cdef void judged_active(const Judge* judge, const Sheet* sheets, int players, int me,
                        int closed, const int* dice, Option* chosen) noexcept nogil:
    cdef Option options[MAX_OPTIONS]
    cdef int count = active_options(&sheets[me], closed, dice, options), i, best = 0
    cdef double chance, mean, best_chance = -1.0, best_mean = 0.0
    cdef Sheet after
    for i in range(count):
        after = sheets[me]
        chance = choice_value(judge, sheets, players, me, &after,
                              apply_option(&after, closed, &options[i]), &mean)
        if i == 0 or better(chance, mean, best_chance, best_mean):
            best, best_chance, best_mean = i, chance, mean
    chosen[0] = options[best]


cdef int judged_passive(const Judge* judge, const Sheet* sheets, int players, int me,
                        int closed, const int* dice) noexcept nogil:
    cdef int row, box, best = NO_ROW, total = dice[0] + dice[1]
    cdef double chance, mean, best_chance, best_mean
    cdef Sheet after = sheets[me]
    best_chance = choice_value(judge, sheets, players, me, &after, closed, &best_mean)
    for row in range(ROWS):
        box = box_of(row, total)
        if can_mark(&sheets[me], closed, row, box):
            after = sheets[me]
            chance = choice_value(judge, sheets, players, me, &after,
                                  mark(&after, closed, row, box), &mean)
            if better(chance, mean, best_chance, best_mean):
                best, best_chance, best_mean = row, chance, mean
    return best


cdef int judged_second(const Judge* judge, const Sheet* sheets, int players, int me,
                       int closed, const int* dice, bint marked_first,
                       int* chosen_box) noexcept nogil:
    cdef int rows[2 * ROWS]
    cdef int boxes[2 * ROWS]
    cdef int i, count, best = NO_ROW, best_box = 0
    cdef double chance, mean, best_chance, best_mean
    cdef Sheet after = sheets[me]
    if not marked_first:
        after.penalties += 1
    best_chance = choice_value(judge, sheets, players, me, &after, closed, &best_mean)
    count = second_marks(&sheets[me], closed, dice, rows, boxes)
    for i in range(count):
        after = sheets[me]
        chance = choice_value(judge, sheets, players, me, &after,
                              mark(&after, closed, rows[i], boxes[i]), &mean)
        if better(chance, mean, best_chance, best_mean):
            best, best_box, best_chance, best_mean = rows[i], boxes[i], chance, mean
    chosen_box[0] = best_box
    return best


# -- qwixxer-ga: the champion of the public qwixxer bot (qwixxer.py, the twin) -------------
cdef double CHAMPION_CHANCES = 0.49085229701342714      # qwixxer.CHAMPION_WEIGHTS, in order
cdef double CHAMPION_PENALTIES = -0.8692448091076695
cdef double CHAMPION_CONCENTRATION = 0.01846237488088304
cdef double CHAMPION_BLANKS = -0.056005580702027866
QWIXXER_WEIGHTS = (CHAMPION_CHANCES, CHAMPION_PENALTIES, CHAMPION_CONCENTRATION,
                   CHAMPION_BLANKS)


cdef inline double champion_instinct(const Sheet* sheet, int closed) noexcept nogil:
    """qwixxer.instinct: the champion's value of a sheet, `closed` the rows closed with it."""
    cdef double chances = 0.0, concentration = 0.0, blanks = 0.0, total
    cdef int row, next_box
    for row in range(ROWS):
        total = sheet.marks[row] + sheet.locked[row]
        concentration += total * total
        if closed & (1 << row):
            continue
        next_box = sheet.last[row] + 1
        chances += sum_ways(next_box) / 36.0 * (total + 1.0)
        blanks += next_box - sheet.marks[row]
    return (chances * CHAMPION_CHANCES + sheet.penalties * CHAMPION_PENALTIES
            + concentration * CHAMPION_CONCENTRATION + blanks * CHAMPION_BLANKS)


cdef inline bint champion_dominates(const Sheet* better, int better_closed, const Sheet* worse,
                                    int worse_closed) noexcept nogil:
    """qwixxer.dominates: no row with fewer marks or a later next box, and one better."""
    cdef bint strict = False, better_open, worse_open
    cdef int row
    for row in range(ROWS):
        if better.marks[row] + better.locked[row] < worse.marks[row] + worse.locked[row]:
            return False
        better_open = not (better_closed & (1 << row))
        worse_open = not (worse_closed & (1 << row))
        if better_open != worse_open:
            return False
        if better_open:
            if better.last[row] > worse.last[row]:
                return False
            if better.last[row] < worse.last[row]:
                strict = True
        if better.marks[row] + better.locked[row] > worse.marks[row] + worse.locked[row]:
            strict = True
    return strict


cdef inline int single_mark(const Option* option, int* box) noexcept nogil:
    """The row of an option's one mark (box[0] its box), or NO_ROW unless it has exactly one."""
    if option.first >= 0 and option.second < 0:
        box[0] = option.first_box
        return option.first
    if option.first < 0 and option.second >= 0:
        box[0] = option.second_box
        return option.second
    return NO_ROW


cdef inline int best_other_score(const Sheet* sheets, int players, int me) noexcept nogil:
    cdef int j, best = -1000000
    for j in range(players):
        if j != me and score(&sheets[j]) > best:
            best = score(&sheets[j])
    return best


cdef inline bint good_lock(int closed, int closed_after, int after_score,
                          int best_other) noexcept nogil:
    """qwixxer.good_lock: a new lock that does not end the game unless it leads."""
    return closed_count(closed_after) > closed_count(closed) and (
        closed_count(closed_after) < CLOSED_ROWS_TO_END or after_score > best_other)


cdef int champion_pick(const Sheet* before, int closed, int best_other, const Option* options,
                       int count, bint nothing_is_penalty) noexcept nogil:
    """qwixxer.pick: the champion's choice among `options` (options[0] marks nothing: a
    penalty when `nothing_is_penalty`), after its meta-rules; returns its index."""
    cdef Sheet afters[MAX_OPTIONS]
    cdef int closeds[MAX_OPTIONS]
    cdef bint alive[MAX_OPTIONS]
    cdef bint kept[MAX_OPTIONS]
    cdef int rows[MAX_OPTIONS]
    cdef int boxes[MAX_OPTIONS]
    cdef int i, j, best = -1
    cdef double value, best_value = 0.0
    for i in range(count):
        afters[i] = before[0]
        alive[i] = True
        if i == 0:
            closeds[i] = closed
            if nothing_is_penalty:
                afters[i].penalties += 1
        else:
            closeds[i] = apply_option(&afters[i], closed, &options[i])
    # a fourth penalty: taken to end a game it leads, else avoided when anything else is legal
    if nothing_is_penalty and before.penalties == PENALTIES_TO_END - 1:
        if score(before) - PENALTY_POINTS > best_other:
            return 0
        if count > 1:
            alive[0] = False
    # a lock: the one of the highest score, unless it ends a game it does not lead
    for i in range(1, count):
        if good_lock(closed, closeds[i], score(&afters[i]), best_other):
            if best < 0 or score(&afters[i]) >= score(&afters[best]):
                best = i
    if best >= 0:
        return best
    for i in range(1, count):
        if (closed_count(closeds[i]) > closed_count(closed)
                and closed_count(closeds[i]) >= CLOSED_ROWS_TO_END
                and score(&afters[i]) < best_other):
            alive[i] = False
    # pruning: a choice whose sheet another choice's dominates, then a single mark that one
    # in another row with more marks equals (same box, same skip)
    for i in range(1, count):
        kept[i] = alive[i]
        if not alive[i]:
            continue
        for j in range(1, count):
            if j != i and alive[j] and champion_dominates(&afters[j], closeds[j], &afters[i],
                                                          closeds[i]):
                kept[i] = False
                break
    for i in range(1, count):
        rows[i] = single_mark(&options[i], &boxes[i]) if kept[i] else NO_ROW
    for i in range(1, count):
        if rows[i] < 0:
            continue
        for j in range(1, count):
            if (rows[j] >= 0 and rows[j] != rows[i] and boxes[j] == boxes[i]
                    and before.last[rows[j]] == before.last[rows[i]]
                    and before.marks[rows[j]] > before.marks[rows[i]]):
                kept[i] = False
                break
    kept[0] = alive[0]
    # the highest instinct; nothing comes last, and a tie goes to the later choice
    best = -1
    for j in range(1, count + 1):
        i = j % count
        if not kept[i]:
            continue
        value = champion_instinct(&afters[i], closeds[i])
        if best < 0 or value >= best_value:
            best, best_value = i, value
    return best if best >= 0 else 0


cdef inline bint listed(const Option* options, int count, const Option* option) noexcept nogil:
    """Whether `option` is among the first `count` options; a single mark equals the single
    mark of the same box, whichever action makes it (one move in the champion's program)."""
    cdef int i, row, box, other_box
    row = single_mark(option, &box)
    for i in range(count):
        if row >= 0:
            if single_mark(&options[i], &other_box) == row and other_box == box:
                return True
        elif (options[i].first == option.first and options[i].first_box == option.first_box
              and options[i].second == option.second
              and options[i].second_box == option.second_box):
            return True
    return False


cdef inline int add_new(Option* options, int count, int first, int first_box, int second,
                        int second_box) noexcept nogil:
    """Append the option unless it is listed; returns the new count."""
    options[count].first, options[count].first_box = first, first_box
    options[count].second, options[count].second_box = second, second_box
    return count if listed(options, count, &options[count]) else count + 1


cdef int champion_options(const Sheet* sheet, int closed, const int* dice,
                          Option* options) noexcept nogil:
    """qwixxer.champion_options: the active champion's choices in its program's order."""
    cdef int colour_rows[2 * ROWS]
    cdef int colour_boxes[2 * ROWS]
    cdef int white_box[ROWS]
    cdef int after_closed[ROWS]
    cdef Sheet afters[ROWS]
    cdef int count = 1, colours = 0, row, white, box, i, total = dice[0] + dice[1]
    options[0].first, options[0].first_box, options[0].second, options[0].second_box = (
        NO_ROW, 0, NO_ROW, 0)
    for row in range(ROWS):           # colour marks before the turn; a repeat kept for pairs
        for white in range(2):
            box = box_of(row, dice[white] + dice[2 + row])
            if can_mark(sheet, closed, row, box):
                colour_rows[colours], colour_boxes[colours] = row, box
                colours += 1
    for row in range(ROWS):           # single marks
        white_box[row] = box_of(row, total)
        if can_mark(sheet, closed, row, white_box[row]):
            count = add_new(options, count, row, white_box[row], NO_ROW, 0)
            afters[row] = sheet[0]
            after_closed[row] = mark(&afters[row], closed, row, white_box[row])
        else:
            white_box[row] = -1
    for i in range(colours):
        count = add_new(options, count, NO_ROW, 0, colour_rows[i], colour_boxes[i])
    for row in range(ROWS):           # a white sum that does not end the game, and a colour mark
        if white_box[row] < 0 or game_ends(afters[row].penalties, closed_count(after_closed[row])):
            white_box[row] = -1
            continue
        for i in range(colours):
            if colour_rows[i] != row:
                count = add_new(options, count, row, white_box[row], colour_rows[i],
                                colour_boxes[i])
    for row in range(ROWS):           # ... both in one row
        if white_box[row] < 0:
            continue
        for white in range(2):
            box = box_of(row, dice[white] + dice[2 + row])
            if can_mark(&afters[row], after_closed[row], row, box):
                count = add_new(options, count, row, white_box[row], row, box)
    return count


cdef void champion_active(const Sheet* sheets, int players, int me, int closed,
                          const int* dice, Option* chosen) noexcept nogil:
    """The champion's whole turn (its plan) as the active player."""
    cdef Option options[MAX_OPTIONS + 1]
    cdef int count = champion_options(&sheets[me], closed, dice, options)
    chosen[0] = options[champion_pick(&sheets[me], closed,
                                      best_other_score(sheets, players, me), options, count,
                                      True)]


cdef int champion_passive(const Sheet* sheets, int players, int me, int closed,
                          const int* dice) noexcept nogil:
    """The champion's white sum when not active: a lock that does not end a game it trails,
    else the highest instinct (no mark last, a tie to the later)."""
    cdef int row, box, best = NO_ROW, lock = NO_ROW, lock_score = 0, closed_after
    cdef int best_other = best_other_score(sheets, players, me), total = dice[0] + dice[1]
    cdef double value, best_value = 0.0
    cdef bint found = False
    cdef Sheet after
    for row in range(ROWS):
        box = box_of(row, total)
        if not can_mark(&sheets[me], closed, row, box):
            continue
        after = sheets[me]
        closed_after = mark(&after, closed, row, box)
        if good_lock(closed, closed_after, score(&after), best_other):
            if lock < 0 or score(&after) >= lock_score:
                lock, lock_score = row, score(&after)
        value = champion_instinct(&after, closed_after)
        if not found or value >= best_value:
            best, best_value, found = row, value, True
    if lock >= 0:
        return lock
    if not found or champion_instinct(&sheets[me], closed) >= best_value:
        return NO_ROW
    return best


cdef int champion_second(const Sheet* sheets, int players, int me, int closed,
                         const int* dice, bint marked_first, int* chosen_box) noexcept nogil:
    """The champion's action 2 when its plan's mark is no longer legal: its choice among the
    marks left (none first)."""
    cdef Option options[1 + 2 * ROWS]
    cdef int rows[2 * ROWS]
    cdef int boxes[2 * ROWS]
    cdef int i, count = second_marks(&sheets[me], closed, dice, rows, boxes)
    options[0].first, options[0].first_box = NO_ROW, 0
    options[0].second, options[0].second_box = NO_ROW, 0
    for i in range(count):
        options[1 + i].first, options[1 + i].first_box = NO_ROW, 0
        options[1 + i].second, options[1 + i].second_box = rows[i], boxes[i]
    i = champion_pick(&sheets[me], closed, best_other_score(sheets, players, me), options,
                      count + 1, not marked_first)
    chosen_box[0] = options[i].second_box
    return options[i].second


# -- one game (game.Game.play_turn_with) --------------------------------------------------
ctypedef struct Table:
    Sheet sheets[MAX_PLAYERS]
    int players
    int closed           # rows closed by anyone
    int active           # the seat that rolls next


ctypedef struct Seats:     # who plays what, seat by seat, and the tables they need
    const int* strategies
    const int* limits
    const double* future
    const RaceModel* race
    const double* heuristic    # HEURISTIC_WEIGHTS numbers per seat (weighted, scored)
    const double* learned      # LEARNED_SIZE weights (lookahead at two players), or NULL


cdef inline bint is_judged(int strategy) noexcept nogil:
    return strategy == WIN or strategy == WEIGHTED or strategy == SCORED


cdef inline Judge judge_of(const Seats* seats, int seat) noexcept nogil:
    cdef Judge judge
    judge.strategy = seats.strategies[seat]
    judge.race = seats.race
    judge.weights = seats.heuristic + seat * HEURISTIC_WEIGHTS
    return judge


cdef inline int first_choice(const Seats* seats, const Table* table, int seat,
                             const int* dice, uint64_t* stream) noexcept nogil:
    """A player's action 1 (the active one's from its whole plan): a row or NO_ROW."""
    cdef Option plan
    cdef int strategy = seats.strategies[seat]
    cdef Judge judge
    if strategy == LOOKAHEAD:
        return lookahead_first(seats, table, seat, dice)
    if strategy == QWIXXER:
        if seat == table.active:
            champion_active(table.sheets, table.players, seat, table.closed, dice, &plan)
            return plan.first
        return champion_passive(table.sheets, table.players, seat, table.closed, dice)
    if is_judged(strategy):
        judge = judge_of(seats, seat)
        if seat == table.active:
            judged_active(&judge, table.sheets, table.players, seat, table.closed, dice, &plan)
            return plan.first
        return judged_passive(&judge, table.sheets, table.players, seat, table.closed, dice)
    if seat == table.active:
        choose_active(strategy, seats.limits[seat], &table.sheets[seat], table.closed, dice,
                      seats.future, stream, &plan)
        return plan.first
    return choose_passive(strategy, seats.limits[seat], &table.sheets[seat], table.closed, dice,
                          seats.future, stream)


cdef inline bint play_turn(const Seats* seats, Table* table, const int* dice,
                           uint64_t* stream, int forced_seat, int forced_first,
                           int forced_second, int forced_box) noexcept nogil:
    """One turn on `dice`; returns whether the game is over. The player at `forced_seat` (-1:
    nobody) plays `forced_first` in action 1 and, when active, `forced_second` / `forced_box`
    in action 2 if that mark is still legal once action 1 is resolved (its strategy decides
    otherwise)."""
    cdef int firsts[MAX_PLAYERS]
    cdef int i, active = table.active
    cdef Option plan
    cdef const Option* planned = NULL
    # action 1: decided by everyone on the sheets as they are, then applied together; an
    # active qwixxer-ga decides its whole turn at once, as its own program does
    for i in range(table.players):
        if i == forced_seat:
            firsts[i] = forced_first
        elif i == active and seats.strategies[i] == QWIXXER:
            champion_active(table.sheets, table.players, i, table.closed, dice, &plan)
            firsts[i], planned = plan.first, &plan
        else:
            firsts[i] = first_choice(seats, table, i, dice, stream)
    if forced_seat == active:
        plan.first, plan.second, plan.second_box = forced_first, forced_second, forced_box
        planned = &plan
    return finish_turn(seats, table, dice, stream, firsts, planned)


cdef bint finish_turn(const Seats* seats, Table* table, const int* dice, uint64_t* stream,
                      const int* firsts, const Option* plan) noexcept nogil:
    """The rest of play_turn once every action 1 (`firsts`) is decided: they are applied
    together, then the active player's action 2: `plan.second` (a row or NO_ROW, at
    `plan.second_box`) when there is a plan and that mark is still legal once action 1 is
    resolved, else its strategy's choice."""
    cdef int closed_after, i, second, box = 0, active = table.active
    cdef bint marked
    cdef Judge judge
    closed_after = table.closed
    for i in range(table.players):
        if firsts[i] >= 0:
            closed_after |= mark(&table.sheets[i], table.closed, firsts[i],
                                 box_of(firsts[i], dice[0] + dice[1]))
    table.closed = closed_after
    if closed_count(table.closed) >= CLOSED_ROWS_TO_END:    # action 1 ended the game
        return True
    # action 2: the active player alone
    marked = firsts[active] >= 0
    if plan != NULL and (plan.second == NO_ROW or can_mark(
            &table.sheets[active], table.closed, plan.second, plan.second_box)):
        second, box = plan.second, plan.second_box
    elif seats.strategies[active] == LOOKAHEAD:
        second = lookahead_second(seats, table, dice, marked, &box)
    elif seats.strategies[active] == QWIXXER:
        second = champion_second(table.sheets, table.players, active, table.closed, dice,
                                 marked, &box)
    elif is_judged(seats.strategies[active]):
        judge = judge_of(seats, active)
        second = judged_second(&judge, table.sheets, table.players, active, table.closed,
                               dice, marked, &box)
    else:
        second = choose_second(seats.strategies[active], seats.limits[active],
                               &table.sheets[active], table.closed, dice, marked, seats.future,
                               stream, &box)
    if second >= 0:
        table.closed = mark(&table.sheets[active], table.closed, second, box)
    elif not marked:
        table.sheets[active].penalties += 1
    table.active = (active + 1) % table.players
    return game_ends(table.sheets[active].penalties, closed_count(table.closed))


# -- the `lookahead` strategy (lookahead.LookaheadPlayer) ----------------------------------
cdef double turn_end_value(const Seats* seats, const Table* table, int seat, bint over,
                           double* mean) noexcept nogil:
    """The chance of `seat` at the start of the next turn: exact when the game is over; the
    learned value at two players (when the seats have it); else the race model's."""
    cdef int index[FEATURES]
    cdef double race_logit
    if over:
        mean[0] = score(&table.sheets[seat])
        return share_of(table, seat)
    if table.players == 2 and seats.learned != NULL:
        return logistic(learned_logit(seats.race, seats.learned, &table.sheets[seat],
                                      &table.sheets[1 - seat], table.closed,
                                      table.active == seat, index, &race_logit, mean))
    return win_value(seats.race, table.sheets, table.players, seat, &table.sheets[seat],
                     table.closed, mean)


cdef int lookahead_rates(const Seats* seats, const Table* table, int seat, const int* dice,
                         Option* options, double* values, double* means) noexcept nogil:
    """Every action-1 choice of `seat` (the active player's whole plans, in the order of
    active_options; else no mark, then each row for the white sum), played to the end of the
    turn with everyone else's choices, and its own action 2 should its plan's mark no longer
    be legal, made by `win`; values[i] gets the chance at the next turn's start, means[i] the
    race mean. Returns the number of choices."""
    cdef int firsts[MAX_PLAYERS]
    cdef int as_win[MAX_PLAYERS]
    cdef Seats model = seats[0]
    cdef Table after
    cdef uint64_t unused = 0         # win draws no random numbers
    cdef int i, count = 0, row, total = dice[0] + dice[1]
    cdef bint over
    for i in range(table.players):
        as_win[i] = WIN
    model.strategies = as_win
    for i in range(table.players):
        # the others decide on the sheets before action 1, whatever `seat` chooses
        firsts[i] = NO_ROW if i == seat else first_choice(&model, table, i, dice, &unused)
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
        over = finish_turn(&model, &after, dice, &unused, firsts,
                           &options[i] if seat == table.active else NULL)
        values[i] = turn_end_value(seats, &after, seat, over, &means[i])
    return count


cdef int lookahead_first(const Seats* seats, const Table* table, int seat,
                         const int* dice) noexcept nogil:
    cdef Option options[MAX_OPTIONS]
    cdef double values[MAX_OPTIONS]
    cdef double means[MAX_OPTIONS]
    cdef int count = lookahead_rates(seats, table, seat, dice, options, values, means)
    return options[best_rated(values, means, count)].first


cdef inline int best_rated(const double* values, const double* means, int count) noexcept nogil:
    """The first best by `better` (a higher chance, then a higher mean)."""
    cdef int i, best = 0
    for i in range(1, count):
        if better(values[i], means[i], values[best], means[best]):
            best = i
    return best


cdef int second_rates(const Seats* seats, const Table* table, const int* dice, bint marked,
                      Option* options, double* values, double* means) noexcept nogil:
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
        if options[i].second >= 0:
            after.closed = mark(&after.sheets[active], after.closed, options[i].second,
                                options[i].second_box)
        elif not marked:
            after.sheets[active].penalties += 1
        after.active = (active + 1) % table.players
        over = game_ends(after.sheets[active].penalties, closed_count(after.closed))
        values[i] = turn_end_value(seats, &after, active, over, &means[i])
    return count


cdef int lookahead_second(const Seats* seats, const Table* table, const int* dice, bint marked,
                          int* chosen_box) noexcept nogil:
    cdef Option options[1 + 2 * ROWS]
    cdef double values[1 + 2 * ROWS]
    cdef double means[1 + 2 * ROWS]
    cdef int count = second_rates(seats, table, dice, marked, options, values, means)
    cdef int best = best_rated(values, means, count)
    chosen_box[0] = options[best].second_box
    return options[best].second


cdef int play_on(const Seats* seats, Table* table, uint64_t* stream) noexcept nogil:
    """Play from the start of a turn to the end of the game; returns the turns played."""
    cdef int dice[6]
    cdef int turns = 0, die
    cdef bint over = False
    while not over:
        turns += 1
        for die in range(6):
            dice[die] = 1 + random_below(stream, 6)
        over = play_turn(seats, table, dice, stream, -1, NO_ROW, NO_ROW, 0)
    return turns


cdef void new_game(Table* table, int players, int lock_after) noexcept nogil:
    """Empty sheets, no row closed, seat 0 to roll."""
    cdef int i, row
    table.players, table.closed, table.active = players, 0, 0
    for i in range(players):
        for row in range(ROWS):
            table.sheets[i].last[row] = -1
            table.sheets[i].marks[row] = 0
            table.sheets[i].locked[row] = 0
        table.sheets[i].penalties = 0
        table.sheets[i].lock_after = lock_after


cdef int play_game(const Seats* seats, int players, int lock_after, uint64_t stream,
                   int* scores, int* ending) noexcept nogil:
    """Play one game, seats.strategies[i] at seat i; scores[i] gets seat i's final score and
    ending[0] how the game ended; returns the number of turns."""
    cdef Table table
    cdef int i, turns
    new_game(&table, players, lock_after)
    turns = play_on(seats, &table, &stream)
    ending[0] = (ENDED_BY_LOCKS if closed_count(table.closed) >= CLOSED_ROWS_TO_END
                 else ENDED_BY_PENALTIES)
    for i in range(players):
        scores[i] = score(&table.sheets[i])
    return turns


cdef double share_of(const Table* table, int seat) noexcept nogil:
    """A finished game's share for `seat`: 1, 1/k for a tie of k at the top, or 0."""
    cdef int j, level = 1, own = score(&table.sheets[seat])
    for j in range(table.players):
        if j == seat:
            continue
        if score(&table.sheets[j]) > own:
            return 0.0
        if score(&table.sheets[j]) == own:
            level += 1
    return 1.0 / level


cdef int play_rotated(const Seats* entries, int players, int lock_after, int rotation,
                      uint64_t stream, int* scores, int* ending) noexcept nogil:
    """One game with the strategy of entry e (entries: strategies, limits and heuristic
    weights listed by entry) at seat (e + rotation) mod players; scores[e] gets entry e's
    score."""
    cdef int seat_strategies[MAX_PLAYERS]
    cdef int seat_limits[MAX_PLAYERS]
    cdef double seat_heuristic[MAX_PLAYERS * HEURISTIC_WEIGHTS]
    cdef int seat_scores[MAX_PLAYERS]
    cdef int entry, seat, turns, k
    cdef Seats seats = entries[0]
    for entry in range(players):
        seat = (entry + rotation) % players
        seat_strategies[seat] = entries.strategies[entry]
        seat_limits[seat] = entries.limits[entry]
        for k in range(HEURISTIC_WEIGHTS):
            seat_heuristic[seat * HEURISTIC_WEIGHTS + k] = (
                entries.heuristic[entry * HEURISTIC_WEIGHTS + k])
    seats.strategies, seats.limits, seats.heuristic = seat_strategies, seat_limits, seat_heuristic
    turns = play_game(&seats, players, lock_after, stream, seat_scores, ending)
    for entry in range(players):
        scores[entry] = seat_scores[(entry + rotation) % players]
    return turns


cdef class Race:
    """The race model as the kernel reads it (race.RaceTable.kernel_race): the paced tables
    (expected points still to come and their second moment, SHEET_STATES x PENALTY_STATES,
    and the same for a game with a closed row, or None), the quadrature (nodes, weights) and
    the correlation rho, checked once; it holds the arrays the model points into."""
    cdef RaceModel model
    cdef readonly object arrays

    def __init__(self, double[:, ::1] mean, double[:, ::1] second, double[::1] nodes,
                 double[::1] weights, double correlation,
                 double[:, ::1] late_mean=None, double[:, ::1] late_second=None):
        if not 0.0 <= correlation < 1.0:
            raise ValueError("the race model's correlation must be 0 <= rho < 1")
        if (mean.shape[0] != SHEET_STATES or mean.shape[1] != PENALTY_STATES
                or second.shape[0] != SHEET_STATES or second.shape[1] != PENALTY_STATES
                or nodes.shape[0] != weights.shape[0] or nodes.shape[0] < 1):
            raise ValueError("the race model needs its tables and the quadrature")
        self.arrays = (mean, second, nodes, weights, late_mean, late_second)
        self.model.mean, self.model.second = &mean[0, 0], &second[0, 0]
        self.model.nodes, self.model.weights = &nodes[0], &weights[0]
        self.model.node_count = nodes.shape[0]
        self.model.correlation = correlation
        self.model.late_mean = self.model.late_second = NULL
        if late_mean is not None or late_second is not None:
            if (late_mean is None or late_second is None
                    or late_mean.shape[0] != SHEET_STATES
                    or late_mean.shape[1] != PENALTY_STATES
                    or late_second.shape[0] != SHEET_STATES
                    or late_second.shape[1] != PENALTY_STATES):
                raise ValueError("the late race tables must both be given, like the others")
            self.model.late_mean, self.model.late_second = &late_mean[0, 0], &late_second[0, 0]


cdef class Lineup:
    """Who plays what, entry by entry, with what each strategy reads, checked once: the seat
    set-up of simulate and rollouts. `future` is the single-player table (max-score players
    only; a (1, 4) dummy otherwise), `race` the race model (win and lookahead players),
    `heuristic` one row of HEURISTIC_WEIGHT_COUNT weights per entry (weighted and scored
    players; None when there are none), `learned` the LEARNED_WEIGHT_COUNT weights of
    lookahead players at a table of two (None: they read the race model)."""
    cdef Seats seats
    cdef RaceModel race
    cdef readonly int players
    cdef readonly object arrays

    def __init__(self, int[::1] strategies, int[::1] limits, double[:, ::1] future,
                 Race race=None, double[:, ::1] heuristic=None, double[::1] learned=None):
        cdef int i
        cdef bint races = False
        self.players = strategies.shape[0]
        if not 1 <= self.players <= MAX_PLAYERS:
            raise ValueError(f"1..{MAX_PLAYERS} players")
        if limits.shape[0] != self.players:
            raise ValueError("one limit per strategy")
        if future.shape[1] != PENALTY_STATES:
            raise ValueError(f"future must have {PENALTY_STATES} columns")
        for i in range(self.players):
            if not 0 <= strategies[i] < STRATEGIES:
                raise ValueError("unknown strategy code")
            if strategies[i] == MAX_SCORE and future.shape[0] != SHEET_STATES:
                raise ValueError("max-score players need the whole single-player table")
            races = races or strategies[i] == WIN or strategies[i] == LOOKAHEAD
        if races and race is None:
            raise ValueError("win and lookahead players need the race tables and the "
                             "quadrature")
        if race is None:
            self.race.mean = self.race.second = self.race.nodes = self.race.weights = NULL
            self.race.node_count = 0
            self.race.correlation = 0.0
            self.race.late_mean = self.race.late_second = NULL
        else:
            self.race = race.model
        heuristic = _heuristic_weights(strategies, heuristic)
        self.arrays = (strategies, limits, future, race, heuristic, learned)
        self.seats.strategies, self.seats.limits = &strategies[0], &limits[0]
        self.seats.future, self.seats.race = &future[0, 0], &self.race
        self.seats.heuristic = &heuristic[0, 0]
        self.seats.learned = &learned[0] if _uses_learned(strategies, learned) else NULL


def lookahead_lineup(int players, Race race, double[::1] learned=None):
    """A table of lookahead players reading `race` and `learned` (rate_lookahead and
    train_lookahead: lookahead reads only the race model and the learned value)."""
    import numpy
    return Lineup(numpy.full(players, LOOKAHEAD, dtype=numpy.intc),
                  numpy.zeros(players, dtype=numpy.intc), numpy.zeros((1, PENALTY_STATES)),
                  race, None, learned)


cdef class Position:
    """A table before a roll as the kernel reads it: the sheets (last box, marked numbers and
    locked flag per row, players x 4, and the penalties: kernel_view.sheet_arrays; the sheets
    are checked by the Python caller), the rows closed by anyone (bit i: row i), the active
    seat, the roll (six dice) and the lock rule."""
    cdef Table table
    cdef int dice[6]
    cdef readonly int players

    def __init__(self, int lock_after, int[:, ::1] last, int[:, ::1] marks, int[:, ::1] locked,
                 int[::1] penalties, int closed, int active, int[::1] dice):
        cdef int i, row, players = last.shape[0]
        if not 2 <= players <= MAX_PLAYERS:
            raise ValueError(f"2..{MAX_PLAYERS} players")
        if (marks.shape[0] != players or locked.shape[0] != players
                or penalties.shape[0] != players
                or last.shape[1] != ROWS or marks.shape[1] != ROWS or locked.shape[1] != ROWS
                or dice.shape[0] != 6):
            raise ValueError("one sheet and penalty count per player; six dice")
        if not (0 <= active < players and 0 <= closed < 16 and is_lock_rule(lock_after)):
            raise ValueError("active seat, closed rows or lock rule out of range")
        self.players = players
        self.table.players, self.table.closed, self.table.active = players, closed, active
        for i in range(players):
            for row in range(ROWS):
                self.table.sheets[i].last[row] = last[i, row]
                self.table.sheets[i].marks[row] = marks[i, row]
                self.table.sheets[i].locked[row] = locked[i, row]
            self.table.sheets[i].penalties = penalties[i]
            self.table.sheets[i].lock_after = lock_after
        for i in range(6):
            self.dice[i] = dice[i]


def rollouts(Lineup lineup, Position position, int seat, int first, int second,
             int second_box, uint64_t seed, double[::1] shares):
    """Play on a game from the middle of a turn, shares.shape[0] times: `position` is the
    table before this turn's roll; the player at `seat` plays action 1 `first` (a row or -1)
    and, when active, action 2 (`second`, `second_box`) if still legal; everyone else, and
    everything after, is played by `lineup` (entry i at seat i). Rollout k draws its rolls
    from game_stream(seed, k); shares[k] gets the player's share of that game (1, 1/k for a
    tie at the top, 0)."""
    cdef long count = shares.shape[0], k, begin, end
    cdef Table table
    cdef uint64_t stream
    if lineup.players != position.players:
        raise ValueError("one strategy per player")
    if not (0 <= seat < position.players and -1 <= first < ROWS and -1 <= second < ROWS):
        raise ValueError("seat or decisions out of range")
    for begin in range(0, count, CHUNK):
        end = min(begin + CHUNK, count)
        with nogil:
            for k in prange(begin, end, schedule="dynamic", chunksize=16):
                table = position.table
                stream = game_stream(seed, k)
                if not play_turn(&lineup.seats, &table, position.dice, &stream, seat, first,
                                 second, second_box):
                    play_on(&lineup.seats, &table, &stream)
                shares[k] = share_of(&table, seat)
        PyErr_CheckSignals()             # raises KeyboardInterrupt after Ctrl-C


cdef double[:, ::1] _heuristic_weights(int[::1] strategies, double[:, ::1] heuristic):
    """The heuristic players' weights, one row per entry (zeros when nobody needs them)."""
    cdef int i
    if heuristic is None:
        for i in range(strategies.shape[0]):
            if strategies[i] == WEIGHTED or strategies[i] == SCORED:
                raise ValueError("weighted and scored players need their weights")
        import numpy
        return numpy.zeros((strategies.shape[0], HEURISTIC_WEIGHTS))
    if heuristic.shape[0] != strategies.shape[0] or heuristic.shape[1] != HEURISTIC_WEIGHTS:
        raise ValueError(f"heuristic weights must be (players, {HEURISTIC_WEIGHTS})")
    return heuristic


cdef bint _uses_learned(int[::1] strategies, double[::1] learned) except -1:
    """Whether the table's lookahead players read `learned` (None: they read the race model).
    Only lookahead players at a table of two read one."""
    cdef int i
    cdef bint lookahead = False
    if learned is None:
        return False
    for i in range(strategies.shape[0]):
        lookahead = lookahead or strategies[i] == LOOKAHEAD
    if strategies.shape[0] != 2 or not lookahead:
        raise ValueError("learned weights are read by lookahead players at a table of two "
                         "only")
    if learned.shape[0] != LEARNED_SIZE:
        raise ValueError(f"learned weights are {LEARNED_SIZE} numbers, not {learned.shape[0]}")
    return True


def simulate(Lineup lineup, long first_game, long games, uint64_t seed, int[:, ::1] scores,
             int[::1] turns, int[::1] endings, *, int lock_after=5, bint rotate=True):
    """Play games first_game .. first_game+games-1 of the series `seed` between the entries
    of `lineup`; scores[g, e] gets the score of the strategy listed at entry e in the g-th
    game, turns[g] its turns and endings[g] how it ended (ENDINGS). With `rotate`, game
    number n (counted in the whole series) seats entry e at (e + n) mod players. Runs CHUNK
    games at a time and checks for signals in between, so Ctrl-C raises KeyboardInterrupt
    promptly."""
    cdef int players = lineup.players
    cdef long game, start, stop
    if (scores.shape[0] < games or scores.shape[1] != players or turns.shape[0] < games
            or endings.shape[0] < games):
        raise ValueError("result arrays too small")
    if games < 0 or first_game < 0:
        raise ValueError("games and first_game must not be negative")
    if not is_lock_rule(lock_after):
        raise ValueError("lock_after must be 5 or 4")
    for start in range(0, games, CHUNK):
        stop = min(start + CHUNK, games)
        with nogil:
            for game in prange(start, stop, schedule="dynamic", chunksize=64):
                turns[game] = play_rotated(
                    &lineup.seats, players, lock_after,
                    <int>((first_game + game) % players) if rotate else 0,
                    game_stream(seed, first_game + game), &scores[game, 0], &endings[game])
        PyErr_CheckSignals()             # raises KeyboardInterrupt after Ctrl-C


MAX_CHOICES = MAX_OPTIONS     # rows rate_lookahead may fill


def rate_lookahead(Position position, Lineup lineup, int seat, int marked_first,
                   int[:, ::1] options, double[::1] values, double[::1] means):
    """A lookahead player's choices at `seat` of `position`, rated as it rates them (the
    race model and learned value of `lineup`: lookahead_lineup); returns their number n.
    With marked_first = -1 they are its action-1 choices on the position's roll
    (lookahead_rates); with 0 or 1 they are the action-2 choices of the active player (seat
    == active), action 1 being resolved on the sheets given and having marked nothing (0) or
    something (1) (second_rates). options[i] gets (first row, its box, second row, its box),
    rows -1 for none; values[i] the chance at the next turn's start; means[i] the race mean of
    the player's final score. The arrays need MAX_CHOICES rows."""
    cdef int i, count
    cdef Option chosen[MAX_OPTIONS]
    cdef double rated[MAX_OPTIONS]
    cdef double race_means[MAX_OPTIONS]
    if lineup.players != position.players:
        raise ValueError("one strategy per player")
    if not 0 <= seat < position.players or not -1 <= marked_first <= 1:
        raise ValueError("seat or marked_first out of range")
    if marked_first >= 0 and seat != position.table.active:
        raise ValueError("only the active player has an action 2")
    if (options.shape[0] < MAX_OPTIONS or options.shape[1] != 4 or values.shape[0] < MAX_OPTIONS
            or means.shape[0] < MAX_OPTIONS):
        raise ValueError(f"options (MAX_CHOICES x 4), values and means need {MAX_OPTIONS} rows")
    with nogil:
        if marked_first < 0:
            count = lookahead_rates(&lineup.seats, &position.table, seat, position.dice,
                                    chosen, rated, race_means)
        else:
            count = second_rates(&lineup.seats, &position.table, position.dice, marked_first,
                                 chosen, rated, race_means)
    for i in range(count):
        options[i, 0], options[i, 1] = chosen[i].first, chosen[i].first_box
        options[i, 2], options[i, 3] = chosen[i].second, chosen[i].second_box
        values[i], means[i] = rated[i], race_means[i]
    return count


def train_lookahead(Lineup lineup, long first_game, long games, uint64_t seed, double rate,
                    double race_rate, *, int lock_after=5):
    """Learn the learned value of `lineup` (lookahead_lineup(2, race, learned)) in place by
    TD(0) over games first_game .. first_game+games-1 of the series `seed` between its two
    lookahead players (seat 0 rolls first; one core). At each turn's start, for each player,
    the learned chance of the position before is moved towards that of this one (the final
    share once the game is over): the weights it summed by rate * error, weight 0 by
    race_rate * error * its race logit (the gradient of the log loss in the logit). Checks
    for Ctrl-C every CHUNK games."""
    cdef int players = 2, p, k, die
    cdef long game, start, stop
    cdef Table table
    cdef uint64_t stream
    cdef int dice[6]
    cdef int index[2][FEATURES]
    cdef double race_logit[2]
    cdef bint known[2]
    cdef int now_index[FEATURES]
    cdef double now_race, now_chance, before, error, unused
    cdef bint over
    cdef double* values
    cdef const RaceModel* race
    if lineup.players != 2 or lineup.seats.learned == NULL:
        raise ValueError("training needs a table of two lookahead players and a learned value")
    if not is_lock_rule(lock_after) or games < 0 or first_game < 0:
        raise ValueError("lock_after must be 5 or 4; games and first_game not negative")
    if not (0.0 <= rate <= 1.0 and 0.0 <= race_rate <= 1.0):
        raise ValueError("the learning rates must be 0..1")
    # the lineup's weights, written in place (lookahead_lineup holds them)
    values = <double*>lineup.seats.learned
    race = lineup.seats.race
    for start in range(first_game, first_game + games, CHUNK):
        stop = min(start + CHUNK, first_game + games)
        with nogil:
            for game in range(start, stop):
                new_game(&table, players, lock_after)
                stream = game_stream(seed, game)
                known[0] = known[1] = False
                over = False
                while True:
                    for p in range(players):
                        if over:
                            now_chance = share_of(&table, p)
                        else:
                            now_chance = logistic(learned_logit(
                                race, values, &table.sheets[p], &table.sheets[1 - p],
                                table.closed, table.active == p, now_index, &now_race,
                                &unused))
                        if known[p]:
                            before = values[0] * race_logit[p]
                            for k in range(FEATURES):
                                before += values[index[p][k]]
                            error = now_chance - logistic(before)
                            for k in range(FEATURES):
                                values[index[p][k]] += rate * error
                            values[0] += race_rate * error * race_logit[p]
                        for k in range(FEATURES):
                            index[p][k] = now_index[k]
                        race_logit[p] = now_race
                        known[p] = True
                    if over:
                        break
                    for die in range(6):
                        dice[die] = 1 + random_below(&stream, 6)
                    over = play_turn(&lineup.seats, &table, dice, &stream, -1, NO_ROW, NO_ROW, 0)
        PyErr_CheckSignals()             # raises KeyboardInterrupt after Ctrl-C
