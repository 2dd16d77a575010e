"""The figures of the docs page "5x5 Quixo, solved", made from a built folder of tables and its
census (benchmarks/quixo/tablebase/tablebase_census.py --decode):

    python benchmarks/quixo/tablebase/tablebase_census.py --dir DIR --decode --out CENSUS.json
    python benchmarks/quixo/tablebase/solution_figures.py --dir DIR --census CENSUS.json \
        --out-dir docs/solved

Writes into --out-dir:
- figures.md: the value of the empty board and every first move with its value and plies,
  the longest win of the whole game with its perfect-play line, the totals by blank count;
- plies.svg: raw positions per ply count, wins and losses (log scale);
- classes.svg: every class's win/draw/loss shares over (mover's cubes, opponent's cubes);
- figures.json: the same figures as data.
Any board size whose empty board the folder can answer works (3x3 and 4x4 for tests).
"""
import argparse
import json
import math
from pathlib import Path

from quixo_solver import Board
from quixo_solver.tablebase import Tablebase
from quixo_solver.tablebase.probe import ProbeResult


def value_text(result: ProbeResult) -> str:
    return "draw" if result.plies is None else f"{result.value} in {result.plies}"


def first_moves(tablebase: Tablebase, size: int) -> dict:
    board = Board(size=size)
    return {"position": str(board), "value": value_text(tablebase.probe(board)),
            "moves": [{"move": str(move), "value": value_text(result)}
                      for move, result in tablebase.probe_moves(board)]}


# -- pictures: plain SVG, so that the docs need no plotting library --------------------------
def _svg(width: int, height: int, body: list[str]) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">\n'
            + "\n".join(body) + "\n</svg>\n")


WIN_COLOUR, DRAW_COLOUR, LOSS_COLOUR = (34, 139, 34), (170, 170, 170), (200, 40, 40)


def plies_svg(win_plies: list[list[int]], loss_plies: list[list[int]]) -> str:
    width, height, left, bottom, top = 720, 320, 60, 40, 20
    longest = max(p for p, _ in win_plies + loss_plies)
    peak = max(n for _, n in win_plies + loss_plies)
    decades = max(1, math.ceil(math.log10(peak)))

    def x(plies: float) -> float:
        return left + (width - left - 20) * plies / max(longest, 1)

    def y(positions: float) -> float:
        return height - bottom - (height - bottom - top) * math.log10(positions) / decades

    body = [f'<rect width="{width}" height="{height}" fill="white"/>']
    for decade in range(decades + 1):
        body.append(f'<line x1="{left}" x2="{width - 20}" y1="{y(10 ** decade):.1f}" '
                    f'y2="{y(10 ** decade):.1f}" stroke="#ddd"/>'
                    f'<text x="{left - 6}" y="{y(10 ** decade) + 4:.1f}" text-anchor="end">'
                    f'1e{decade}</text>')
    step = max(1, round(longest / 10 / 5) * 5)
    for plies in range(0, longest + 1, step):
        body.append(f'<text x="{x(plies):.1f}" y="{height - bottom + 16}" '
                    f'text-anchor="middle">{plies}</text>')
    body.append(f'<text x="{(width + left) / 2}" y="{height - 6}" text-anchor="middle">plies '
                f'to the end with best play</text>')
    for series, colour, label, row in ((win_plies, WIN_COLOUR, "wins", 0),
                                       (loss_plies, LOSS_COLOUR, "losses", 1)):
        points = " ".join(f"{x(p):.1f},{y(n):.1f}" for p, n in series)
        rgb = "rgb({},{},{})".format(*colour)
        body.append(f'<polyline points="{points}" fill="none" stroke="{rgb}" '
                    f'stroke-width="1.5"/>')
        body.append(f'<text x="{width - 30}" y="{top + 14 + 14 * row}" text-anchor="end" '
                    f'fill="{rgb}">{label} (raw positions)</text>')
    return _svg(width, height, body)


def classes_svg(size: int, classes: list[dict]) -> str:
    cells = size * size
    cell, left, top = max(12, 400 // (cells + 1)), 50, 20
    width, height = left + cell * (cells + 1) + 20, top + cell * (cells + 1) + 50
    body = [f'<rect width="{width}" height="{height}" fill="white"/>']
    for row in classes:
        total = row["win"] + row["draw"] + row["loss"]
        if not total:
            continue
        shares = [row[key] / total for key in ("win", "draw", "loss")]
        rgb = [round(sum(share * colour[i] for share, colour in
                         zip(shares, (WIN_COLOUR, DRAW_COLOUR, LOSS_COLOUR)))) for i in range(3)]
        body.append(f'<rect x="{left + cell * row["opponent"]}" '
                    f'y="{top + cell * row["mover"]}" width="{cell}" height="{cell}" '
                    f'fill="rgb({rgb[0]},{rgb[1]},{rgb[2]})"><title>({row["mover"]}, '
                    f'{row["opponent"]}): win {shares[0]:.3f}, draw {shares[1]:.3f}, loss '
                    f'{shares[2]:.3f}</title></rect>')
    for k in range(0, cells + 1, 5 if cells > 10 else 1):
        body.append(f'<text x="{left + cell * k + cell / 2}" y="{top + cell * (cells + 1) + 14}"'
                    f' text-anchor="middle">{k}</text>')
        body.append(f'<text x="{left - 6}" y="{top + cell * k + cell / 2 + 4}" '
                    f'text-anchor="end">{k}</text>')
    body.append(f'<text x="{left + cell * (cells + 1) / 2}" y="{height - 16}" '
                f'text-anchor="middle">opponent\'s cubes (green: the mover wins, grey: draw, '
                f'red: the mover loses)</text>')
    body.append(f'<text x="14" y="{top + cell * (cells + 1) / 2}" text-anchor="middle" '
                f'transform="rotate(-90 14 {top + cell * (cells + 1) / 2})">mover\'s '
                f'cubes</text>')
    return _svg(width, height, body)


def markdown(size: int, figures: dict, census: dict) -> str:
    opening, longest = figures["empty_board"], figures["longest_win"]
    lines = [f"The empty {size}x{size} board, first player to move: **{opening['value']}**. "
             f"Its {len(opening['moves'])} first moves, best first:", "",
             "| value for the first player | first moves |", "|---|---|"]
    by_value: dict[str, list[str]] = {}      # probe_moves lists the best first
    for move in opening["moves"]:
        by_value.setdefault(move["value"], []).append(f"`{move['move']}`")
    lines += [f"| {value} | {' '.join(moves)} |" for value, moves in by_value.items()]
    lines += ["", f"The longest win of the whole game: **{longest['plies']} plies**, in class "
              f"({longest['mover']}, {longest['opponent']}), "
              f"{longest['positions']:,} raw positions of that length. One of them, "
              f"`{longest['example']}`, and its line of best play:", "", "```text",
              *[" ".join(longest["line"][i:i + 12]) for i in range(0, len(longest["line"]), 12)],
              "```", "", "| blanks | classes | positions | win | draw | loss | bytes |",
              "|---|---|---|---|---|---|---|"]
    for blanks, total in census["by_blanks"].items():
        lines.append(f"| {blanks} | {total['classes']} | {total['positions']:,} | "
                     f"{total['win']:,} | {total['draw']:,} | {total['loss']:,} | "
                     f"{total['bytes']:,} |")
    game = census["game"]
    lines.append(f"| all | {game['classes']} | {game['positions']:,} | {game['win']:,} | "
                 f"{game['draw']:,} | {game['loss']:,} | {game['bytes']:,} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", type=Path, required=True)
    parser.add_argument("--census", type=Path, required=True,
                        help="the folder's census, from tablebase_census.py --decode")
    parser.add_argument("--out-dir", type=Path, required=True)
    args = parser.parse_args()
    census = json.loads(args.census.read_text())
    size = census["size"]
    if "win_plies" not in census["game"]:
        parser.error(f"{args.census} was made without --decode")
    with Tablebase(args.dir) as tablebase:
        longest = dict(census["game"]["longest_win"])
        line = tablebase.best_line(Board(longest["example"]))
        longest["line"] = [str(move) for move in line]
        figures = {"size": size, "empty_board": first_moves(tablebase, size),
                   "longest_win": longest}
    if len(longest["line"]) != longest["plies"]:
        raise SystemExit(f"the line of best play has {len(longest['line'])} moves, the table "
                         f"says {longest['plies']} plies")
    args.out_dir.mkdir(parents=True, exist_ok=True)
    (args.out_dir / "figures.json").write_text(json.dumps(figures, indent=1) + "\n")
    (args.out_dir / "figures.md").write_text(markdown(size, figures, census))
    (args.out_dir / "plies.svg").write_text(plies_svg(census["game"]["win_plies"],
                                                      census["game"]["loss_plies"]))
    (args.out_dir / "classes.svg").write_text(classes_svg(size, census["classes"]))
    print(f"empty board: {figures['empty_board']['value']}; longest win {longest['plies']} "
          f"plies; written to {args.out_dir}")


if __name__ == "__main__":
    main()
