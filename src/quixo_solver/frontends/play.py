"""A game against the engine in the terminal (``quixo play``)."""
from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Callable

from ..rules.baseboard import OTHER_TEAM, BaseBoard
from ..tournament.clock import GameClock, TimeControl
from ..errors import QuixoError
from ..variants import variant_of

if TYPE_CHECKING:
    from ..search import BaseSolver


def run(board: BaseBoard, solver: BaseSolver[Any], *, human: str = "X", seconds: float = 2.0,
        clock: TimeControl | None = None, read: Callable[[str], str] = input,
        write: Callable[[str], None] = print,
        now: Callable[[], float] = time.monotonic) -> str:
    """Play until the game ends or the player quits; returns the result ('1-0', '0-1' or
    '*'). `board` is a Board, or a TeamBoard with a TeamSolver (the human plays a team).

    The engine thinks `seconds` a move; with `clock` every player has that time control
    instead: the board shows the clocks, the human's runs while they think (from `now`), the
    engine manages its own, and a player whose time runs out loses on time. `undo` gives back
    the clocks of the moves it takes back."""
    variant = variant_of(board)
    help_text = variant.help_text
    clocks = None
    if clock is not None:
        solver.prepare(board.size)   # before any clock runs, as engines do before a game
        clocks = GameClock({player: clock for player in variant.player_names}, now)
    write(help_text)
    while not board.is_game_over():
        write("")
        write(board.render())
        if clocks is not None:
            write(clocks.display())
        if board.team != human:
            if clocks is None:
                result = solver.solve(board, time=seconds)
            else:
                assert clock is not None
                clocks.start(board.turn)
                result = solver.solve(board, clock=clocks.left(board.turn),
                                      increment=clock.increment)
                if not clocks.stop():
                    break
            verdict = "" if result.value == "unknown" else f" (engine: {result.value}" + (
                f" in {result.plies}" if result.plies is not None else "") + ")"
            write(f"engine plays {result.best_move}{verdict}")
            board.push(result.best_move)
            continue
        if clocks is not None:
            clocks.start(board.turn)
        try:
            text = read(f"{board.turn} to move> ").strip().lower()
        except EOFError:
            text = "quit"
        if text in ("quit", "q", "exit"):
            write("game abandoned")
            return "*"
        if text in ("help", "?", "h"):
            write(help_text)
        elif text in ("moves", "m"):
            write(" ".join(str(move) for move in board.legal_moves))
        elif text in ("undo", "u"):
            undone = 0
            while board.move_stack and (undone == 0 or board.team != human):
                board.pop()
                undone += 1
            if undone == 0:
                write("nothing to undo")
            elif clocks is not None:
                clocks.undo(undone)
        elif text:
            if clocks is not None and clocks.expired(board.turn):
                clocks.stop()   # the flag fell before the move was made: it does not count
                break
            try:
                board.push(text)
            except QuixoError as error:
                write(f"not played: {error}")
                continue
            if clocks is not None and not clocks.stop():
                board.pop()
                break
    write("")
    write(board.render())
    if clocks is not None:
        write(clocks.display())
    if clocks is not None and clocks.flagged is not None:
        on_time = OTHER_TEAM[board.team]   # the flagged player is the one to move
        write(f"{clocks.flagged} loses on time: " + ("you win" if on_time == human else
                                                     "the engine wins"))
        return "1-0" if on_time == "X" else "0-1"
    winner = board.winner()
    write("you win" if winner == human else "the engine wins")
    return board.result()
