"""The rules of two-player Quixo and what every board variant shares, the bottom layer above
the errors and the limits: the geometry (squares, push tables, symmetries), the notation of the
conventions, the drawings of a board (render), BaseBoard (the move stack, push and pop, the
views every variant offers), Board and Move (the two-player variant), the rules kernel
(_rules.pyx, its pure-Python twin _rules_twin.py, and _backend, which picks one) and perft for
every variant (_perft). Nothing here imports from the folders above (tablebase, search, teams,
tournament, the front ends)."""
