"""Issue 23's per-class record of a built folder, from the files' headers alone (no value is
decoded, so it takes a second however large the folder):

    python benchmarks/tablebase_census.py --dir /work/tables/ref5 --blanks 6 \
        --out benchmarks/results/5x5-6-blanks.json

For every built class with the asked-for number of blanks (every built class by default): its
raw positions, its table entries (one per symmetry class, holes included), the win, draw and
loss counts over raw positions (as `quixo tablebase stats` prints them), the longest win and
the longest loss in plies with the raw positions at that length (none: null), and the bytes
of its file. Then the totals by number of blanks with bytes per entry. With --expected FILE
(a `quixo tablebase stats --json` record such as benchmarks/results/5x5-up-to-5-blanks.json)
the win, draw and loss counts of every class that file lists are compared; a difference
exits with status 1.
"""
import argparse
import json
import sys
from pathlib import Path

from quixo_solver.tablebase import stats
from quixo_solver.tablebase._index import class_size


def longest(plies: int, positions: int) -> dict[str, int] | None:
    return None if plies < 0 else {"plies": plies, "positions": positions}


def census(folder: Path, size: int, blanks: set[int] | None) -> list[dict]:
    cells = size * size
    rows = []
    for (a, b), path, header in stats.built_headers(folder, size):
        if blanks is not None and cells - a - b not in blanks:
            continue
        rows.append({
            "mover": a, "opponent": b, "blanks": cells - a - b,
            "positions": class_size(size, a, b), "entries": header.entries,
            "win": header.wins, "draw": header.draws, "loss": header.losses,
            "longest_win": longest(header.longest_win, header.longest_win_positions),
            "longest_loss": longest(header.longest_loss, header.longest_loss_positions),
            "bytes": path.stat().st_size,
        })
    return rows


def by_blanks(rows: list[dict]) -> dict[str, dict]:
    totals: dict[int, dict] = {}
    for row in rows:
        total = totals.setdefault(row["blanks"], {"classes": 0, "positions": 0, "entries": 0,
                                                  "bytes": 0})
        total["classes"] += 1
        for key in ("positions", "entries", "bytes"):
            total[key] += row[key]
    for total in totals.values():
        total["bytes_per_entry"] = round(total["bytes"] / total["entries"], 4)
    return {str(k): totals[k] for k in sorted(totals)}


def differences(rows: list[dict], expected_file: Path) -> list[str]:
    recorded = {(c["mover"], c["opponent"]): c
                for c in json.loads(expected_file.read_text())["classes"]}
    found = []
    for row in rows:
        other = recorded.get((row["mover"], row["opponent"]))
        if other is None:
            continue
        for key in ("win", "draw", "loss"):
            if row[key] != other[key]:
                found.append(f"class ({row['mover']}, {row['opponent']}) {key}: {row[key]} "
                             f"here, {other[key]} in {expected_file}")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", required=True, type=Path)
    parser.add_argument("--size", type=int, default=5)
    parser.add_argument("--blanks", type=int, nargs="*", default=None,
                        help="numbers of blanks to list (default: every built class)")
    parser.add_argument("--expected", type=Path, help="counts to compare with")
    parser.add_argument("--out", type=Path, help="write the JSON here as well")
    args = parser.parse_args()
    rows = census(args.dir, args.size, set(args.blanks) if args.blanks is not None else None)
    if not rows:
        sys.exit(f"no class of the {args.size}x{args.size} board with those blanks in {args.dir}")
    record = {"size": args.size, "classes": rows, "by_blanks": by_blanks(rows)}
    compared = None
    if args.expected:
        mismatches = differences(rows, args.expected)
        compared = {"file": str(args.expected), "mismatches": mismatches}
        record["compared_with"] = compared
    text = json.dumps(record, indent=1)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")
    if compared and compared["mismatches"]:
        sys.exit("\n".join(compared["mismatches"]))


if __name__ == "__main__":
    main()
