"""Issue 40's trap rule, measured: a perfect player (this package's engine answering from the
5x5 tables) with traps on against the same player with traps off, each playing game pairs from
the same 5x5 endgame positions against the same opponent: today's engine without tables, and
the engine of commit 33b5858 (legacy_engine.py, beside this script, over a built copy of that
tree), both at NODES nodes per move, or --nodes (the same games whatever the machine's load:
no lock needed; another --nodes than NODES adds "-N-nodes" to the result files' names).

    python benchmarks/quixo/engines/trap_rule.py --dir TABLES [--blanks 5,6,7] [--pairs 200]
        [--only today,legacy] [--nodes N] [--legacy-tree SRC] [--jobs 2] [--out DIR]
        [--built-classes-only]

The positions: drawn by seeded random play (the first position of a game with the number of
blanks, cycling through --blanks; the tables must hold every class with those blanks), kept
unless it is a win in 1 ply (where no reply, perfect or not, matters); written to
DIR/PREFIX-positions.txt (PREFIX: traps-5x5-5-6-7-blanks for --blanks 5,6,7). With
--built-classes-only a level the tables hold in part may be drawn from: a position outside
the built classes is drawn again (PREFIX ends in -built-classes, and the results list the
classes left out). A game stays in the classes it starts from or fewer blanks (a push either
keeps both players' cube counts or turns a blank into a cube), so it never needs a class that
is not built; but the draw favours the built classes, which are the unbalanced ones. Each
position is a pair (`quixo match --openings FILE --opening-plies 0`): the perfect player plays
each side once. A game ends with a line, the third repetition of a position or 200 plies.

For each opponent, the score of the perfect player with traps and without, each with the
match's 95% interval (match_stats, pentanomial), and the difference of the two on the same
pairs: the mean of the per-pair differences with its 95% interval. The results go to
DIR/PREFIX.json (DIR: benchmarks/results), the games to DIR/PREFIX-<opponent>-<on|off>-
games.jsonl; running the script again resumes the matches (and --pairs may grow up to the
positions in the file, which is drawn once: the first run's --pairs).
"""
import argparse
import json
import math
import os
import random
import time
from pathlib import Path

from quixo_solver import Board
from quixo_solver.tournament.run import run_match
from quixo_solver.tournament.settings import EngineSetting, MatchSettings
from quixo_solver.tournament.summary import summary
from quixo_solver.tournament.match_stats import Z95
from quixo_solver.tablebase import Tablebase
from solverkit.arrayfile import write_atomically

import legacy_engine

BENCHMARKS = Path(__file__).resolve().parents[2]
RESULTS = BENCHMARKS / "results"
DEFAULT_TREE = os.environ.get("QUIXO_LEGACY_TREE", "/work/ref-main/src")
NODES = 50000
SEED = 40
PERFECT = "depth=1,hash=4,tables=on"


def opponents(tree, nodes=NODES):
    legacy = legacy_engine.command(tree)
    return {"today": f"nodes={nodes},tables=off",
            "legacy": f"cmd={legacy},nodes={nodes}"}


def blanks_of(board):
    return 25 - bin(board.x_cubes | board.o_cubes).count("1")


def missing_classes(tablebase, blanks):
    """The classes (mover cubes, opponent cubes) with one of `blanks` blanks not yet built:
    drawing from a level the tables hold only in part would favour its built classes."""
    return [(mover, 25 - b - mover) for b in blanks for mover in range(25 - b + 1)
            if not tablebase.has_table(5, mover, 25 - b - mover)]


def draw_positions(tablebase, blanks, count, seed=SEED, built_classes_only=False):
    """`count` positions of the tables that are not won in 1, by seeded random play."""
    missing = missing_classes(tablebase, blanks)
    if missing and not built_classes_only:
        raise SystemExit(f"the tables lack {len(missing)} classes with {blanks} blanks, such as "
                         f"{missing[0]}: build them first")
    generator = random.Random(seed)
    found, seen = [], set()
    while len(found) < count:
        target = blanks[len(found) % len(blanks)]
        board = Board()
        while not board.is_game_over() and blanks_of(board) > target:
            board.push(generator.choice(list(board.legal_moves)))
        position = board.copy(stack=False)
        if board.is_game_over() or str(position) in seen or tablebase.get(position) is None:
            continue
        value = tablebase.probe(position)
        if value.wdl == 1 and value.plies == 1:
            continue
        seen.add(str(position))
        found.append(str(position))
    return found


def pair_scores(records):
    games = {}
    for record in records:
        games.setdefault(record["pair"], []).append(record["score_a"])
    return {pair: sum(scores) / 2 for pair, scores in games.items() if len(scores) == 2}


def difference(with_traps, without):
    """The mean per-pair score difference (traps on - off) with its 95% interval."""
    first, second = pair_scores(with_traps), pair_scores(without)
    pairs = sorted(set(first) & set(second))
    if not pairs:
        return None
    d = [first[p] - second[p] for p in pairs]
    mean = sum(d) / len(d)
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / max(len(d) - 1, 1))
    half = Z95 * sd / math.sqrt(len(d))
    return {"pairs": len(d), "difference": round(mean, 6),
            "interval_95": [round(mean - half, 6), round(mean + half, 6)],
            "pairs_better": sum(x > 0 for x in d), "pairs_worse": sum(x < 0 for x in d)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", required=True, help="the 5x5 tables")
    parser.add_argument("--blanks", default="5,6,7")
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--only", default="today,legacy")
    parser.add_argument("--legacy-tree", default=DEFAULT_TREE)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--nodes", type=int, default=NODES,
                        help="the opponents' nodes per move (default %(default)s)")
    parser.add_argument("--out", default=str(RESULTS))
    parser.add_argument("--built-classes-only", action="store_true",
                        help="draw from the built classes of a level the tables hold in part")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    blanks = [int(b) for b in args.blanks.split(",")]
    prefix = f"traps-5x5-{args.blanks.replace(',', '-')}-blanks"
    if args.built_classes_only:
        prefix += "-built-classes"
    positions_file = out / f"{prefix}-positions.txt"
    if args.nodes != NODES:        # the same positions, other opponents
        prefix += f"-{args.nodes}-nodes"
    if positions_file.exists():
        positions = [line.strip() for line in positions_file.read_text().splitlines()
                     if line.strip() and not line.startswith("#")]
    else:
        with Tablebase(args.dir) as tablebase:
            positions = draw_positions(tablebase, blanks, args.pairs,
                                       built_classes_only=args.built_classes_only)
        header = (f"# {len(positions)} 5x5 positions with {args.blanks} blanks in the tables, "
                  f"not won in 1, from seeded random play (python "
                  f"benchmarks/quixo/engines/trap_rule.py, seed {SEED})")
        write_atomically(positions_file, [("\n".join([header, *positions]) + "\n").encode()])
    table = opponents(args.legacy_tree, args.nodes)
    results_file = out / f"{prefix}.json"
    results = json.loads(results_file.read_text()) if results_file.exists() else {}
    if args.built_classes_only:
        with Tablebase(args.dir) as tablebase:
            results["classes_left_out"] = missing_classes(tablebase, blanks)
    for name in [n.strip() for n in args.only.split(",")]:
        runs = {}
        for traps in ("on", "off"):
            settings = MatchSettings(EngineSetting.parse(f"{PERFECT},traps={traps}"),
                                     EngineSetting.parse(table[name]), size=5,
                                     opening_plies=0, openings=tuple(positions))
            records = out / f"{prefix}-{name}-{traps}-games.jsonl"
            started = time.perf_counter()
            pairs = min(args.pairs, len(positions))   # the first of the file's positions
            run = run_match(settings, pairs, records, jobs=args.jobs, tables=args.dir)
            runs[traps] = run
            payload = summary(run, settings, pairs, args.jobs,
                              os.path.relpath(records, BENCHMARKS.parent))
            print(f"{name}, traps {traps}: score {payload['score']} "
                  f"{payload['score_interval_95']} (+{payload['wins']} ={payload['draws']} "
                  f"-{payload['losses']}) in {time.perf_counter() - started:.0f} s", flush=True)
            results.setdefault(name, {})[f"traps_{traps}"] = {
                key: payload[key] for key in ("engines", "pairs", "games", "wins", "draws",
                                              "losses", "score", "score_interval_95",
                                              "reasons", "mean_plies", "records")}
        results[name]["difference_on_minus_off"] = difference(runs["on"].records,
                                                              runs["off"].records)
        results[name]["positions"] = os.path.relpath(positions_file, BENCHMARKS.parent)
        print(f"{name}: traps on - off = {results[name]['difference_on_minus_off']}",
              flush=True)
        text = legacy_engine.portable(json.dumps(results, indent=1) + "\n", args.legacy_tree)
        write_atomically(results_file, [text.encode()])


if __name__ == "__main__":
    main()
