"""One game of a match (`play_game`), from its opening to the reason it ended, as its record.

Quixo has no draw rule; a match needs one, so a game is adjudicated a draw on the third
occurrence of a position (same board, same player to move) and when it reaches the ply limit
(the opening's plies count). With `adjudicate`, a game ends as soon as its position is in the
tables, scored as they say (as engine tournaments end games that the tables decide); its
record's `adjudication` gives the position and its value. A program that crashes, does not
answer in time or plays an illegal move loses the game (with a `detail`). Each game's record
says why it ended: "line" (a player made a line), "time", "repetition", "move limit", "crash",
"illegal move" or "tables".

The games start from the empty board, or with `openings` (a file of positions, as cutechess's
opening books) from the position of the pair's number (cycling through them); then
`opening_plies` random plies, drawn from the match's seed and the pair alone.
"""
from __future__ import annotations

import random
import time
from collections import Counter
from typing import Any, Callable

from solverkit.messages import clip

from .clock import GameClock
from .engine_process import EngineFailure
from .external_engine import ExternalEngine
from .players import Player, choose_move
from .settings import ENGINES, MatchSettings
from ..errors import MatchError
from ..rules.baseboard import BaseBoard
from ..rules.board import Board
from ..tablebase import ProbeResult, Tablebase
from ..variants import parse_board

REPETITIONS = 3              # the occurrence of a position that draws the game
OPENING_ATTEMPTS = 1000      # random openings drawn before giving up on a pair


def start_board(settings: MatchSettings, pair: int = 0) -> BaseBoard:
    """The board a pair's games start from, before the random plies of its opening."""
    if settings.openings:
        return parse_board(settings.openings[pair % len(settings.openings)])
    return settings.variant.start(settings.size)


def opening(settings: MatchSettings, pair: int) -> list[str]:
    """The random opening of a pair: `opening_plies` legal moves from its start board, none
    of which ends the game, drawn from a generator seeded by the match's seed and the pair
    (so a pair's opening never depends on the others, nor on the workers)."""
    generator = random.Random(f"quixo-match/{settings.seed}/{pair}")
    for _ in range(OPENING_ATTEMPTS):
        board, moves = start_board(settings, pair), []
        for _ in range(settings.opening_plies):
            choices = [move for move in board.legal_moves if not _ends(board, move)]
            if not choices:
                break
            move = generator.choice(choices)
            board.push(move)
            moves.append(str(move))
        else:
            return moves
    raise MatchError(f"no opening of {settings.opening_plies} plies that leaves the game "
                     f"open was found in {OPENING_ATTEMPTS} tries")


def _ends(board: BaseBoard, move: Any) -> bool:
    child = board.copy(stack=False)
    child.push(move)
    return child.is_game_over()


def play_game(settings: MatchSettings, pair: int, game: int, solvers: dict[str, Player],
              now: Callable[[], float] = time.perf_counter,
              tables: Tablebase | None = None) -> dict[str, Any]:
    """Game `game` (0 or 1) of pair `pair`: engine A plays the first team (X) in game 0,
    engine B in game 1. Returns the game's record. `tables`: what an adjudicated match
    adjudicates by."""
    if settings.adjudicate and tables is None:
        raise MatchError("an adjudicated match needs the tables to adjudicate by")
    started = now()
    opening_moves = opening(settings, pair)
    board = start_board(settings, pair)
    start = str(board) if settings.openings else None
    seen: Counter[str] = Counter([str(board)])
    for move in opening_moves:
        board.push(move)
        seen[str(board)] += 1
    opening_position = str(board)
    team_engine = {"X": ENGINES[game], "O": ENGINES[1 - game]}
    engine_team = {engine: team for team, engine in team_engine.items()}
    engine_of = {player: team_engine[player[0]] for player in settings.variant.player_names}
    controls = {player: settings.engines[engine].clock for player, engine in engine_of.items()}
    clocks = GameClock({player: control for player, control in controls.items()
                        if control is not None}, now)
    moves: list[str] = []
    reason: str | None = None
    loser: str | None = None          # the engine that lost by its own fault
    detail: str | None = None
    adjudication: ProbeResult | None = None
    for engine in ENGINES:
        player = solvers[engine]
        if isinstance(player, ExternalEngine):
            try:
                player.new_game()
            except EngineFailure as failure:
                reason, loser, detail = failure.reason, engine, str(failure)
                break
    while reason is None:
        if board.is_game_over():
            reason = "line"
            break
        if settings.adjudicate:
            assert tables is not None
            assert isinstance(board, Board)      # the game with tables: two players
            adjudication = tables.get(board)
            if adjudication is not None:
                reason = "tables"
                break
        if len(opening_moves) + len(moves) >= settings.max_plies:
            reason = "move limit"
            break
        mover = board.turn
        engine = engine_of[mover]
        clocks.start(mover)
        try:
            move = choose_move(solvers[engine], settings.engines[engine], settings, board,
                               opening_moves + moves, clocks, mover, start)
        except EngineFailure as failure:
            clocks.stop()
            reason, loser, detail = failure.reason, engine, str(failure)
            break
        if not clocks.stop():
            reason, loser = "time", engine
            break
        if not board.is_legal(move):
            reason, loser = "illegal move", engine
            detail = f"engine {engine} played {clip(str(move))} in {board}"
            break
        board.push(move)
        moves.append(str(move))
        seen[str(board)] += 1
        if not board.is_game_over() and seen[str(board)] >= REPETITIONS:
            reason = "repetition"
    if reason == "line":
        winner: str | None = board.winner()
    elif adjudication is not None:
        winner = (None if adjudication.wdl == 0 else board.turn if adjudication.wdl > 0
                  else {"X": "O", "O": "X"}[board.turn])
    elif loser is not None:
        winner = engine_team[ENGINES[loser == "A"]]
    else:
        winner = None
    winning_engine = None if winner is None else team_engine[winner]
    score_a = 0.5 if winning_engine is None else float(winning_engine == "A")
    return {"pair": pair, "game": game, "opening": opening_position,
            "opening_moves": opening_moves, "x": team_engine["X"], "moves": moves,
            "result": {"X": "1-0", "O": "0-1", None: "1/2-1/2"}[winner], "reason": reason,
            "winner": winning_engine,
            "loser": None if winning_engine is None else ENGINES[winning_engine == "A"],
            "score_a": score_a, "plies": len(opening_moves) + len(moves),
            "flagged": clocks.flagged, "detail": detail,
            "clocks": ({player: round(clocks.left(player), 4) for player in clocks.controls}
                       or None),
            "seconds": round(now() - started, 3),
            "adjudication": None if adjudication is None else {
                "position": str(board), "value": adjudication.value,
                "plies": adjudication.plies},
            **({"start": start} if start is not None else {}),
            "match": settings.identity()}
