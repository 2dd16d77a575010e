# cython: language_level=3
"""Whole games of Qwixx between strategies, without the GIL, one random stream per game.

This is the Cython mirror of rules/game.py (rules) and the Python players the registry lists
(strategies/registry.py; decisions): the same option order, tie-breaks and random draws, so
that a seed gives the same games in both (tested). A sheet is kept as, per row, the last marked box (-1 when empty), the
number of marked numbers and whether this player locked it; `closed` is a 4-bit mask shared by
the table. The lock rule (marks a row needs before its last number) is one number per game.

Seats rotate: in game g the strategy listed at entry e sits at seat (e + g) mod players when
rotation is on, so every strategy plays every seat equally often over `players` games.

This module is the game loop: a turn asks each seat's strategy for its choices and resolves
them on the table (_game.pxd). The strategies' decisions are components of their own, each the
mirror of its Python module: _simple.pxd (max-score, greedy, cautious, random: simple.py),
_judged.pxd (win, weighted and scored, which rate a choice by the table right after it:
winning.py with _winning.pxd, heuristics.py with _heuristics.pxd), _qwixxer.pxd (qwixxer-ga:
qwixxer.py; the active champion decides its whole turn at once, and the loop keeps its action 2
while it is legal) and _lookahead.pxd (lookahead.py; its learned value: _learned.pxd, which
`train_lookahead` learns by TD(0) in self-play). Their codes: _codes.pxd.

Across the boundary, three objects are checked once and then read without the GIL: a `Race`
(the race model: kernel_view.kernel_race), a `Lineup` (who plays what with what they read:
the seat set-up of every entry point) and a `Position` (a table before a roll:
kernel_view.kernel_position).
"""
from cpython.exc cimport PyErr_CheckSignals
from cython.parallel cimport prange
from libc.stdint cimport uint64_t

from ..rules._constants cimport CLOSED_ROWS_TO_END, PENALTY_STATES, compiled_rules, is_lock_rule
from ..rules._game cimport (MAX_PLAYERS, Table, mark_firsts, mark_second, new_game, plan_holds,
                            share_of)
from ..rules._options cimport MAX_OPTIONS
from ..rules._rows cimport SHEET_STATES
from ..rules._sheet cimport NO_ROW, ROWS, Option, closed_count, score
from ..rules._stream cimport game_stream, random_below
from ..tables._race cimport RaceModel
from ._codes cimport (CAUTIOUS, GREEDY, LOOKAHEAD, MAX_SCORE, QWIXXER, RANDOM, SCORED,
                      STRATEGIES, WEIGHTED, WIN)
from ._heuristics cimport ENDING_POINTS, HEURISTIC_WEIGHTS
from ._judged cimport Judge, judged_first, judged_second
from ._learned cimport (FEATURES, LEARNED_SIZE, SURE_CHANCE, LearnedTerms, LookaheadValue,
                        learned_logit, learned_sum, logistic)
from ._lookahead cimport lookahead_first, lookahead_rates, lookahead_second, second_rates
from ._qwixxer cimport (CHAMPION_BLANKS, CHAMPION_CHANCES, CHAMPION_CONCENTRATION,
                        CHAMPION_PENALTIES, champion_active, champion_passive, champion_second)
from ._simple cimport SimplePlayer, choose_active, choose_passive, choose_second

cdef enum:
    CHUNK = 4096       # games between two checks for Ctrl-C (a few hundredths of a second)
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
LEARNED_WEIGHT_COUNT = LEARNED_SIZE
LEARNED_FEATURE_COUNT = FEATURES
LEARNED_SURE_CHANCE = SURE_CHANCE
QWIXXER_WEIGHTS = (CHAMPION_CHANCES, CHAMPION_PENALTIES, CHAMPION_CONCENTRATION,
                   CHAMPION_BLANKS)


# -- one game (game.Game.play_turn_with) --------------------------------------------------

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


cdef inline SimplePlayer simple_player(const Seats* seats, int seat,
                                       uint64_t* stream) noexcept nogil:
    cdef SimplePlayer player
    player.strategy, player.limit = seats.strategies[seat], seats.limits[seat]
    player.future, player.stream = seats.future, stream
    return player


cdef inline LookaheadValue lookahead_value(const Seats* seats) noexcept nogil:
    cdef LookaheadValue value
    value.race, value.learned = seats.race, seats.learned
    return value


cdef inline int first_choice(const Seats* seats, const Table* table, int seat,
                             const int* dice, uint64_t* stream) noexcept nogil:
    """A player's action 1 (the active one's from its whole plan): a row or NO_ROW."""
    cdef Option plan
    cdef int strategy = seats.strategies[seat]
    cdef Judge judge
    cdef SimplePlayer player
    cdef LookaheadValue value
    if strategy == LOOKAHEAD:
        value = lookahead_value(seats)
        return lookahead_first(&value, table, seat, dice)
    if strategy == QWIXXER:
        if seat == table.active:
            champion_active(table, seat, dice, &plan)
            return plan.first
        return champion_passive(table, seat, dice)
    if is_judged(strategy):
        judge = judge_of(seats, seat)
        return judged_first(&judge, table, seat, dice)
    player = simple_player(seats, seat, stream)
    if seat == table.active:
        choose_active(&player, &table.sheets[seat], table.closed, dice, &plan)
        return plan.first
    return choose_passive(&player, &table.sheets[seat], table.closed, dice)


cdef inline int second_choice(const Seats* seats, const Table* table, const int* dice,
                              bint marked, uint64_t* stream, int* box) noexcept nogil:
    """The active player's action 2 once action 1 is resolved: a row (at box[0]) or NO_ROW."""
    cdef int active = table.active, strategy = seats.strategies[table.active]
    cdef Judge judge
    cdef SimplePlayer player
    cdef LookaheadValue value
    if strategy == LOOKAHEAD:
        value = lookahead_value(seats)
        return lookahead_second(&value, table, dice, marked, box)
    if strategy == QWIXXER:
        return champion_second(table, active, dice, marked, box)
    if is_judged(strategy):
        judge = judge_of(seats, active)
        return judged_second(&judge, table, active, dice, marked, box)
    player = simple_player(seats, active, stream)
    return choose_second(&player, &table.sheets[active], table.closed, dice, marked, box)


cdef inline bint play_turn(const Seats* seats, Table* table, const int* dice, uint64_t* stream,
                           int forced_seat, const Option* forced) noexcept nogil:
    """One turn on `dice`; returns whether the game is over. The player at `forced_seat` (-1:
    nobody) plays `forced.first` in action 1 and, when active, `forced.second` /
    `forced.second_box` in action 2 if that mark is still legal once action 1 is resolved (its
    strategy decides otherwise)."""
    cdef int firsts[MAX_PLAYERS]
    cdef int i, active = table.active
    cdef Option plan
    cdef const Option* planned = NULL
    # action 1: decided by everyone on the sheets as they are, then applied together; an
    # active qwixxer-ga decides its whole turn at once, as its own program does
    for i in range(table.players):
        if i == forced_seat:
            firsts[i] = forced.first
        elif i == active and seats.strategies[i] == QWIXXER:
            champion_active(table, i, dice, &plan)
            firsts[i], planned = plan.first, &plan
        else:
            firsts[i] = first_choice(seats, table, i, dice, stream)
    if forced_seat == active:
        planned = forced
    return finish_turn(seats, table, dice, stream, firsts, planned)


cdef bint finish_turn(const Seats* seats, Table* table, const int* dice, uint64_t* stream,
                      const int* firsts, const Option* plan) noexcept nogil:
    """The rest of play_turn once every action 1 (`firsts`) is decided: they are applied
    together, then the active player's action 2: `plan.second` (a row or NO_ROW, at
    `plan.second_box`) when there is a plan and that mark is still legal once action 1 is
    resolved, else its strategy's choice."""
    cdef int second, box = 0
    cdef bint marked = firsts[table.active] >= 0
    if mark_firsts(table, dice, firsts):    # action 1 ended the game
        return True
    if plan_holds(table, plan):
        second, box = plan.second, plan.second_box
    else:
        second = second_choice(seats, table, dice, marked, stream, &box)
    return mark_second(table, second, box, marked)


cdef int play_on(const Seats* seats, Table* table, uint64_t* stream) noexcept nogil:
    """Play from the start of a turn to the end of the game; returns the turns played."""
    cdef int dice[6]
    cdef int turns = 0, die
    cdef bint over = False
    while not over:
        turns += 1
        for die in range(6):
            dice[die] = 1 + random_below(stream, 6)
        over = play_turn(seats, table, dice, stream, -1, NULL)
    return turns


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
    """The race model as the kernel reads it (kernel_view.kernel_race): the paced tables
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
    cdef Option forced
    if lineup.players != position.players:
        raise ValueError("one strategy per player")
    if not (0 <= seat < position.players and -1 <= first < ROWS and -1 <= second < ROWS):
        raise ValueError("seat or decisions out of range")
    forced.first, forced.first_box, forced.second, forced.second_box = first, 0, second, second_box
    for begin in range(0, count, CHUNK):
        end = min(begin + CHUNK, count)
        with nogil:
            for k in prange(begin, end, schedule="dynamic", chunksize=16):
                table = position.table
                stream = game_stream(seed, k)
                if not play_turn(&lineup.seats, &table, position.dice, &stream, seat, &forced):
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


def simulate(Lineup lineup, long first_game, uint64_t seed, int[:, ::1] scores, int[::1] turns,
             int[::1] endings, *, int lock_after=5, bint rotate=True):
    """Play games first_game .. first_game+games-1 of the series `seed` between the entries
    of `lineup`, games being turns.shape[0]; scores[g, e] gets the score of the strategy
    listed at entry e in the g-th game, turns[g] its turns and endings[g] how it ended
    (ENDINGS). With `rotate`, game
    number n (counted in the whole series) seats entry e at (e + n) mod players. Runs CHUNK
    games at a time and checks for signals in between, so Ctrl-C raises KeyboardInterrupt
    promptly."""
    cdef int players = lineup.players
    cdef long game, start, stop, games = turns.shape[0]
    if (scores.shape[0] != games or scores.shape[1] != players
            or endings.shape[0] != games):
        raise ValueError("one row of scores and one ending per game")
    if first_game < 0:
        raise ValueError("first_game must not be negative")
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
    cdef LookaheadValue value = lookahead_value(&lineup.seats)
    with nogil:
        if marked_first < 0:
            count = lookahead_rates(&value, &position.table, seat, position.dice, chosen, rated,
                                    race_means)
        else:
            count = second_rates(&value, &position.table, position.dice, marked_first, chosen,
                                 rated, race_means)
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
    cdef LearnedTerms terms[2]       # each player's position at its previous turn's start
    cdef LearnedTerms now
    cdef bint known[2]
    cdef double now_chance, error
    cdef bint over
    cdef double* values
    cdef LookaheadValue value
    if lineup.players != 2 or lineup.seats.learned == NULL:
        raise ValueError("training needs a table of two lookahead players and a learned value")
    if not is_lock_rule(lock_after) or games < 0 or first_game < 0:
        raise ValueError("lock_after must be 5 or 4; games and first_game not negative")
    if not (0.0 <= rate <= 1.0 and 0.0 <= race_rate <= 1.0):
        raise ValueError("the learning rates must be 0..1")
    # the lineup's weights, written in place (lookahead_lineup holds them)
    values = <double*>lineup.seats.learned
    value = lookahead_value(&lineup.seats)
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
                                &value, &table.sheets[p], &table.sheets[1 - p], table.closed,
                                table.active == p, &now))
                        if known[p]:
                            error = now_chance - logistic(learned_sum(values, &terms[p]))
                            for k in range(FEATURES):
                                values[terms[p].index[k]] += rate * error
                            values[0] += race_rate * error * terms[p].race_logit
                        terms[p] = now
                        known[p] = True
                    if over:
                        break
                    for die in range(6):
                        dice[die] = 1 + random_below(&stream, 6)
                    over = play_turn(&lineup.seats, &table, dice, &stream, -1, NULL)
        PyErr_CheckSignals()             # raises KeyboardInterrupt after Ctrl-C
