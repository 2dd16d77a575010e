# cython: language_level=3
"""The exact optimal single-player strategy: expected future points of every sheet state.

U[state, p] is the expected number of points a player who is always the active player still
scores, under optimal play, from a sheet in symmetry orbit `state` (see _rows.pxd) with p
penalties, at the start of a turn. The expected final score is the sheet's score plus U.

One turn, for a white pair (w1, w2) and coloured dice d (one per open row):
    value = max over (action 1, action 2) of points gained + U[next state]
Every option's action 2 uses one coloured die at most, so with
    C      = best option that uses no coloured die (a penalty, or action 1 alone)
    G_k(d) = best option whose action 2 is in row k with that row's die showing d
the value is max(C, max_k G_k(d_k)) with the d_k independent, and its expectation over the
coloured dice follows from the distributions of the G_k (`expected_maximum`): 21 white pairs
x 24 (row, die) cases per state instead of 46,656 rolls.

States are solved from the most advanced down (a mark raises the sum of the row states), one
level of that sum at a time, the states of a level in parallel.
"""
from cpython.exc cimport PyErr_CheckSignals
from cython.parallel cimport prange
from libc.math cimport INFINITY

from ._rows cimport (CLOSED, MAX_PENALTIES, POSITIONS, RowTables,
                     SHEET_STATES, number_position, row_tables, state_index)


cdef enum:
    ROWS = 4
    FACES = 6

cdef double PENALTY_POINTS = 5.0


cdef inline double expected_maximum(double floor, const double* values, const int* open_rows,
                                    int open_count) noexcept nogil:
    """E[max(floor, max_k values[k*6 + d_k])] for independent uniform dice d_k, k in open_rows.

    Entries above the floor are sorted per row and merged in increasing order; an entry of row k
    is the maximum with probability prod_{j != k} (entries of row j already passed) / 6^K.
    """
    cdef double above[ROWS][FACES]
    cdef int above_count[ROWS]
    cdef int passed[ROWS]
    cdef int head[ROWS]
    cdef int i, j, k, row, best_row
    cdef double value, best, total_weight = 1.0, result
    cdef long weight
    for i in range(open_count):
        row = open_rows[i]
        above_count[i] = 0
        for j in range(FACES):
            value = values[row * FACES + j]
            if value > floor:
                k = above_count[i]
                while k > 0 and above[i][k - 1] > value:
                    above[i][k] = above[i][k - 1]
                    k -= 1
                above[i][k] = value
                above_count[i] += 1
        passed[i] = FACES - above_count[i]
        head[i] = 0
        total_weight *= FACES
    weight = 1
    for i in range(open_count):
        weight *= passed[i]
    result = floor * weight
    while True:
        best_row = -1
        best = INFINITY
        for i in range(open_count):
            if head[i] < above_count[i] and above[i][head[i]] < best:
                best = above[i][head[i]]
                best_row = i
        if best_row < 0:
            break
        weight = 1
        for i in range(open_count):
            if i != best_row:
                weight *= passed[i]
        result += best * weight
        passed[best_row] += 1
        head[best_row] += 1
    return result / total_weight


cdef void solve_state(double* future, const int* rows) noexcept nogil:
    """Set future[state_index(rows), 0..3] from the values of the states after it.

    single[k][pos][p]: points + U after one mark at `pos` in row k (-inf when illegal);
    double_mark[r][pos_r][k][pos_k][p]: after action 1 at (r, pos_r) then action 2 at
    (k, pos_k), -inf when illegal or when action 1 ended the game; filled only for legal
    action-1 marks.
    """
    cdef double single[ROWS][POSITIONS][MAX_PENALTIES]
    cdef double double_mark[ROWS][POSITIONS][ROWS][POSITIONS][MAX_PENALTIES]
    cdef double by_die[ROWS * FACES]
    cdef const RowTables* tables = row_tables()
    cdef Py_ssize_t here = state_index(rows[0], rows[1], rows[2], rows[3])
    cdef Py_ssize_t after_index
    cdef int closed_count = 0, open_rows[ROWS], open_count = 0
    cdef int r, k, i, pos_r, pos_k, p, state_r, state_k, new_r, new_k, gain_r, gain_k
    cdef int after[ROWS]
    cdef int w1, w2, total, d, white, j, white_pos[ROWS]
    cdef int first_actions[ROWS], first_count
    cdef double pair_probability, value, floor, candidate
    cdef double expected
    cdef bint ends_game

    for r in range(ROWS):
        if rows[r] == CLOSED:
            closed_count += 1
        else:
            open_rows[open_count] = r
            open_count += 1

    for r in range(ROWS):
        state_r = rows[r]
        for pos_r in range(POSITIONS):
            new_r = tables.next_state[state_r][pos_r]
            if new_r < 0:
                for p in range(MAX_PENALTIES):
                    single[r][pos_r][p] = -INFINITY
                continue
            gain_r = tables.gain[state_r][pos_r]
            after[0] = rows[0]; after[1] = rows[1]; after[2] = rows[2]; after[3] = rows[3]
            after[r] = new_r
            after_index = state_index(after[0], after[1], after[2], after[3]) * MAX_PENALTIES
            for p in range(MAX_PENALTIES):
                single[r][pos_r][p] = gain_r + future[after_index + p]
            ends_game = new_r == CLOSED and closed_count == 1
            for k in range(ROWS):
                state_k = after[k]
                for pos_k in range(POSITIONS):
                    new_k = tables.next_state[state_k][pos_k]
                    if ends_game or new_k < 0:
                        for p in range(MAX_PENALTIES):
                            double_mark[r][pos_r][k][pos_k][p] = -INFINITY
                        continue
                    gain_k = tables.gain[state_k][pos_k]
                    after[k] = new_k
                    after_index = state_index(after[0], after[1], after[2], after[3]) * MAX_PENALTIES
                    after[k] = state_k
                    for p in range(MAX_PENALTIES):
                        double_mark[r][pos_r][k][pos_k][p] = (gain_r + gain_k
                                                              + future[after_index + p])

    # The penalty option of p needs U at p + 1 of this same state: solve p = 3 first.
    for p in range(MAX_PENALTIES - 1, -1, -1):
        expected = 0.0
        for w1 in range(1, FACES + 1):
            for w2 in range(w1, FACES + 1):
                pair_probability = (1.0 if w1 == w2 else 2.0) / 36.0
                total = w1 + w2
                first_count = 0
                for r in range(ROWS):
                    white_pos[r] = number_position(r, total)
                    if tables.next_state[rows[r]][white_pos[r]] >= 0:
                        first_actions[first_count] = r
                        first_count += 1
                # C: a penalty, or action 1 alone
                floor = -PENALTY_POINTS
                if p + 1 < MAX_PENALTIES:
                    floor = floor + future[here * MAX_PENALTIES + p + 1]
                for i in range(first_count):
                    r = first_actions[i]
                    if single[r][white_pos[r]][p] > floor:
                        floor = single[r][white_pos[r]][p]
                # G_k(d): action 2 in row k with die d, after the best action 1 (or none)
                for j in range(open_count):
                    k = open_rows[j]
                    for d in range(1, FACES + 1):
                        value = -INFINITY
                        for white in range(2):
                            pos_k = number_position(k, (w1 if white == 0 else w2) + d)
                            candidate = single[k][pos_k][p]
                            if candidate > value:
                                value = candidate
                            for i in range(first_count):
                                r = first_actions[i]
                                candidate = double_mark[r][white_pos[r]][k][pos_k][p]
                                if candidate > value:
                                    value = candidate
                        by_die[k * FACES + d - 1] = value
                expected += pair_probability * expected_maximum(floor, by_die, open_rows,
                                                                open_count)
        future[here * MAX_PENALTIES + p] = expected


def solve(double[:, ::1] future, int[::1] packed_rows, long[::1] level_starts, progress=None):
    """Solve the listed states level by level, most advanced first, into `future`.

    packed_rows[i] holds a state's four row states, 6 bits each (red in the high bits);
    level_starts[l] .. level_starts[l+1] is one level (states solvable in any order).
    Signals are checked after each level (at most about a third of a second of work), so
    Ctrl-C stops the solve promptly with KeyboardInterrupt even without a progress callback.
    """
    cdef Py_ssize_t level, start, stop, i
    cdef double* values = &future[0, 0]
    if future.shape[0] != SHEET_STATES or future.shape[1] != MAX_PENALTIES:
        raise ValueError("future must have shape (SHEET_STATES, 4)")
    for level in range(level_starts.shape[0] - 1):
        start = level_starts[level]
        stop = level_starts[level + 1]
        with nogil:
            for i in prange(start, stop, schedule="dynamic", chunksize=8):
                _solve_packed(values, packed_rows[i])
        PyErr_CheckSignals()             # raises KeyboardInterrupt after Ctrl-C
        if progress is not None:
            progress(stop - start)


cdef inline void _solve_packed(double* future, int packed) noexcept nogil:
    cdef int rows[ROWS]
    rows[0] = (packed >> 18) & 63
    rows[1] = (packed >> 12) & 63
    rows[2] = (packed >> 6) & 63
    rows[3] = packed & 63
    solve_state(future, rows)
