"""The four-player plan's measured costs (teams/tables/tier-costs-SIZExSIZE.json) from a
build's journal: wall seconds per entry (a symmetry class: raw positions / 8) on the build's
threads, and file bytes per slot, for each number of blanks the journal holds.

    python benchmarks/quixo/teams/tier_costs.py --dir DIR --size 4 \
        --out src/quixo_solver/teams/tables/tier-costs-4x4.json --note "alone, 2 threads"
"""
import argparse
import json
import sys
from pathlib import Path

from quixo_solver.teams.tables import builder, plan, tiers


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True)
    parser.add_argument("--size", type=int, default=4)
    parser.add_argument("--out", required=True)
    parser.add_argument("--note", default="")
    args = parser.parse_args()
    cells = args.size * args.size
    by_blanks: dict[int, dict[str, float]] = {}
    threads = set()
    for line in builder.read_journal(Path(args.dir)):
        if line["size"] != args.size:
            continue
        tier = tiers.Tier(args.size, line["team"], line["other"])
        row = by_blanks.setdefault(cells - tier.cubes, {"seconds": 0.0, "entries": 0,
                                                        "slots": 0, "bytes": 0})
        row["seconds"] += line["seconds"]
        row["entries"] += plan.orbit_entries(tier)
        row["slots"] += tier.entries
        row["bytes"] += line["bytes"]
        threads.add(line["threads"])
    record = {
        "size": args.size, "threads": sorted(threads), "note": args.note,
        "command": " ".join(sys.argv),
        "seconds_per_entry": {str(b): row["seconds"] / row["entries"]
                              for b, row in sorted(by_blanks.items())},
        "bytes_per_slot": {str(b): row["bytes"] / row["slots"]
                           for b, row in sorted(by_blanks.items())}}
    Path(args.out).write_text(json.dumps(record, indent=1) + "\n")
    print(json.dumps(record, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
