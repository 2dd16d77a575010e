"""Issue 15's figures: two engine matches through `quixo match`.

    python benchmarks/quixo/engines/quixo_match.py --tables DIR [--pairs 200] [--only 5x5|4x4]
                                     [--stop-after MINUTES] [--jobs 2]

- 5x5: 1 s against 0.1 s per move (tables off: no 5x5 tables are assumed);
- 4x4: tables on (perfect play) against tables off, both on a clock of 10 s + 0.1 s per
  player (the 4x4 tables are built into DIR on first use).

Each writes its summary to benchmarks/results/quixo-match-<board>.json and its game records
to benchmarks/results/quixo-match-<board>-games.jsonl; the summary gets the machine's cores and
load averages (a shared machine searches less in the same wall time). Running the script
again resumes a match that --stop-after (or Ctrl-C) cut short.
"""
import argparse
import json
import os
import shlex
import sys
import time
from pathlib import Path

from quixo_solver.frontends.cli import main as quixo
from solverkit.arrayfile import write_atomically

RESULTS = Path(__file__).resolve().parents[2] / "results"
MATCHES = {
    "5x5": ["--size", "5", "--engine-a", "time=1,tables=off", "--engine-b",
            "time=0.1,tables=off"],
    "4x4": ["--size", "4", "--engine-a", "clock=10s+0.1s,tables=on", "--engine-b",
            "clock=10s+0.1s,tables=off"],
}


def play_and_record(argv, summary, args, note, derived=lambda payload: {}, **extra):
    """Run `quixo match` (`argv`, with --jobs and --stop-after from `args`), then add to its
    JSON summary the machine's cores and load around the match, its wall time, `note`, the
    `extra` fields and those `derived(summary)` computes; exits with the match's status if it
    fails."""
    argv = list(argv)
    if args.jobs:
        argv += ["--jobs", str(args.jobs)]
    if args.stop_after:
        argv += ["--stop-after", str(args.stop_after)]
    print("quixo " + shlex.join(argv), flush=True)
    load_before = os.getloadavg()
    started = time.time()
    status = quixo(argv)
    if status:
        sys.exit(status)
    payload = json.loads(summary.read_text())
    payload.update(extra)
    payload.update(derived(payload))
    payload["machine"] = {
        "cpu_count": os.cpu_count(), "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "wall_seconds": round(time.time() - started, 1), "note": note}
    write_atomically(summary, [(json.dumps(payload, indent=2) + "\n").encode()])


def run(name, args):
    summary = RESULTS / f"quixo-match-{name}.json"
    records = RESULTS / f"quixo-match-{name}-games.jsonl"
    play_and_record(["match", *MATCHES[name], "--pairs", str(args.pairs), "--seed",
                     str(args.seed), "--records", str(records), "--summary", str(summary),
                     "--dir", args.tables], summary, args,
                    "the match's workers take one core each; other work running on the "
                    "machine at the same time leaves the engines fewer nodes in the same "
                    "wall time")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", required=True, help="tablebase folder (4x4 built there)")
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=0, help="worker processes (0: per core)")
    parser.add_argument("--stop-after", type=float, default=None, metavar="MINUTES",
                        help="start no game after this many minutes of each match")
    parser.add_argument("--only", choices=sorted(MATCHES), default=None)
    args = parser.parse_args()
    for name in MATCHES:
        if args.only in (None, name):
            run(name, args)


if __name__ == "__main__":
    main()
