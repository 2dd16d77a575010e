"""Tournament play, above the variants and below the front ends: engine matches and judging
moves by the tables, as engine testers (cutechess, fastchess) and lichess's analysis do.

- `clock`: time controls and game clocks;
- `match_stats`: a match's score, Elo and error, and the sequential test (SPRT);
- `settings`: the settings language of a match (`EngineSetting`, `MatchSettings`) and its
  openings file;
- `engine_process`: a separate program that speaks the engine protocol, as a process;
- `external_engine`: a cmd= setting's program as a match plays it (`position` and `go`);
- `players`: who plays a side (this package's solver or a program) and how each is asked for
  its move;
- `game`: one game, from its opening to the reason it ended (`play_game`);
- `records`: the records file, one JSON line per game;
- `run`: a match's games on worker processes, resumed from the records, stopped by the test
  (`run_match`);
- `summary`: a match's summary as JSON and as text;
- `judge`: moves judged by the tables (`quixo judge`).

Each module imports only modules listed above it.
"""
