"""The numbers of the Qwixx rules (SPEC "Sheet and rules") and the one test of a game's end.

Every Python module takes them from here. The Cython kernels cannot import a Python module at
compile time, so `_constants.pxd` holds the same numbers and the same test for them, and the test
suite checks that the two agree (tests/test_qwixx_rules.py): change both together.
"""
from __future__ import annotations

MARKS_TO_LOCK = 5        # marks a row needs before its last number: the printed rules (default)
LOCK_RULES = (5, 4)      # the lock rules: the printed one, and the variant (SPEC --lock-after)
PENALTY_POINTS = 5       # what one penalty costs
PENALTIES_TO_END = 4     # a player's fourth penalty ends the game (a sheet holds no more)
CLOSED_ROWS_TO_END = 2   # the second closed row ends the game


def game_ends(penalties: int, closed_rows: int) -> bool:
    """Whether a game is over when a player has `penalties` penalties (the most any player
    has) and `closed_rows` rows are closed: a fourth penalty or a second closed row ends it."""
    return penalties >= PENALTIES_TO_END or closed_rows >= CLOSED_ROWS_TO_END
