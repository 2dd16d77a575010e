# The random stream of the simulated games: SplitMix64, as rules/stream.py has it (the same
# seed gives the same rolls in both; tested), and the stream of game number g of a series.
from libc.stdint cimport uint64_t


cdef inline uint64_t next_random(uint64_t* state) noexcept nogil:
    state[0] += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = state[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline int random_below(uint64_t* state, int n) noexcept nogil:
    return <int>(((next_random(state) >> 32) * <uint64_t>n) >> 32)


cdef inline uint64_t game_stream(uint64_t seed, long game) noexcept nogil:
    cdef uint64_t mixer = seed + 0x9E3779B97F4A7C15ULL * <uint64_t>(game + 1)
    return next_random(&mixer)
