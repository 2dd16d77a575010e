"""The exact tables, above the rules: the single-player expected values (solitaire, its
twin _solitaire_twin) and the race table of a game of N players (race), solved by the
kernel `_solitaire` (on the rules' `_rows`); `_race.pxd` is the race estimate (race.win_chance)
as the strategies' kernels read it. They import from the rules only."""
