"""Principal variation search over a transposition table, on the bitboards, without the GIL.

Scores are from the player to move. A proven result is a mate score that carries its plies:

    win in k plies (counted from the root)  ->  MATE - k
    loss in k plies                         -> -(MATE - k)
    tablebase draw, repetition              ->  0
    heuristic (unproven)                    ->  |score| < EVAL_LIMIT

Repetitions (_repetition.pxd): a position that repeats one with the same player to move, on
the current line or in the game before the root, scores 0, a draw. A side the heuristic says
is ahead then steers away from repetitions, a side behind steers into them.

Graph-history interaction: a repetition's 0 is true of the line that led to it, not of the
position. A node's result is *path-dependent* when a repetition decided it: a cutoff (lower
bound) when the move that caused it was path-dependent, any other result when any searched
move was. A path-dependent result is returned to the parent but never stored in the
transposition table (only its best move, as an ordering hint, under a depth no search can use),
so every stored score is a fact about the position, and a mate score found through the
transposition table is exact whatever line reaches it. Along a winner's fastest line the
distance to the end falls at every ply, so no repetition of the line itself can hide it; a
repetition of a game position can, and the driver then does not claim the plies as exact
(`game_repetitions`).

Proof search (``prove``): depth-first proof-number search (df-pn, Nagai 2002) with the 1+eps
threshold of Pawlewicz and Lew (2007) and weak proof numbers (Ueda et al. 2008), for a fixed
attacker: OR nodes have the attacker to move (proof = the least proof of a move, disproof =
the weak sum of theirs: the largest plus one per other move), AND nodes the defender (the
other way round). Plain sums count a position reached by several paths once per path and grow
without bound on Quixo's many transpositions and cycles. Leaves are the end of the game, a move that ends it, and the tablebases; a
draw is a disproof. Each node keeps its children's numbers while it works on them, and takes
them from its own proof table (_proof_table.pxd) when it starts. A repetition of a position on the
line or of the game is a disproof that holds only for that line: it is never stored, nor any
disproof that rests on one (a proof never rests on one, so every proof is sound wherever it is
found). A proven node keeps a bound on the plies the proof takes (an OR node: one more than its
best proven move's; an AND node: one more than its slowest move's); it is exact only where it
comes from the tables or a move that ends the game. Lines longer than MAX_LINE are cut as
disproofs of that line.

Bound contract of ``_search(depth, ply, alpha, beta)``: it returns v with
    v <= alpha  -> the true depth-limited value is <= v   (fail low, an upper bound)
    v >= beta   -> the true depth-limited value is >= v   (fail high, a lower bound)
    otherwise   -> v is the exact depth-limited value.
Mate scores keep this contract whatever the depth: they are facts about the game.
"""
cimport cython
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memset

import numpy as np

from ..tablebase.errors import CorruptTableError

from ..rules._rules cimport (
    MAX_MOVES, NO_MOVE, Geometry, has_line, is_legal, mask_t, near_line, pack, play, popcount,
)
from ..tablebase.format._blockcheck cimport quixo_crc32
from ..tablebase.format._codec cimport DAMAGED_DATA
from ..tablebase.format._reader cimport SegmentCache, TableReader, read_position
from ..tablebase.format._orbit_index cimport orbit_index
from ..tablebase.format._compressed_table cimport CompressedTable
from ._heuristic cimport evaluate
from ._node cimport Node, node_finish, node_start, node_take
from ._repetition cimport MAX_LINE, path_visit
from ._search_state cimport SearchState
from ..tablebase.format._value_code cimport DRAW_CODE, is_win, plies_of
from .._interrupt cimport stop_watching, watch_interrupts
from ._mate cimport (EXACT, INFINITE, MATE, MATE_BOUND, MAX_DEPTH, count_node,
                     mate_distance_prunes, now)
from ._ordering cimport THREAT_DEPTH, MoveList, add_move, bring_next, order_key
from ._proof_table cimport (PROOF_INFINITE, ProofEntry, ProofTable, proof_probe, proof_store,
                            proof_table_allocate, proof_table_clear)
from ._transposition cimport quixo_aligned_free
from ._transposition cimport Entry, tt_cutoff, tt_probe, tt_store

cdef enum:
    NO_TABLE = -1      # _stored_code: the class has no table
    DAMAGED = -2       # _stored_code: the value's block is damaged
    CACHE_SLOTS = 64   # decoded segments of each table kept by a searcher
    NO_PROOF_BOUND = 0xFFFF


cdef struct ProofNumbers:          # what a proof-search node reports to its parent
    uint32_t proof
    uint32_t disproof
    uint16_t bound                 # proven: plies to the end under the proof, at most
    bint dependent                 # a disproof that rests on a repetition of the line


cdef inline uint32_t saturated_sum(uint32_t a, uint32_t b) noexcept nogil:
    """a + b, infinite only when a term is: a large sum stays finite (just below infinity), so
    that it never passes for a decided node."""
    if a == PROOF_INFINITE or b == PROOF_INFINITE:
        return PROOF_INFINITE
    return PROOF_INFINITE - 1 if a + b >= PROOF_INFINITE else a + b


cdef inline uint32_t weak_sum(uint32_t largest, uint32_t live) noexcept nogil:
    """The weak proof number of a node's moves (Ueda et al. 2008) where the sum would stand:
    the largest of the `live` (nonzero) numbers, plus one for each other live move. A plain sum
    counts a position that several moves reach (a transposition, a cycle) once per path, and
    grows without bound on Quixo's cycles; the weak sum does not."""
    if largest == PROOF_INFINITE:
        return PROOF_INFINITE
    if live == 0:
        return 0
    return saturated_sum(largest, live - 1)


@cython.final
cdef class Searcher(SearchState):
    """Search state for one board size: the transposition table, the tables to probe, the
    limits and the counters (SearchState), and the tables to probe."""
    cdef bint tablebase[26][26]                  # whether a class has a table
    cdef TableReader tablebase_readers[26][26]
    cdef SegmentCache tablebase_caches[26][26]   # this searcher's decoded segments
    cdef object _keep_alive
    cdef object _table_names
    cdef int damaged_mover, damaged_opponent     # -1, or the class of a damaged block
    cdef uint64_t damaged_block
    cdef ProofTable proofs                       # the proof table, made on first use
    cdef double proof_mib

    def __cinit__(self, int size, double tt_mib):
        memset(self.tablebase, 0, sizeof(self.tablebase))
        self._keep_alive = []
        self._table_names = {}
        self.damaged_mover = -1
        self.path.period = 2
        self.proofs.entries = NULL
        self.proof_mib = tt_mib

    def __dealloc__(self):
        quixo_aligned_free(self.proofs.entries)

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

    def search(self, position, int depth, double seconds, uint64_t node_limit,
               uint64_t nodes_before=0):
        """One root search of `position` (mover, opponent) to ``depth``; returns the score
        (meaningless if ``stopped``). ``root_move`` is then the best move found, or -1."""
        cdef mask_t mover = position[0], opponent = position[1]
        cdef int score
        cdef bint dependent
        self.begin(seconds, node_limit, nodes_before)
        self.damaged_mover = -1
        watch_interrupts()
        try:
            with nogil:
                score = self._search(mover, opponent, depth, 0, -INFINITE, INFINITE,
                                     &dependent)
        finally:
            stop_watching()
        self._raise_if_damaged()
        return score

    def game_key(self, position):
        """(key low word, key high word, cubes) of a position (mover, opponent), for
        `set_game`."""
        cdef mask_t mover = position[0], opponent = position[1]
        return pack(self.g, mover, opponent), 0, popcount(mover) + popcount(opponent)

    def tt_move(self, position):
        """The best move stored for a position (mover, opponent), or -1."""
        cdef Entry* entry = self._probe_tt(position[0], position[1])
        return -1 if entry == NULL or entry.move == NO_MOVE else entry.move

    def evaluate(self, mask_t mover, mask_t opponent):
        return self._evaluate(mover, opponent)

    cdef inline Entry* _probe_tt(self, mask_t mover, mask_t opponent) noexcept nogil:
        return tt_probe(&self.tt, pack(self.g, mover, opponent), 0)

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
        return evaluate(self.g, &self.weights, mover, opponent)

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
                     int beta, bint* dependent) noexcept nogil:
        """The node's score (bound contract of the module's docstring); `dependent` receives
        whether a repetition decided it (then it is not stored)."""
        cdef const Geometry* g = self.g
        cdef int score, i, move, tt_move = NO_MOVE
        cdef bint found, losing, child_dependent
        cdef Node node
        cdef MoveList moves
        cdef Entry* entry
        cdef mask_t child_mover, child_opponent
        cdef uint64_t key = pack(g, mover, opponent)

        dependent[0] = False
        if count_node(&self.nodes, self.node_limit, self.deadline, &self.stop_request,
                      &self.stopped):
            return 0

        if ply > 0:
            score = self._probe_tablebase(mover, opponent, ply, &found)
            if found:
                return score
        if path_visit(&self.path, self.path.game_length + ply, key, 0,
                      popcount(mover) + popcount(opponent)) and ply > 0:
            dependent[0] = True
            return 0

        if mate_distance_prunes(ply, alpha, &beta):
            return beta

        entry = tt_probe(&self.tt, key, 0)
        if entry != NULL:
            tt_move = entry.move
        if tt_cutoff(entry, depth, ply, alpha, beta, &score):
            return score

        # Generate the moves; a move that wins at once ends the search of this node.
        moves.count = 0
        for move in range(g.move_count):
            if not is_legal(g, move, opponent):
                continue
            play(g, move, mover, opponent, &child_mover, &child_opponent)
            losing = has_line(g, child_mover)     # the opponent's line: this move loses
            if not losing and has_line(g, child_opponent):   # only the mover's line: it wins
                if ply == 0:
                    self.root_move = move
                tt_store(&self.tt, key, 0, MAX_DEPTH, ply, MATE - (ply + 1), EXACT, move)
                return MATE - (ply + 1)
            add_move(&moves, move, losing, order_key(
                losing, move == tt_move, self.cutoffs[move],
                not losing and move != tt_move and depth >= THREAT_DEPTH
                and self._wins_at_once(child_mover, child_opponent)))

        if depth <= 0:
            return self._evaluate(mover, opponent)

        node_start(&node, alpha, NO_MOVE)
        for i in range(moves.count):
            bring_next(&moves, i)
            move = moves.moves[i]
            child_dependent = False
            score = -(MATE - (ply + 1)) if moves.losing[i] else self._move_score(
                mover, opponent, move, depth, ply, node.alpha, beta, i == 0, &child_dependent)
            if self.stopped:
                return 0
            if node_take(&node, score, move, child_dependent, beta, ply, &self.root_move):
                self.cutoffs[move] += depth * depth
                break

        dependent[0] = node_finish(&node, &self.tt, key, 0, depth, ply, beta)
        return node.best


    cdef inline int _move_score(self, mask_t mover, mask_t opponent, int move, int depth, int ply,
                                int alpha, int beta, bint first,
                                bint* dependent) noexcept nogil:
        """The score of a move that does not end the game, by principal variation search: the
        first move with the whole window, the others with a null window first, searched again
        with the window when they beat it."""
        cdef mask_t child_mover, child_opponent
        cdef int score
        play(self.g, move, mover, opponent, &child_mover, &child_opponent)
        if first:
            return -self._search(child_mover, child_opponent, depth - 1, ply + 1, -beta, -alpha,
                                 dependent)
        score = -self._search(child_mover, child_opponent, depth - 1, ply + 1, -alpha - 1,
                              -alpha, dependent)
        if alpha < score < beta:
            score = -self._search(child_mover, child_opponent, depth - 1, ply + 1, -beta,
                                  -alpha, dependent)
        return score

    # -- proof-number search ---------------------------------------------------------------
    def prove(self, position, bint for_mover, double seconds, uint64_t node_limit):
        """Proof search of `position` (mover, opponent) for the mover (`for_mover`) or for the
        opponent, from a cleared proof table, within the limits (0: none). Returns (proof,
        disproof, bound, best move): proof 0 is proven (the attacker wins within `bound`
        plies), disproof 0 disproven (the attacker does not win); otherwise undecided. The best
        move is the mover's: the proof's move, or the move that resists longest, or -1."""
        cdef mask_t mover = position[0], opponent = position[1]
        cdef ProofNumbers result
        if self.proofs.entries == NULL and proof_table_allocate(&self.proofs,
                                                                self.proof_mib) != 0:
            raise MemoryError(f"cannot allocate a {self.proof_mib} MiB proof table")
        proof_table_clear(&self.proofs)
        self.begin(seconds, node_limit, 0)
        self.damaged_mover = -1
        watch_interrupts()
        try:
            with nogil:
                result = self._mid(mover, opponent, for_mover, 0, PROOF_INFINITE,
                                   PROOF_INFINITE)
        finally:
            stop_watching()
        self._raise_if_damaged()
        return (result.proof, result.disproof,
                result.bound if result.proof == 0 else None, self.root_move)

    cdef ProofNumbers _mid(self, mask_t mover, mask_t opponent, bint attacker_moves, int ply,
                           uint32_t proof_threshold, uint32_t disproof_threshold) noexcept nogil:
        """df-pn's multiple iterative deepening at one node: work on it until its proof or
        disproof number reaches its threshold (or it is decided, or the limits stop it)."""
        cdef const Geometry* g = self.g
        cdef ProofNumbers node, child
        cdef uint64_t key = 2 * pack(g, mover, opponent) + attacker_moves
        cdef uint64_t work_before = self.nodes
        cdef ProofEntry* entry
        cdef int count = 0, i, move, code, chosen, plies
        cdef uint32_t first, second, value
        cdef mask_t child_mover[MAX_MOVES]
        cdef mask_t child_opponent[MAX_MOVES]
        cdef int child_move[MAX_MOVES]
        cdef ProofNumbers children[MAX_MOVES]
        node.proof, node.disproof, node.bound, node.dependent = 1, 1, NO_PROOF_BOUND, False

        if count_node(&self.nodes, self.node_limit, self.deadline, &self.stop_request,
                      &self.stopped):
            return node
        code = self._stored_code(mover, opponent)
        if code >= 0 or code == DAMAGED:          # the tables decide (or the search stops)
            if code > DRAW_CODE and is_win(code) == attacker_moves:
                node.proof, node.disproof, node.bound = 0, PROOF_INFINITE, plies_of(code)
            else:
                node.proof, node.disproof = PROOF_INFINITE, 0
            return node
        if ply >= MAX_LINE or (path_visit(&self.path, self.path.game_length + ply,
                                           pack(g, mover, opponent), 0,
                                           popcount(mover) + popcount(opponent)) and ply > 0):
            node.proof, node.disproof, node.dependent = PROOF_INFINITE, 0, True
            return node

        entry = proof_probe(&self.proofs, key)
        if entry != NULL and (entry.proof == 0 or entry.disproof == 0
                              or entry.proof >= proof_threshold
                              or entry.disproof >= disproof_threshold):
            node.proof, node.disproof, node.bound = entry.proof, entry.disproof, entry.bound
            return node

        # The moves: one that ends the game decides the node or is a decided child.
        for move in range(g.move_count):
            if not is_legal(g, move, opponent):
                continue
            play(g, move, mover, opponent, &child_mover[count], &child_opponent[count])
            child.dependent = False
            child.bound = NO_PROOF_BOUND
            if has_line(g, child_mover[count]):         # completes the opponent's line: loses
                if attacker_moves:
                    child.proof, child.disproof = PROOF_INFINITE, 0
                else:
                    child.proof, child.disproof, child.bound = 0, PROOF_INFINITE, 0
            elif has_line(g, child_opponent[count]):    # completes only the mover's: wins
                if ply == 0:
                    self.root_move = move
                if attacker_moves:
                    node.proof, node.disproof, node.bound = 0, PROOF_INFINITE, 1
                else:
                    node.proof, node.disproof = PROOF_INFINITE, 0
                proof_store(&self.proofs, key, node.proof, node.disproof, node.bound, 1)
                return node
            else:
                entry = proof_probe(&self.proofs, 2 * pack(g, child_mover[count],
                                                           child_opponent[count])
                                    + (not attacker_moves))
                if entry == NULL:
                    child.proof, child.disproof = 1, 1
                else:
                    child.proof, child.disproof, child.bound = (entry.proof, entry.disproof,
                                                                entry.bound)
            children[count] = child
            child_move[count] = move
            count += 1

        while True:
            self._combine(children, count, attacker_moves, &node)
            if (node.proof >= proof_threshold or node.disproof >= disproof_threshold
                    or self.stopped):
                break
            # the most promising move, and the threshold that the second best sets it
            chosen = -1
            first = second = PROOF_INFINITE
            for i in range(count):
                value = children[i].proof if attacker_moves else children[i].disproof
                if value < first:
                    second, first, chosen = first, value, i
                elif value < second:
                    second = value
            second = saturated_sum(second, second // 4 + 1)     # the 1 + eps trick
            if attacker_moves:      # an OR node: the move with the least proof number
                child = self._mid(child_mover[chosen], child_opponent[chosen], False, ply + 1,
                                  min(proof_threshold, second),
                                  disproof_threshold - node.disproof + children[chosen].disproof)
            else:                   # an AND node: the move with the least disproof number
                child = self._mid(child_mover[chosen], child_opponent[chosen], True, ply + 1,
                                  proof_threshold - node.proof + children[chosen].proof,
                                  min(disproof_threshold, second))
            children[chosen] = child
        if ply == 0:
            self.root_move = self._root_choice(children, child_move, count, attacker_moves)
        if not (node.disproof == 0 and node.dependent) and not self.stopped:
            proof_store(&self.proofs, key, node.proof, node.disproof, node.bound,
                        self.nodes - work_before)
        return node

    cdef void _combine(self, const ProofNumbers* children, int count, bint attacker_moves,
                       ProofNumbers* node) noexcept nogil:
        """A node's numbers from its children's: at an OR node (the attacker to move) the
        least proof and the weak sum of the disproofs, at an AND node the other way round;
        the proof's bound, and whether a disproof rests on a repetition."""
        cdef int i
        cdef uint32_t least = PROOF_INFINITE, largest = 0, live = 0, value
        cdef uint16_t bound = NO_PROOF_BOUND if attacker_moves else 0
        cdef bint any_dependent = False, all_zero_dependent = True
        for i in range(count):
            if attacker_moves:
                least = min(least, children[i].proof)
                value = children[i].disproof
                if children[i].proof == 0 and children[i].bound + 1 < bound:
                    bound = children[i].bound + 1
            else:
                least = min(least, children[i].disproof)
                value = children[i].proof
                if children[i].proof == 0 and children[i].bound + 1 > bound:
                    bound = children[i].bound + 1
                if children[i].disproof == 0 and not children[i].dependent:
                    all_zero_dependent = False
            if value > 0:
                live += 1
                largest = max(largest, value)
            any_dependent = any_dependent or children[i].dependent
        if attacker_moves:
            node.proof, node.disproof = least, weak_sum(largest, live)
            node.dependent = node.disproof == 0 and any_dependent
        else:
            node.proof, node.disproof = weak_sum(largest, live), least
            node.dependent = node.disproof == 0 and all_zero_dependent
        node.bound = bound if node.proof == 0 else NO_PROOF_BOUND

    cdef int _root_choice(self, const ProofNumbers* children, const int* moves, int count,
                          bint attacker_moves) noexcept nogil:
        """The root's move: proven, the proof's fastest move; disproven for a defending root,
        the move that refutes; else the most promising (attacker) or the one that resists
        the longest (defender)."""
        cdef int i, best = -1
        cdef uint64_t rank, best_rank = 0xFFFFFFFFFFFFFFFF
        for i in range(count):
            # the attacker: the least proof number, then the shortest proof; the defender: the
            # least disproof number, then the longest proof against it
            if attacker_moves:
                rank = (<uint64_t>children[i].proof << 16) | children[i].bound
            else:
                rank = (<uint64_t>children[i].disproof << 16) | (0xFFFF - children[i].bound)
            if rank < best_rank:
                best, best_rank = i, rank
        return -1 if best < 0 else moves[best]


MATE_SCORE = MATE
PROVEN_BOUND = MATE_BOUND
DEPTH_LIMIT = MAX_DEPTH


def block_crc32(data) -> int:
    """The CRC-32 of the search's block check (equal to zlib.crc32; for the tests)."""
    cdef const uint8_t[::1] view = np.frombuffer(bytes(data), dtype=np.uint8)
    return quixo_crc32(&view[0] if view.shape[0] else NULL, view.shape[0])
