# The proof search's own table (df-pn, _search.pyx `prove`), apart from alpha-beta's
# transposition table because it holds other numbers: for a position and the side it is
# searched for (the attacker), its proof and disproof numbers, the work spent below it, and for
# a proven position a bound on the plies the proof takes to end the game.
#
# Buckets of two 32-byte entries, one cache line each. A new entry goes into an empty slot, or
# replaces the slot with less work under it: a final result (proof or disproof 0) is kept
# before anything that took less work to find.
from libc.stdint cimport uint16_t, uint32_t, uint64_t
from libc.string cimport memset

from ..rules._rules cimport mix64
from ._transposition cimport allocate_buckets, quixo_aligned_free

cdef enum:
    PROOF_INFINITE = 0x3FFFFFFF     # a proof (disproof) number that means "disproven" ("proven")


cdef struct ProofEntry:             # 32 bytes
    uint64_t key                    # the position's key, 2 * packed + attacker to move, + 1
    uint64_t work                   # nodes searched below it
    uint32_t proof
    uint32_t disproof
    uint16_t bound                  # proven: the proof ends the game within so many plies
    uint16_t padding[3]

cdef struct ProofTable:
    ProofEntry* entries
    uint64_t bucket_mask


cdef inline int proof_table_allocate(ProofTable* t, double mib) noexcept nogil:
    cdef uint64_t buckets
    t.entries = <ProofEntry*>allocate_buckets(mib, 2 * sizeof(ProofEntry), &buckets)
    if t.entries == NULL:
        return -1
    t.bucket_mask = buckets - 1
    proof_table_clear(t)
    return 0


cdef inline void proof_table_clear(ProofTable* t) noexcept nogil:
    if t.entries != NULL:
        memset(t.entries, 0, (t.bucket_mask + 1) * 2 * sizeof(ProofEntry))


cdef inline ProofEntry* proof_probe(ProofTable* t, uint64_t key) noexcept nogil:
    cdef ProofEntry* bucket = &t.entries[2 * (mix64(key) & t.bucket_mask)]
    key += 1
    if bucket[0].key == key:
        return &bucket[0]
    if bucket[1].key == key:
        return &bucket[1]
    return NULL


cdef inline uint64_t _weight(const ProofEntry* entry) noexcept nogil:
    """What an entry is worth keeping: its work, and everything for a final result."""
    if entry.proof == 0 or entry.disproof == 0:
        return 0xFFFFFFFFFFFFFFFF
    return entry.work


cdef inline void proof_store(ProofTable* t, uint64_t key, uint32_t proof, uint32_t disproof,
                             uint16_t bound, uint64_t work) noexcept nogil:
    cdef ProofEntry* bucket = &t.entries[2 * (mix64(key) & t.bucket_mask)]
    cdef ProofEntry* slot
    key += 1
    if bucket[0].key == key or bucket[0].key == 0:
        slot = &bucket[0]
    elif bucket[1].key == key or bucket[1].key == 0:
        slot = &bucket[1]
    else:
        slot = &bucket[0] if _weight(&bucket[0]) <= _weight(&bucket[1]) else &bucket[1]
        if _weight(slot) > work and proof != 0 and disproof != 0:
            return                  # both slots hold more work than this unfinished node
    slot.key = key
    slot.work = work
    slot.proof = proof
    slot.disproof = disproof
    slot.bound = bound
