# The kernel's strategy codes, one per strategy: the registry (strategies/registry.py) gives
# each its name, through the copies _simulate exports (CODE_*).

cdef enum:
    MAX_SCORE = 0
    GREEDY = 1
    CAUTIOUS = 2
    RANDOM = 3
    WIN = 4
    WEIGHTED = 5
    SCORED = 6
    LOOKAHEAD = 7
    QWIXXER = 8
    STRATEGIES = 9           # the number of strategy codes above
