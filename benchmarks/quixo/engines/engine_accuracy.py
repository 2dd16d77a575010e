"""Issue 40's accuracy figures: engines judged by the 5x5 tables on the positions of
benchmarks/data/judge-5x5-6-7-blanks.txt (draw_judge_positions.py: 500 with 6 blanks, 500 with
7, from seeded random play), each engine asked once per position, as `quixo judge` does:

    python benchmarks/quixo/engines/engine_accuracy.py --dir TABLES [--only NAMES]
        [--legacy-tree SRC] [--positions FILE] [--blanks LIST] [--limit N] [--out FILE]

Engines (names for --only, comma-separated; default all):
- today-0.01s, today-0.1s, today-1s: this package's search without tables at 0.01, 0.1 and 1
  s per move (timed: run them under the benchmark lock, the machine otherwise idle);
- legacy-0.1s: the engine of commit 33b5858 (legacy_engine.py, beside this script, over a
  built copy of that tree) at 0.1 s per move, a separate program;
- today-nodes, legacy-nodes: both at NODES nodes per move (the same work whatever the
  machine's load: need no lock);
- greedy: a one-ply greedy player (a depth-1 search of today's evaluation: the move to the
  best-looking position, a win at once where there is one).

The same as `quixo judge --positions FILE --engine SETTING --dir TABLES --json` for each
engine's setting (recorded in the results), through the library (quixo_solver.tournament.judge)
so that each engine's move in every position is kept: the results give each engine's SPEC
object, a 95% interval of its error rate (Wilson), its moves and errors position by position,
and for every two engines the difference of their error rates on the same positions with a
paired 95% interval. Each run adds its engines to the results file (default
benchmarks/results/engine-accuracy-5x5-6-7-blanks.json), so the engines may be measured in
several runs; the machine's cores and load are recorded with each engine. --blanks keeps only
the positions with those numbers of blanks (the figures at 6 and at 7 blanks are then two
files, each judged as soon as its level is built).
"""
import argparse
import json
import math
import os
import shlex
import time
from itertools import combinations
from pathlib import Path

from quixo_solver.tournament.judge import judge_positions, open_tables, read_positions
from quixo_solver.tournament.match_stats import Z95
from solverkit.arrayfile import write_atomically

import legacy_engine

BENCHMARKS = Path(__file__).resolve().parents[2]
POSITIONS = BENCHMARKS / "data" / "judge-5x5-6-7-blanks.txt"
RESULTS = BENCHMARKS / "results" / "engine-accuracy-5x5-6-7-blanks.json"
DEFAULT_TREE = os.environ.get("QUIXO_LEGACY_TREE", "/work/ref-main/src")
NODES = 50000          # about 0.1 s of today's search on this machine, unloaded


def engines(tree):
    """Each engine's name and setting (as quixo match and quixo judge take it)."""
    legacy = legacy_engine.command(tree)
    return {
        "today-0.01s": "time=0.01,tables=off",
        "today-0.1s": "time=0.1,tables=off",
        "today-1s": "time=1,tables=off",
        "legacy-0.1s": f"cmd={legacy},time=0.1",
        "today-nodes": f"nodes={NODES},tables=off",
        "legacy-nodes": f"cmd={legacy},nodes={NODES}",
        "greedy": "depth=1,tables=off",
    }


def wilson(errors, judged):
    """The 95% Wilson interval of a rate of `errors` in `judged`."""
    if not judged:
        return None
    rate, z2 = errors / judged, Z95 * Z95
    centre = (rate + z2 / (2 * judged)) / (1 + z2 / judged)
    half = Z95 * math.sqrt(rate * (1 - rate) / judged + z2 / (4 * judged * judged)) / (
        1 + z2 / judged)
    return [round(max(0.0, centre - half), 6), round(min(1.0, centre + half), 6)]


def paired_difference(first, second):
    """The difference of two engines' error rates on the positions both were judged on, with
    the 95% interval of the mean of the per-position differences."""
    if len(first) != len(second):        # judged on other positions
        return None
    pairs = [(a, b) for a, b in zip(first, second) if a != "-" and b != "-"]
    if not pairs:
        return None
    differences = [int(a) - int(b) for a, b in pairs]
    mean = sum(differences) / len(differences)
    spread = math.sqrt(sum((d - mean) ** 2 for d in differences) / max(len(differences) - 1, 1))
    half = Z95 * spread / math.sqrt(len(differences))
    return {"positions": len(pairs), "difference": round(mean, 6),
            "interval_95": [round(mean - half, 6), round(mean + half, 6)],
            "positions_only_first_erred": differences.count(1),
            "positions_only_second_erred": differences.count(-1)}


def portable(text, tree, directory):
    """`text` with this machine's paths replaced by names (legacy_engine.portable), and TABLES
    for the tables' folder."""
    return legacy_engine.portable(text, tree).replace(str(directory), "TABLES")


def measure(name, setting, boards, tablebase, positions_file, directory, tree):
    started = time.perf_counter()
    load_before = os.getloadavg()
    tally, = judge_positions(boards, [setting], tablebase, progress=None)
    seconds = time.perf_counter() - started
    row = tally.to_json()
    row["engine"] = portable(row["engine"], tree, directory)
    verdicts = {verdict.position: verdict for verdict in tally.verdicts}
    flags = "".join("-" if str(board) not in verdicts else
                    "1" if verdicts[str(board)].error else "0" for board in boards)
    row.update(error_rate_interval_95=wilson(row["errors"], row["judged"]),
               errors_by_position=flags,
               moves_by_position=[verdicts[str(b)].move if str(b) in verdicts else None
                                  for b in boards],
               command=portable(f"quixo judge --positions {positions_file} --engine "
                                f"{shlex.quote(setting)} --dir {directory} --json", tree,
                                directory),
               seconds=round(seconds, 1), cores=os.cpu_count(),
               load_before=[round(x, 2) for x in load_before],
               load_after=[round(x, 2) for x in os.getloadavg()])
    return row


def blanks_of(board):
    return 25 - bin(board.x_cubes | board.o_cubes).count("1")


def judgeable_by_blanks(boards, tablebase):
    """For each number of blanks, the positions whose class the tables hold and all."""
    counts = {}
    for board in boards:
        blanks = blanks_of(board)
        held, total = counts.get(str(blanks), (0, 0))
        counts[str(blanks)] = (held + (tablebase.get(board) is not None), total + 1)
    return {blanks: {"in_tables": held, "positions": total}
            for blanks, (held, total) in sorted(counts.items())}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", required=True, help="the 5x5 tables (up to 7 blanks)")
    parser.add_argument("--only", default=None, help="engines to judge, comma-separated")
    parser.add_argument("--legacy-tree", default=DEFAULT_TREE,
                        help="src folder of the built 33b5858 tree (default %(default)s)")
    parser.add_argument("--positions", default=str(POSITIONS))
    parser.add_argument("--blanks", default=None,
                        help="only the positions with these numbers of blanks, comma-separated")
    parser.add_argument("--limit", type=int, default=None, help="only the first N positions")
    parser.add_argument("--out", default=str(RESULTS))
    args = parser.parse_args()
    table = engines(args.legacy_tree)
    names = list(table) if args.only is None else [n.strip() for n in args.only.split(",")]
    unknown = [name for name in names if name not in table]
    if unknown:
        parser.error(f"unknown engine {unknown[0]!r}: choose among {', '.join(table)}")
    boards = read_positions(args.positions)
    if args.blanks is not None:
        wanted = {int(blanks) for blanks in args.blanks.split(",")}
        boards = [board for board in boards if blanks_of(board) in wanted]
    boards = boards[:args.limit]
    tablebase = open_tables(args.dir, {5})
    out = Path(args.out)
    results = json.loads(out.read_text()) if out.exists() else {"engines": {}}
    results.update(positions=os.path.relpath(args.positions, BENCHMARKS.parent),
                   blanks=args.blanks and sorted(wanted), positions_count=len(boards),
                   positions_in_tables=judgeable_by_blanks(boards, tablebase),
                   tables="TABLES: the 5x5 tables (classes not built are not judged)")
    for name in names:
        row = measure(name, table[name], boards, tablebase,
                      os.path.relpath(args.positions, BENCHMARKS.parent), args.dir,
                      args.legacy_tree)
        if args.blanks is not None:     # quixo judge takes the whole file: say which part
            row["command"] += f"  (its {len(boards)} positions with {args.blanks} blanks)"
        results["engines"][name] = row
        print(f"{name}: {row['errors']} errors in {row['judged']} judged moves "
              f"({100 * (row['error_rate'] or 0):.2f}%, 95% {row['error_rate_interval_95']}), "
              f"{row['perfect']} perfect, {row['seconds']} s", flush=True)
        results["differences"] = {
            f"{a} - {b}": paired_difference(results["engines"][a]["errors_by_position"],
                                            results["engines"][b]["errors_by_position"])
            for a, b in combinations(sorted(results["engines"]), 2)}
        write_atomically(out, [(json.dumps(results, indent=1) + "\n").encode("utf-8")])


if __name__ == "__main__":
    main()
