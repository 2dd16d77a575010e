"""A perfect move that sets traps: among the moves the tables rate best (the fastest win, any
draw, the longest loss), the one that leaves the opponent the fewest good replies, so that an
opponent who does not play perfectly goes wrong most often.

The opponent's good replies are those that keep the value of the position the move leaves
them (a draw drawn, a win won); when that position is lost for them, every reply keeps the
loss, and the good replies are the perfect ones (the longest defence). Ties go to the fewest
perfect replies, then to the first move in the tables' order (Tablebase.probe_moves):

- in a draw: the drawing move whose position leaves the opponent the fewest drawing replies;
- in a loss: the longest delay, then the fewest replies that keep the opponent's win;
- in a win: the fastest win, then the fewest replies that put up the longest defence.
"""
from __future__ import annotations

from ..rules.baseboard import check_board
from ..rules.board import Board, Move
from . import values
from .errors import MissingTableError
from .probe import BaseTablebase, move_preference


def reply_counts(tablebase: BaseTablebase, size: int, mover: int,
                 opponent: int) -> tuple[int, int]:
    """(good, perfect) replies of the player to move in a position of the tables (masks of
    that player's cubes and of the other's): see the module docstring. A finished game has
    none. MissingTableError if a class the replies reach is not built."""
    results = [child.move_result for child in tablebase.children(size, mover, opponent)]
    if not results:
        return 0, 0
    own = min(results, key=move_preference)     # the value of the position: its best move
    keeping = perfect = 0
    for result in results:
        if result.wdl == own.wdl:
            keeping += 1
            perfect += result.plies == own.plies      # draws: both None
    return (perfect if own.wdl == values.LOSS else keeping), perfect


def trap_move(tablebase: BaseTablebase, board: Board) -> Move | None:
    """The best move of a position of the tables that sets the most traps (None in a
    finished game); MissingTableError if a class the moves reach is not built (where one
    that only the replies reach is missing, the first of the best moves)."""
    check_board(board, Board)
    rows = tablebase.children(board.size, board.mover_cubes, board.opponent_cubes)
    results = [row.move_result for row in rows]
    if not results:
        return None
    best = min(move_preference(result) for result in results)
    candidates = [row for row, result in zip(rows, results) if move_preference(result) == best]
    if len(candidates) > 1:
        try:                     # min keeps the first of equal keys: the tables' order
            candidates = [min(candidates, key=lambda row: reply_counts(tablebase, board.size,
                                                                        row.mover,
                                                                        row.opponent))]
        except MissingTableError:    # a folder with a class the replies reach left out
            pass
    return candidates[0].move

