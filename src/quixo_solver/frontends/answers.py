"""The JSON answers of the `quixo` commands that report on one position (`solve`, `analyze`,
`tablebase probe`), built in one place for every front end: the command line prints them with
``--json`` and the explorer's web API (``quixo serve``) returns them, so both give the same
object by construction (SPEC "Command line" and "Web"). The text the command line prints
without ``--json`` is read from the same objects.

    solve_answer(board, solver, time=2.0)      {"position", "value", "plies", "best_move", ...}
    analyze_answer(board, solver, depth=4)     {"position", "moves": [{"move", "value", ...}]}
    probe_answer(board, tablebase)             {"position", "value", "plies", ...}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, TypedDict

from ..rules.baseboard import BaseBoard
from ..errors import QuixoError
from ..variants import variant_of

if TYPE_CHECKING:
    from ..search import BaseSolver, SearchResult
    from ..tablebase import BaseTablebase

DEFAULT_SOLVE_SECONDS = 10.0   # solve and analyze without --time or --depth
PROOF_SHARE = 0.5              # of solve's time, for the proof search when alpha-beta proves nothing


class Limits(TypedDict):
    depth: int | None
    time: float | None


def search_limits(depth: int | None, time: float | None,
                  default_seconds: float = DEFAULT_SOLVE_SECONDS) -> Limits:
    """The limits of a search: as given, or `default_seconds` when neither is."""
    if time is None and depth is None:
        time = default_seconds
    return {"depth": depth, "time": time}


def solve_answer(board: BaseBoard, solver: BaseSolver[Any], *, depth: int | None = None,
                 time: float | None = None, prove: bool = False,
                 clock: float | None = None, increment: float = 0.0,
                 on_iteration: Callable[[SearchResult], None] | None = None) -> dict[str, Any]:
    """`quixo solve POSITION --json`: the position's value, plies, best move and line, where
    the answer came from, and what the search did. `prove`: the proof search alone (by time).
    `clock`, `increment`: the mover's time left and increment instead of a time per move (the
    engine's move in a game on a clock: see BaseSolver.solve). `on_iteration(result)` is told
    each completed depth of the search."""
    if clock is not None:
        result = solver.solve(board, depth=depth, clock=clock, increment=increment,
                              on_iteration=on_iteration)
        return {"position": str(board), **result.to_json()}
    limits = search_limits(depth, time)
    if prove:
        if depth is not None:
            raise QuixoError("--prove searches by time (--time), not by depth")
        result = solver.prove(board, time=limits["time"])
    else:
        result = solver.solve(board, **limits, on_iteration=on_iteration,
                              proof_share=PROOF_SHARE if solver.proves else 0.0)
    return {"position": str(board), **result.to_json()}


def analyze_answer(board: BaseBoard, solver: BaseSolver[Any], *, depth: int | None = None,
                   time: float | None = None) -> dict[str, Any]:
    """`quixo analyze POSITION --json`: every legal move with its value and plies for the
    player to move, best first; `time` is shared by the moves."""
    limits = search_limits(depth, time)
    seconds = limits["time"]
    if seconds is not None:
        seconds = seconds / max(1, board.legal_moves.count())
    return _analysis(board, solver.analyze(board, depth=limits["depth"], time=seconds))


def exact_solve_answer(board: BaseBoard, solver: BaseSolver[Any]) -> dict[str, Any] | None:
    """`solve_answer` where a finished game or the tables answer it, whatever the limits,
    without a search; None where only a search can tell."""
    result = solver.settled_result(board)
    return None if result is None else {"position": str(board), **result.to_json()}


def exact_analyze_answer(board: BaseBoard, solver: BaseSolver[Any]) -> dict[str, Any] | None:
    """`analyze_answer` where the tables (or the rules) settle every move, without a search;
    None where a move needs one."""
    rows = solver.exact_analysis(board)
    return None if rows is None else _analysis(board, rows)


def _analysis(board: BaseBoard, rows: list[tuple[Any, SearchResult]]) -> dict[str, Any]:
    return {"position": str(board),
            "moves": [{"move": str(move), "value": result.value, "plies": result.plies}
                      for move, result in rows]}


def probe_answer(board: BaseBoard, tablebase: BaseTablebase) -> dict[str, Any]:
    """`quixo tablebase probe POSITION --json`: the tables' answer with the line to the end;
    MissingTableError when the position's class is not built (or its game has no tables)."""
    variant = variant_of(board)
    solver = variant.new_solver(tablebase=tablebase if variant.reads_tables else None)
    result = solver.tablebase_result(board)
    return {"position": str(board), **result.to_json()}


# -- the text of the answers (the command line without --json) ----------------------------------

def describe(answer: dict[str, Any]) -> str:
    """'win in 21 plies', 'loss in at most 9 plies', 'draw', 'unknown' of an answer (or of a
    result's JSON)."""
    if answer["plies"] is not None:
        return f"{answer['value']} in {answer['plies']} plies"
    if answer.get("plies_at_most") is not None:
        return f"{answer['value']} in at most {answer['plies_at_most']} plies"
    return str(answer["value"])


def solve_lines(answer: dict[str, Any]) -> list[str]:
    lines = [f"{answer['position']}: {describe(answer)} ({answer['source']})"]
    if answer["best_move"]:
        lines.append(f"best move: {answer['best_move']}")
    if answer["pv"]:
        lines.append("line: " + " ".join(answer["pv"]))
    if answer["source"] == "search":
        lines.append(f"depth {answer['depth']}, {answer['nodes']} nodes, "
                     f"{answer['seconds']:.2f} s")
    if answer["proof_search"]:
        lines.append(f"proof search: {answer['proof_search']}")
    return lines


def analyze_lines(answer: dict[str, Any]) -> list[str]:
    return [f"{row['move']}: {row['value']}"
            + ("" if row["plies"] is None else f" in {row['plies']}")
            for row in answer["moves"]] or ["no legal moves"]


def probe_lines(answer: dict[str, Any]) -> list[str]:
    return [f"{describe(answer)}, best move {answer['best_move']}"]
