"""Principal variation search for the four-player game, without the GIL.

The teams alternate at every ply (X1, O1, X2, O2), so this is a two-sided negamax over the
team to move: scores are from the team to move, mate scores carry their plies (_mate.pxd),
and team-mates choose together. A pass is a move (it hands the turn to the other team).

The transposition table and the move-ordering rules are the two-player search's
(search/_table.pxd, search/_ordering.pxd).

Bound contract of `_search(depth, ply, alpha, beta)`, as for two players: a result v <= alpha
is an upper bound, v >= beta a lower bound, otherwise exact (depth-limited); mate scores are
facts whatever the depth. Values do not depend on the path (the rules have no history), so
table entries hold wherever a position recurs.
"""
from libc.stdint cimport int32_t, uint64_t
from libc.string cimport memset

from .._rules cimport MAX_MOVES, Geometry, geometry_of, mask_t, near_line
from .._interrupt cimport stop_watching, watch_interrupts
from ..search._heuristic cimport evaluate
from ..search._mate cimport (EXACT, INFINITE, MATE, MATE_BOUND, MAX_DEPTH, mate_distance_prunes,
                             now, out_of_budget)
from ..search._ordering cimport THREAT_DEPTH, bring_next, order_key
from ..search._table cimport (Entry, Table, bound_of, table_allocate, table_clear, table_cutoff,
                              table_free, table_new_search, table_probe, table_store)
from ._team_rules cimport (PASS_MOVE, Roles, is_legal_code, must_pass, other_team_cubes, play_code,
                      team_cubes, team_status)

cdef enum:
    MAX_CODES = 2 * MAX_MOVES + 1
    NO_CODE = 0xFFFF


# The table's two-word key: the mover's and the next player's cubes, then the team-mate's and
# the last player's (25 bits each).
cdef inline uint64_t low_key(const Roles* p) noexcept nogil:
    return <uint64_t>p.cubes[0] | (<uint64_t>p.cubes[1] << 25)


cdef inline uint64_t high_key(const Roles* p) noexcept nogil:
    return <uint64_t>p.cubes[2] | (<uint64_t>p.cubes[3] << 25)


cdef class TeamSearcher:
    """Search state for one board size: transposition table, limits, counters."""
    cdef const Geometry* g
    cdef readonly int size
    cdef Table table
    cdef readonly uint64_t nodes
    cdef uint64_t node_limit
    cdef double deadline
    cdef readonly bint stopped
    cdef int32_t history[MAX_CODES]
    cdef readonly int root_move

    def __cinit__(self, int size, double tt_mib):
        self.g = geometry_of(size)
        self.size = size
        if table_allocate(&self.table, tt_mib) != 0:
            raise MemoryError(f"cannot allocate a {tt_mib} MiB transposition table")
        self.clear()

    def __dealloc__(self):
        table_free(&self.table)

    @property
    def entries(self):
        """Entries of the transposition table."""
        return self.table.size

    def clear(self):
        table_clear(&self.table)
        memset(self.history, 0, sizeof(self.history))

    def search(self, roles, int depth, double seconds, uint64_t node_limit,
               uint64_t nodes_before=0):
        """One root search of `roles` to `depth`; returns the score (meaningless if
        `stopped`). `root_move` is then the best move code found, or -1."""
        cdef Roles p
        cdef int score, role
        for role in range(4):
            p.cubes[role] = roles[role]
        self.nodes = nodes_before
        self.node_limit = node_limit
        self.deadline = now() + seconds if seconds > 0 else 0
        self.stopped = False
        self.root_move = -1
        table_new_search(&self.table)
        watch_interrupts()
        try:
            with nogil:
                score = self._search(&p, depth, 0, -INFINITE, INFINITE)
        finally:
            stop_watching()
        return score

    def table_move(self, roles):
        """The best move code stored for a position, or -1."""
        cdef Roles p
        cdef int role
        for role in range(4):
            p.cubes[role] = roles[role]
        cdef Entry* entry = self._probe(&p)
        return -1 if entry == NULL or entry.move == NO_CODE else entry.move

    cdef inline Entry* _probe(self, const Roles* p) noexcept nogil:
        return table_probe(&self.table, low_key(p), high_key(p))

    cdef inline void _store(self, const Roles* p, int depth, int ply, int score, int bound,
                            int code) noexcept nogil:
        table_store(&self.table, low_key(p), high_key(p), depth, ply, score, bound, code)

    cdef bint _wins_at_once(self, const Roles* p) noexcept nogil:
        """Whether the team to move has a move that completes only its own line."""
        cdef Roles child
        cdef int code
        if must_pass(self.g, p) or not near_line(self.g, team_cubes(p)):
            return False
        # lines count whatever the dots: of the two codes of a move (dot at the mover or at
        # the team-mate, 2m and 2m + 1) the first tells for both
        for code in range(0, 2 * self.g.move_count, 2):
            if is_legal_code(self.g, code, p):
                play_code(self.g, code, p, &child)
                if team_status(self.g, &child) < 0:
                    return True
        return False

    cdef int _search(self, const Roles* p, int depth, int ply, int alpha, int beta) noexcept nogil:
        cdef const Geometry* g = self.g
        cdef int original_alpha = alpha, score, best = -INFINITE, best_code = NO_CODE
        cdef int count = 0, i, code, tt_code = NO_CODE, status
        cdef Entry* entry
        cdef Roles child
        cdef int codes[MAX_CODES]
        cdef int order[MAX_CODES]
        cdef bint losing[MAX_CODES]

        self.nodes += 1
        if out_of_budget(self.nodes, self.node_limit, self.deadline):
            self.stopped = True
        if self.stopped:
            return 0

        if mate_distance_prunes(ply, alpha, &beta):
            return beta

        entry = self._probe(p)
        if entry != NULL:
            tt_code = entry.move
        if table_cutoff(entry, depth, ply, alpha, beta, &score):
            return score

        # Generate; a move that completes only our team's line ends the node at once.
        if must_pass(g, p):
            codes[0] = PASS_MOVE
            losing[0] = False
            order[0] = 0
            count = 1
        else:
            for code in range(2 * g.move_count):
                if not is_legal_code(g, code, p):
                    continue
                play_code(g, code, p, &child)
                status = team_status(g, &child)
                if status < 0:                      # only our line: a win
                    if ply == 0:
                        self.root_move = code
                    self._store(p, MAX_DEPTH, ply, MATE - (ply + 1), EXACT, code)
                    return MATE - (ply + 1)
                losing[count] = status > 0          # the other team's line: a loss
                codes[count] = code
                order[count] = order_key(
                    losing[count], code == tt_code, self.history[code],
                    not losing[count] and code != tt_code and depth >= THREAT_DEPTH
                    and self._wins_at_once(&child))
                count += 1

        if depth <= 0:
            return evaluate(g, team_cubes(p), other_team_cubes(p))

        for i in range(count):
            bring_next(i, count, codes, order, losing)
            code = codes[i]
            if losing[i]:
                score = -(MATE - (ply + 1))
            else:
                play_code(g, code, p, &child)
                if i == 0:
                    score = -self._search(&child, depth - 1, ply + 1, -beta, -alpha)
                else:
                    score = -self._search(&child, depth - 1, ply + 1, -alpha - 1, -alpha)
                    if alpha < score < beta:
                        score = -self._search(&child, depth - 1, ply + 1, -beta, -alpha)
            if self.stopped:
                return 0
            if score > best:
                best = score
                best_code = code
                if ply == 0:
                    self.root_move = code
            if score > alpha:
                alpha = score
            if alpha >= beta:
                if code != PASS_MOVE:
                    self.history[code] += depth * depth
                break

        self._store(p, depth, ply, best, bound_of(best, original_alpha, beta), best_code)
        return best


PASS_CODE = PASS_MOVE
MATE_SCORE = MATE
PROVEN_BOUND = MATE_BOUND
DEPTH_LIMIT = MAX_DEPTH
