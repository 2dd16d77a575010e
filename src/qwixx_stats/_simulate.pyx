# cython: language_level=3
"""Whole games of Qwixx between strategies, without the GIL, one random stream per game.

This is the Cython mirror of game.py (rules) and strategies.py / solitaire.OptimalPlayer
(decisions): the same option order, tie-breaks and random draws, so that a seed gives the same
games in both (tested). A sheet is kept as, per row, the last marked box (-1 when empty), the
number of marked numbers and whether this player locked it; `closed` is a 4-bit mask shared by
the table.
"""
from cpython.exc cimport PyErr_CheckSignals
from cython.parallel cimport prange
from libc.stdint cimport uint64_t

from ._rows cimport CLOSED, LOCK_POSITION, MARKS_TO_LOCK, SHEET_STATES, state_index

cdef enum:
    CHUNK = 4096       # games between two checks for Ctrl-C (a few hundredths of a second)
    ROWS = 4
    MAX_PLAYERS = 8
    MAX_OPTIONS = 5 * (1 + ROWS * 2)
    NO_ROW = -1
    OPTIMAL = 0
    GREEDY = 1
    CAUTIOUS = 2
    RANDOM = 3
    PENALTY_POINTS = 5
    MAX_PENALTIES = 4

STRATEGY_CODES = {"optimal": OPTIMAL, "greedy": GREEDY, "cautious": CAUTIOUS, "random": RANDOM}

ctypedef struct Sheet:
    int last[ROWS]
    int marks[ROWS]
    int locked[ROWS]
    int penalties

ctypedef struct Option:
    int first          # row of action 1, or NO_ROW
    int second         # row of action 2, or NO_ROW
    int second_box     # its box


# -- random stream (strategies.SplitMix64) ------------------------------------------------
cdef inline uint64_t next_random(uint64_t* state) noexcept nogil:
    state[0] += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = state[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline int random_below(uint64_t* state, int n) noexcept nogil:
    return <int>(((next_random(state) >> 32) * <uint64_t>n) >> 32)


cdef inline uint64_t game_stream(uint64_t seed, long game) noexcept nogil:
    cdef uint64_t mixer = seed + 0x9E3779B97F4A7C15ULL * <uint64_t>(game + 1)
    return next_random(&mixer)


# -- sheets (sheet.Sheet) -----------------------------------------------------------------
cdef inline int box_of(int row, int number) noexcept nogil:
    return number - 2 if row < 2 else 12 - number


cdef inline bint can_mark(const Sheet* sheet, int closed, int row, int box) noexcept nogil:
    if closed & (1 << row):
        return False
    if box <= sheet.last[row]:
        return False
    return box < LOCK_POSITION or sheet.marks[row] >= MARKS_TO_LOCK


cdef inline int mark(Sheet* sheet, int closed, int row, int box) noexcept nogil:
    """Mark a legal box; returns the closed mask including a lock it makes."""
    sheet.last[row] = box
    sheet.marks[row] += 1
    if box == LOCK_POSITION:
        sheet.locked[row] = 1
        closed |= 1 << row
    return closed


cdef inline int score(const Sheet* sheet) noexcept nogil:
    cdef int total = -PENALTY_POINTS * sheet.penalties, row, n
    for row in range(ROWS):
        n = sheet.marks[row] + sheet.locked[row]
        total += n * (n + 1) // 2
    return total


cdef inline int closed_count(int closed) noexcept nogil:
    return (closed & 1) + ((closed >> 1) & 1) + ((closed >> 2) & 1) + ((closed >> 3) & 1)


cdef inline int row_state(const Sheet* sheet, int closed, int row) noexcept nogil:
    if closed & (1 << row):
        return CLOSED
    if sheet.marks[row] == 0:
        return 0
    return 1 + sheet.last[row] * (sheet.last[row] + 1) // 2 + sheet.marks[row] - 1


cdef inline double sheet_value(const double* future, const Sheet* sheet, int closed) noexcept nogil:
    """Expected final score of the single-player optimum (solitaire.ExpectedValues.value)."""
    if sheet.penalties >= MAX_PENALTIES or closed_count(closed) >= 2:
        return score(sheet)
    cdef Py_ssize_t index = state_index(row_state(sheet, closed, 0), row_state(sheet, closed, 1),
                                        row_state(sheet, closed, 2), row_state(sheet, closed, 3))
    return score(sheet) + future[index * MAX_PENALTIES + sheet.penalties]


# -- options (game.active_options) --------------------------------------------------------
cdef int active_options(const Sheet* sheet, int closed, const int* dice, Option* options) noexcept nogil:
    cdef int count = 0, first, row, white, box, number, closed_after
    cdef int total = dice[0] + dice[1]
    cdef Sheet after
    for first in range(-1, ROWS):
        after = sheet[0]
        closed_after = closed
        if first >= 0:
            box = box_of(first, total)
            if not can_mark(sheet, closed, first, box):
                continue
            closed_after = mark(&after, closed, first, box)
        options[count].first = first
        options[count].second = NO_ROW
        options[count].second_box = 0
        count += 1
        if closed_count(closed_after) >= 2:
            continue
        for row in range(ROWS):
            for white in range(2):
                number = dice[white] + dice[2 + row]
                if white == 1 and dice[1] == dice[0]:
                    continue
                box = box_of(row, number)
                if can_mark(&after, closed_after, row, box):
                    options[count].first = first
                    options[count].second = row
                    options[count].second_box = box
                    count += 1
    return count


cdef inline int apply_option(Sheet* sheet, int closed, const int* dice, const Option* option) noexcept nogil:
    """game.apply_option: both marks, or a penalty when there is none."""
    if option.first >= 0:
        closed = mark(sheet, closed, option.first, box_of(option.first, dice[0] + dice[1]))
    if option.second >= 0:
        closed = mark(sheet, closed, option.second, option.second_box)
    if option.first < 0 and option.second < 0:
        sheet.penalties += 1
    return closed


cdef inline int skipped(const Sheet* sheet, int row, int box) noexcept nogil:
    return box - sheet.last[row] - 1


cdef inline int option_skips(const Sheet* sheet, const int* dice, const Option* option,
                             int* largest) noexcept nogil:
    """Total boxes skipped by an option's marks; largest[0] gets the largest single skip."""
    cdef Sheet after = sheet[0]
    cdef int total = 0, k, box
    largest[0] = 0
    if option.first >= 0:
        box = box_of(option.first, dice[0] + dice[1])
        k = skipped(&after, option.first, box)
        total += k
        largest[0] = k
        mark(&after, 0, option.first, box)
    if option.second >= 0:
        k = skipped(&after, option.second, option.second_box)
        total += k
        if k > largest[0]:
            largest[0] = k
    return total


cdef inline int option_marks(const Option* option) noexcept nogil:
    return (option.first >= 0) + (option.second >= 0)


# -- decisions ----------------------------------------------------------------------------
cdef int choose_active(int strategy, int limit, const Sheet* sheet, int closed, const int* dice,
                       const double* future, uint64_t* stream, Option* chosen) noexcept nogil:
    """The active player's (action 1, action 2) plan; returns 0, or -1 when no option fits."""
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
        if strategy == OPTIMAL:
            after = sheet[0]
            value = sheet_value(future, &after, apply_option(&after, closed, dice, &options[i]))
            if best < 0 or value > best_value:
                best, best_value = i, value
            continue
        skips = option_skips(sheet, dice, &options[i], &largest)
        if strategy == GREEDY:
            after = sheet[0]
            apply_option(&after, closed, dice, &options[i])
            key_a = score(&after) - score(sheet)
            key_b = -skips
        else:
            if largest > limit:
                continue
            key_a = option_marks(&options[i])
            key_b = -skips
        if best < 0 or key_a > best_a or (key_a == best_a and key_b > best_b):
            best, best_a, best_b = i, key_a, key_b
    chosen[0] = options[best]
    return 0


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
    if strategy == OPTIMAL:
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
            key_a = sheet.marks[row] + 1 + (sheet.marks[row] + 2 if box == LOCK_POSITION else 0)
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
    cdef int count = 1, row, white, box, i, best = 0, key_a, key_b, best_a, best_b
    cdef double value, best_value
    cdef Sheet after
    rows[0] = NO_ROW
    boxes[0] = 0
    for row in range(ROWS):
        for white in range(2):
            if white == 1 and dice[1] == dice[0]:
                continue
            box = box_of(row, dice[white] + dice[2 + row])
            if can_mark(sheet, closed, row, box):
                rows[count] = row
                boxes[count] = box
                count += 1
    if strategy == RANDOM:
        best = random_below(stream, count)
    elif strategy == OPTIMAL:
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
                key_a = sheet.marks[rows[i]] + 1
                if boxes[i] == LOCK_POSITION:
                    key_a += sheet.marks[rows[i]] + 2
            else:
                if skipped(sheet, rows[i], boxes[i]) > limit:
                    continue
                key_a = 1
            key_b = -skipped(sheet, rows[i], boxes[i])
            if key_a > best_a or (key_a == best_a and key_b > best_b):
                best, best_a, best_b = i, key_a, key_b
    chosen_box[0] = boxes[best]
    return rows[best]


# -- one game (game.Game.play_turn_with) --------------------------------------------------
cdef int play_game(int players, const int* strategies, const int* limits, const double* future,
                   uint64_t stream, int* scores) noexcept nogil:
    """Play one game; scores[i] gets player i's final score; returns the number of turns."""
    cdef Sheet sheets[MAX_PLAYERS]
    cdef int firsts[MAX_PLAYERS]
    cdef int dice[6]
    cdef int closed = 0, closed_after, active = 0, turns = 0, i, row, box, second, die
    cdef bint over = False, marked
    cdef Option plan
    for i in range(players):
        for row in range(ROWS):
            sheets[i].last[row] = -1
            sheets[i].marks[row] = 0
            sheets[i].locked[row] = 0
        sheets[i].penalties = 0
    while not over:
        turns += 1
        for die in range(6):
            dice[die] = 1 + random_below(&stream, 6)
        # action 1: decided by everyone on the sheets as they are, then applied together
        for i in range(players):
            if i == active:
                choose_active(strategies[i], limits[i], &sheets[i], closed, dice, future,
                              &stream, &plan)
                firsts[i] = plan.first
            else:
                firsts[i] = choose_passive(strategies[i], limits[i], &sheets[i], closed, dice,
                                           future, &stream)
        closed_after = closed
        for i in range(players):
            if firsts[i] >= 0:
                closed_after |= mark(&sheets[i], closed, firsts[i],
                                     box_of(firsts[i], dice[0] + dice[1]))
        closed = closed_after
        if closed_count(closed) >= 2:
            break
        # action 2: the active player alone
        marked = firsts[active] >= 0
        second = choose_second(strategies[active], limits[active], &sheets[active], closed, dice,
                               marked, future, &stream, &box)
        if second >= 0:
            closed = mark(&sheets[active], closed, second, box)
        elif not marked:
            sheets[active].penalties += 1
        over = sheets[active].penalties >= MAX_PENALTIES or closed_count(closed) >= 2
        active = (active + 1) % players
    for i in range(players):
        scores[i] = score(&sheets[i])
    return turns


def simulate(int[::1] strategies, int[::1] limits, long first_game, long games, uint64_t seed,
             double[:, ::1] future, int[:, ::1] scores, int[::1] turns):
    """Play games first_game .. first_game+games-1 of the series `seed`; scores[g, i] and
    turns[g] receive the results of the g-th. `future` is the single-player table (used by
    optimal players only; pass a (1, 4) dummy otherwise). Runs CHUNK games at a time and
    checks for signals in between, so Ctrl-C raises KeyboardInterrupt promptly."""
    cdef int players = strategies.shape[0]
    cdef long game, start, stop
    cdef const double* values = &future[0, 0]
    if not 1 <= players <= MAX_PLAYERS:
        raise ValueError(f"1..{MAX_PLAYERS} players")
    if scores.shape[0] < games or scores.shape[1] != players or turns.shape[0] < games:
        raise ValueError("result arrays too small")
    if games < 0 or first_game < 0:
        raise ValueError("games and first_game must not be negative")
    if limits.shape[0] != players:
        raise ValueError("one limit per strategy")
    if future.shape[1] != MAX_PENALTIES:
        raise ValueError("future must have 4 columns")
    for game in range(players):
        if not 0 <= strategies[game] <= RANDOM:
            raise ValueError("unknown strategy code")
        if strategies[game] == OPTIMAL and future.shape[0] != SHEET_STATES:
            raise ValueError("optimal players need the whole single-player table")
    for start in range(0, games, CHUNK):
        stop = min(start + CHUNK, games)
        with nogil:
            for game in prange(start, stop, schedule="dynamic", chunksize=64):
                turns[game] = play_game(players, &strategies[0], &limits[0], values,
                                        game_stream(seed, first_game + game),
                                        &scores[game, 0])
        PyErr_CheckSignals()             # raises KeyboardInterrupt after Ctrl-C
