# The positions of the game and of the search's current line, to find repetitions.
#
# A position that repeats an earlier one with the same player to move, on the current line or
# in the game before the root, scores as a draw. Slot k of the path is the position k plies
# after the first one kept (the game's positions first, then the root, then the line): the same
# player moves every `period` plies (2 for two players, 4 for four). A push never removes a
# cube, so a position can only repeat one with as many cubes: `run_start[k]` is the first slot
# of the run of positions with as many cubes as slot k, and the scan stops there.
#
# Graph-history interaction: a score that a repetition decided holds only for the line that
# led to it, so the searches never store such a score in the transposition table (see
# _search.pyx); a repetition of a game position (before the root) is counted, so that a proof
# that passed near one is not claimed as exact.
from libc.stdint cimport uint8_t, uint64_t


cdef enum:
    MAX_GAME = 512                         # game positions before the root that are kept
    MAX_LINE = 1000                        # the longest line of a search (the proof search's)
    PATH_SLOTS = MAX_GAME + MAX_LINE + 2

cdef struct Path:
    uint64_t low[PATH_SLOTS]               # the position's key, two words
    uint64_t high[PATH_SLOTS]
    uint8_t cubes[PATH_SLOTS]
    int run_start[PATH_SLOTS]
    int game_length                        # slots before the root's
    int period
    uint64_t game_repetitions              # repetitions of a position before the root


cdef inline bint path_visit(Path* path, int slot, uint64_t low, uint64_t high,
                            int cubes) noexcept nogil:
    """Put the position in `slot` and say whether it repeats an earlier one with the same
    player to move (counting the repetitions of game positions)."""
    cdef int earlier
    path.low[slot] = low
    path.high[slot] = high
    path.cubes[slot] = <uint8_t>cubes
    if slot == 0 or path.cubes[slot - 1] != cubes:
        path.run_start[slot] = slot
        return False
    path.run_start[slot] = path.run_start[slot - 1]
    earlier = slot - path.period
    while earlier >= path.run_start[slot]:
        if path.low[earlier] == low and path.high[earlier] == high:
            if earlier < path.game_length:
                path.game_repetitions += 1
            return True
        earlier -= path.period
    return False
