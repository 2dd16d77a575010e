# The transposition table (tt) of both searches (two and four players), as connect4 keeps its
# TranspositionTable apart from its Solver.
#
# A position's key is two 64-bit words (two players: the packed position and 0; four players:
# the four role masks, two to a word), stored whole, so that an entry never answers for another
# position. Buckets of two entries: slot 0 keeps the deepest result of the current search,
# slot 1 takes everything else. An entry takes 32 bytes and the table is aligned to 64, so
# that a bucket is one cache line: a probe costs one miss. Mate scores are stored relative to the node (_mate.pxd
# node_relative), so that an entry stays right wherever the position recurs.
from libc.stdint cimport int8_t, int16_t, uint8_t, uint16_t, uint64_t
from libc.string cimport memset

from ..rules._rules cimport mix64
from ._mate cimport EXACT, LOWER, UPPER, root_relative, bucket_count, node_relative

cdef enum:
    NO_BOUND = 0                # an entry that keeps only a best move (a path-dependent result)

cdef struct Entry:              # 32 bytes
    uint64_t low                # key word 0, + 1: 0 marks an empty slot
    uint64_t high               # key word 1
    int16_t score
    int8_t depth
    uint8_t bound
    uint16_t move               # as the search numbers its moves; it says which is "none"
    uint16_t generation
    uint64_t padding            # to 32 bytes: two entries fill a cache line

cdef extern from *:
    """
    #include <stdlib.h>
    #if defined(_WIN32)
    #include <malloc.h>
    static void* quixo_aligned_alloc(size_t size) { return _aligned_malloc(size, 64); }
    static void quixo_aligned_free(void* p) { _aligned_free(p); }
    #else
    static void* quixo_aligned_alloc(size_t size) {
        void* p = NULL;
        return posix_memalign(&p, 64, size) == 0 ? p : NULL;
    }
    static void quixo_aligned_free(void* p) { free(p); }
    #endif
    """
    void* quixo_aligned_alloc(size_t size) nogil
    void quixo_aligned_free(void* p) nogil

cdef struct TranspositionTable:
    Entry* entries
    uint64_t bucket_mask
    uint64_t size               # entries
    uint16_t generation


cdef inline void* allocate_buckets(double mib, size_t bucket_bytes,
                                   uint64_t* buckets) noexcept nogil:
    """Room for the most buckets of `bucket_bytes` (a power of two of them) that fit in `mib`
    MiB, aligned to a cache line (the proof table uses it too); NULL if the memory is
    refused."""
    buckets[0] = bucket_count(mib, bucket_bytes)
    return quixo_aligned_alloc(buckets[0] * bucket_bytes)


cdef inline int tt_allocate(TranspositionTable* t, double tt_mib) noexcept nogil:
    """Room for the most entries that fit in `tt_mib` MiB; -1 if the memory is refused."""
    cdef uint64_t buckets
    t.entries = <Entry*>allocate_buckets(tt_mib, 2 * sizeof(Entry), &buckets)
    if t.entries == NULL:
        return -1
    t.size = buckets * 2
    t.bucket_mask = buckets - 1
    tt_clear(t)
    return 0


cdef inline void tt_free(TranspositionTable* t) noexcept nogil:
    quixo_aligned_free(t.entries)
    t.entries = NULL


cdef inline void tt_clear(TranspositionTable* t) noexcept nogil:
    memset(t.entries, 0, t.size * sizeof(Entry))
    t.generation = 0


cdef inline void tt_new_search(TranspositionTable* t) noexcept nogil:
    t.generation += 1


cdef inline Entry* tt_probe(TranspositionTable* t, uint64_t low, uint64_t high) noexcept nogil:
    """The entry of the position keyed (low, high), or NULL. Keys have low < 2**64 - 1."""
    cdef Entry* bucket = &t.entries[2 * (mix_key(low, high) & t.bucket_mask)]
    low += 1
    if bucket[0].low == low and bucket[0].high == high:
        return &bucket[0]
    if bucket[1].low == low and bucket[1].high == high:
        return &bucket[1]
    return NULL


cdef inline void tt_store(TranspositionTable* t, uint64_t low, uint64_t high, int depth, int ply,
                          int score, int bound, int move) noexcept nogil:
    cdef Entry* bucket = &t.entries[2 * (mix_key(low, high) & t.bucket_mask)]
    cdef Entry* slot
    low += 1
    if ((bucket[0].low == low and bucket[0].high == high) or bucket[0].low == 0
            or depth >= bucket[0].depth or bucket[0].generation != t.generation):
        slot = &bucket[0]
    else:
        slot = &bucket[1]
    slot.low = low
    slot.high = high
    slot.score = <int16_t>node_relative(score, ply)
    slot.depth = <int8_t>depth
    slot.bound = <uint8_t>bound
    slot.move = <uint16_t>move
    slot.generation = t.generation


cdef inline bint tt_cutoff(const Entry* entry, int depth, int ply, int alpha, int beta,
                           int* score) noexcept nogil:
    """Whether an entry deep enough settles the node within (alpha, beta); `score`
    receives its score, made relative to the root."""
    if entry == NULL or ply == 0 or entry.depth < depth:
        return False
    score[0] = root_relative(entry.score, ply)
    return (entry.bound == EXACT or (entry.bound == LOWER and score[0] >= beta)
            or (entry.bound == UPPER and score[0] <= alpha))


cdef inline int bound_of(int best, int original_alpha, int beta) noexcept nogil:
    """What a node's best score is: a lower bound (it failed high), exact, or an upper bound
    (it failed low)."""
    if best >= beta:
        return LOWER
    if best > original_alpha:
        return EXACT
    return UPPER


cdef inline uint64_t mix_key(uint64_t low, uint64_t high) noexcept nogil:
    # the high word spread by a multiplication (0 for two players: nothing to pay), then
    # splitmix64's finaliser, a bijection that spreads positions over 64 bits
    return mix64(low ^ (high * 0x9E3779B97F4A7C15ULL))
