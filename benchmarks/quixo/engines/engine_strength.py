"""Issue 22's strength matches: today's engine (`quixo engine`, as engine A) against the engine
as it was at commit 33b5858 (legacy_engine.py, beside this script, over a built copy of that
tree, as engine B), both separate programs speaking the engine protocol, through `quixo match`.

    python benchmarks/quixo/engines/engine_strength.py [--legacy-tree /work/ref-main/src]
        [--only NAMES] [--pairs N] [--jobs J] [--stop-after MINUTES] [--out DIR] [--smoke]

Matches (names for --only, comma-separated; the first three by default):
- 5x5-time:   5x5 at 0.1 s per move, SPRT(elo0=0, elo1=30): stops when it decides;
- 5x5-nodes:  5x5 at NODES nodes per move (the same work whatever the machine's load),
              SPRT(elo0=0, elo1=30);
- 4x4-time:   4x4, tables off, 0.1 s per move, SPRT(elo0=0, elo1=30);
- 5x5-self-new, 5x5-self-legacy: each engine against itself at 0.1 s per move, for the share
              of games that end by repetition before and after (--pairs of them, no SPRT).
Tables are off for both engines everywhere (`quixo engine --no-tablebase`; the adapter has
none unless told). --pairs bounds a match (default 2000 for the tests, 100 for self-play).

Each match writes its summary to DIR/engine-strength-<name>.json (with the machine's cores and
load, and the seconds it took) and its games to DIR/engine-strength-<name>-games.jsonl; DIR is
benchmarks/results unless --out says otherwise. Running the script again resumes a match that
--stop-after or Ctrl-C cut short (from the same Python and tree: the commands are part of the
match's settings). --smoke plays 2 pairs of each match into a temporary folder (or --out), to
show that everything runs. Run under the shared lock: flock /work/bench.lock python ...
"""
import argparse
import os
import shlex
import sys
import tempfile
from pathlib import Path

from quixo_match import play_and_record     # beside this script (benchmarks/)

HERE = Path(__file__).resolve().parent
RESULTS = HERE.parents[1] / "results"
DEFAULT_TREE = os.environ.get("QUIXO_LEGACY_TREE", "/work/ref-main/src")
MOVE_SECONDS = 0.1
NODES = 50000          # about 0.1 s of today's search on this machine, unloaded
SPRT = "elo0=0,elo1=30,alpha=0.05,beta=0.05"
TEST_PAIRS = 2000
SELF_PLAY_PAIRS = 100


def engines(tree):
    """The cmd= texts of today's engine and of the old one."""
    new = shlex.join([sys.executable, "-m", "quixo_solver", "engine", "--no-tablebase"])
    legacy = shlex.join([sys.executable, str(HERE / "legacy_engine.py"), "--tree", tree])
    return new, legacy


def matches(tree):
    """Each match: (quixo match arguments, whether it runs the SPRT)."""
    new, legacy = engines(tree)
    per_move = f"time={MOVE_SECONDS:g}"
    nodes = f"nodes={NODES}"
    return {
        "5x5-time": (["--size", "5", "--engine-a", f"cmd={new},{per_move}",
                      "--engine-b", f"cmd={legacy},{per_move}"], True),
        "5x5-nodes": (["--size", "5", "--engine-a", f"cmd={new},{nodes}",
                       "--engine-b", f"cmd={legacy},{nodes}"], True),
        "4x4-time": (["--size", "4", "--engine-a", f"cmd={new},{per_move}",
                      "--engine-b", f"cmd={legacy},{per_move}"], True),
        "5x5-self-new": (["--size", "5", "--engine-a", f"cmd={new},{per_move}",
                          "--engine-b", f"cmd={new},{per_move},hash=63"], False),
        "5x5-self-legacy": (["--size", "5", "--engine-a", f"cmd={legacy},{per_move}",
                             "--engine-b", f"cmd={legacy},{per_move},hash=63"], False),
    }


DEFAULT = ("5x5-time", "5x5-nodes", "4x4-time")


def run(name, arguments, sprt, args, out):
    summary = out / f"engine-strength-{name}.json"
    records = out / f"engine-strength-{name}-games.jsonl"
    pairs = args.pairs or (TEST_PAIRS if sprt else SELF_PLAY_PAIRS)
    if args.smoke:
        pairs = 2
    argv = ["match", *arguments, "--pairs", str(pairs), "--seed", str(args.seed),
            "--records", str(records), "--summary", str(summary)]
    if sprt:
        argv += ["--sprt", SPRT]
    play_and_record(argv, summary, args,
                    "engine A is today's engine (quixo engine), engine B the engine of commit "
                    "33b5858 (benchmarks/quixo/engines/legacy_engine.py); both are separate "
                    "programs, one game per worker; other work on the machine leaves the timed "
                    "matches fewer nodes", derived=repetition_share, legacy_tree=args.legacy_tree)


def repetition_share(payload):
    games = payload["games"]
    return {"repetition_share": (round(payload["reasons"]["repetition"] / games, 4)
                                 if games else None)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--legacy-tree", default=DEFAULT_TREE,
                        help="src folder of the built old tree (default %(default)s)")
    parser.add_argument("--only", default=",".join(DEFAULT),
                        help="matches to run, comma-separated (default %(default)s)")
    parser.add_argument("--pairs", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=0, help="worker processes (0: per core)")
    parser.add_argument("--stop-after", type=float, default=None, metavar="MINUTES")
    parser.add_argument("--out", default=None, help="results folder (default "
                        "benchmarks/results; --smoke: a temporary folder)")
    parser.add_argument("--smoke", action="store_true", help="2 pairs of each match")
    args = parser.parse_args()
    table = matches(args.legacy_tree)
    names = [name.strip() for name in args.only.split(",") if name.strip()]
    unknown = [name for name in names if name not in table]
    if unknown:
        parser.error(f"unknown match {unknown[0]!r}: choose among {', '.join(table)}")
    out = Path(args.out) if args.out else (Path(tempfile.mkdtemp(prefix="engine-strength-"))
                                           if args.smoke else RESULTS)
    out.mkdir(parents=True, exist_ok=True)
    for name in names:
        arguments, sprt = table[name]
        run(name, arguments, sprt, args, out)
    print(f"results in {out}")


if __name__ == "__main__":
    main()
