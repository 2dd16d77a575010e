"""Principal variation search for the four-player game, without the GIL.

The teams alternate at every ply (X1, O1, X2, O2), so this is a two-sided negamax over the
team to move: scores are from the team to move, mate scores carry their plies (_mate.pxd),
and team-mates choose together. A pass is a move (it hands the turn to the other team).

Bound contract of `_search(depth, ply, alpha, beta)`, as for two players: a result v <= alpha
is an upper bound, v >= beta a lower bound, otherwise exact (depth-limited); mate scores are
facts whatever the depth. Values do not depend on the path (the rules have no history), so
table entries hold wherever a position recurs.
"""
from libc.stdint cimport int16_t, int32_t, uint8_t, uint16_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memset

from .._engine cimport Geometry, geometry_of, mask_t, mix64
from ..search._heuristic cimport evaluate
from .._interrupt cimport interrupted, stop_watching, watch_interrupts
from ..search._mate cimport (CHECK_EVERY, EXACT, INFINITE, LOWER, MATE, MATE_BOUND, MAX_DEPTH, UPPER,
                      from_table, now, table_buckets, to_table)
from ._rules cimport (PASS_MOVE, Roles, is_legal_code, must_pass, other_team_cubes, play_code,
                      team_cubes, team_status)

cdef enum:
    MAX_CODES = 2 * 44 + 1
    NO_CODE = 0xFFFF


cdef struct Entry:
    uint64_t low               # own | next << 25, + 1; 0 marks an empty slot
    uint64_t high              # mate | last << 25
    int16_t score
    int16_t depth
    uint8_t bound
    uint16_t code
    uint16_t generation


cdef inline uint64_t low_key(const Roles* p) noexcept nogil:
    return (<uint64_t>p.cubes[0] | (<uint64_t>p.cubes[1] << 25)) + 1


cdef inline uint64_t high_key(const Roles* p) noexcept nogil:
    return <uint64_t>p.cubes[2] | (<uint64_t>p.cubes[3] << 25)


cdef class TeamEngine:
    """Search state for one board size: transposition table, limits, counters."""
    cdef const Geometry* g
    cdef readonly int size
    cdef Entry* table
    cdef uint64_t bucket_mask
    cdef readonly uint64_t entries
    cdef uint16_t generation
    cdef readonly uint64_t nodes
    cdef uint64_t node_limit
    cdef double deadline
    cdef readonly bint stopped
    cdef int32_t history[MAX_CODES]
    cdef readonly int root_code

    def __cinit__(self, int size, double tt_mib):
        cdef uint64_t buckets = table_buckets(tt_mib, 2 * sizeof(Entry))
        self.g = geometry_of(size)
        self.size = size
        self.table = <Entry*>malloc(buckets * 2 * sizeof(Entry))
        if self.table == NULL:
            raise MemoryError(f"cannot allocate a {tt_mib} MiB transposition table")
        self.entries = buckets * 2
        self.bucket_mask = buckets - 1
        self.clear()

    def __dealloc__(self):
        free(self.table)

    def clear(self):
        memset(self.table, 0, self.entries * sizeof(Entry))
        memset(self.history, 0, sizeof(self.history))
        self.generation = 0

    def search(self, roles, int depth, double seconds, uint64_t node_limit,
               uint64_t nodes_before=0):
        """One root search to `depth`; returns the score (meaningless if `stopped`)."""
        cdef Roles p
        cdef int score, role
        for role in range(4):
            p.cubes[role] = roles[role]
        self.nodes = nodes_before
        self.node_limit = node_limit
        self.deadline = now() + seconds if seconds > 0 else 0
        self.stopped = False
        self.root_code = NO_CODE
        self.generation += 1
        watch_interrupts()
        try:
            with nogil:
                score = self._search(&p, depth, 0, -INFINITE, INFINITE)
        finally:
            stop_watching()
        return score

    def table_code(self, roles):
        """The best move code stored for a position, or -1."""
        cdef Roles p
        cdef int role
        for role in range(4):
            p.cubes[role] = roles[role]
        cdef Entry* entry = self._probe(&p)
        return -1 if entry == NULL or entry.code == NO_CODE else entry.code

    cdef inline Entry* _probe(self, const Roles* p) noexcept nogil:
        cdef uint64_t low = low_key(p), high = high_key(p)
        cdef Entry* bucket = &self.table[2 * (mix64(low ^ mix64(high)) & self.bucket_mask)]
        if bucket[0].low == low and bucket[0].high == high:
            return &bucket[0]
        if bucket[1].low == low and bucket[1].high == high:
            return &bucket[1]
        return NULL

    cdef inline void _store(self, const Roles* p, int depth, int ply, int score, int bound,
                            int code) noexcept nogil:
        cdef uint64_t low = low_key(p), high = high_key(p)
        cdef Entry* bucket = &self.table[2 * (mix64(low ^ mix64(high)) & self.bucket_mask)]
        cdef Entry* slot
        if ((bucket[0].low == low and bucket[0].high == high) or bucket[0].low == 0
                or depth >= bucket[0].depth or bucket[0].generation != self.generation):
            slot = &bucket[0]
        else:
            slot = &bucket[1]
        slot.low = low
        slot.high = high
        slot.score = <int16_t>to_table(score, ply)
        slot.depth = <int16_t>depth
        slot.bound = <uint8_t>bound
        slot.code = <uint16_t>code
        slot.generation = self.generation

    cdef int _search(self, const Roles* p, int depth, int ply, int alpha, int beta) noexcept nogil:
        cdef const Geometry* g = self.g
        cdef int original_alpha = alpha, score, best = -INFINITE, best_code = NO_CODE
        cdef int count = 0, i, j, code, tt_code = NO_CODE, key_i, status
        cdef Entry* entry
        cdef Roles child
        cdef int codes[MAX_CODES]
        cdef int order[MAX_CODES]
        cdef bint losing[MAX_CODES]

        self.nodes += 1
        if (self.nodes & CHECK_EVERY) == 0:
            if (self.node_limit and self.nodes >= self.node_limit) or (
                    self.deadline > 0 and now() > self.deadline) or interrupted():
                self.stopped = True
        if self.stopped:
            return 0

        if beta > MATE - (ply + 1):
            beta = MATE - (ply + 1)
            if alpha >= beta:
                return beta

        entry = self._probe(p)
        if entry != NULL:
            tt_code = entry.code
            if ply > 0 and entry.depth >= depth:
                score = from_table(entry.score, ply)
                if entry.bound == EXACT:
                    return score
                if entry.bound == LOWER and score >= beta:
                    return score
                if entry.bound == UPPER and score <= alpha:
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
                        self.root_code = code
                    self._store(p, MAX_DEPTH, ply, MATE - (ply + 1), EXACT, code)
                    return MATE - (ply + 1)
                losing[count] = status > 0          # the other team's line: a loss
                codes[count] = code
                if losing[count]:
                    order[count] = -1000000
                elif code == tt_code:
                    order[count] = 1000000
                else:
                    order[count] = self.history[code]
                count += 1

        if depth <= 0:
            return evaluate(g, team_cubes(p), other_team_cubes(p))

        for i in range(count):
            key_i = i
            for j in range(i + 1, count):
                if order[j] > order[key_i]:
                    key_i = j
            codes[i], codes[key_i] = codes[key_i], codes[i]
            order[i], order[key_i] = order[key_i], order[i]
            losing[i], losing[key_i] = losing[key_i], losing[i]
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
                    self.root_code = code
            if score > alpha:
                alpha = score
            if alpha >= beta:
                if code != PASS_MOVE:
                    self.history[code] += depth * depth
                break

        if best >= beta:
            self._store(p, depth, ply, best, LOWER, best_code)
        elif best > original_alpha:
            self._store(p, depth, ply, best, EXACT, best_code)
        else:
            self._store(p, depth, ply, best, UPPER, best_code)
        return best


PASS_CODE = PASS_MOVE
NONE_CODE = NO_CODE
MATE_SCORE = MATE
PROVEN_BOUND = MATE_BOUND
DEPTH_LIMIT = MAX_DEPTH
