"""Two source trees side by side in one run: the same measurements on each, interleaved, so
that the machine's load falls on both alike (issue 13: a redesign must not slow anything).

    python benchmarks/compare_trees.py BEFORE_SRC AFTER_SRC [--repeat 5]

Measurements marked [long] run only with --long, or when --only names them: a 5x5 build
(issue 23's build time with compressed files), a search that probes 5x5 tables (built
once per file format into the temporary folder, a few minutes), and one large pair solved
from a folder of built tables (QUIXO_COMPARE_PAIR=FOLDER:A,B, e.g. a 5-blank pair (15, 5) from
a folder holding the 4-blank classes: about a minute a run).

Each SRC is a folder holding built packages (`python setup.py build_ext --inplace` in its
checkout): for example a `git worktree` of the older commit and this checkout's `src`. Every
measurement runs in a fresh process with that SRC first on the path. Prints the median of
each measurement for both trees and the ratio after / before (below 1.03: no slowdown over 3%).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

MEASUREMENTS = {
    "perft 5x5 depth 6 (s)": """
from quixo_solver import Board, perft
started = time.perf_counter()
assert perft(Board(size=5), 6) == 4422929160
result = time.perf_counter() - started
""",
    "4x4 build, 2 threads (s)": """
import tempfile
from quixo_solver.tablebase import build
with tempfile.TemporaryDirectory() as folder:
    started = time.perf_counter()
    build(folder, 4, progress=False)
    result = time.perf_counter() - started
""",
    "4x4 build from the command line, process start included (s)": """
import subprocess, sys, tempfile
with tempfile.TemporaryDirectory() as folder:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "quixo_solver", "tablebase", "build", "--size", "4",
                    "--dir", folder], check=True, capture_output=True)
    result = time.perf_counter() - started
""",
    "5x5 build to 1 blank, 2 threads (s) [long]": """
import tempfile
from quixo_solver.tablebase import build
with tempfile.TemporaryDirectory() as folder:
    started = time.perf_counter()
    build(folder, 5, 1, progress=False)
    result = time.perf_counter() - started
""",
    "search 5x5 nodes/s (two players)": """
from quixo_solver import Board, Solver
solver, nodes, seconds = Solver(tt_mib=64), 0, 0.0
for position in ["...../...../...../...../..... X", "X.O../.X.../..O../...../O...X X",
                 "XO.OX/.XOX./O.X.O/.OXO./XO.OX O"]:
    found = solver.solve(Board(position), depth=8)
    nodes, seconds = nodes + found.nodes, seconds + found.seconds
result = nodes / seconds
""",
    "search 5x5 nodes/s probing tables to 2 blanks [long]": """
import os, tempfile
from quixo_solver import Board, Solver
from quixo_solver.tablebase import build
from quixo_solver.tablebase.format import files
# each tree's own file format (3: a byte an entry, 4: compressed), built once and kept
folder = os.path.join(tempfile.gettempdir(), f"quixo-compare-5x5-2-blanks-v{files.VERSION}")
build(folder, 5, 2, progress=False)
solver, nodes, seconds = Solver(tt_mib=64, tablebase=folder), 0, 0.0
for position in ["XXOXO/OOOXX/XX.OX/XX..O/OOXOX X", "XXOOX/O.XXX/OOXOO/X..OO/XOXOX X"]:
    found = solver.solve(Board(position), depth=9)    # 3 blanks: a blank taken is a probe
    nodes, seconds = nodes + found.nodes, seconds + found.seconds
result = nodes / seconds
""",
    # QUIXO_COMPARE_PAIR="FOLDER:A,B": the pair (A, B) solved in memory from the tables of a
    # built FOLDER (the classes it needs), its files not written; default a 5-blank pair
    "5x5 pair solve from built tables, 2 threads (entries/s) [long]": """
import os
from pathlib import Path
from quixo_solver.tablebase.format import files
from quixo_solver.tablebase.generator import pair_solver
from quixo_solver.tablebase import pairs
folder, pair = os.environ["QUIXO_COMPARE_PAIR"].rsplit(":", 1)
unit = pairs.Unit(5, *map(int, pair.split(",")))
inputs = {cls: files.open_table(Path(folder) / files.table_name(5, *cls), (5, *cls))
          for cls in unit.needs}
started = time.perf_counter()
pair_solver.solve_unit(unit, inputs, 2)
result = unit.entries / (time.perf_counter() - started)
""",
    "search 5x5 nodes/s (four players)": """
from quixo_solver.teams import TeamBoard
from quixo_solver.teams.solve import TeamSolver
found = TeamSolver(tt_mib=64).solve(TeamBoard(size=5), depth=5)
result = found.nodes / found.seconds
""",
    "Qwixx single-player table solve (s)": """
try:
    from qwixx_stats.tables.solitaire import solve_table
except ImportError:                   # a tree from before qwixx_stats had its folders
    from qwixx_stats.solitaire import solve_table
started = time.perf_counter()
solve_table()
result = time.perf_counter() - started
""",
    "Qwixx simulate, 2 players greedy vs cautious:2 (games/s)": """
from qwixx_stats import parse_strategies, simulate
result = simulate(parse_strategies("greedy,cautious:2", 2), 400000, 1, keep_games=False)
result = result.games / result.seconds
""",
}


def measure(src: str, code: str) -> float:
    program = "import time\n" + code + "\nprint(repr(result))\n"
    environment = dict(os.environ, PYTHONPATH=src)
    output = subprocess.run([sys.executable, "-c", program], env=environment, check=True,
                            capture_output=True, text=True).stdout
    return float(output.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--only", help="run only the measurements whose name contains this")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--long", action="store_true",
                        help="also run the measurements marked [long] (minutes each)")
    args = parser.parse_args()
    rows = []
    for name, code in MEASUREMENTS.items():
        if args.only and args.only not in name or "[long]" in name and not (
                args.long or args.only):
            continue
        before, after = [], []
        for _ in range(args.repeat):          # interleaved: before, after, before, ...
            before.append(measure(args.before, code))
            after.append(measure(args.after, code))
        b, a = statistics.median(before), statistics.median(after)
        # ratio of costs: for a rate (nodes/s), before / after; for a time, after / before
        ratio = b / a if "/s" in name else a / b
        rows.append({"measurement": name, "before": b, "after": a, "cost_ratio": ratio,
                     "before_runs": before, "after_runs": after})
        print(f"{name:<40} before {b:>12.4g}  after {a:>12.4g}  cost after/before "
              f"{ratio:.3f}", flush=True)
    if args.json:
        print(json.dumps(rows))


if __name__ == "__main__":
    main()
