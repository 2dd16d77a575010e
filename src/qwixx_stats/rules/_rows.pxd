# The state of one Qwixx row, as the expected-value kernels see it.
#
# A row has 11 boxes, positions 0..10 from left to right (red and yellow: numbers 2..12, green
# and blue: 12..2); position 10 is the row's last number, which also marks the lock. What the
# future of a row depends on is its last marked position and its number of marks, so a row is
# one of 57 states, numbered so that every mark moves a row to a higher number:
#
#     0            empty
#     1 .. 55      last mark at position i (0..9) with c marks (1..i+1): 1 + i(i+1)/2 + c-1
#     56 CLOSED    locked (by this player or another): no more marks
#
# A sheet is four row states (red, yellow, green, blue) and a penalty count. Its value is
# unchanged by swapping red with yellow, green with blue, or the red-yellow pair with the
# green-blue pair (turning every die d into 7-d maps the ascending rows onto the descending
# ones), so values are stored once per orbit of those 8 symmetries: `state_index`.
#
# The lock rule: the last number may be marked with `marks_to_lock` marks already in the row,
# 5 by the printed rules, 4 in the variant the rules summary's example reads (SPEC
# `--lock-after`). The states are the same under both rules; only which marks are legal (and so
# the tables below) differ.

cdef enum:
    ROW_STATES = 57
    CLOSED = 56
    POSITIONS = 11
    LOCK_POSITION = 10
    PAIR_STATES = 1653        # unordered pairs of row states: 57 * 58 / 2
    SHEET_STATES = 1367031    # unordered pairs of pairs: 1653 * 1654 / 2

ctypedef struct RowTables:
    # next_state[s][pos]: the row state after marking `pos`, or -1 when that mark is illegal
    signed char next_state[ROW_STATES][POSITIONS]
    # gain[s][pos]: the points that mark adds to the row's score (both marks when it locks)
    signed char gain[ROW_STATES][POSITIONS]
    signed char last_position[ROW_STATES]   # -1 when empty; 10 when closed
    signed char marks[ROW_STATES]           # 0 when closed (its points are already counted)

cdef const RowTables* row_tables(int marks_to_lock) noexcept nogil   # a lock rule: 5 or 4


cdef inline Py_ssize_t unordered_index(Py_ssize_t x, Py_ssize_t y) noexcept nogil:
    if x < y:
        x, y = y, x
    return x * (x + 1) // 2 + y


cdef inline Py_ssize_t state_index(int red, int yellow, int green, int blue) noexcept nogil:
    """The index of a sheet's symmetry orbit, 0 .. SHEET_STATES-1."""
    return unordered_index(unordered_index(red, yellow), unordered_index(green, blue))


cdef inline int number_position(int row, int number) noexcept nogil:
    """The box of `number` (2..12) in `row` (0 red, 1 yellow ascending; 2 green, 3 blue)."""
    return number - 2 if row < 2 else 12 - number
