# The two heuristics from outside the project's family (their method and sources, and the
# twin: heuristics.py): `weighted`, a weighted evaluation of the sheet, and `scored`, a weighted
# score of each move; both rate a choice by the change it makes (_judged.pxd).
from ..rules._sheet cimport ROWS, Sheet

cdef enum:
    HEURISTIC_WEIGHTS = 8    # weights of one heuristic player (heuristics.py)
    ENDING_POINTS = 1000     # heuristics.ENDING_VALUE: a game-ending choice, won (+) or lost (-)


cdef inline double weighted_features(const double* w, const Sheet* sheet,
                                     int closed) noexcept nogil:
    """heuristics.weighted_features: the weighted sheet evaluation."""
    cdef double total = 0.0, m, k, p
    cdef int row, lockable = 0
    for row in range(ROWS):
        m = sheet.marks[row] + sheet.locked[row]
        k = sheet.last[row] + 1 - sheet.marks[row]
        total += w[0] * m + w[1] * m * m + w[2] * k + w[3] * k * k + w[4] * m * k
        if not (closed & (1 << row)) and sheet.marks[row] >= sheet.lock_after:
            lockable += 1
    p = sheet.penalties
    total += w[5] * p + w[6] * p * p + w[7] * lockable
    return total


cdef inline int sum_ways(int box) noexcept nogil:
    """The rolls of two dice (of 36) whose sum is the number in `box` (either row order)."""
    return 6 - (box - 5 if box >= 5 else 5 - box)


cdef inline double scored_change(const double* w, const Sheet* before,
                                 const Sheet* after) noexcept nogil:
    """heuristics.scored_change: the sum of the move scores of the rows an option marks, and
    its penalty."""
    cdef double total = 0.0, gap, likelihood
    cdef int row, box, ways
    for row in range(ROWS):
        if after.marks[row] == before.marks[row]:
            continue
        gap = after.last[row] - before.last[row] - (after.marks[row] - before.marks[row])
        ways = 0
        for box in range(before.last[row] + 1, after.last[row]):
            ways += sum_ways(box)
        likelihood = ways / 36.0
        total += (w[0] + w[1] * gap + w[2] * gap * gap + w[3] * before.marks[row]
                  + w[4] * after.last[row] + w[5] * likelihood + w[6] * after.locked[row])
    total += w[7] * (after.penalties - before.penalties)
    return total
