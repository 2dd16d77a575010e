"""The front ends, the top layer: what people and programs use the package through.

- `answers`: the JSON answers of solve, analyze and probe, built once for every front end (the
  command line prints them, the explorer's web API returns them);
- `play`: a game against the engine in the terminal (`quixo play`);
- `engine_protocol`: the solver behind the engine protocol on stdin and stdout
  (`quixo engine`), for `quixo match` and any other program;
- `cli`: the `quixo` command line, whose commands each have a builder of their parser and a
  handler, by kind: `position_commands` (perft, solve, analyze, play), `match_commands` (match,
  judge), `service_commands` (engine, serve) and `tablebase_commands` (the nine tablebase
  actions); they share `arguments` (the argument types and common options) and
  `command_context` (the folder, tables and solver a command's arguments give, and `emit`).
"""
