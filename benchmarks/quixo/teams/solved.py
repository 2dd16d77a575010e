"""Issue 61's record of the four-player game, from a folder of its tables: one JSON, a
manifest, and the docs page "Four-player Quixo, solved" with its picture.

    python benchmarks/quixo/teams/solved.py --dir DIR --size 4 \
        --out benchmarks/results/teams-4x4.json \
        --manifest-out benchmarks/results/teams-4x4-MANIFEST.json \
        --page docs/solved-teams.md --picture docs/solved/teams-4x4-blanks.svg

All from the tables (teams/tables): the empty board's value for the first team with its line,
every first move with its value, the longest win with a position and its line, the counts of
wins, draws and losses of every class (stats --players 4) and of every number of blanks, the
build's journal, and the SHA-256 of every file. It refuses a folder where a tier is missing.
"""
import argparse
import hashlib
import json
import sys
from pathlib import Path

import numpy as np

from quixo_solver.teams import TeamBoard
from quixo_solver.teams.solve import TeamSolver
from quixo_solver.teams.tables import builder, files, stats, tiers
from quixo_solver.teams.tables._tier_index import TierSideIndex
from solverkit.arrayfile import write_atomically


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def longest_win(directory: Path, size: int) -> tuple[TeamBoard, int]:
    """A position of the longest win of the game: the sides are read from the longest plies
    their headers give (a win or a loss), until no side left can hold a longer win."""
    best: tuple[int, int, int, int] | None = None          # plies, team, other, entry
    for header in sorted(stats.built_sides(directory, size), key=lambda h: -h.longest_plies):
        if best is not None and header.longest_plies <= best[0]:
            break
        table = files.open_side(directory, size, header.team_count, header.other_count)
        try:
            values = table.values()
        finally:
            table.close()
        wins = np.nonzero(values & 1)[0]
        if len(wins):
            entry = int(wins[np.argmax(values[wins])])
            plies = (int(values[entry]) - 1) // 2
            if best is None or plies > best[0]:
                best = (plies, header.team_count, header.other_count, entry)
    if best is None:
        raise SystemExit("no position of the game is won")
    plies, team, other, entry = best
    roles, _ = TierSideIndex(size, team, other).position_at(entry)
    return TeamBoard.from_roles(size, roles, 0), plies


def blank_counts(rows: list[dict], size: int) -> list[dict]:
    """Wins, draws and losses per number of blanks, over the raw positions with X1 to move
    (each class counts once per seat to move; the game is the same whichever seat moves)."""
    totals: dict[int, list[int]] = {}
    for row in rows:
        if row["mover"] != "X1":
            continue
        blanks = size * size - sum(row["counts"].values())
        line = totals.setdefault(blanks, [0, 0, 0])
        for i, key in enumerate(("win", "draw", "loss")):
            line[i] += row[key]
    return [{"blanks": b, "win": w, "draw": d, "loss": l}
            for b, (w, d, l) in sorted(totals.items())]


def picture(per_blanks: list[dict], size: int) -> str:
    """An SVG: for each number of blanks, the shares of wins, draws and losses for the team
    to move, as one stacked bar."""
    width, bar, gap, height = 640, 26, 6, 40 + len(per_blanks) * 32
    colours = {"win": "#2e7d32", "draw": "#9e9e9e", "loss": "#c62828"}
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'font-family="sans-serif" font-size="12">',
             f'<text x="10" y="18">Four-player {size}x{size}: the team to move wins, draws, '
             f'loses (share of positions), by blanks</text>']
    for i, row in enumerate(per_blanks):
        y = 30 + i * (bar + gap)
        total = row["win"] + row["draw"] + row["loss"]
        x = 80.0
        parts.append(f'<text x="10" y="{y + 17}">{row["blanks"]} blanks</text>')
        for key in ("win", "draw", "loss"):
            share = row[key] / total if total else 0
            w = share * (width - 100)
            parts.append(f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{bar}" '
                         f'fill="{colours[key]}"><title>{key} {share:.1%}</title></rect>')
            x += w
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True)
    parser.add_argument("--size", type=int, default=4)
    parser.add_argument("--out", required=True)
    parser.add_argument("--manifest-out", required=True)
    parser.add_argument("--page")
    parser.add_argument("--picture")
    args = parser.parse_args()
    directory, size = Path(args.dir), args.size
    missing = [str(tier) for tier in tiers.tiers(size) if not builder.is_built(directory, tier)]
    if missing:
        raise SystemExit(f"the folder lacks {len(missing)} tiers, the first {missing[0]}")
    solver = TeamSolver(tablebase=directory)
    empty = TeamBoard(size=size)
    start = solver.tablebase_result(empty)
    first_moves = [{"move": str(move), "value": result.value, "plies": result.plies}
                   for move, result in solver.exact_analysis(empty)]
    board, plies = longest_win(directory, size)
    longest = solver.tablebase_result(board)
    rows = stats.class_counts(directory, size)
    per_blanks = blank_counts(rows, size)
    manifest = {"size": size, "players": 4, "files": [
        {"name": path.name, "bytes": path.stat().st_size, "sha256": sha256(path)}
        for path in sorted(directory.glob(f"quixo{size}x{size}-teams-*.q4t"))]}
    record = {
        "size": size, "players": 4, "command": " ".join(sys.argv),
        "empty_board": {"position": str(empty), "value": start.value, "plies": start.plies,
                        "line": [str(m) for m in start.principal_variation]},
        "first_moves": first_moves,
        "longest_win": {"position": str(board), "plies": plies,
                        "line": [str(m) for m in longest.principal_variation]},
        "per_blanks": per_blanks, "classes": rows,
        "journal": sorted(builder.read_journal(directory),
                          key=lambda line: (-(line["team"] + line["other"]), -line["team"])),
        "files": len(manifest["files"]),
        "bytes": sum(f["bytes"] for f in manifest["files"])}
    write_atomically(args.out, [json.dumps(record, indent=1).encode() + b"\n"])
    write_atomically(args.manifest_out, [json.dumps(manifest, indent=1).encode() + b"\n"])
    if args.picture:
        write_atomically(args.picture, [picture(per_blanks, size).encode()])
    if args.page:
        write_atomically(args.page, [page(record, args).encode()])
    print(f"{empty}: {start.value} in {start.plies} plies; longest win {plies} plies; "
          f"{record['files']} files, {record['bytes']:,} bytes")
    return 0


def page(record: dict, args: argparse.Namespace) -> str:
    size = record["size"]
    start = record["empty_board"]
    lines = [f"# Four-player Quixo, solved ({size}x{size})", "",
             "The rulebook's team game (X1 and X2 against O1 and O2, each cube's dot naming the "
             "team-mate who may take it back) solved by retrograde analysis over every position "
             f"of the {size}x{size} board: values are for the team to move, with exact plies "
             "(the winner hurrying, the loser delaying). Everything here is made from the "
             "tables by `benchmarks/quixo/teams/solved.py`:", "",
             "```shell",
             f"quixo tablebase build --players 4 --size {size} --dir DIR --jobs 2",
             f"python benchmarks/quixo/teams/solved.py --dir DIR --size {size} "
             f"--out {args.out} --manifest-out {args.manifest_out}"
             + (f" --page {args.page}" if args.page else "")
             + (f" --picture {args.picture}" if args.picture else ""),
             "```", "",
             "## The empty board", "",
             f"`{start['position']}`: **{start['value']}"
             + (f" in {start['plies']} plies" if start["plies"] is not None else "")
             + "** for team X.", "",
             "Best play: " + " ".join(f"`{m}`" for m in start["line"]), "",
             "Every first move, for the team that plays it:", "",
             "| move | value | plies |", "|---|---|---|"]
    lines += [f"| `{m['move']}` | {m['value']} | {m['plies'] if m['plies'] is not None else ''} |"
              for m in record["first_moves"]]
    longest = record["longest_win"]
    lines += ["", "## The longest win", "",
              f"`{longest['position']}`: a win in {longest['plies']} plies.", "",
              "Best play: " + " ".join(f"`{m}`" for m in longest["line"]), "",
              "## Wins, draws and losses by blanks", "",
              "Raw positions with X1 to move (the same for every seat), for the team to move:",
              ""]
    if args.picture:
        lines += [f"![Shares of wins, draws and losses by blanks]"
                  f"({Path(args.picture).relative_to(Path(args.page).parent)})", ""]
    lines += ["| blanks | win | draw | loss |", "|---|---|---|---|"]
    lines += [f"| {r['blanks']} | {r['win']:,} | {r['draw']:,} | {r['loss']:,} |"
              for r in record["per_blanks"]]
    lines += ["", f"The counts of every class are in `{args.out}` (`classes`), the build's "
              f"journal beside them; the SHA-256 of each of the {record['files']} files "
              f"({record['bytes']:,} bytes) in `{args.manifest_out}`.", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
