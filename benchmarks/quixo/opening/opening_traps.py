"""Issue 60's trap measurement: the perfect player of the shipped opening, with the trap rule
and without, against an imperfect opponent, from the empty board until the tables run out.

    python benchmarks/quixo/opening/opening_traps.py --size 5 --pairs 200 \
        --out benchmarks/results/5x5-opening-traps.json

Without --dir the perfect player reads the tables shipped with the package alone (an empty
folder in front of them). Opponents: `engine` (today's engine without tables, --movetime
seconds a move, default 0.1) and `greedy` (a one-ply search of today's evaluation:
depth=1, tables off), or --only one of them.

A pair is two games from the same start, the perfect player X in one and O in the other. The
start: the empty board and --random-plies uniformly random plies (default 2; seeded by the
pair), since both players are otherwise (nearly) deterministic and 200 pairs would be one
game 200 times; a start whose value is not the empty board's is drawn again. A game goes on
until its position leaves the tables (a class not built: more cubes than the opening holds),
or ends (or after 200 plies). It is scored by the last position the tables hold (the
move that leaves them is not judged): the opponent has lost the value
when that position is worse for the opponent than the start was (a draw turned into a loss).
The share of games where this happened, with its 95% Wilson interval, traps on and off, and
the per-pair difference (on - off) with its 95% interval.
"""
import argparse
import json
import math
import random
import sys
import tempfile
import time

from quixo_solver import Board
from quixo_solver.search.solver import Solver
from quixo_solver.tablebase import MissingTableError, Tablebase
from quixo_solver.tournament.match_stats import Z95
from quixo_solver.tournament.position_sets import RANK, wilson
from solverkit.arrayfile import write_atomically

SEED = 60
MAX_PLIES = 200


FLIP = {"win": "loss", "loss": "win", "draw": "draw"}


def starts(tablebase: Tablebase, size: int, pairs: int, random_plies: int) -> list[str]:
    """One start a pair: the empty board after `random_plies` seeded random plies, drawn
    again until it keeps the empty board's value."""
    empty = tablebase.probe(Board(size=size)).value
    expected = empty if random_plies % 2 == 0 else FLIP[empty]   # (for the player to move)
    found = []
    for pair in range(pairs):
        generator = random.Random(SEED * 1_000_003 + pair)
        while True:
            board = Board(size=size)
            for _ in range(random_plies):
                board.push(generator.choice(list(board.legal_moves)))
            if not board.is_game_over() and tablebase.probe(board).value == expected:
                found.append(str(board))
                break
    return found


def in_tables(tablebase: Tablebase, board: Board, edge_cubes: int | None) -> bool:
    if edge_cubes is not None and (board.x_cubes | board.o_cubes).bit_count() > edge_cubes:
        return False
    try:
        tablebase.probe(board)
    except MissingTableError:
        return False
    return True


def play(start: str, perfect: Solver, perfect_side: str, opponent: Solver,
         opponent_limits: dict, tablebase: Tablebase, edge_cubes: int | None) -> dict:
    """A game from `start` until the tables run out (or the perfect player's best moves all
    leave them); the opponent's value at the start and at the last position the tables
    hold."""
    board = Board(start)
    moves: list[str] = []
    last = board.copy(stack=False)
    ended = "left the tables"
    while True:
        if board.is_game_over():
            ended = "game over"
            break
        if not in_tables(tablebase, board, edge_cubes):
            break
        if len(moves) >= MAX_PLIES:
            ended = f"{MAX_PLIES} plies"
            break
        last = board.copy(stack=False)
        if board.turn == perfect_side:
            try:
                move = perfect.tablebase_result(board, line=1).best_move
            except MissingTableError:
                ended = "the perfect player's best moves leave the tables"
                break
            if move is None:
                ended = "the perfect player's best moves leave the tables"
                break
        else:
            move = opponent.solve(board, **opponent_limits).best_move
        board.push(move)
        moves.append(str(move))
    if board.is_game_over():
        last = board.copy(stack=False)

    def opponents_value(position: Board) -> str:
        if position.is_game_over():
            return "loss" if position.winner() == perfect_side else "win"
        value = tablebase.probe(position).value
        return FLIP[value] if position.turn == perfect_side else value

    before, after = opponents_value(Board(start)), opponents_value(last)
    return {"start": start, "perfect": perfect_side, "moves": moves, "ended": ended,
            "last_in_tables": str(last), "opponent_before": before, "opponent_after": after,
            "lost_the_value": RANK[after] < RANK[before]}


def share(games: list[dict]) -> dict:
    lost = sum(game["lost_the_value"] for game in games)
    interval = wilson(lost, len(games))
    return {"games": len(games), "lost_the_value": lost,
            "share": round(lost / len(games), 4) if games else None,
            "interval_95": None if interval is None else [round(x, 4) for x in interval]}


def difference(on: list[dict], off: list[dict]) -> dict | None:
    """The mean per-pair difference in games where the opponent lost the value (on - off)."""
    d = [sum(g["lost_the_value"] for g in on[i:i + 2]) - sum(
        g["lost_the_value"] for g in off[i:i + 2]) for i in range(0, min(len(on), len(off)), 2)]
    if not d:
        return None
    mean = sum(d) / len(d)
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / max(len(d) - 1, 1))
    half = Z95 * sd / math.sqrt(len(d))
    return {"pairs": len(d), "difference_per_pair": round(mean, 4),
            "interval_95": [round(mean - half, 4), round(mean + half, 4)]}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", help="the tables (default: those shipped, alone)")
    parser.add_argument("--size", type=int, default=5)
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--random-plies", type=int, default=2)
    parser.add_argument("--movetime", type=float, default=0.1)
    parser.add_argument("--only", choices=("engine", "greedy"))
    parser.add_argument("--edge-cubes", type=int,
                        help="count positions of more cubes as outside the tables")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    opponents = {"engine": {"time": args.movetime}, "greedy": {"depth": 1}}
    if args.only:
        opponents = {args.only: opponents[args.only]}
    record = {"command": " ".join(["python", *sys.argv]), "size": args.size,
              "tables": f"the tables of {args.dir}" if args.dir else
              "the tables shipped with the package alone",
              "random_plies": args.random_plies, "pairs": args.pairs, "opponents": {}}
    with tempfile.TemporaryDirectory() as nothing:
        tablebase = Tablebase(args.dir or nothing)
        pair_starts = starts(tablebase, args.size, args.pairs, args.random_plies)
        for name, limits in opponents.items():
            games: dict[str, list[dict]] = {}
            for traps in ("on", "off"):
                perfect = Solver(tablebase=tablebase, traps=traps == "on")
                opponent = Solver(64)
                began = time.perf_counter()
                games[traps] = [play(start, perfect, side, opponent, limits, tablebase,
                                      args.edge_cubes)
                                for start in pair_starts for side in ("X", "O")]
                print(f"{name}, traps {traps}: {share(games[traps])} "
                      f"({time.perf_counter() - began:.0f} s)", flush=True)
            record["opponents"][name] = {
                "limits": limits, "traps_on": share(games["on"]),
                "traps_off": share(games["off"]),
                "difference": difference(games["on"], games["off"]),
                "games": games}
    write_atomically(args.out, [json.dumps(record, indent=1).encode() + b"\n"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
