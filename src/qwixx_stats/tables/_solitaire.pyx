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

from ..rules._constants cimport (CLOSED_ROWS_TO_END, PENALTY_POINTS, PENALTY_STATES,
                                 compiled_rules, game_ends, is_lock_rule)
from ..rules._rows cimport (CLOSED, POSITIONS, RowTables, SHEET_STATES, number_position,
                            row_tables, state_index)


RULES = compiled_rules()      # the rules this module was compiled with (_constants.pxd)

cdef enum:
    ROWS = 4
    FACES = 6
    WHITE_SUMS = 11
    NEWTON_STEPS = 40     # far more than the 11 breakpoints need

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


# -- one sheet state ----------------------------------------------------------------------------
# solve_state is split as the turn is: the values of every mark and pair of marks (`Marks`),
# the best action 2 at each box after each white sum (`SecondMarks`: one table a sum, which
# its white pairs share), then for each white pair the values a turn can reach
# (`active_turn`), then the turns this player is not active (`store_value`). The helpers are
# inline: the compiled code is one function per specialisation. (Measured with callgrind on the
# most advanced 16,195 states: 24% fewer instructions than the single function before the
# split, which took the best action 2 again for every white pair and die; the values are the
# same to the bit.)

ctypedef struct State:               # the sheet state being solved, and what it reads
    const Model* model
    const double* future             # U of the states after it (and of this one, p + 1)
    const double* second             # M, the same way (WithMoments only)
    Py_ssize_t here                  # its index (state_index)
    int rows[ROWS]                   # its row states
    int open_rows[ROWS]              # the rows that are not closed
    int open_count
    int closed_count

ctypedef struct Marks:
    # single[k][pos][p]: points + q U after one mark at `pos` in row k (-inf when illegal);
    # double_mark[r][pos_r][k][pos_k][p]: after action 1 at (r, pos_r) then action 2 at
    # (k, pos_k), -inf when illegal or when action 1 ended the game; filled only for legal
    # action-1 marks. The *_moment arrays hold the second moments of the same options.
    double single[ROWS][POSITIONS][PENALTY_STATES]
    double single_moment[ROWS][POSITIONS][PENALTY_STATES]
    double double_mark[ROWS][POSITIONS][ROWS][POSITIONS][PENALTY_STATES]
    double double_moment[ROWS][POSITIONS][ROWS][POSITIONS][PENALTY_STATES]

ctypedef struct WhiteSums:           # what a non-active player can do with each white sum
    double best[WHITE_SUMS]          # the best mark of the sum (-inf: none)
    double best_moment[WHITE_SUMS]
    double probability[WHITE_SUMS]

ctypedef struct WhiteSumRows:        # for each white sum (index: the sum - 2), as action 1:
    int white_pos[WHITE_SUMS][ROWS]  # the box of the sum in each row
    int first_actions[WHITE_SUMS][ROWS]   # the rows that can mark it
    int first_count[WHITE_SUMS]

ctypedef struct SecondMarks:
    # value[t][k][pos]: the best option whose action 2 is at (k, pos), after the best action
    # 1 with white sum t + 2 or none (one table a white sum, not a white pair: the pairs of a
    # sum share it, and each die of a pair reads two entries); moment: its second moment
    double value[WHITE_SUMS][ROWS][POSITIONS]
    double moment[WHITE_SUMS][ROWS][POSITIONS]


cdef inline void value_second_marks(Solved* kind, const State* state, Marks* marks, int r,
                                    int pos_r, int* after, int gain_r,
                                    bint ends_game) noexcept nogil:
    """double_mark[r][pos_r] (and its moments): action 1 at (r, pos_r), which leaves the rows
    `after`, then each action 2 (every row k, every box pos_k)."""
    cdef const RowTables* tables = state.model.tables
    cdef double q = state.model.continuation, mean_after
    cdef Py_ssize_t after_index
    cdef int k, pos_k, p, state_k, new_k, gain_k
    for k in range(ROWS):
        state_k = after[k]
        for pos_k in range(POSITIONS):
            new_k = tables.next_state[state_k][pos_k]
            if ends_game or new_k < 0:
                for p in range(PENALTY_STATES):
                    marks.double_mark[r][pos_r][k][pos_k][p] = -INFINITY
                    if Solved is WithMoments:
                        marks.double_moment[r][pos_r][k][pos_k][p] = 0.0
                continue
            gain_k = tables.gain[state_k][pos_k]
            after[k] = new_k
            after_index = state_index(after[0], after[1], after[2], after[3]) * PENALTY_STATES
            after[k] = state_k
            for p in range(PENALTY_STATES):
                mean_after = q * state.future[after_index + p]
                marks.double_mark[r][pos_r][k][pos_k][p] = (gain_r + gain_k + mean_after)
                if Solved is WithMoments:
                    marks.double_moment[r][pos_r][k][pos_k][p] = option_moment(
                        gain_r + gain_k, mean_after, q * state.second[after_index + p])


cdef inline void value_marks(Solved* kind, const State* state, Marks* marks) noexcept nogil:
    """Every mark's value (`single`) and, after each legal one, every second mark's
    (`double_mark`)."""
    cdef const RowTables* tables = state.model.tables
    cdef double q = state.model.continuation, mean_after
    cdef Py_ssize_t after_index
    cdef int r, pos_r, p, new_r, gain_r
    cdef int after[ROWS]
    for r in range(ROWS):
        for pos_r in range(POSITIONS):
            new_r = tables.next_state[state.rows[r]][pos_r]
            if new_r < 0:
                for p in range(PENALTY_STATES):
                    marks.single[r][pos_r][p] = -INFINITY
                    if Solved is WithMoments:
                        marks.single_moment[r][pos_r][p] = 0.0
                continue
            gain_r = tables.gain[state.rows[r]][pos_r]
            after[0] = state.rows[0]; after[1] = state.rows[1]
            after[2] = state.rows[2]; after[3] = state.rows[3]
            after[r] = new_r
            after_index = state_index(after[0], after[1], after[2], after[3]) * PENALTY_STATES
            for p in range(PENALTY_STATES):
                mean_after = q * state.future[after_index + p]
                marks.single[r][pos_r][p] = gain_r + mean_after
                if Solved is WithMoments:
                    marks.single_moment[r][pos_r][p] = option_moment(
                        gain_r, mean_after, q * state.second[after_index + p])
            value_second_marks(kind, state, marks, r, pos_r, after, gain_r,
                               new_r == CLOSED and state.closed_count + 1 >= CLOSED_ROWS_TO_END)


cdef inline void white_sum_rows(const State* state, WhiteSumRows* sums) noexcept nogil:
    """For each white sum: the rows that can take it as action 1, and its box in every row."""
    cdef int t, r, count
    for t in range(WHITE_SUMS):
        count = 0
        for r in range(ROWS):
            sums.white_pos[t][r] = number_position(r, t + 2)
            if state.model.tables.next_state[state.rows[r]][sums.white_pos[t][r]] >= 0:
                sums.first_actions[t][count] = r
                count += 1
        sums.first_count[t] = count


cdef inline double best_white_mark(Solved* kind, const Marks* marks, const int* first_actions,
                                   int first_count, const int* white_pos, int p, double floor,
                                   double floor_moment, double* moment) noexcept nogil:
    """The best of `floor` and each white-sum mark (action 1 alone) with p penalties; moment[0]
    gets the second moment of the best (the first of equal ones)."""
    cdef int i, r
    moment[0] = floor_moment
    for i in range(first_count):
        r = first_actions[i]
        if marks.single[r][white_pos[r]][p] > floor:
            floor = marks.single[r][white_pos[r]][p]
            if Solved is WithMoments:
                moment[0] = marks.single_moment[r][white_pos[r]][p]
    return floor


cdef inline double penalty_value(Solved* kind, const State* state, int p,
                                 double* moment) noexcept nogil:
    """The value of marking nothing when active with p penalties: a penalty, and the game goes
    on unless it was the fourth (U at p + 1 of this same state)."""
    cdef double q = state.model.continuation, mean_after
    cdef double value = -PENALTY_POINTS
    moment[0] = PENALTY_POINTS * PENALTY_POINTS
    if not game_ends(p + 1, state.closed_count):
        mean_after = q * state.future[state.here * PENALTY_STATES + p + 1]
        value = value + mean_after
        if Solved is WithMoments:
            moment[0] = option_moment(-PENALTY_POINTS, mean_after,
                                      q * state.second[state.here * PENALTY_STATES + p + 1])
    return value


cdef inline void best_second_marks(Solved* kind, const State* state, const Marks* marks,
                              const WhiteSumRows* sums, int p,
                              SecondMarks* best) noexcept nogil:
    """SecondMarks with p penalties, for every open row; of equal options the first (the
    mark alone, then after action 1 in row order)."""
    cdef double value, moment = 0.0, candidate
    cdef int t, j, k, pos, i, r
    for t in range(WHITE_SUMS):
        for j in range(state.open_count):
            k = state.open_rows[j]
            for pos in range(POSITIONS):
                value = marks.single[k][pos][p]
                if Solved is WithMoments:
                    moment = marks.single_moment[k][pos][p]
                for i in range(sums.first_count[t]):
                    r = sums.first_actions[t][i]
                    candidate = marks.double_mark[r][sums.white_pos[t][r]][k][pos][p]
                    if candidate > value:
                        value = candidate
                        if Solved is WithMoments:
                            moment = marks.double_moment[r][sums.white_pos[t][r]][k][pos][p]
                best.value[t][k][pos] = value
                if Solved is WithMoments:
                    best.moment[t][k][pos] = moment


cdef inline void colour_die_values(Solved* kind, const State* state, const SecondMarks* best,
                                   int w1, int w2, double* by_die,
                                   double* by_die_moment) noexcept nogil:
    """by_die[k * 6 + d - 1] = G_k(d) for every open row k and die d (white pair w1, w2): the
    best option whose action 2 is in row k with its die showing d (a white die plus d),
    after the best action 1 or none; of equal ones, the one with w1."""
    cdef int t = w1 + w2 - 2, j, k, i, box, other, step
    cdef const double* values
    cdef const double* moments
    for j in range(state.open_count):
        k = state.open_rows[j]
        values = &best.value[t][k][0]
        moments = &best.moment[t][k][0]
        # the boxes of w + 1 .. w + 6 follow each other, in the row's direction
        step = number_position(k, 3) - number_position(k, 2)
        box = number_position(k, w1 + 1)
        other = number_position(k, w2 + 1)
        for i in range(FACES):
            if values[other] > values[box]:
                by_die[k * FACES + i] = values[other]
                if Solved is WithMoments:
                    by_die_moment[k * FACES + i] = moments[other]
            else:
                by_die[k * FACES + i] = values[box]
                if Solved is WithMoments:
                    by_die_moment[k * FACES + i] = moments[box]
            box += step
            other += step


cdef inline double active_turn(Solved* kind, const State* state, const Marks* marks,
                               const WhiteSumRows* sums, int p, WhiteSums* white,
                               double* expected_moment) noexcept nogil:
    """A, the expected value of a turn in which this player is active with p penalties, over
    every roll (white pairs, then the coloured dice through `expected_maximum`);
    expected_moment[0] gets its second moment, and `white` what each white sum offers a
    non-active player."""
    cdef SecondMarks second
    cdef double by_die[ROWS * FACES]
    cdef double by_die_moment[ROWS * FACES]
    cdef int w1, w2, t
    cdef double pair_probability, floor, floor_moment, moment, expected = 0.0
    expected_moment[0] = 0.0
    for t in range(WHITE_SUMS):
        white.best[t] = -INFINITY
        white.best_moment[t] = 0.0
        white.probability[t] = 0.0
    best_second_marks(kind, state, marks, sums, p, &second)
    for w1 in range(1, FACES + 1):
        for w2 in range(w1, FACES + 1):
            pair_probability = (1.0 if w1 == w2 else 2.0) / 36.0
            t = w1 + w2 - 2
            # the white sum alone (a non-active player's choices)
            white.probability[t] += pair_probability
            white.best[t] = best_white_mark(
                kind, marks, sums.first_actions[t], sums.first_count[t], sums.white_pos[t], p,
                white.best[t], white.best_moment[t], &white.best_moment[t])
            # C: a penalty, or action 1 alone
            floor = penalty_value(kind, state, p, &floor_moment)
            floor = best_white_mark(kind, marks, sums.first_actions[t], sums.first_count[t],
                                    sums.white_pos[t], p, floor, floor_moment, &floor_moment)
            colour_die_values(kind, state, &second, w1, w2, by_die, by_die_moment)
            expected += pair_probability * expected_maximum(
                kind, floor, floor_moment, by_die, by_die_moment, state.open_rows,
                state.open_count, &moment)
            expected_moment[0] += pair_probability * moment
    return expected


cdef inline void store_value(Solved* kind, const State* state, double* future, double* second,
                             int p, double active, double active_moment,
                             const WhiteSums* white) noexcept nogil:
    """U (and M) at p penalties from the active turn's values: with a = 1 those values; else
    the equation of the turns this player is not active (mark the white sum, or keep the
    state: q U), solved by Newton steps (fix the sums not worth marking, solve the linear
    equation, repeat)."""
    cdef double a = state.model.active_share, q = state.model.continuation, u, previous
    cdef int step
    if a == 1.0:
        future[state.here * PENALTY_STATES + p] = active
        if Solved is WithMoments:
            second[state.here * PENALTY_STATES + p] = active_moment
        return
    u = a * active
    for step in range(NEWTON_STEPS):
        previous = u
        u = with_passive_turns(a, q, active, previous, white.best, white.best, white.probability)
        if u == previous:
            break
    future[state.here * PENALTY_STATES + p] = u
    if Solved is WithMoments:
        second[state.here * PENALTY_STATES + p] = with_passive_turns(
            a, q, active_moment, u, white.best, white.best_moment, white.probability)


cdef void solve_state(Solved* kind, double* future, double* second, const int* rows,
                      const Model* model) noexcept nogil:
    """Set future[state_index(rows), 0..3] (and second[...] WithMoments) from the values
    of the states after it."""
    cdef State state
    cdef Marks marks
    cdef WhiteSums white
    cdef WhiteSumRows sums
    cdef double active, active_moment
    cdef int r, p
    state.model, state.future, state.second = model, future, second
    state.here = state_index(rows[0], rows[1], rows[2], rows[3])
    state.open_count = 0
    state.closed_count = 0
    for r in range(ROWS):
        state.rows[r] = rows[r]
        if rows[r] == CLOSED:
            state.closed_count += 1
        else:
            state.open_rows[state.open_count] = r
            state.open_count += 1
    value_marks(kind, &state, &marks)
    white_sum_rows(&state, &sums)
    # The penalty option of p needs U at p + 1 of this same state: solve p = 3 first.
    for p in range(PENALTY_STATES - 1, -1, -1):
        active = active_turn(kind, &state, &marks, &sums, p, &white, &active_moment)
        store_value(kind, &state, future, second, p, active, active_moment, &white)


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
    if future.shape[0] != SHEET_STATES or future.shape[1] != PENALTY_STATES:
        raise ValueError("future must have shape (SHEET_STATES, 4)")
    if second is not None:
        if second.shape[0] != SHEET_STATES or second.shape[1] != PENALTY_STATES:
            raise ValueError("second must have shape (SHEET_STATES, 4)")
        moments = &second[0, 0]
    if not is_lock_rule(lock_after):
        raise ValueError("lock_after must be 5 or 4")
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
