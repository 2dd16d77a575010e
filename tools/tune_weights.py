"""Tune the evaluation's weights by the Texel method (quixo_solver.search.tuning) and write a
weights file:

    python tools/tune_weights.py --out weights.json [--games 1500] [--tables4 DIR] [--seed 1000]

Positions come from games the engine plays against itself (depth 2 or 3 at random for each
move) from random openings of a few plies, on 4x4 and on 5x5. A 4x4 position is labelled by the 4x4 tables (the exact result for the player to
move: 1, 1/2 or 0); a 5x5 position by the result of the game it was played in, from the side
to move (a game that ends by repetition or at the move limit is a draw), as Texel labels them.
The seeds of these games (from --seed, 1000 by default) are kept apart from the seeds the
matches that measure the weights use (1 and up), so that the weights are not tuned on the
games that judge them.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

from quixo_solver import Board, Solver, Tablebase
from quixo_solver.search.tuning import tune
from quixo_solver.search.weights import WeightSet

MAX_PLIES = 160
REPETITIONS = 3
OPENING_PLIES = 6


def self_play(size: int, rng: random.Random) -> tuple[list[Board], float | None]:
    """One game of the engine against itself: its positions (the mover's view) and X's
    result (1, 1/2, 0), None for a game that ended in its random opening."""
    solver = Solver(tt_mib=4)
    board = Board(size=size)
    positions: list[Board] = []
    seen: Counter[str] = Counter()
    for ply in range(MAX_PLIES):
        if board.is_game_over():
            break
        seen[str(board)] += 1
        if seen[str(board)] >= REPETITIONS:
            return positions, 0.5
        positions.append(board.copy(stack=False))
        if ply < OPENING_PLIES:
            board.push(rng.choice(list(board.legal_moves)))
            continue
        board.push(solver.solve(board, depth=rng.choice((2, 3))).best_move)
    if not board.is_game_over():
        return positions, 0.5
    return positions, 1.0 if board.winner() == "X" else 0.0


def labelled_positions(size: int, games: int, seed: int, tables: Path | None
                       ) -> tuple[list[tuple[int, int]], list[float]]:
    rng = random.Random(f"tune/{size}/{seed}")
    tablebase = Tablebase(tables) if tables is not None else None
    positions: list[tuple[int, int]] = []
    labels: list[float] = []
    started = time.perf_counter()
    for game in range(games):
        boards, x_result = self_play(size, rng)
        for board in boards:
            if board.is_game_over():
                continue
            if tablebase is not None:
                label = (tablebase.probe_wdl(board) + 1) / 2
            elif x_result is None:
                continue
            else:
                label = x_result if board.turn == "X" else 1 - x_result
            positions.append((board.mover_cubes, board.opponent_cubes))
            labels.append(label)
        if (game + 1) % 100 == 0:
            print(f"{size}x{size}: {game + 1} games, {len(positions)} positions, "
                  f"{time.perf_counter() - started:.0f} s", file=sys.stderr)
    return positions, labels


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, help="the weights file to write")
    parser.add_argument("--games", type=int, default=1500, help="self-play games per size")
    parser.add_argument("--tables4", default=None,
                        help="4x4 tables to label the 4x4 positions (default: the user's "
                        "tablebase folder, built if needed)")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--report", default=None, help="a JSON report of the fit")
    args = parser.parse_args()
    from quixo_solver.tablebase import build, default_directory

    tables4 = Path(args.tables4) if args.tables4 else default_directory()
    build(tables4, 4, progress=False)
    fits = {}
    for size, tables in ((4, tables4), (5, None)):
        positions, labels = labelled_positions(size, args.games, args.seed, tables)
        fit = tune(size, positions, labels)
        fits[size] = fit
        print(f"{size}x{size}: {fit.positions} positions, cross-entropy "
              f"{fit.loss_before:.4f} -> {fit.loss_after:.4f}, {fit.weights}",
              file=sys.stderr)
    WeightSet({size: fit.weights for size, fit in fits.items()}).save(args.out)
    if args.report:
        Path(args.report).write_text(json.dumps({
            str(size): {"positions": fit.positions, "cross_entropy_before": fit.loss_before,
                        "cross_entropy_after": fit.loss_after, "scale": fit.scale,
                        "games": args.games, "seed": args.seed}
            for size, fit in fits.items()}, indent=2) + "\n")


if __name__ == "__main__":
    main()
