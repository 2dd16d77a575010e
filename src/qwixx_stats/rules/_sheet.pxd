# A sheet as the kernel keeps it (rules/sheet.py's Sheet): per row, the last marked box (-1
# when empty), the number of marked numbers and whether this player locked it; `closed` is a
# 4-bit mask the table shares. An option is one player's marks of a turn.
from ._constants cimport PENALTY_POINTS, PENALTY_STATES, game_ends
from ._rows cimport CLOSED, LOCK_POSITION, state_index

cdef enum:
    ROWS = 4
    NO_ROW = -1


ctypedef struct Sheet:
    int last[ROWS]
    int marks[ROWS]
    int locked[ROWS]
    int penalties
    int lock_after     # marks the row needs before its last number (the game's lock rule)

ctypedef struct Option:
    int first          # row of action 1, or NO_ROW
    int first_box      # its box (the white sum's)
    int second         # row of action 2, or NO_ROW
    int second_box     # its box


cdef inline int box_of(int row, int number) noexcept nogil:
    return number - 2 if row < 2 else 12 - number


cdef inline bint can_mark(const Sheet* sheet, int closed, int row, int box) noexcept nogil:
    if closed & (1 << row):
        return False
    if box <= sheet.last[row]:
        return False
    return box < LOCK_POSITION or sheet.marks[row] >= sheet.lock_after


cdef inline int mark(Sheet* sheet, int closed, int row, int box) noexcept nogil:
    """Mark a legal box; returns the closed mask including a lock it makes."""
    sheet.last[row] = box
    sheet.marks[row] += 1
    if box == LOCK_POSITION:
        sheet.locked[row] = 1
        closed |= 1 << row
    return closed


cdef inline int score(const Sheet* sheet) noexcept nogil:
    cdef int total = -PENALTY_POINTS * sheet.penalties, row, n
    for row in range(ROWS):
        n = sheet.marks[row] + sheet.locked[row]
        total += n * (n + 1) // 2
    return total


cdef inline int closed_count(int closed) noexcept nogil:
    return (closed & 1) + ((closed >> 1) & 1) + ((closed >> 2) & 1) + ((closed >> 3) & 1)


cdef inline int row_state(const Sheet* sheet, int closed, int row) noexcept nogil:
    if closed & (1 << row):
        return CLOSED
    if sheet.marks[row] == 0:
        return 0
    return 1 + sheet.last[row] * (sheet.last[row] + 1) // 2 + sheet.marks[row] - 1


cdef inline double sheet_value(const double* future, const Sheet* sheet, int closed) noexcept nogil:
    """Expected final score of the single-player optimum (solitaire.ExpectedValues.value)."""
    if game_ends(sheet.penalties, closed_count(closed)):
        return score(sheet)
    cdef Py_ssize_t index = state_index(row_state(sheet, closed, 0), row_state(sheet, closed, 1),
                                        row_state(sheet, closed, 2), row_state(sheet, closed, 3))
    return score(sheet) + future[index * PENALTY_STATES + sheet.penalties]
