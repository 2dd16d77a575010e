# The numbers of the Qwixx rules and the test of a game's end, as the kernels see them: the
# compile-time copy of rules/constants.py (a kernel cannot import a Python module while it is
# compiled).
# Change both together; tests/test_qwixx_rules.py checks that they agree, through the copy
# each kernel module exports (_simulate.RULES, _solitaire.RULES: compiled_rules()).

cdef enum:
    MARKS_TO_LOCK = 5          # marks a row needs before its last number: the printed rules
    MARKS_TO_LOCK_VARIANT = 4  # ... in the variant (SPEC --lock-after); rules.LOCK_RULES
    PENALTY_POINTS = 5         # what one penalty costs
    PENALTIES_TO_END = 4       # a player's fourth penalty ends the game
    CLOSED_ROWS_TO_END = 2     # the second closed row ends the game
    PENALTY_STATES = PENALTIES_TO_END   # penalty counts of a game still going: 0..3


cdef inline dict compiled_rules():
    """The numbers above as Python values: each kernel module exports them as RULES, which
    the tests compare with rules.py."""
    return {"MARKS_TO_LOCK": MARKS_TO_LOCK,
            "LOCK_RULES": (MARKS_TO_LOCK, MARKS_TO_LOCK_VARIANT),
            "PENALTY_POINTS": PENALTY_POINTS, "PENALTIES_TO_END": PENALTIES_TO_END,
            "CLOSED_ROWS_TO_END": CLOSED_ROWS_TO_END}


cdef inline bint is_lock_rule(int marks_to_lock) noexcept nogil:
    """One of the lock rules (rules.LOCK_RULES)."""
    return marks_to_lock == MARKS_TO_LOCK or marks_to_lock == MARKS_TO_LOCK_VARIANT


cdef inline bint game_ends(int penalties, int closed_rows) noexcept nogil:
    """rules.game_ends: a fourth penalty or a second closed row."""
    return penalties >= PENALTIES_TO_END or closed_rows >= CLOSED_ROWS_TO_END
