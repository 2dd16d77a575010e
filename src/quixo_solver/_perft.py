"""Perft: counting move sequences, the standard check of a move generator."""
from __future__ import annotations

from ._backend import engine
from .board import Board, Move
from .errors import DepthError


def _check_depth(depth: int) -> int:
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise DepthError(f"depth must be a non-negative integer, not {depth!r}")
    return depth


def perft(board: Board, depth: int, *, threads: int = 0) -> int:
    """Move sequences of length ``depth`` from ``board`` (a two-player Board or a four-player
    TeamBoard, passes included); a move that ends the game counts at its own depth and has no
    continuations. Runs without the GIL on ``threads`` cores (0: all)."""
    if getattr(board, "players", 2) == 4:
        from .teams.board import perft as team_perft
        return team_perft(board, _check_depth(depth), threads=threads)
    return engine.perft(board.size, board.mover_cubes, board.opponent_cubes,
                        _check_depth(depth), threads)


def perft_divide(board: Board, depth: int, *, threads: int = 0) -> dict[Move, int]:
    """perft split by first move: each legal move with the sequences that start with it."""
    if _check_depth(depth) == 0:
        return {}
    counts = {}
    child = board.copy(stack=False)
    for move in board.legal_moves:
        child.push(move)
        counts[move] = 1 if child.is_game_over() else perft(child, depth - 1, threads=threads)
        child.pop()
    return counts
