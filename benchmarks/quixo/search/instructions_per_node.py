"""The search's cost per node in two source trees, counted in machine instructions by valgrind's
callgrind: the same count however loaded the machine is, where a nodes/s ratio on a shared
2-core machine swings by a factor of two from run to run. The cost of a node is the
instructions of a search minus those of the same program searching to depth 1 (the imports,
the table's allocation), over the nodes searched.

    python benchmarks/quixo/search/instructions_per_node.py BEFORE_SRC AFTER_SRC

Prints the instructions per node of each search in each tree and the ratio after / before
(a nodes/s cost ratio: below 1.03 is no slowdown over 3%). The cost of a node depends on the
tree searched too (its threats, its table hits): `--rulebook` gives a tree that has weights
the rulebook's, the ones an older tree compiled in, so that both search the same tree.
Needs `valgrind` on the PATH.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

# With --rulebook the searches use the rulebook's weights where the tree knows weights at all:
# the cost of the code alone, on the same trees as a tree whose weights were compiled in.
WEIGHTS = """
try:
    from quixo_solver.search.weights import RULEBOOK
    WEIGHTS = {"weights": RULEBOOK} if RULEBOOK_ONLY else {}
except ImportError:
    WEIGHTS = {}
"""
SEARCHES = {
    "two players, 5x5, three positions to depth 6": """
from quixo_solver import Board, Solver
solver, nodes = Solver(tt_mib=64, **WEIGHTS), 0
for position in ["...../...../...../...../..... X", "X.O../.X.../..O../...../O...X X",
                 "XO.OX/.XOX./O.X.O/.OXO./XO.OX O"]:
    nodes += solver.solve(Board(position), depth=DEPTH).nodes
print("NODES", nodes)
""",
    "four players, 5x5 empty board to depth 5": """
from quixo_solver.teams import TeamBoard
from quixo_solver.teams.solve import TeamSolver
print("NODES", TeamSolver(tt_mib=64, **WEIGHTS).solve(TeamBoard(size=5), depth=DEPTH).nodes)
""",
}
DEPTHS = {"two players, 5x5, three positions to depth 6": 6,
          "four players, 5x5 empty board to depth 5": 5}


def count(tree: str, program: str) -> tuple[int, int]:
    """(instructions, nodes) of running `program` with `tree` first on the path."""
    with tempfile.TemporaryDirectory() as folder:
        script = os.path.join(folder, "search.py")
        with open(script, "w") as handle:
            handle.write(program)
        result = subprocess.run(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
             script], env=dict(os.environ, PYTHONPATH=tree), capture_output=True, text=True,
            check=True)
    instructions = int(re.search(r"Collected : (\d+)", result.stderr).group(1))
    nodes = int(re.search(r"NODES (\d+)", result.stdout).group(1))
    return instructions, nodes


def per_node(tree: str, name: str, rulebook: bool) -> float:
    program = f"RULEBOOK_ONLY = {rulebook}\n" + WEIGHTS + SEARCHES[name]
    full = count(tree, program.replace("DEPTH", str(DEPTHS[name])))
    base = count(tree, program.replace("DEPTH", "1"))
    return (full[0] - base[0]) / (full[1] - base[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--rulebook", action="store_true",
                        help="search with the rulebook's weights in both trees")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    for name in SEARCHES:
        before = per_node(args.before, name, args.rulebook)
        after = per_node(args.after, name, args.rulebook)
        rows.append({"search": name, "before": before, "after": after,
                     "cost_ratio": after / before})
        print(f"{name:<46} before {before:>9.0f}  after {after:>9.0f} instructions/node  "
              f"cost after/before {after / before:.3f}", flush=True)
    if args.json:
        print(json.dumps(rows))


if __name__ == "__main__":
    main()
