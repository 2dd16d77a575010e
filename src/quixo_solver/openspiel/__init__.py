"""Quixo as an OpenSpiel game, and two OpenSpiel bots that play the project's answers.

``import quixo_solver.openspiel`` registers the game ``python_quixo`` (SPEC "Game-AI
frameworks"; needs the extra ``rl``, ``pip install "quixo-solver[rl]"``)::

    import pyspiel
    import quixo_solver.openspiel
    game = pyspiel.load_game("python_quixo(size=4,players=2)")

Parameters: ``size`` (3, 4 or 5; default 5) and ``players`` (2 or 4; default 2). The rules are
the project's own: a state wraps a `Board` (two players) or a `TeamBoard` (four players), whose
legal moves, pushes and end of the game are the rules; nothing here re-implements them.

Players follow the turn order: two players 0 = X, 1 = O; four players 0 = X1, 1 = O1, 2 = X2,
3 = O2. Rewards come at the end of the game: +1 for a win, -1 for a loss, 0 for a draw; in the
four-player game each player gets its team's (team X: players 0 and 2, team O: 1 and 3).

Actions are numbered from the board's geometry, the same in every position and in every
framework (`frameworks.actions`, the engine's own numbering): move i is the i-th (source,
target) pair of `rules.geometry.moves`, by source square, then target.

- Two players: action i is move i (20 actions on 3x3, 32 on 4x4, 44 on 5x5).
- Four players: action 2i is move i with the dot kept on the mover (``a1e1``), 2i + 1 the same
  move with the dot turned to the team-mate (``a1e1+``), and the last action, 2 * moves, is
  ``pass`` (41 actions on 3x3, 65 on 4x4, 89 on 5x5).

``state.action_to_string(player, a)`` is the move's SPEC text, ``state.string_to_action`` reads
one back (any move of the board, in any case); ``str(state)`` is the SPEC position.

The end of a game. Quixo has no draw rule and a game can go on for ever, so a game here is
drawn as ``quixo match`` adjudicates one (tournament/game.py): on the third occurrence of a
position (the same board and the same player to move), and when it reaches MAX_GAME_LENGTH =
200 plies, ``quixo match``'s default ply limit (`frameworks.episodes.MAX_PLIES`, the limit of
the PettingZoo and Gymnasium environments too). That leaves room for the longest win of every
board, reached by the shortest road: 169 plies on 5x5 (docs/solved.md) from a position of 12
cubes, which a game reaches after 12 plies at the soonest; 21 plies on 4x4 and 7 on 3x3 (the
longest wins in the headers of their tables). A completed line ends the game before a
repetition or the limit does. The tables, and so `PerfectBot`, know no draw rule, and need
none: a position they call won stays won under it while the game has the plies left (along
the winner's fastest line the plies to the end fall at every move, so no position repeats).

Observations (OpenSpiel's ``observation_tensor`` and ``information_state_tensor``) are seen
from the player to move, whoever observes: the rules are the same for both sides, so a position
is its cubes as the mover sees them. Planes of the board (`frameworks.views`, channels first
as OpenSpiel's board games have them), rows from the top as in the position string, files a,
b, ... from the left:

- two players, 3 planes: the mover's cubes, the opponent's, the blanks;
- four players, 5 planes: the cubes of the mover's team whose dot points at the mover, those
  pointing at the mover's team-mate, the other team's cubes pointing at the next player, those
  pointing at the last player (who just moved), the blanks.

The observation string is the SPEC position. The information state has perfect recall: its
tensor is the planes followed by the actions played, one row of MAX_GAME_LENGTH rows per ply,
one-hot over the actions; its string is the start position and the moves played, as the engine
protocol's ``position`` command takes them (``.../.../... X moves a1c1 a3a1``).

Bots (``pyspiel.Bot``): `PerfectBot` plays a best move from the tables (two players: the
tablebase files; four players: the complete 3x3 solution) and raises `UnsolvedPositionError`
where they do not answer; `EngineBot` plays the project's engine within a budget.
"""
from __future__ import annotations

try:
    import pyspiel  # noqa: F401   (the framework, before the modules that need it)
except ModuleNotFoundError as missing:      # name the extra that brings OpenSpiel
    raise ModuleNotFoundError(f"quixo_solver.openspiel needs OpenSpiel ({missing}): "
                              "pip install \"quixo-solver[rl]\"", name=missing.name) from missing

from .bots import EngineBot, PerfectBot, QuixoBot, UnsolvedPositionError
from .game import (MAX_GAME_LENGTH, SHORT_NAME, HistoryObserver, PositionObserver, QuixoGame,
                   QuixoState)

__all__ = ["EngineBot", "HistoryObserver", "MAX_GAME_LENGTH", "PerfectBot", "PositionObserver",
           "QuixoBot", "QuixoGame", "QuixoState", "SHORT_NAME", "UnsolvedPositionError"]
