"""A game against the engine in the terminal (``quixo play``)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from .baseboard import BaseBoard
from .errors import QuixoError

if TYPE_CHECKING:
    from typing import Protocol

    from .search import SearchResult

    class AnySolver(Protocol):
        """A `Solver` (for a `Board`) or a `TeamSolver` (for a `TeamBoard`): `board` is of the
        kind the solver takes."""

        def solve(self, board: Any, depth: int | None = ..., time: float | None = ...,
                  nodes: int | None = ...) -> SearchResult: ...

        def analyze(self, board: Any, depth: int | None = ..., time: float | None = ...,
                    nodes: int | None = ...) -> list[tuple[Any, SearchResult]]: ...

HELP = """Type a move such as a1e1 (take a1, push it in at e1).
Other commands: moves (list your legal moves), undo (take back your last move),
help, quit."""
TEAM_HELP = """You play a team: both its players. Type a move such as a1e1 (take a1, push it in
at e1, the dot pointing at the player who moves), a1e1+ (the dot pointing at the team-mate),
or pass (only with no cube to take).
Other commands: moves (list the legal moves), undo (take back your last move), help, quit."""


def run(board: BaseBoard, solver: AnySolver, *, human: str = "X", seconds: float = 2.0,
        read: Callable[[str], str] = input, write: Callable[[str], None] = print) -> str:
    """Play until the game ends or the player quits; returns the result ('1-0', '0-1' or
    '*'). `board` is a Board, or a TeamBoard with a TeamSolver (the human plays a team)."""
    help_text = TEAM_HELP if board.players == 4 else HELP
    write(help_text)
    while not board.is_game_over():
        write("")
        write(board.render())
        if board.team != human:
            result = solver.solve(board, time=seconds)
            verdict = "" if result.value == "unknown" else f" (engine: {result.value}" + (
                f" in {result.plies}" if result.plies is not None else "") + ")"
            write(f"engine plays {result.best_move}{verdict}")
            board.push(result.best_move)
            continue
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
        elif text:
            try:
                board.push(text)
            except QuixoError as error:
                write(f"not played: {error}")
    write("")
    write(board.render())
    winner = board.winner()
    write("you win" if winner == human else "the engine wins")
    return board.result()
