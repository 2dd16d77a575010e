# cython: language_level=3
"""Expected future points of every sheet state: the single-player optimum, and the paced model
that the `win` strategy's race estimate rests on.

U[state, p] is the expected number of points a player still scores, under play that maximises
that expectation, from a sheet in symmetry orbit `state` (see _rows.pxd) with p penalties, at
the start of a turn. The expected final score is the sheet's score plus U. The model has two
parameters (`Model`):
- active_share a: the chance that this player is the active one in a turn. The single-player
  optimum has a = 1; in a game of N players a player is active one turn in N, so the paced
  model uses a = 1/N (a random active turn at the same rate as the real rotation).
- continuation q: the chance that the game goes on after a turn that did not end it on this
  sheet (the others end it with chance 1 - q). The single-player optimum has q = 1.
With q < 1 or a < 1 marks now weigh more against boxes kept for later, as in a real game.
Optionally the second moment M[state, p] of the points still to come, under the same play, is
solved beside U: the race needs the spread of the final score, not only its mean.

One turn, for a white pair (w1, w2) and coloured dice d (one per open row), when active:
    value = max over (action 1, action 2) of points gained + q U[next state]
Every option's action 2 uses one coloured die at most, so with
    C      = best option that uses no coloured die (a penalty, or action 1 alone)
    G_k(d) = best option whose action 2 is in row k with that row's die showing d
the value is max(C, max_k G_k(d_k)) with the d_k independent, and its expectation over the
coloured dice follows from the distributions of the G_k (`expected_maximum`): 21 white pairs
x 24 (row, die) cases per state instead of 46,656 rolls. When not active (a < 1) the player
may mark the white sum or nothing, and nothing keeps the same state:
    U = a A + (1 - a) sum_w P(w) max(q U, best mark of w)
which is solved for U exactly by Newton steps on its piecewise linear right-hand side (the set
of sums not worth marking settles in a few steps).

States are solved from the most advanced down (a mark raises the sum of the row states), one
level of that sum at a time, the states of a level in parallel.
"""
from cpython.exc cimport PyErr_CheckSignals
from cython.parallel cimport prange
from libc.math cimport INFINITY
from libc.stdint cimport int64_t

from ._rows cimport (CLOSED, MAX_PENALTIES, POSITIONS, RowTables,
                     SHEET_STATES, number_position, row_tables, state_index)


cdef enum:
    ROWS = 4
    FACES = 6
    WHITE_SUMS = 11
    NEWTON_STEPS = 40     # far more than the 11 breakpoints need

cdef double PENALTY_POINTS = 5.0

ctypedef struct Model:
    const RowTables* tables
    double active_share
    double continuation

# The kernels are compiled twice: without second moments (the single-player table, as fast as
# before the race tables existed) and with them; `if Solved is WithMoments` is decided at
# compile time.
ctypedef struct MeansOnly:
    char unused

ctypedef struct WithMoments:
    char unused

ctypedef fused Solved:
    MeansOnly
    WithMoments


cdef inline double expected_maximum(Solved* kind, double floor, double floor_moment,
                                    const double* values,
                                    const double* moments, const int* open_rows, int open_count,
                                    double* moment) noexcept nogil:
    """E[max(floor, max_k values[k*6 + d_k])] for independent uniform dice d_k, k in open_rows;
    moment[0] gets E[the companion (`moments`, `floor_moment`) of the entry that is the max]
    (only WithMoments: the single-player table needs no second moment).

    Entries above the floor are sorted per row and merged in increasing order; an entry of row k
    is the maximum with probability prod_{j != k} (entries of row j already passed) / 6^K.
    """
    cdef double above[ROWS][FACES]
    cdef double above_moment[ROWS][FACES]
    cdef int above_count[ROWS]
    cdef int passed[ROWS]
    cdef int head[ROWS]
    cdef int i, j, k, row, best_row
    cdef double value, companion, best, total_weight = 1.0, result, second
    cdef long weight
    for i in range(open_count):
        row = open_rows[i]
        above_count[i] = 0
        for j in range(FACES):
            value = values[row * FACES + j]
            companion = 0.0
            if Solved is WithMoments:
                companion = moments[row * FACES + j]
            if value > floor:
                k = above_count[i]
                while k > 0 and above[i][k - 1] > value:
                    above[i][k] = above[i][k - 1]
                    if Solved is WithMoments:
                        above_moment[i][k] = above_moment[i][k - 1]
                    k -= 1
                above[i][k] = value
                if Solved is WithMoments:
                    above_moment[i][k] = companion
                above_count[i] += 1
        passed[i] = FACES - above_count[i]
        head[i] = 0
        total_weight *= FACES
    weight = 1
    for i in range(open_count):
        weight *= passed[i]
    result = floor * weight
    second = floor_moment * weight
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
        if Solved is WithMoments:
            second += above_moment[best_row][head[best_row]] * weight
        passed[best_row] += 1
        head[best_row] += 1
    moment[0] = second / total_weight
    return result / total_weight


cdef inline double option_moment(double gain, double continued_mean,
                                 double continued_moment) noexcept nogil:
    """E[(gain + F)^2] when F, the points after the option, has mean `continued_mean` and second
    moment `continued_moment` (both already weighted by the continuation)."""
    return gain * gain + 2.0 * gain * continued_mean + continued_moment


cdef inline double with_passive_turns(double a, double q, double active, double u,
                                      const double* best, const double* marked,
                                      const double* probability) noexcept nogil:
    """X solving X = a active + (1 - a) sum_w P(w) (q X if w is kept, marked[w] otherwise),
    where the white sums kept (not worth marking) are those with q u >= best[w]: with
    marked = best, one Newton step of U from u; with marked = the marks' second moments and
    u = U, the second moment M."""
    cdef double kept = 0.0, marking = 0.0
    cdef int total
    for total in range(WHITE_SUMS):
        if q * u >= best[total]:
            kept += probability[total]
        else:
            marking += probability[total] * marked[total]
    return (a * active + (1.0 - a) * marking) / (1.0 - (1.0 - a) * q * kept)


cdef void solve_state(Solved* kind, double* future, double* second, const int* rows,
                      const Model* model) noexcept nogil:
    """Set future[state_index(rows), 0..3] (and second[...] WithMoments) from the values
    of the states after it.

    single[k][pos][p]: points + q U after one mark at `pos` in row k (-inf when illegal);
    double_mark[r][pos_r][k][pos_k][p]: after action 1 at (r, pos_r) then action 2 at
    (k, pos_k), -inf when illegal or when action 1 ended the game; filled only for legal
    action-1 marks. The *_moment arrays hold the second moments of the same options.
    """
    cdef double single[ROWS][POSITIONS][MAX_PENALTIES]
    cdef double single_moment[ROWS][POSITIONS][MAX_PENALTIES]
    cdef double double_mark[ROWS][POSITIONS][ROWS][POSITIONS][MAX_PENALTIES]
    cdef double double_moment[ROWS][POSITIONS][ROWS][POSITIONS][MAX_PENALTIES]
    cdef double by_die[ROWS * FACES]
    cdef double by_die_moment[ROWS * FACES]
    cdef double white_best[WHITE_SUMS]
    cdef double white_best_moment[WHITE_SUMS]
    cdef double white_probability[WHITE_SUMS]
    cdef const RowTables* tables = model.tables
    cdef double q = model.continuation, a = model.active_share
    cdef Py_ssize_t here = state_index(rows[0], rows[1], rows[2], rows[3])
    cdef Py_ssize_t after_index
    cdef int closed_count = 0, open_rows[ROWS], open_count = 0
    cdef int r, k, i, pos_r, pos_k, p, state_r, state_k, new_r, new_k, gain_r, gain_k, step
    cdef int after[ROWS]
    cdef int w1, w2, total, d, white, j, white_pos[ROWS]
    cdef int first_actions[ROWS], first_count
    cdef double pair_probability, value, floor, floor_moment, candidate, candidate_moment
    cdef double expected, expected_moment, moment, mean_after, moment_after
    cdef double u, previous
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
                    if Solved is WithMoments:
                        single_moment[r][pos_r][p] = 0.0
                continue
            gain_r = tables.gain[state_r][pos_r]
            after[0] = rows[0]; after[1] = rows[1]; after[2] = rows[2]; after[3] = rows[3]
            after[r] = new_r
            after_index = state_index(after[0], after[1], after[2], after[3]) * MAX_PENALTIES
            for p in range(MAX_PENALTIES):
                mean_after = q * future[after_index + p]
                single[r][pos_r][p] = gain_r + mean_after
                if Solved is WithMoments:
                    single_moment[r][pos_r][p] = option_moment(
                        gain_r, mean_after, q * second[after_index + p])
            ends_game = new_r == CLOSED and closed_count == 1
            for k in range(ROWS):
                state_k = after[k]
                for pos_k in range(POSITIONS):
                    new_k = tables.next_state[state_k][pos_k]
                    if ends_game or new_k < 0:
                        for p in range(MAX_PENALTIES):
                            double_mark[r][pos_r][k][pos_k][p] = -INFINITY
                            if Solved is WithMoments:
                                double_moment[r][pos_r][k][pos_k][p] = 0.0
                        continue
                    gain_k = tables.gain[state_k][pos_k]
                    after[k] = new_k
                    after_index = state_index(after[0], after[1], after[2], after[3]) * MAX_PENALTIES
                    after[k] = state_k
                    for p in range(MAX_PENALTIES):
                        mean_after = q * future[after_index + p]
                        double_mark[r][pos_r][k][pos_k][p] = (gain_r + gain_k + mean_after)
                        if Solved is WithMoments:
                            double_moment[r][pos_r][k][pos_k][p] = option_moment(
                                gain_r + gain_k, mean_after, q * second[after_index + p])

    # The penalty option of p needs U at p + 1 of this same state: solve p = 3 first.
    for p in range(MAX_PENALTIES - 1, -1, -1):
        expected = 0.0
        expected_moment = 0.0
        for total in range(WHITE_SUMS):
            white_best[total] = -INFINITY
            white_best_moment[total] = 0.0
            white_probability[total] = 0.0
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
                # the white sum alone (a non-active player's choices)
                white_probability[total - 2] += pair_probability
                for i in range(first_count):
                    r = first_actions[i]
                    if single[r][white_pos[r]][p] > white_best[total - 2]:
                        white_best[total - 2] = single[r][white_pos[r]][p]
                        if Solved is WithMoments:
                            white_best_moment[total - 2] = single_moment[r][white_pos[r]][p]
                # C: a penalty, or action 1 alone
                floor = -PENALTY_POINTS
                floor_moment = PENALTY_POINTS * PENALTY_POINTS
                if p + 1 < MAX_PENALTIES:
                    mean_after = q * future[here * MAX_PENALTIES + p + 1]
                    floor = floor + mean_after
                    if Solved is WithMoments:
                        floor_moment = option_moment(-PENALTY_POINTS, mean_after,
                                                     q * second[here * MAX_PENALTIES + p + 1])
                for i in range(first_count):
                    r = first_actions[i]
                    if single[r][white_pos[r]][p] > floor:
                        floor = single[r][white_pos[r]][p]
                        if Solved is WithMoments:
                            floor_moment = single_moment[r][white_pos[r]][p]
                # G_k(d): action 2 in row k with die d, after the best action 1 (or none)
                for j in range(open_count):
                    k = open_rows[j]
                    for d in range(1, FACES + 1):
                        value = -INFINITY
                        moment = 0.0
                        for white in range(2):
                            pos_k = number_position(k, (w1 if white == 0 else w2) + d)
                            candidate = single[k][pos_k][p]
                            if candidate > value:
                                value = candidate
                                if Solved is WithMoments:
                                    moment = single_moment[k][pos_k][p]
                            for i in range(first_count):
                                r = first_actions[i]
                                candidate = double_mark[r][white_pos[r]][k][pos_k][p]
                                if candidate > value:
                                    value = candidate
                                    if Solved is WithMoments:
                                        moment = double_moment[r][white_pos[r]][k][pos_k][p]
                        by_die[k * FACES + d - 1] = value
                        by_die_moment[k * FACES + d - 1] = moment
                expected += pair_probability * expected_maximum(
                    kind, floor, floor_moment, by_die, by_die_moment, open_rows, open_count,
                    &moment)
                expected_moment += pair_probability * moment
        if a == 1.0:
            future[here * MAX_PENALTIES + p] = expected
            if Solved is WithMoments:
                second[here * MAX_PENALTIES + p] = expected_moment
            continue
        # Not active with chance 1 - a: mark the white sum, or keep the state (q U). Newton
        # steps: fix the sums not worth marking (stay), solve the linear equation, repeat.
        u = a * expected
        for step in range(NEWTON_STEPS):
            previous = u
            u = with_passive_turns(a, q, expected, previous, white_best, white_best,
                                   white_probability)
            if u == previous:
                break
        future[here * MAX_PENALTIES + p] = u
        if Solved is WithMoments:
            second[here * MAX_PENALTIES + p] = with_passive_turns(
                a, q, expected_moment, u, white_best, white_best_moment, white_probability)


def solve(double[:, ::1] future, int[::1] packed_rows, int64_t[::1] level_starts, progress=None,
          *, int lock_after=5, double active_share=1.0, double continuation=1.0,
          double[:, ::1] second=None):
    """Solve the listed states level by level, most advanced first, into `future` (and the
    second moments into `second` when given).

    packed_rows[i] holds a state's four row states, 6 bits each (red in the high bits);
    level_starts[l] .. level_starts[l+1] is one level (states solvable in any order).
    Signals are checked after each level (at most about a third of a second of work), so
    Ctrl-C stops the solve promptly with KeyboardInterrupt even without a progress callback.
    """
    cdef Py_ssize_t level, start, stop, i
    cdef double* values = &future[0, 0]
    cdef double* moments = NULL
    cdef Model model
    if future.shape[0] != SHEET_STATES or future.shape[1] != MAX_PENALTIES:
        raise ValueError("future must have shape (SHEET_STATES, 4)")
    if second is not None:
        if second.shape[0] != SHEET_STATES or second.shape[1] != MAX_PENALTIES:
            raise ValueError("second must have shape (SHEET_STATES, 4)")
        moments = &second[0, 0]
    if lock_after not in (4, 5):
        raise ValueError("lock_after must be 4 or 5")
    if not (0.0 < active_share <= 1.0 and 0.0 < continuation <= 1.0):
        raise ValueError("active_share and continuation must lie in (0, 1]")
    model.tables = row_tables(lock_after)
    model.active_share = active_share
    model.continuation = continuation
    for level in range(level_starts.shape[0] - 1):
        start = level_starts[level]
        stop = level_starts[level + 1]
        with nogil:
            if moments == NULL:
                for i in prange(start, stop, schedule="dynamic", chunksize=8):
                    _solve_packed(<MeansOnly*>NULL, values, moments, packed_rows[i], &model)
            else:
                for i in prange(start, stop, schedule="dynamic", chunksize=8):
                    _solve_packed(<WithMoments*>NULL, values, moments, packed_rows[i], &model)
        PyErr_CheckSignals()             # raises KeyboardInterrupt after Ctrl-C
        if progress is not None:
            progress(stop - start)


cdef inline void _solve_packed(Solved* kind, double* future, double* second, int packed,
                               const Model* model) noexcept nogil:
    cdef int rows[ROWS]
    rows[0] = (packed >> 18) & 63
    rows[1] = (packed >> 12) & 63
    rows[2] = (packed >> 6) & 63
    rows[3] = packed & 63
    solve_state(kind, future, second, rows, model)
