"""Issue 60's page "What the opening holds", made from the tables of the opening alone.

    python benchmarks/quixo/opening/what_the_opening_holds.py --size 5 --seconds 600 \
        --out benchmarks/results/5x5-opening.json --page docs/opening.md \
        --picture docs/solved/5x5-opening.svg

Without --dir it reads the tables shipped with the package and nothing else (an empty folder
in front of them), so the page shows what every install holds.

Ply by ply from the empty board: the positions that p plies reach (distinct up to the board's
8 symmetries, the player to move's cubes against the other's), how many are won, drawn and
lost for the player to move, and, over the legal moves played from the drawn positions of the
ply before, the share that lose (turn the draw into a loss), and the moves that end the game.
A drawn position with exactly one drawing choice (the distinct positions its moves lead to, up
to symmetry: two moves that push into the same position, or into mirror images, are one
choice) is an "only move" position. The first ply at which a move loses is
shown with its position, move and the winner's line (as far as the tables reach).

A ply is computed while its positions' moves all lead into built classes (a ply adds at most
one cube: with the classes of at most C cubes, plies 1 to C) and while the time left, at the
last ply's rate, allows it.
"""
import argparse
import json
import os
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from quixo_solver.rules._backend import rules
from quixo_solver.rules.board import Board
from quixo_solver.rules.notation import format_position
from quixo_solver.tablebase import MissingTableError, Tablebase, values
from solverkit.arrayfile import write_atomically

EXAMPLES = 4        # positions shown per ply of only moves


def position_text(size: int, mover: int, opponent: int, ply: int) -> str:
    """The SPEC text of a position after `ply` plies (X moves at even plies)."""
    if ply % 2 == 0:
        return format_position(size, mover, opponent, "X")
    return format_position(size, opponent, mover, "O")


@dataclass
class Ply:
    """What the positions after `ply` plies hold, and the moves that led to them."""

    ply: int
    positions: int = 0
    win: int = 0
    draw: int = 0
    loss: int = 0
    ended: int = 0                     # moves of this ply that end the game
    moves_from_draws: int = 0          # moves played at this ply from drawn positions
    losing_moves: int = 0              # ... that lose
    only_moves: int | None = 0         # drawn positions after this ply with one drawing
                                       # choice (None: their moves were not walked)
    examples: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def to_json(self) -> dict:
        share = self.losing_moves / self.moves_from_draws if self.moves_from_draws else None
        return {**{k: v for k, v in self.__dict__.items() if k != "seconds"},
                "losing_share": None if share is None else round(share, 6),
                "seconds": round(self.seconds, 1)}


def count_values(found: Ply, codes: list[int]) -> None:
    for code in codes:
        wdl = values.wdl_of(code)
        found.win += wdl > 0
        found.draw += wdl == 0
        found.loss += wdl < 0


def walk(tablebase: Tablebase, size: int, seconds: float) -> tuple[list[Ply], dict | None, str]:
    """The plies from the empty board, the first losing move, and why the walk stopped."""
    empty = Board(size=size)
    level = {0: (0, 0)}                            # canonical key -> (mover, opponent)
    codes = {0: tablebase.code(empty)}
    first = Ply(0, positions=1)
    count_values(first, [codes[0]])
    plies, first_loss = [first], None
    started = time.perf_counter()
    while True:
        ply = len(plies)
        if plies[-1].seconds and plies[-1].positions:       # this ply's cost at the last's rate
            rate = plies[-1].seconds / max(1, plies[ply - 2].positions if ply > 1 else 1)
            if time.perf_counter() - started + rate * len(level) > seconds:
                plies[-1].only_moves = None
                return plies, first_loss, (f"ply {ply} would take about "
                                           f"{rate * len(level):.0f} s, past the time given")
        begun = time.perf_counter()
        found = Ply(ply)
        following: dict[int, tuple[int, int]] = {}
        following_codes: dict[int, int] = {}
        try:
            for key, (mover, opponent) in level.items():
                children = tablebase.children(size, mover, opponent)
                if values.wdl_of(codes[key]) == 0:
                    drawing = set()
                    for child in children:
                        wdl = child.move_result.wdl
                        found.moves_from_draws += 1
                        if wdl < 0:
                            found.losing_moves += 1
                            if first_loss is None:
                                first_loss = losing_move(tablebase, size, mover, opponent,
                                                         ply, child)
                        elif wdl == 0:     # (choices up to symmetry, as positions are)
                            drawing.add(rules.canonical_position(size, child.mover,
                                                                 child.opponent)[:2])
                    if len(drawing) == 1:
                        plies[-1].only_moves = (plies[-1].only_moves or 0) + 1
                        if len(plies[-1].examples) < EXAMPLES:
                            plies[-1].examples.append(position_text(size, mover, opponent,
                                                                    ply - 1))
                for child in children:
                    if rules.position_status(size, child.mover, child.opponent):
                        found.ended += 1
                        continue
                    low_mover, low_opponent, _ = rules.canonical_position(size, child.mover,
                                                                          child.opponent)
                    child_key = low_mover << 32 | low_opponent
                    if child_key not in following:
                        following[child_key] = (low_mover, low_opponent)
                        following_codes[child_key] = child.code
        except MissingTableError as error:
            plies[-1].only_moves, plies[-1].examples = None, []
            return plies, first_loss, f"ply {ply} leaves the tables ({error})"
        found.positions = len(following)
        count_values(found, list(following_codes.values()))
        found.seconds = time.perf_counter() - begun
        plies.append(found)
        level, codes = following, following_codes
        print(f"ply {ply}: {found.positions:,} positions ({found.win:,} won, {found.draw:,} "
              f"drawn, {found.loss:,} lost); {found.losing_moves:,} of "
              f"{found.moves_from_draws:,} moves from draws lose; {found.seconds:.1f} s",
              flush=True)


def losing_move(tablebase: Tablebase, size: int, mover: int, opponent: int, ply: int,
                child) -> dict:
    """The position, the losing move played at `ply`, and the winner's line after it."""
    after = Board(position_text(size, child.mover, child.opponent, ply))
    line = tablebase.best_line(after)
    result = tablebase.probe(after)
    return {"ply": ply, "position": position_text(size, mover, opponent, ply - 1),
            "move": str(child.move), "winner_plies": result.plies,
            "winner_line": [str(move) for move in line],
            "line_complete": len(line) == result.plies}


def picture(plies: list[dict], size: int) -> str:
    """An SVG: per ply, the shares of won, drawn and lost positions for the player to move
    as one stacked bar, and the share of moves from draws that lose."""
    width, bar, gap = 680, 24, 6
    height = 50 + len(plies) * (bar + gap)
    colours = {"win": "#2e7d32", "draw": "#9e9e9e", "loss": "#c62828"}
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'font-family="sans-serif" font-size="12">',
             f'<text x="10" y="18">{size}x{size} opening: positions after each ply, won / drawn'
             f' / lost for the player to move; right: moves from draws that lose</text>']
    for i, row in enumerate(plies):
        y = 30 + i * (bar + gap)
        x = 60.0
        parts.append(f'<text x="10" y="{y + 16}">ply {row["ply"]}</text>')
        total = row["win"] + row["draw"] + row["loss"]
        for key in ("win", "draw", "loss"):
            w = (row[key] / total if total else 0) * 480
            parts.append(f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{bar}" '
                         f'fill="{colours[key]}"><title>{key} {row[key]:,}</title></rect>')
            x += w
        share = row["losing_share"]
        parts.append(f'<text x="560" y="{y + 16}">'
                     f'{"" if share is None else f"{share:.1%} lose"}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def board_block(text: str) -> list[str]:
    cells, turn = text.split()
    return ["```text", *cells.split("/"), f"{turn} to move", "```"]


def page(record: dict, args: argparse.Namespace) -> str:
    size = record["size"]
    lines = [f"# What the {size}x{size} opening holds", "",
             f"Made from {record['tables']} by "
             "`benchmarks/quixo/opening/what_the_opening_holds.py`:", "",
             "```shell", record["command"], "```", "",
             "Values are for the player to move, positions distinct up to the board's 8 "
             "symmetries; the moves (from drawn positions, and those that end the game) are "
             "counted one by one; a losing move turns a drawn position into a lost one; an "
             "only-move position is drawn with exactly one drawing choice (moves that lead to "
             "the same position, up to symmetry, count once). The walk stopped at ply "
             f"{record['plies'][-1]['ply']}: {record['stopped']}.", ""]
    if args.picture:
        lines += [f"![Won, drawn and lost positions by ply]"
                  f"({os.path.relpath(args.picture, Path(args.page).parent)})", ""]
    lines += ["| ply | positions | won | drawn | lost | moves that end the game | "
              "moves from draws | losing | only-move positions |",
              "|---|---|---|---|---|---|---|---|---|"]
    for row in record["plies"]:
        share = "" if row["losing_share"] is None else f" ({row['losing_share']:.2%})"
        lines.append(f"| {row['ply']} | {row['positions']:,} | {row['win']:,} | "
                     f"{row['draw']:,} | {row['loss']:,} | {row['ended']:,} | "
                     f"{row['moves_from_draws']:,} | {row['losing_moves']:,}{share} | "
                     f"{'' if row['only_moves'] is None else format(row['only_moves'], ',')} |")
    loss = record["first_losing_move"]
    lines += ["", "## The first move that loses", ""]
    if loss is None:
        lines += ["No move of the plies walked loses.", ""]
    else:
        lines += [f"At ply {loss['ply']}"
                  + (" (the ply the walk stopped in: no earlier ply has one)"
                     if loss["ply"] > record["plies"][-1]["ply"] else "")
                  + f", from this position, `{loss['move']}` loses: the "
                  f"opponent wins in {loss['winner_plies']} plies.", "",
                  *board_block(loss["position"]), "",
                  "The winner's line" + ("" if loss["line_complete"] else
                                         " (as far as the tables reach)") + ": "
                  + " ".join(f"`{m}`" for m in loss["winner_line"]), ""]
    lines += ["## Only moves", "",
              "Drawn positions where exactly one choice keeps the draw, a few per ply:", ""]
    for row in record["plies"]:
        for text in row["examples"]:
            lines += [f"After ply {row['ply']}:", "", *board_block(text), ""]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", help="a tables folder (default: the shipped tables alone)")
    parser.add_argument("--size", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=600.0,
                        help="stop before a ply that would end past this")
    parser.add_argument("--out", required=True)
    parser.add_argument("--page")
    parser.add_argument("--picture")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as nothing:
        tablebase = Tablebase(args.dir or nothing)
        plies, first_loss, stopped = walk(tablebase, args.size, args.seconds)
    rows = [row.to_json() for row in plies]
    record = {"size": args.size, "command": " ".join(["python", *sys.argv]),
              "tables": f"the tables of {args.dir}" if args.dir else
              "the tables shipped with the package alone",
              "stopped": stopped, "plies": rows, "first_losing_move": first_loss}
    write_atomically(args.out, [json.dumps(record, indent=1).encode() + b"\n"])
    if args.picture:
        write_atomically(args.picture, [picture(rows, args.size).encode()])
    if args.page:
        write_atomically(args.page, [page(record, args).encode()])
    print(f"stopped: {stopped}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
