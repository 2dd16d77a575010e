# The `win` strategy's value of a choice (the method: winning.py, the twin: winning.win_value):
# the race estimate (_race.pxd) of every player's final score from the sheets after it, and
# the chance of finishing on top; and the order of two rated choices that the strategies built
# on it share (better).
from ..rules._constants cimport PENALTY_STATES, game_ends
from ..rules._game cimport MAX_PLAYERS, final_share
from ..rules._rows cimport state_index
from ..rules._sheet cimport Sheet, closed_count, row_state, score
from ..tables._race cimport Outlook, RaceModel, SAME_CHANCE, win_chance


cdef inline Outlook outlook(const RaceModel* race, const Sheet* sheet, int closed) noexcept nogil:
    """The race estimate of one sheet's final score (race.RaceTable.outlook)."""
    cdef Outlook result
    cdef Py_ssize_t index
    cdef double mean, second
    result.mean = score(sheet)
    result.variance = 0.0
    if game_ends(sheet.penalties, closed_count(closed)):
        return result
    index = state_index(row_state(sheet, closed, 0), row_state(sheet, closed, 1),
                        row_state(sheet, closed, 2), row_state(sheet, closed, 3))
    index = index * PENALTY_STATES + sheet.penalties
    if closed != 0 and race.late_mean != NULL:
        mean = race.late_mean[index]
        second = race.late_second[index]
    else:
        mean = race.mean[index]
        second = race.second[index]
    result.mean += mean
    result.variance = second - mean * mean
    if result.variance < 0.0:
        result.variance = 0.0
    return result


cdef inline double win_value(const RaceModel* race, const Sheet* sheets, int players, int me,
                             const Sheet* mine, int closed, double* mean) noexcept nogil:
    """The chance that player `me`, with `mine` as its sheet and `closed` as the closed rows,
    wins (winning.win_value); mean[0] gets its expected final score. A game that is over is
    scored exactly: 1 for the top score, 1/k for a tie of k at the top, else 0."""
    cdef Outlook others[MAX_PLAYERS]
    cdef Outlook own = outlook(race, mine, closed)
    cdef int j, count = 0
    mean[0] = own.mean
    if game_ends(mine.penalties, closed_count(closed)):
        return final_share(sheets, players, me, mine)
    for j in range(players):
        if j != me:
            others[count] = outlook(race, &sheets[j], closed)
            count += 1
    return win_chance(own, others, count, race)


cdef inline bint better(double chance, double mean, double best_chance,
                        double best_mean) noexcept nogil:
    """A higher chance of winning; at the same chance, a higher expected score."""
    if chance > best_chance + SAME_CHANCE:
        return True
    return chance >= best_chance - SAME_CHANCE and mean > best_mean
