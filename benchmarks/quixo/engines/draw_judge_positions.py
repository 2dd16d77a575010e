"""Issue 40's positions for judging engines: 5x5 positions with a given number of blank cubes,
each met in a game of seeded random play from the empty board (one position per game: the first
with that many blanks; a game that ends before is drawn again). Finished positions are never
drawn, and none twice.

    python benchmarks/quixo/engines/draw_judge_positions.py [--blanks 6,7] [--count 500] [--seed 40]
        [--out benchmarks/data/judge-5x5-6-7-blanks.txt]

The file has one SPEC position per line, as `quixo judge --positions` reads it, `--count` of
each number of blanks in turn, after a comment that says how it was made. The same arguments
give the same file.
"""
import argparse
import random
from pathlib import Path

from quixo_solver import Board
from solverkit.arrayfile import write_atomically

BENCHMARKS = Path(__file__).resolve().parents[2]
DEFAULT_OUT = BENCHMARKS / "data" / "judge-5x5-6-7-blanks.txt"
SIZE = 5


def blanks_of(board):
    return board.size * board.size - bin(board.x_cubes | board.o_cubes).count("1")


def draw(blanks, count, generator, seen):
    """`count` positions with `blanks` blanks, each the first of a random game to have them."""
    found = []
    while len(found) < count:
        board = Board(size=SIZE)
        while not board.is_game_over() and blanks_of(board) > blanks:
            board.push(generator.choice(list(board.legal_moves)))
        position = str(board.copy(stack=False))
        if not board.is_game_over() and blanks_of(board) == blanks and position not in seen:
            seen.add(position)
            found.append(position)
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--blanks", default="6,7", help="numbers of blanks (default 6,7)")
    parser.add_argument("--count", type=int, default=500, help="positions of each (500)")
    parser.add_argument("--seed", type=int, default=40)
    parser.add_argument("--out", default=str(DEFAULT_OUT))
    args = parser.parse_args()
    generator = random.Random(args.seed)
    seen = set()
    lines = [f"# {args.count} 5x5 positions with each of {args.blanks} blanks, the first of each "
             f"number in a game of random play (python "
             f"benchmarks/quixo/engines/draw_judge_positions.py --blanks {args.blanks} "
             f"--count {args.count} --seed {args.seed})"]
    for blanks in (int(text) for text in args.blanks.split(",")):
        lines += draw(blanks, args.count, generator, seen)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(out, [("\n".join(lines) + "\n").encode("utf-8")])
    print(f"{len(lines) - 1} positions in {out}")


if __name__ == "__main__":
    main()
