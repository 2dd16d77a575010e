# The decisions of qwixxer-ga, the champion of the public qwixxer bot (its method and source,
# and the twin: qwixxer.py): an instinct (a weighted value of the sheet) under meta-rules
# (locks, a fourth penalty, pruned choices). As in its program, the active champion decides
# its whole turn at once (champion_active); the game loop keeps its action 2 while it is legal
# and asks champion_second otherwise.
from ..rules._constants cimport CLOSED_ROWS_TO_END, PENALTIES_TO_END, PENALTY_POINTS, game_ends
from ..rules._game cimport Table
from ..rules._options cimport MAX_OPTIONS, apply_option, second_marks
from ..rules._sheet cimport (NO_ROW, ROWS, Option, Sheet, box_of, can_mark, closed_count, mark,
                             score)
from ._heuristics cimport sum_ways

cdef extern from *:
    """
    /* qwixxer.CHAMPION_WEIGHTS, in order */
    #define QWIXX_CHAMPION_CHANCES 0.49085229701342714
    #define QWIXX_CHAMPION_PENALTIES -0.8692448091076695
    #define QWIXX_CHAMPION_CONCENTRATION 0.01846237488088304
    #define QWIXX_CHAMPION_BLANKS -0.056005580702027866
    """
    const double CHAMPION_CHANCES "QWIXX_CHAMPION_CHANCES"
    const double CHAMPION_PENALTIES "QWIXX_CHAMPION_PENALTIES"
    const double CHAMPION_CONCENTRATION "QWIXX_CHAMPION_CONCENTRATION"
    const double CHAMPION_BLANKS "QWIXX_CHAMPION_BLANKS"


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


cdef inline int champion_pick(const Sheet* before, int closed, int best_other,
                              const Option* options, int count,
                              bint nothing_is_penalty) noexcept nogil:
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


cdef inline int champion_options(const Sheet* sheet, int closed, const int* dice,
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


cdef inline void champion_active(const Table* table, int me, const int* dice,
                                 Option* chosen) noexcept nogil:
    """The champion's whole turn (its plan) as the active player."""
    cdef Option options[MAX_OPTIONS + 1]
    cdef int count = champion_options(&table.sheets[me], table.closed, dice, options)
    chosen[0] = options[champion_pick(&table.sheets[me], table.closed,
                                      best_other_score(table.sheets, table.players, me),
                                      options, count, True)]


cdef inline int champion_passive(const Table* table, int me, const int* dice) noexcept nogil:
    """The champion's white sum when not active: a lock that does not end a game it trails,
    else the highest instinct (no mark last, a tie to the later)."""
    cdef int row, box, best = NO_ROW, lock = NO_ROW, lock_score = 0, closed_after
    cdef int best_other = best_other_score(table.sheets, table.players, me)
    cdef int total = dice[0] + dice[1]
    cdef double value, best_value = 0.0
    cdef bint found = False
    cdef Sheet after
    for row in range(ROWS):
        box = box_of(row, total)
        if not can_mark(&table.sheets[me], table.closed, row, box):
            continue
        after = table.sheets[me]
        closed_after = mark(&after, table.closed, row, box)
        if good_lock(table.closed, closed_after, score(&after), best_other):
            if lock < 0 or score(&after) >= lock_score:
                lock, lock_score = row, score(&after)
        value = champion_instinct(&after, closed_after)
        if not found or value >= best_value:
            best, best_value, found = row, value, True
    if lock >= 0:
        return lock
    if not found or champion_instinct(&table.sheets[me], table.closed) >= best_value:
        return NO_ROW
    return best


cdef inline int champion_second(const Table* table, int me, const int* dice, bint marked_first,
                                int* chosen_box) noexcept nogil:
    """The champion's action 2 when its plan's mark is no longer legal: its choice among the
    marks left (none first)."""
    cdef Option options[1 + 2 * ROWS]
    cdef int rows[2 * ROWS]
    cdef int boxes[2 * ROWS]
    cdef int i, count = second_marks(&table.sheets[me], table.closed, dice, rows, boxes)
    options[0].first, options[0].first_box = NO_ROW, 0
    options[0].second, options[0].second_box = NO_ROW, 0
    for i in range(count):
        options[1 + i].first, options[1 + i].first_box = NO_ROW, 0
        options[1 + i].second, options[1 + i].second_box = rows[i], boxes[i]
    i = champion_pick(&table.sheets[me], table.closed,
                      best_other_score(table.sheets, table.players, me), options, count + 1,
                      not marked_first)
    chosen_box[0] = options[i].second_box
    return options[i].second
