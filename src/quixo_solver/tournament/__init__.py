"""Tournament play, above the variants and below the front ends: engine matches and judging
moves by the tables, as engine testers (cutechess, fastchess) and lichess's analysis do.

- `clock`: time controls and game clocks;
- `engine_process`: a separate program that speaks the engine protocol, as a process;
- `match`: engine matches (`quixo match`);
- `match_stats`: a match's score, Elo and error, and the sequential test (SPRT);
- `judge`: moves judged by the tables (`quixo judge`).
"""
