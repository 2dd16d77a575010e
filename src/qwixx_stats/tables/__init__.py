"""The exact tables, above the rules: the single-player expected values (solitaire, its
twin _solitaire_twin) and the race table of a game of N players (race), solved by the
kernels `_rows` and `_solitaire`. They import from the rules only."""
