"""Issue 23's per-class record of a built folder, from the files' headers alone (no value is
decoded, so it takes a second however large the folder):

    python benchmarks/quixo/tablebase/tablebase_census.py --dir /work/tables/ref5 --blanks 6 \
        --out benchmarks/results/5x5-6-blanks.json

For every built class with the asked-for number of blanks (every built class by default): its
raw positions, its table entries (one per symmetry class, holes included), the win, draw and
loss counts over raw positions (as `quixo tablebase stats` prints them), the longest win and
the longest loss in plies with the raw positions at that length (none: null), and the bytes
of its file. Then the totals by number of blanks with bytes per entry. With --expected FILE
(a `quixo tablebase stats --json` record such as benchmarks/results/5x5-up-to-5-blanks.json)
the win, draw and loss counts of every class that file lists are compared; a difference
exits with status 1.

With --decode every class's values are read (a class at a time, every block checked: minutes
for the whole 5x5 game, and the memory of the largest class): each longest win and longest
loss gets one position (SPEC notation, X to move), and each class its raw positions per ply
count of wins and of losses, summed by blank count and for the whole game. With a build
journal in the folder (BUILD-JOURNAL.jsonl), each pair's solving time, CPU time, peak memory
and bytes are listed, by blank count and in all.

With --decoded-rows FILE the decoding resumes: each class's decoded figures are appended to
FILE (one JSON line per class, written before the next class is read), and a class whose line
names the same file (bytes and header checksums) is not read again. So the census of a folder
that a build is still filling can run beside it, a class at a time, across interruptions, and
the last run decodes only the classes built since.
"""
import argparse
import json
import os
import sys
from pathlib import Path

import numpy as np

from quixo_solver import Board
from quixo_solver.tablebase.format import files
from quixo_solver.tablebase.generator import journal
from quixo_solver.tablebase import stats
from quixo_solver.tablebase.format._index import class_size
from quixo_solver.tablebase.format._orbit_index import orbit_class


def longest(plies: int, positions: int) -> dict[str, int] | None:
    return None if plies < 0 else {"plies": plies, "positions": positions}


def census(folder: Path, size: int, blanks: set[int] | None) -> list[tuple[dict, list[int]]]:
    """(row, the identity of its file) of each built class with those blanks."""
    cells = size * size
    rows = []
    for (a, b), path, header in stats.built_headers(folder, size):
        if blanks is not None and cells - a - b not in blanks:
            continue
        # bytes and the checksums of the head and of the block index: a rebuilt or damaged
        # file, or another build's, differs in one of them
        size_on_disk = path.stat().st_size
        identity = [size_on_disk, header.head_crc, header.index_crc]
        rows.append(({
            "mover": a, "opponent": b, "blanks": cells - a - b,
            "positions": class_size(size, a, b), "entries": header.entries,
            "win": header.wins, "draw": header.draws, "loss": header.losses,
            "longest_win": longest(header.longest_win, header.longest_win_positions),
            "longest_loss": longest(header.longest_loss, header.longest_loss_positions),
            "bytes": size_on_disk,
        }, identity))
    return rows


def decode(folder: Path, size: int, row: dict, threads: int) -> dict:
    """A class's decoded figures: its raw positions per ply count of wins and of losses
    ([plies, positions] pairs), and one position of its longest win and of its longest loss
    (none: null)."""
    a, b = row["mover"], row["opponent"]
    values = files.load_values(folder / files.table_name(size, a, b), (size, a, b), threads)
    orbits = orbit_class(size, a, b)
    counts = orbits.code_counts(values)
    decoded: dict = {}
    for kind, parity in (("win", 1), ("loss", 0)):
        decoded[f"{kind}_plies"] = [[(code - 1) >> 1, int(counts[code])]
                                    for code in range(1, len(counts)) if code & 1 == parity
                                    and counts[code]]
        longest, example = row[f"longest_{kind}"], None
        if longest is not None:
            code = 2 * longest["plies"] + (1 if kind == "win" else 2)
            index = int(np.flatnonzero(values == code)[0])   # (a hole holds 0: a draw)
            mover, opponent, _ = orbits.position_at(index)
            example = str(Board.from_masks(size, mover, opponent))
        decoded[f"longest_{kind}_example"] = example
    return decoded


def apply_decoded(row: dict, decoded: dict) -> None:
    for kind in ("win", "loss"):
        row[f"{kind}_plies"] = decoded[f"{kind}_plies"]
        if row[f"longest_{kind}"] is not None:
            row[f"longest_{kind}"]["example"] = decoded[f"longest_{kind}_example"]


def decoded_before(path: Path | None) -> dict[tuple[int, int], dict]:
    """The lines of a --decoded-rows file by class (none yet: empty); a line cut short by an
    interruption is left out, and a later line of a class replaces an earlier one."""
    found: dict[tuple[int, int], dict] = {}
    if path is None or not path.exists():
        return found
    for text in path.read_text().splitlines():
        try:
            line = json.loads(text)
        except json.JSONDecodeError:
            continue
        found[(line["mover"], line["opponent"])] = line
    return found


def decode_all(folder: Path, size: int, rows: list[tuple[dict, list[int]]], threads: int,
               resume_file: Path | None) -> None:
    """Decode every class, or take its figures from resume_file when they were read from the
    same file; each class decoded here is appended to resume_file at once."""
    before = decoded_before(resume_file)
    out = resume_file.open("a") if resume_file is not None else None
    if out is not None and out.tell() and not resume_file.read_bytes().endswith(b"\n"):
        out.write("\n")       # after a line cut short, the next one starts on its own
    shown = sys.stderr.isatty()
    try:
        for done, (row, identity) in enumerate(rows, 1):
            line = before.get((row["mover"], row["opponent"]))
            if line is not None and line["file"] == identity:
                apply_decoded(row, line["decoded"])
                continue
            if shown:
                print(f"\rdecoding class ({row['mover']}, {row['opponent']}), {done} of "
                      f"{len(rows)}", end="", file=sys.stderr, flush=True)
            decoded = decode(folder, size, row, threads)
            apply_decoded(row, decoded)
            if out is not None:
                out.write(json.dumps({"mover": row["mover"], "opponent": row["opponent"],
                                      "file": identity, "decoded": decoded}) + "\n")
                out.flush()
                os.fsync(out.fileno())
    finally:
        if out is not None:
            out.close()
        if shown:
            print(file=sys.stderr)


def build_costs(folder: Path, size: int) -> list[dict]:
    """The journal's line of each pair built into the folder, in build order."""
    lines = [line for line in journal.read(folder) if line["size"] == size]
    return sorted(lines, key=lambda line: (-(line["mover"] + line["opponent"]),
                                           -line["mover"]))


def plies_total(rows: list[dict], kind: str) -> list[list[int]]:
    total: dict[int, int] = {}
    for row in rows:
        for plies, positions in row.get(f"{kind}_plies", []):
            total[plies] = total.get(plies, 0) + positions
    return [[plies, total[plies]] for plies in sorted(total)]


def longest_of(rows: list[dict], end: str) -> dict | None:
    """The longest win or loss (`end`) among the rows' classes, with its class (none: None)."""
    ended = [row for row in rows if row[f"longest_{end}"]]
    if not ended:
        return None
    row = max(ended, key=lambda row: row[f"longest_{end}"]["plies"])
    return dict(row[f"longest_{end}"], mover=row["mover"], opponent=row["opponent"])


def by_blanks(rows: list[dict]) -> dict[str, dict]:
    totals: dict[int, dict] = {}
    for row in rows:
        total = totals.setdefault(row["blanks"], {"classes": 0, "positions": 0, "entries": 0,
                                                  "win": 0, "draw": 0, "loss": 0,
                                                  "bytes": 0})
        total["classes"] += 1
        for key in ("positions", "entries", "win", "draw", "loss", "bytes"):
            total[key] += row[key]
    for blanks, total in totals.items():
        total["bytes_per_entry"] = round(total["bytes"] / total["entries"], 4)
        here = [row for row in rows if row["blanks"] == blanks]
        for end in ("win", "loss"):
            longest = longest_of(here, end)
            if longest:
                total[f"longest_{end}"] = longest
        if any("win_plies" in row for row in rows):
            total["win_plies"], total["loss_plies"] = (plies_total(here, "win"),
                                                       plies_total(here, "loss"))
    return {str(k): totals[k] for k in sorted(totals)}


def costs_by_blanks(size: int, costs: list[dict]) -> dict[str, dict]:
    totals: dict[int, dict] = {}
    for line in costs:
        total = totals.setdefault(size * size - line["mover"] - line["opponent"], {
            "pairs": 0, "entries": 0, "seconds": 0.0, "cpu_seconds": 0.0,
            "peak_memory_bytes": 0, "bytes": 0})
        total["pairs"] += 1
        for key in ("entries", "seconds", "cpu_seconds", "bytes"):
            total[key] += line.get(key) or 0
        total["peak_memory_bytes"] = max(total["peak_memory_bytes"],
                                         line.get("peak_memory_bytes") or 0)
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
    parser.add_argument("--decode", action="store_true",
                        help="read every value: example positions and the plies' counts")
    parser.add_argument("--threads", type=int, default=2, help="threads of the decoding")
    parser.add_argument("--decoded-rows", type=Path,
                        help="with --decode: keep each class's decoded figures in this file "
                             "and take them from it on the next run (see above)")
    args = parser.parse_args()
    if args.decoded_rows is not None and not args.decode:
        parser.error("--decoded-rows goes with --decode")
    identified = census(args.dir, args.size,
                        set(args.blanks) if args.blanks is not None else None)
    if not identified:
        sys.exit(f"no class of the {args.size}x{args.size} board with those blanks in {args.dir}")
    if args.decode:
        decode_all(args.dir, args.size, identified, args.threads, args.decoded_rows)
    rows = [row for row, _ in identified]
    totals = by_blanks(rows)
    record = {"size": args.size, "classes": rows, "by_blanks": totals,
              "game": {key: sum(total[key] for total in totals.values())
                       for key in ("classes", "positions", "entries", "win", "draw", "loss",
                                   "bytes")}}
    for end in ("win", "loss"):
        longest = longest_of(rows, end)
        if longest:
            record["game"][f"longest_{end}"] = longest
    if args.decode:
        record["game"]["win_plies"] = plies_total(rows, "win")
        record["game"]["loss_plies"] = plies_total(rows, "loss")
    costs = build_costs(args.dir, args.size)
    if costs:
        record["build"] = {"pairs": costs, "by_blanks": costs_by_blanks(args.size, costs)}
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
