"""Principal variation search for the four-player game, without the GIL.

The teams alternate at every ply (X1, O1, X2, O2), so this is a two-sided negamax over the
team to move: scores are from the team to move, mate scores carry their plies (_mate.pxd),
and team-mates choose together. A pass is a move (it hands the turn to the other team).

The transposition table and the move-ordering rules are the two-player search's
(search/_transposition.pxd, search/_ordering.pxd).

Repetitions and their graph-history interaction are handled as in the two-player search
(search/_search.pyx): a position that repeats one with the same player to move (4 plies apart)
scores 0, and a result a repetition decided is never stored in the transposition table.

Bound contract of `_search(depth, ply, alpha, beta)`, as for two players: a result v <= alpha
is an upper bound, v >= beta a lower bound, otherwise exact (depth-limited); mate scores are
facts whatever the depth.
"""
from libc.stdint cimport uint64_t

from ..rules._rules cimport Geometry, near_line, popcount
from .._interrupt cimport stop_watching, watch_interrupts
from ..search._heuristic cimport evaluate
from ..search._node cimport Node, node_finish, node_start, node_take
from ..search._mate cimport (EXACT, INFINITE, MATE, MATE_BOUND, MAX_DEPTH, count_node,
                             mate_distance_prunes)
from ..search._repetition cimport path_visit
from ..search._search_state cimport SearchState
from ..search._ordering cimport THREAT_DEPTH, MoveList, add_move, bring_next, order_key
from ..search._transposition cimport Entry, tt_cutoff, tt_probe, tt_store
from ._team_rules cimport (PASS_MOVE, Roles, is_legal_code, must_pass, other_team_cubes, play_code,
                      team_cubes, team_status)

cdef enum:
    NO_CODE = 0xFFFF


# The transposition table's two-word key: the mover's and the next player's cubes, then the
# team-mate's and the last player's (25 bits each).
cdef inline uint64_t low_key(const Roles* p) noexcept nogil:
    return <uint64_t>p.cubes[0] | (<uint64_t>p.cubes[1] << 25)


cdef inline uint64_t high_key(const Roles* p) noexcept nogil:
    return <uint64_t>p.cubes[2] | (<uint64_t>p.cubes[3] << 25)


cdef class TeamSearcher(SearchState):
    """Search state for one board size (SearchState: transposition table, limits, counters)."""

    def __cinit__(self, int size, double tt_mib):
        self.path.period = 4

    def search(self, roles, int depth, double seconds, uint64_t node_limit,
               uint64_t nodes_before=0):
        """One root search of `roles` to `depth`; returns the score (meaningless if
        `stopped`). `root_move` is then the best move code found, or -1."""
        cdef Roles p
        cdef int score, role
        cdef bint dependent
        for role in range(4):
            p.cubes[role] = roles[role]
        self.begin(seconds, node_limit, nodes_before)
        watch_interrupts()
        try:
            with nogil:
                score = self._search(&p, depth, 0, -INFINITE, INFINITE, &dependent)
        finally:
            stop_watching()
        return score

    def game_key(self, roles):
        """(key low word, key high word, cubes) of a position's roles, for `set_game`."""
        cdef Roles p
        cdef int role
        for role in range(4):
            p.cubes[role] = roles[role]
        return (low_key(&p), high_key(&p),
                sum(popcount(p.cubes[role]) for role in range(4)))

    def tt_move(self, roles):
        """The best move code stored for a position, or -1."""
        cdef Roles p
        cdef int role
        for role in range(4):
            p.cubes[role] = roles[role]
        cdef Entry* entry = self._probe(&p)
        return -1 if entry == NULL or entry.move == NO_CODE else entry.move

    cdef inline Entry* _probe(self, const Roles* p) noexcept nogil:
        return tt_probe(&self.tt, low_key(p), high_key(p))


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

    cdef int _search(self, const Roles* p, int depth, int ply, int alpha, int beta,
                     bint* dependent) noexcept nogil:
        cdef const Geometry* g = self.g
        cdef int score, i, code, tt_code = NO_CODE, status
        cdef bint child_dependent
        cdef Node node
        cdef MoveList moves
        cdef Entry* entry
        cdef Roles child
        cdef uint64_t low = low_key(p), high = high_key(p)

        dependent[0] = False
        if count_node(&self.nodes, self.node_limit, self.deadline, &self.stop_request,
                      &self.stopped):
            return 0

        if path_visit(&self.path, self.path.game_length + ply, low, high,
                      popcount(p.cubes[0] | p.cubes[1] | p.cubes[2] | p.cubes[3])) and ply > 0:
            dependent[0] = True
            return 0

        if mate_distance_prunes(ply, alpha, &beta):
            return beta

        entry = tt_probe(&self.tt, low, high)
        if entry != NULL:
            tt_code = entry.move
        if tt_cutoff(entry, depth, ply, alpha, beta, &score):
            return score

        # Generate; a move that completes only our team's line ends the node at once.
        moves.count = 0
        if must_pass(g, p):
            add_move(&moves, PASS_MOVE, False, 0)
        else:
            for code in range(2 * g.move_count):
                if not is_legal_code(g, code, p):
                    continue
                play_code(g, code, p, &child)
                status = team_status(g, &child)
                if status < 0:                      # only our line: a win
                    if ply == 0:
                        self.root_move = code
                    tt_store(&self.tt, low, high, MAX_DEPTH, ply, MATE - (ply + 1), EXACT,
                             code)
                    return MATE - (ply + 1)
                add_move(&moves, code, status > 0, order_key(   # the other team's line: lost
                    status > 0, code == tt_code, self.cutoffs[code],
                    status <= 0 and code != tt_code and depth >= THREAT_DEPTH
                    and self._wins_at_once(&child)))

        if depth <= 0:
            return evaluate(g, &self.weights, team_cubes(p), other_team_cubes(p))

        node_start(&node, alpha, NO_CODE)
        for i in range(moves.count):
            bring_next(&moves, i)
            code = moves.moves[i]
            child_dependent = False
            if moves.losing[i]:
                score = -(MATE - (ply + 1))
            else:
                play_code(g, code, p, &child)
                if i == 0:
                    score = -self._search(&child, depth - 1, ply + 1, -beta, -alpha,
                                          &child_dependent)
                else:
                    score = -self._search(&child, depth - 1, ply + 1, -alpha - 1, -alpha,
                                          &child_dependent)
                    if alpha < score < beta:
                        score = -self._search(&child, depth - 1, ply + 1, -beta, -alpha,
                                              &child_dependent)
            if self.stopped:
                return 0
            if node_take(&node, score, code, child_dependent, beta, ply, &self.root_move):
                if code != PASS_MOVE:
                    self.cutoffs[code] += depth * depth
                break
            alpha = node.alpha

        dependent[0] = node_finish(&node, &self.tt, low, high, depth, ply, beta)
        return node.best


PASS_CODE = PASS_MOVE
MATE_SCORE = MATE
PROVEN_BOUND = MATE_BOUND
DEPTH_LIMIT = MAX_DEPTH
