# cython: language_level=3
"""Fills the row tables described in _rows.pxd once, at import."""
from ._constants cimport MARKS_TO_LOCK, MARKS_TO_LOCK_VARIANT

cdef RowTables TABLES[2]     # the lock rules: index 0 the printed rules, 1 the variant


cdef const RowTables* row_tables(int marks_to_lock) noexcept nogil:
    return &TABLES[0 if marks_to_lock == MARKS_TO_LOCK else 1]


cdef void _fill(RowTables* tables, int marks_to_lock) noexcept:
    cdef int state = 1, position, count, target, new_state
    for state in range(ROW_STATES):
        for target in range(POSITIONS):
            tables.next_state[state][target] = -1
            tables.gain[state][target] = 0
    tables.last_position[0] = -1
    tables.marks[0] = 0
    tables.last_position[CLOSED] = LOCK_POSITION
    tables.marks[CLOSED] = 0
    state = 1
    for position in range(LOCK_POSITION):
        for count in range(1, position + 2):
            tables.last_position[state] = position
            tables.marks[state] = count
            state += 1
    for state in range(CLOSED):
        position = tables.last_position[state]
        count = tables.marks[state]
        for target in range(position + 1, LOCK_POSITION):
            new_state = 1 + target * (target + 1) // 2 + count
            tables.next_state[state][target] = new_state
            tables.gain[state][target] = count + 1
        if count >= marks_to_lock:
            tables.next_state[state][LOCK_POSITION] = CLOSED
            tables.gain[state][LOCK_POSITION] = (count + 1) + (count + 2)


_fill(&TABLES[0], MARKS_TO_LOCK)
_fill(&TABLES[1], MARKS_TO_LOCK_VARIANT)


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
