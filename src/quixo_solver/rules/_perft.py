"""Perft: counting move sequences, the standard check of a move generator.

``perft(board, d)`` counts the move sequences of exactly ``d`` moves, as chess perft does: a
move that ends the game has no continuations, so a game that ends after fewer than ``d``
moves adds nothing (it counts only at its own depth). Every board variant counts on its own
rules kernel (``BaseBoard._perft``).
"""
from __future__ import annotations

from typing import Any

from .baseboard import BaseBoard, check_board
from ..limits import check_perft_depth, check_threads


def perft(board: BaseBoard, depth: int, *, threads: int = 0) -> int:
    """Move sequences of exactly ``depth`` moves from ``board`` (a two-player Board or a
    four-player TeamBoard, passes included). Runs without the GIL on ``threads`` cores
    (0: all); Ctrl-C stops it with KeyboardInterrupt."""
    check_board(board)
    return board._perft(check_perft_depth(depth), check_threads(threads))


def perft_divide(board: BaseBoard, depth: int, *, threads: int = 0) -> dict[Any, int]:
    """perft split by first move: each legal move with the sequences of ``depth`` moves that
    start with it (a move that ends the game counts 1 at depth 1 and 0 deeper)."""
    check_board(board)
    if check_perft_depth(depth) == 0:
        return {}
    counts = {}
    child = board.copy(stack=False)
    for move in board.legal_moves:
        child.push(move)
        counts[move] = perft(child, depth - 1, threads=threads)
        child.pop()
    return counts
