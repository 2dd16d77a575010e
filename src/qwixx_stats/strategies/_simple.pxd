# The simple strategies' decisions (strategies/simple.py, the twin): max-score (the best
# expected final score by the single-player table), greedy (the most points now, then the
# fewest boxes skipped), cautious:K (the most marks that skip at most K boxes each, then the
# fewest skipped) and random (a uniform choice of the stream).
from libc.stdint cimport uint64_t

from ..rules._constants cimport PENALTY_POINTS
from ..rules._options cimport (MAX_OPTIONS, active_options, apply_option, mark_gain,
                               option_gain, option_marks, option_skips, second_marks, skipped)
from ..rules._sheet cimport NO_ROW, ROWS, Option, Sheet, box_of, can_mark, mark, sheet_value
from ..rules._stream cimport random_below
from ._codes cimport CAUTIOUS, GREEDY, MAX_SCORE, RANDOM

ctypedef struct SimplePlayer:     # one simple player and what it reads
    int strategy                  # MAX_SCORE, GREEDY, CAUTIOUS or RANDOM
    int limit                     # CAUTIOUS: the most boxes one mark may skip
    const double* future          # MAX_SCORE: the single-player table
    uint64_t* stream              # RANDOM: the game's random stream


cdef inline void choose_active(const SimplePlayer* player, const Sheet* sheet, int closed,
                               const int* dice, Option* chosen) noexcept nogil:
    """The active player's (action 1, action 2) plan, into chosen[0]. There is always one:
    option 0, no mark (a penalty), skips no box, so even cautious:0 may take it."""
    cdef int strategy = player.strategy, limit = player.limit
    cdef Option options[MAX_OPTIONS]
    cdef int count = active_options(sheet, closed, dice, options)
    cdef int i, best = -1, largest, skips, key_a, key_b, best_a = 0, best_b = 0
    cdef double value, best_value = 0.0
    cdef Sheet after
    if strategy == RANDOM:
        best = random_below(player.stream, count)
    for i in range(count):
        if strategy == RANDOM:
            break
        if strategy == MAX_SCORE:
            after = sheet[0]
            value = sheet_value(player.future, &after, apply_option(&after, closed, &options[i]))
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


cdef inline int choose_passive(const SimplePlayer* player, const Sheet* sheet, int closed,
                               const int* dice) noexcept nogil:
    """A non-active player's action 1: a row, or NO_ROW."""
    cdef int strategy = player.strategy, limit = player.limit
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
        return choices[random_below(player.stream, count)]
    if strategy == MAX_SCORE:
        best_value = sheet_value(player.future, sheet, closed)
        for i in range(1, count):
            after = sheet[0]
            closed_after = mark(&after, closed, choices[i], box_of(choices[i], total))
            value = sheet_value(player.future, &after, closed_after)
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


cdef inline int choose_second(const SimplePlayer* player, const Sheet* sheet, int closed,
                              const int* dice, bint marked_first, int* chosen_box) noexcept nogil:
    """The active player's action 2 once action 1 is resolved: a row (box in chosen_box) or
    NO_ROW."""
    cdef int strategy = player.strategy, limit = player.limit
    cdef int rows[1 + 2 * ROWS]
    cdef int boxes[1 + 2 * ROWS]
    cdef int count, i, best = 0, key_a, key_b, best_a, best_b
    cdef double value, best_value
    cdef Sheet after
    rows[0] = NO_ROW
    boxes[0] = 0
    count = 1 + second_marks(sheet, closed, dice, rows + 1, boxes + 1)
    if strategy == RANDOM:
        best = random_below(player.stream, count)
    elif strategy == MAX_SCORE:
        after = sheet[0]
        if not marked_first:
            after.penalties += 1
        best_value = sheet_value(player.future, &after, closed)
        for i in range(1, count):
            after = sheet[0]
            value = sheet_value(player.future, &after, mark(&after, closed, rows[i], boxes[i]))
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
