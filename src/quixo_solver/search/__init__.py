"""Searching any position: iterative deepening of principal variation search over a
transposition table, answered from exact tables wherever they exist.

- `base`: `BaseSolver`, what every solver does (limits, clocks, deepening, analysis);
- `solver`: `Solver`, the two-player solver over `_search.pyx` and the tablebases;
- `result`: `SearchResult` and how results compare;
- the kernel components both searches (two players here, four in teams/_team_search.pyx)
  share: the transposition table (_transposition.pxd), the move-ordering rules
  (_ordering.pxd: the transposition table's move, then moves that hand the opponent no
  immediate win, then the history of cutoffs, losing moves last), mate scores and the clock
  (_mate.pxd), the heuristic (_heuristic.pxd). Each search keeps only its own move generation
  and evaluation.
"""
from .base import DEPTH_LIMIT, MATE_SCORE, PROVEN_BOUND, BaseSolver, check_limits
from .result import SearchResult, preference, seen_by_mover
from .solver import Solver

__all__ = ["BaseSolver", "DEPTH_LIMIT", "MATE_SCORE", "PROVEN_BOUND", "SearchResult", "Solver",
           "check_limits", "preference", "seen_by_mover"]
