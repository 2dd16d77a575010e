"""How many positions the solver proves in a fixed time, before and after a change, and how many
of its claims are wrong (issue 22): a committed set of 600 positions, 100 each of 4x4 with 8,
10 and 12 blanks and of 5x5 with 6, 8 and 10 blanks, drawn by seeded random play from the empty
board (finished games excluded), each solved with no tables in `--seconds` (2 s).

    python benchmarks/quixo/search/proof_rate.py --make-positions   # (re)draw benchmarks/data/...
    python benchmarks/quixo/search/proof_rate.py --before /work/ref-main/src --after src \
        --tables4 DIR

Each source tree runs in its own process (its packages first on the path), both at once; "before" is solved
as its Solver.solve(board, time=S) does, "after" with the proof search given half the time
(solve(..., proof_share=0.5), as `quixo solve` does). A 4x4 claim is checked against the 4x4
tables: a wrong value, wrong exact plies, or plies beyond a claimed bound count as wrong. The
5x5 classes of these positions are not built, so their claims are counted, not checked.
Results go to benchmarks/results/proof-rate.json.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[2]
POSITIONS = BENCHMARKS / "data" / "proof-positions.json"
RESULTS = BENCHMARKS / "results" / "proof-rate.json"
SETS = [(4, 8), (4, 10), (4, 12), (5, 6), (5, 8), (5, 10)]
PER_SET = 100
SEED = 22

SOLVE_PROGRAM = r"""
import json, sys
from quixo_solver import Board, Solver
mode, seconds = sys.argv[1], float(sys.argv[2])
solver = Solver(tt_mib=64)
for line in sys.stdin:
    board = Board(line.strip())
    if mode == "after":
        result = solver.solve(board, time=seconds, proof_share=0.5)
    else:
        result = solver.solve(board, time=seconds)
    print(json.dumps({"position": str(board), "value": result.value, "plies": result.plies,
                      "plies_at_most": getattr(result, "plies_at_most", None),
                      "seconds": result.seconds}), flush=True)
"""


def draw_positions() -> dict[str, list[str]]:
    """Seeded random play from the empty board until the board has the set's number of
    blanks with the game still open (a game that ends first is drawn again)."""
    from quixo_solver import Board

    rng = random.Random(SEED)
    sets: dict[str, list[str]] = {}
    for size, blanks in SETS:
        found: list[str] = []
        while len(found) < PER_SET:
            board = Board(size=size)
            while not board.is_game_over() and str(board).count(".") > blanks:
                board.push(rng.choice(list(board.legal_moves)))
            text = str(board)
            if not board.is_game_over() and text.count(".") == blanks and text not in found:
                found.append(text)
        sets[f"{size}x{size}, {blanks} blanks"] = found
    return sets


def solve_all(tree: str, mode: str, positions: list[str], seconds: float) -> list[dict]:
    environment = dict(os.environ, PYTHONPATH=tree)
    process = subprocess.run([sys.executable, "-c", SOLVE_PROGRAM, mode, str(seconds)],
                             input="\n".join(positions) + "\n", env=environment,
                             capture_output=True, text=True, check=True)
    return [json.loads(line) for line in process.stdout.splitlines()]


def judge(rows: list[dict], tablebase) -> dict:
    proven = wrong = checked = 0
    for row in rows:
        if row["value"] == "unknown":
            continue
        proven += 1
        if tablebase is None:
            continue
        from quixo_solver import Board

        truth = tablebase.probe(Board(row["position"]))
        checked += 1
        bad = row["value"] != truth.value
        if row["plies"] is not None:
            bad = bad or row["plies"] != truth.plies
        elif row["plies_at_most"] is not None:
            bad = bad or truth.plies is None or truth.plies > row["plies_at_most"]
        wrong += bad
    return {"positions": len(rows), "proven": proven, "checked": checked, "wrong": wrong,
            "seconds": round(sum(row["seconds"] for row in rows), 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--make-positions", action="store_true")
    parser.add_argument("--before", help="the source tree of the engine as it was")
    parser.add_argument("--after", help="the source tree of the engine now")
    parser.add_argument("--tables4", help="the 4x4 tables, to check the 4x4 claims")
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--only", help="only the sets whose name contains this")
    args = parser.parse_args()
    if args.make_positions:
        POSITIONS.parent.mkdir(exist_ok=True)
        POSITIONS.write_text(json.dumps({"seed": SEED, "sets": draw_positions()}, indent=1)
                             + "\n")
        print(f"wrote {POSITIONS}")
        return
    from quixo_solver import Tablebase

    sets = json.loads(POSITIONS.read_text())["sets"]
    tablebase = Tablebase(args.tables4) if args.tables4 else None
    report: dict = {"seconds_per_position": args.seconds, "before": args.before,
                    "after": args.after, "sets": {}}
    started = time.perf_counter()
    for name, positions in sets.items():
        if args.only and args.only not in name:
            continue
        row = {}
        # both trees at once, one process each: the machine's load falls on both alike
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            runs = {mode: pool.submit(solve_all, tree, mode, positions, args.seconds)
                    for mode, tree in (("before", args.before), ("after", args.after))}
            for mode, run in runs.items():
                row[mode] = judge(run.result(), tablebase if name.startswith("4x4") else None)
        report["sets"][name] = row
        print(f"{name}: before {row['before']['proven']} proven ({row['before']['wrong']} "
              f"wrong), after {row['after']['proven']} proven ({row['after']['wrong']} wrong)",
              flush=True)
    report["wall_seconds"] = round(time.perf_counter() - started, 1)
    RESULTS.write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {RESULTS}")


if __name__ == "__main__":
    main()
