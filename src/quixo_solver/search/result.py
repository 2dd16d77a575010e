"""What a search answers for a position (`SearchResult`), and how results compare.

What a result claims:
- ``win`` / ``loss`` with ``plies``: proven, with the exact plies of the conventions (the
  winner ends the game as fast as possible, the loser as late as possible). A search claims it
  only when every shorter win (or longer defence) was inside its horizon, or a table says so.
  When the result is proven but its plies are not known exactly, ``plies`` is None and
  ``plies_at_most`` bounds them: the game ends within that many plies under the winner's play
  (a proof search's tree, or a search whose faster lines a repetition of the game's earlier
  positions may have hidden).
- ``draw``: proven, by a table (or a complete solution).
- ``unknown``: nothing proven within the limits; ``best_move`` is then the engine's choice by
  its heuristic and ``score`` the heuristic's score.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

VALUES = ("win", "draw", "loss", "unknown")
SOURCES = ("search", "tablebase", "terminal")


@dataclass
class SearchResult:
    value: str                    # "win", "draw", "loss" or "unknown"
    plies: int | None
    best_move: Any | None         # a move of the board's variant
    principal_variation: list[Any] = field(default_factory=list)
    source: str = "search"        # "search", "tablebase" or "terminal"
    depth: int = 0                # deepest iteration completed
    nodes: int = 0
    seconds: float = 0.0
    score: int = 0                # the engine's score of the last completed iteration
    plies_at_most: int | None = None   # a bound on the plies of a proven result, when inexact
    proof_search: str | None = None    # what the proof search (df-pn) did, when it was asked

    @classmethod
    def terminal(cls, status: int) -> "SearchResult":
        """The result of a finished game, from its status for the side to move (+1 or -1):
        a win or a loss in 0 plies."""
        return cls("win" if status > 0 else "loss", 0, None, source="terminal")

    def to_json(self) -> dict[str, Any]:
        # the SPEC's fields first, in its order
        return {"value": self.value, "plies": self.plies,
                "best_move": None if self.best_move is None else str(self.best_move),
                "source": self.source, "plies_at_most": self.plies_at_most,
                "pv": [str(m) for m in self.principal_variation],
                "depth": self.depth, "nodes": self.nodes, "seconds": round(self.seconds, 6),
                "proof_search": self.proof_search}


def seen_by_mover(move: Any, seen: SearchResult) -> SearchResult:
    """A child's result (for the side to move there) as the result of `move` for the side
    that plays it."""
    value = {"win": "loss", "loss": "win"}.get(seen.value, seen.value)
    plies = None if seen.plies is None else seen.plies + 1
    at_most = None if seen.plies_at_most is None else seen.plies_at_most + 1
    return SearchResult(value, plies, move, [move] + seen.principal_variation,
                        source=seen.source, depth=seen.depth, nodes=seen.nodes,
                        seconds=seen.seconds, score=-seen.score, plies_at_most=at_most)


def preference(result: SearchResult) -> tuple[int, int, int]:
    """A sort key, best first: the fastest win, draws, unproven moves by score, the slowest
    loss."""
    plies = result.plies if result.plies is not None else result.plies_at_most or 0
    if result.value == "win":
        return (0, plies, 0)
    if result.value == "draw":
        return (1, 0, 0)
    if result.value == "unknown":
        return (2, 0, -result.score)
    return (3, -plies, 0)
