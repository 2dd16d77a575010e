# cython: language_level=3
"""Fills the row tables described in _rows.pxd once, at import."""

cdef RowTables TABLES


cdef const RowTables* row_tables() noexcept nogil:
    return &TABLES


cdef void _fill() noexcept:
    cdef int state = 1, position, count, target, new_state
    for state in range(ROW_STATES):
        for target in range(POSITIONS):
            TABLES.next_state[state][target] = -1
            TABLES.gain[state][target] = 0
    TABLES.last_position[0] = -1
    TABLES.marks[0] = 0
    TABLES.last_position[CLOSED] = LOCK_POSITION
    TABLES.marks[CLOSED] = 0
    state = 1
    for position in range(LOCK_POSITION):
        for count in range(1, position + 2):
            TABLES.last_position[state] = position
            TABLES.marks[state] = count
            state += 1
    for state in range(CLOSED):
        position = TABLES.last_position[state]
        count = TABLES.marks[state]
        for target in range(position + 1, LOCK_POSITION):
            new_state = 1 + target * (target + 1) // 2 + count
            TABLES.next_state[state][target] = new_state
            TABLES.gain[state][target] = count + 1
        if count >= MARKS_TO_LOCK:
            TABLES.next_state[state][LOCK_POSITION] = CLOSED
            TABLES.gain[state][LOCK_POSITION] = (count + 1) + (count + 2)


_fill()


def row_state(int last_position, int marks):
    """The row state of an open row (last_position -1 for an empty row)."""
    if last_position == -1 and marks == 0:
        return 0
    if not (0 <= last_position < LOCK_POSITION and 1 <= marks <= last_position + 1):
        raise ValueError(f"no open row has {marks} marks ending at box {last_position}")
    return 1 + last_position * (last_position + 1) // 2 + marks - 1


def sheet_index(int red, int yellow, int green, int blue):
    for value in (red, yellow, green, blue):
        if not 0 <= value < ROW_STATES:
            raise ValueError(f"row state {value} out of range 0..{ROW_STATES - 1}")
    return state_index(red, yellow, green, blue)
