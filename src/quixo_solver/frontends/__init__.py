"""The front ends, the top layer: what people and programs use the package through.

- `answers`: the JSON answers of solve, analyze and probe, built once for every front end (the
  command line prints them, the explorer's web API returns them);
- `play`: a game against the engine in the terminal (`quixo play`);
- `engine_protocol`: the solver behind the engine protocol on stdin and stdout
  (`quixo engine`), for `quixo match` and any other program;
- `cli`: the `quixo` command line.
"""
