"""Principal variation search over a transposition table, on the bitboards, without the GIL.

Scores are from the player to move. A proven result is a mate score that carries its plies:

    win in k plies (counted from the root)  ->  MATE - k
    loss in k plies                         -> -(MATE - k)
    tablebase draw                          ->  0
    heuristic (unproven)                    ->  |score| < EVAL_LIMIT

Quixo's rules do not depend on the history of the game, so a position's value does not depend
on the path that reached it: repeated positions need no special score, and a table entry is
valid wherever the position recurs (the depth limit alone ends cycles).

Bound contract of ``_search(depth, ply, alpha, beta)``: it returns v with
    v <= alpha  -> the true depth-limited value is <= v   (fail low, an upper bound)
    v >= beta   -> the true depth-limited value is >= v   (fail high, a lower bound)
    otherwise   -> v is the exact depth-limited value.
Mate scores keep this contract whatever the depth: they are facts about the game.
"""
from libc.stdint cimport int16_t, int32_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memset

import numpy as np

from ..tablebase.errors import CorruptTableError

from .._rules cimport (
    MAX_MOVES, NO_MOVE, Geometry, geometry_of, has_line, is_legal, mask_t, near_line, pack, play,
    popcount,
)
from ..tablebase._blockcheck cimport quixo_crc32
from ..tablebase._codec cimport DAMAGED_DATA
from ..tablebase._reader cimport SegmentCache, TableReader, read_position
from ..tablebase._orbit_index cimport orbit_index
from ..tablebase._table cimport CompressedTable
from ._heuristic cimport evaluate
from ..tablebase._value_code cimport DRAW_CODE, is_win, plies_of
from .._interrupt cimport stop_watching, watch_interrupts
from ._mate cimport (EXACT, INFINITE, MATE, MATE_BOUND, MAX_DEPTH, mate_distance_prunes, now,
                     out_of_budget)
from ._ordering cimport THREAT_DEPTH, bring_next, order_key
from ._table cimport (Entry, Table, bound_of, table_allocate, table_clear, table_cutoff,
                      table_free, table_new_search, table_probe, table_store)

cdef enum:
    NO_TABLE = -1      # _stored_code: the class has no table
    DAMAGED = -2       # _stored_code: the value's block is damaged
    CACHE_SLOTS = 64   # decoded segments of each table kept by a searcher


cdef class Searcher:
    """Search state for one board size: the transposition table, the tables to probe, the
    limits and the counters."""
    cdef const Geometry* g
    cdef readonly int size
    cdef Table table
    cdef bint tablebase[26][26]                  # whether a class has a table
    cdef TableReader tablebase_readers[26][26]
    cdef SegmentCache tablebase_caches[26][26]   # this searcher's decoded segments
    cdef object _keep_alive
    cdef object _table_names
    cdef int damaged_mover, damaged_opponent     # -1, or the class of a damaged block
    cdef uint64_t damaged_block
    cdef readonly uint64_t nodes
    cdef uint64_t node_limit
    cdef double deadline
    cdef readonly bint stopped
    cdef int32_t history[MAX_MOVES]
    cdef readonly int root_move

    def __cinit__(self, int size, double tt_mib):
        self.g = geometry_of(size)
        self.size = size
        if table_allocate(&self.table, tt_mib) != 0:
            raise MemoryError(f"cannot allocate a {tt_mib} MiB transposition table")
        memset(self.tablebase, 0, sizeof(self.tablebase))
        self._keep_alive = []
        self._table_names = {}
        self.damaged_mover = -1

    def __dealloc__(self):
        table_free(&self.table)

    @property
    def entries(self):
        """Entries of the transposition table."""
        return self.table.size

    def add_table(self, int mover_count, int opponent_count, table):
        """Let the search probe a solved class: `table` is a tablebase.files.CompressedTable,
        whose blocks the search checks the first time it reads from them."""
        if not (0 <= mover_count and 0 <= opponent_count
                and mover_count + opponent_count <= self.g.cell_count):
            raise ValueError(f"no class ({mover_count}, {opponent_count}) on a "
                             f"{self.size}x{self.size} board")
        if not isinstance(table, CompressedTable):
            raise ValueError("a table must be a tablebase.files.CompressedTable")
        cdef CompressedTable checked_table = table
        if (checked_table.orbits.size, checked_table.orbits.mover_count,
                checked_table.orbits.opponent_count) != (self.size, mover_count, opponent_count):
            raise ValueError(f"the table of {checked_table.path} is not the table of class "
                             f"({mover_count}, {opponent_count}) of the {self.size}x{self.size} "
                             "board")
        keys = np.zeros(CACHE_SLOTS, dtype=np.uint64)
        codes = np.zeros(CACHE_SLOTS * checked_table.reader.segment_entries, dtype=np.uint16)
        cdef uint64_t[::1] key_view = keys
        cdef uint16_t[::1] code_view = codes
        self._keep_alive.append((table, keys, codes))
        self._table_names[mover_count, opponent_count] = str(checked_table.path)
        self.tablebase_readers[mover_count][opponent_count] = checked_table.reader
        self.tablebase_caches[mover_count][opponent_count] = SegmentCache(
            &key_view[0], &code_view[0], CACHE_SLOTS)
        self.tablebase[mover_count][opponent_count] = True

    def clear(self):
        """Forget everything learnt: a fresh search is then deterministic."""
        table_clear(&self.table)
        memset(self.history, 0, sizeof(self.history))

    def search(self, position, int depth, double seconds, uint64_t node_limit,
               uint64_t nodes_before=0):
        """One root search of `position` (mover, opponent) to ``depth``; returns the score
        (meaningless if ``stopped``). ``root_move`` is then the best move found, or -1."""
        cdef mask_t mover = position[0], opponent = position[1]
        cdef int score
        self.nodes = nodes_before
        self.node_limit = node_limit
        self.deadline = now() + seconds if seconds > 0 else 0
        self.stopped = False
        self.damaged_mover = -1
        self.root_move = -1
        table_new_search(&self.table)
        watch_interrupts()
        try:
            with nogil:
                score = self._search(mover, opponent, depth, 0, -INFINITE, INFINITE)
        finally:
            stop_watching()
        self._raise_if_damaged()
        return score

    def table_move(self, position):
        """The best move stored for a position (mover, opponent), or -1."""
        cdef Entry* entry = self._probe_table(position[0], position[1])
        return -1 if entry == NULL or entry.move == NO_MOVE else entry.move

    def evaluate(self, mask_t mover, mask_t opponent):
        return self._evaluate(mover, opponent)

    cdef inline Entry* _probe_table(self, mask_t mover, mask_t opponent) noexcept nogil:
        return table_probe(&self.table, pack(self.g, mover, opponent), 0)

    cdef inline void _store(self, mask_t mover, mask_t opponent, int depth, int ply, int score,
                            int bound, int move) noexcept nogil:
        table_store(&self.table, pack(self.g, mover, opponent), 0, depth, ply, score, bound, move)

    cdef inline int _stored_code(self, mask_t mover, mask_t opponent) noexcept nogil:
        """The code the tables hold for a position; NO_TABLE if its class has none, DAMAGED
        (and the search stops, naming the block) if its block is damaged."""
        cdef int a = popcount(mover), b = popcount(opponent), code
        if not self.tablebase[a][b]:
            return NO_TABLE
        code = read_position(&self.tablebase_readers[a][b], &self.tablebase_caches[a][b],
                             self.g, mover, opponent)
        if code == DAMAGED_DATA:
            code = DAMAGED
            self.damaged_mover, self.damaged_opponent = a, b
            self.damaged_block = orbit_index(self.tablebase_readers[a][b].index, mover,
                                             opponent) // self.tablebase_readers[a][b].block_entries
            self.stopped = True
        return code

    cdef inline int _probe_tablebase(self, mask_t mover, mask_t opponent, int ply,
                                     bint* found) noexcept nogil:
        cdef int code = self._stored_code(mover, opponent)
        found[0] = code >= 0
        if code <= DRAW_CODE:
            return 0
        if is_win(code):
            return MATE - (ply + plies_of(code))
        return -(MATE - (ply + plies_of(code)))

    def table_code(self, mask_t mover, mask_t opponent):
        """The code the kernel reads from the tables for a position, None without its table
        (for the tests: it must be what the Python probe reads)."""
        self.damaged_mover = -1
        cdef int code = self._stored_code(mover, opponent)
        self._raise_if_damaged()
        return None if code == NO_TABLE else code

    def _raise_if_damaged(self):
        if self.damaged_mover >= 0:
            name = self._table_names[self.damaged_mover, self.damaged_opponent]
            self.damaged_mover = -1
            raise CorruptTableError(f"{name} is damaged: block {self.damaged_block} does not "
                                    "match its checksum or does not decode; rebuild it")

    cdef int _evaluate(self, mask_t mover, mask_t opponent) noexcept nogil:
        return evaluate(self.g, mover, opponent)

    cdef bint _wins_at_once(self, mask_t mover, mask_t opponent) noexcept nogil:
        """Whether the player to move has a move that completes only their own line."""
        cdef const Geometry* g = self.g
        cdef mask_t child_mover, child_opponent
        cdef int move
        if not near_line(g, mover):
            return False
        for move in range(g.move_count):
            if is_legal(g, move, opponent):
                play(g, move, mover, opponent, &child_mover, &child_opponent)
                if has_line(g, child_opponent) and not has_line(g, child_mover):
                    return True
        return False

    cdef int _search(self, mask_t mover, mask_t opponent, int depth, int ply, int alpha,
                     int beta) noexcept nogil:
        cdef const Geometry* g = self.g
        cdef int original_alpha = alpha, score, best = -INFINITE, best_move = NO_MOVE
        cdef int count = 0, i, move, tt_move = NO_MOVE
        cdef bint found
        cdef Entry* entry
        cdef mask_t child_mover, child_opponent
        cdef int moves[MAX_MOVES]
        cdef int order[MAX_MOVES]
        cdef bint losing[MAX_MOVES]

        self.nodes += 1
        if out_of_budget(self.nodes, self.node_limit, self.deadline):
            self.stopped = True
        if self.stopped:
            return 0

        if ply > 0:
            score = self._probe_tablebase(mover, opponent, ply, &found)
            if found:
                return score

        if mate_distance_prunes(ply, alpha, &beta):
            return beta

        entry = self._probe_table(mover, opponent)
        if entry != NULL:
            tt_move = entry.move
        if table_cutoff(entry, depth, ply, alpha, beta, &score):
            return score

        # Generate the moves; a move that wins at once ends the search of this node.
        for move in range(g.move_count):
            if not is_legal(g, move, opponent):
                continue
            play(g, move, mover, opponent, &child_mover, &child_opponent)
            if has_line(g, child_mover):          # the opponent's line: this move loses
                losing[count] = True
            elif has_line(g, child_opponent):     # only the mover's line: it wins
                if ply == 0:
                    self.root_move = move
                self._store(mover, opponent, MAX_DEPTH, ply, MATE - (ply + 1), EXACT, move)
                return MATE - (ply + 1)
            else:
                losing[count] = False
            moves[count] = move
            order[count] = order_key(
                losing[count], move == tt_move, self.history[move],
                not losing[count] and move != tt_move and depth >= THREAT_DEPTH
                and self._wins_at_once(child_mover, child_opponent))
            count += 1

        if depth <= 0:
            return self._evaluate(mover, opponent)

        for i in range(count):
            bring_next(i, count, moves, order, losing)
            move = moves[i]
            if losing[i]:
                score = -(MATE - (ply + 1))
            else:
                play(g, move, mover, opponent, &child_mover, &child_opponent)
                if i == 0:
                    score = -self._search(child_mover, child_opponent, depth - 1, ply + 1,
                                          -beta, -alpha)
                else:
                    score = -self._search(child_mover, child_opponent, depth - 1, ply + 1,
                                          -alpha - 1, -alpha)
                    if alpha < score < beta:
                        score = -self._search(child_mover, child_opponent, depth - 1, ply + 1,
                                              -beta, -alpha)
            if self.stopped:
                return 0
            if score > best:
                best = score
                best_move = move
                if ply == 0:
                    self.root_move = move
            if score > alpha:
                alpha = score
            if alpha >= beta:
                self.history[move] += depth * depth
                break

        self._store(mover, opponent, depth, ply, best, bound_of(best, original_alpha, beta),
                    best_move)
        return best


MATE_SCORE = MATE
PROVEN_BOUND = MATE_BOUND
DEPTH_LIMIT = MAX_DEPTH


def block_crc32(data) -> int:
    """The CRC-32 of the search's block check (equal to zlib.crc32; for the tests)."""
    cdef const uint8_t[::1] view = np.frombuffer(bytes(data), dtype=np.uint8)
    return quixo_crc32(&view[0] if view.shape[0] else NULL, view.shape[0])
