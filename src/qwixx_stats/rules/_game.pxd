# A game's table as the kernel keeps it (rules/game.py's Game): every player's sheet, the rows
# closed by anyone and the seat that rolls next; how a turn's marks are resolved on it (action 1
# of everyone together, then the active player's action 2 or penalty) and what a finished game
# gives each player (game.final_share).
from ._constants cimport CLOSED_ROWS_TO_END, game_ends
from ._sheet cimport NO_ROW, ROWS, Option, Sheet, box_of, can_mark, closed_count, mark, score

cdef enum:
    MAX_PLAYERS = 8      # game.MAX_PLAYERS


ctypedef struct Table:
    Sheet sheets[MAX_PLAYERS]
    int players
    int closed           # rows closed by anyone
    int active           # the seat that rolls next


cdef inline void new_game(Table* table, int players, int lock_after) noexcept nogil:
    """Empty sheets, no row closed, seat 0 to roll."""
    cdef int i, row
    table.players, table.closed, table.active = players, 0, 0
    for i in range(players):
        for row in range(ROWS):
            table.sheets[i].last[row] = -1
            table.sheets[i].marks[row] = 0
            table.sheets[i].locked[row] = 0
        table.sheets[i].penalties = 0
        table.sheets[i].lock_after = lock_after


cdef inline double final_share(const Sheet* sheets, int players, int me,
                               const Sheet* mine) noexcept nogil:
    """The share of a game that is over for player `me` with `mine` as its sheet: 1 for the
    top score, 1/k for a tie of k at the top, else 0."""
    cdef int j, level = 1, own_score = score(mine)
    for j in range(players):
        if j == me:
            continue
        if score(&sheets[j]) > own_score:
            return 0.0
        if score(&sheets[j]) == own_score:
            level += 1
    return 1.0 / level


cdef inline double share_of(const Table* table, int seat) noexcept nogil:
    """A finished game's share for `seat`: 1, 1/k for a tie of k at the top, or 0."""
    return final_share(table.sheets, table.players, seat, &table.sheets[seat])


cdef inline bint mark_firsts(Table* table, const int* dice, const int* firsts) noexcept nogil:
    """Every player's action 1 (firsts[i]: a row for the white sum, or NO_ROW), marked
    together on the sheets as they were; returns whether that ended the game (a second row
    closed: then there is no action 2)."""
    cdef int closed_after = table.closed, i
    for i in range(table.players):
        if firsts[i] >= 0:
            closed_after |= mark(&table.sheets[i], table.closed, firsts[i],
                                 box_of(firsts[i], dice[0] + dice[1]))
    table.closed = closed_after
    return closed_count(table.closed) >= CLOSED_ROWS_TO_END


cdef inline bint plan_holds(const Table* table, const Option* plan) noexcept nogil:
    """Whether the active player's planned action 2 (plan NULL: none) is still legal once
    action 1 is resolved: no mark, or a mark its sheet still takes."""
    return plan != NULL and (plan.second == NO_ROW or can_mark(
        &table.sheets[table.active], table.closed, plan.second, plan.second_box))


cdef inline bint mark_second(Table* table, int second, int box, bint marked_first) noexcept nogil:
    """The active player's action 2 (`second`: a row, at `box`, or NO_ROW), or its penalty
    when neither action marked; the next seat is to roll. Returns whether the game is over."""
    cdef int active = table.active
    if second >= 0:
        table.closed = mark(&table.sheets[active], table.closed, second, box)
    elif not marked_first:
        table.sheets[active].penalties += 1
    table.active = (active + 1) % table.players
    return game_ends(table.sheets[active].penalties, closed_count(table.closed))
