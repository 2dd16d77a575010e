# The marks a roll offers and what an option does to a sheet (rules/game.py: colour_marks,
# apply_option, active_options: the options of a roll in order).
from ._constants cimport PENALTY_POINTS, game_ends
from ._rows cimport LOCK_POSITION
from ._sheet cimport NO_ROW, ROWS, Option, Sheet, box_of, can_mark, closed_count, mark

cdef enum:
    MAX_OPTIONS = 5 * (1 + ROWS * 2)


cdef inline int second_marks(const Sheet* sheet, int closed, const int* dice, int* rows,
                             int* boxes) noexcept nogil:
    """The marks action 2 can make on `sheet` (game.colour_marks): per row, in row order, a
    white die plus that row's die, the first white die's before the second's (equal white
    dice once); returns their number."""
    cdef int count = 0, row, white, box
    for row in range(ROWS):
        for white in range(2):
            if white == 1 and dice[1] == dice[0]:
                continue
            box = box_of(row, dice[white] + dice[2 + row])
            if can_mark(sheet, closed, row, box):
                rows[count] = row
                boxes[count] = box
                count += 1
    return count


cdef inline int apply_option(Sheet* sheet, int closed, const Option* option) noexcept nogil:
    """game.apply_option: both marks, or a penalty when there is none."""
    if option.first >= 0:
        closed = mark(sheet, closed, option.first, option.first_box)
    if option.second >= 0:
        closed = mark(sheet, closed, option.second, option.second_box)
    if option.first < 0 and option.second < 0:
        sheet.penalties += 1
    return closed


cdef inline int skipped(const Sheet* sheet, int row, int box) noexcept nogil:
    return box - sheet.last[row] - 1


cdef inline int mark_gain(int marks, int box) noexcept nogil:
    """The points a legal mark adds to a row of `marks` marks: one more mark, and the lock's
    mark too when it locks (a row of n marks scores n(n+1)/2)."""
    if box == LOCK_POSITION:
        return (marks + 1) + (marks + 2)
    return marks + 1


cdef inline int option_gain(const Sheet* sheet, const Option* option) noexcept nogil:
    """score(sheet after the option) - score(sheet), without making that sheet: the gain of
    each mark (the second counts the first when both are in one row), or a penalty."""
    cdef int gain = 0
    if option.first < 0 and option.second < 0:
        return -PENALTY_POINTS
    if option.first >= 0:
        gain = mark_gain(sheet.marks[option.first], option.first_box)
    if option.second >= 0:
        gain += mark_gain(sheet.marks[option.second] + (option.second == option.first),
                          option.second_box)
    return gain


cdef inline int option_skips(const Sheet* sheet, const Option* option,
                             int* largest) noexcept nogil:
    """Total boxes skipped by an option's marks; largest[0] gets the largest single skip (the
    second mark skips from the first when both are in one row)."""
    cdef int total = 0, k, box = -1, last
    largest[0] = 0
    if option.first >= 0:
        box = option.first_box
        k = skipped(sheet, option.first, box)
        total += k
        largest[0] = k
    if option.second >= 0:
        last = box if option.second == option.first else sheet.last[option.second]
        k = option.second_box - last - 1
        total += k
        if k > largest[0]:
            largest[0] = k
    return total


cdef inline int option_marks(const Option* option) noexcept nogil:
    return (option.first >= 0) + (option.second >= 0)


cdef inline int active_options(const Sheet* sheet, int closed, const int* dice,
                               Option* options) noexcept nogil:
    """game.active_options: the active player's (action 1, action 2) options in order: no
    white mark first, then each row's; after each, no colour mark, then second_marks'."""
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
