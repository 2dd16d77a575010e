"""The cost of an entry of each 5x5 pair, measured by a whole-game build, for the plan's
forecast (issue 59: the plan knows the length of the games).

    python benchmarks/quixo/tablebase/pair_costs.py \
        [--record benchmarks/results/5x5-whole-game.json] [--throughput 7257500] \
        [--skip 12,5 7,5] [--out src/quixo_solver/tablebase/generator/pair-costs-5x5.json]

An entry's cost follows the length of its class's games (every pass reads each chunk that
holds a game at least that long, and settles its positions), which a pair's size does not
tell: the pairs of 11 to 17 blanks with the longest games cost 3 to 12 times their
neighbours'. So the forecast takes each pair's cost from a build that solved it: its CPU
seconds per entry, in units of the calibration's cost per entry on the machine that built it
(`--throughput`, entries per core-second: `quixo tablebase plan`'s calibration there, with
the build paused). The result is the same on any machine whose calibration scales like it.

A pair resumed from a checkpoint older than the journal (`--skip`: its CPU seconds are those
of the last run only), and a pair too small to weigh (fewer than --min-entries: start-up is
most of its time), takes the costs of the pairs of the same cube difference at the nearest
blank counts on either side (their geometric mean); with none, the forecast's size slowdown.
"""
import argparse
import json
import math
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[2]
RECORD = BENCHMARKS / "results" / "5x5-whole-game.json"
PLAN = BENCHMARKS / "results" / "plan-5x5-2-cores.json"
OUT = BENCHMARKS.parent / "src" / "quixo_solver" / "tablebase" / "generator" / "pair-costs-5x5.json"


def measured_costs(pairs: list[dict], throughput: float, skipped: set[tuple[int, int]],
                   min_entries: int) -> dict[tuple[int, int], float]:
    """Each measured pair's CPU seconds per entry, in units of the calibration's."""
    return {(row["mover"], row["opponent"]): row["cpu_seconds"] / row["entries"] * throughput
            for row in pairs
            if (row["mover"], row["opponent"]) not in skipped and row["entries"] >= min_entries
            and row["cpu_seconds"] > 0}


def neighbours_cost(pair: tuple[int, int], size: int,
                    measured: dict[tuple[int, int], float]) -> float | None:
    """The geometric mean of the measured pairs of the same cube difference at the nearest
    blank counts below and above, or None."""
    difference, cubes = pair[0] - pair[1], pair[0] + pair[1]
    found = []
    for step in (-1, 1):
        for distance in range(1, size * size):
            other_cubes = cubes + step * 2 * distance      # (a + b) and (a - b) share parity
            other = ((other_cubes + difference) // 2, (other_cubes - difference) // 2)
            if other[1] < 0 or other_cubes > size * size:
                break
            if other in measured:
                found.append(measured[other])
                break
    return math.exp(sum(map(math.log, found)) / len(found)) if found else None


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--record", type=Path, default=RECORD)
    parser.add_argument("--throughput", type=float,
                        default=json.loads(PLAN.read_text())["throughput_entries_per_core_second"])
    parser.add_argument("--skip", nargs="*", default=["12,5", "7,5"], metavar="A,B")
    parser.add_argument("--min-entries", type=int, default=1 << 20)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    record = json.loads(args.record.read_text())
    size = record["size"]
    rows = record["build"]["pairs"]
    skipped = {tuple(int(n) for n in pair.split(",")) for pair in args.skip}
    measured = measured_costs(rows, args.throughput, skipped, args.min_entries)
    costs, interpolated = {}, []
    for row in rows:
        pair = (row["mover"], row["opponent"])
        cost = measured.get(pair)
        if cost is None and row["entries"] >= args.min_entries:
            cost = neighbours_cost(pair, size, measured)
            interpolated.append(pair)
        if cost is not None:
            costs[f"{pair[0]},{pair[1]}"] = round(cost, 3)
    args.out.write_text(json.dumps({
        "what": "each pair's CPU seconds per entry in units of the calibration's cost per "
                "entry (forecast.relative_cost), measured by a whole-game build",
        "command": "python benchmarks/quixo/tablebase/pair_costs.py --throughput "
                   f"{args.throughput:.0f} --skip {' '.join(args.skip)} "
                   f"--min-entries {args.min_entries}",
        "source": "benchmarks/results/5x5-whole-game.json",
        "size": size,
        "interpolated": [f"{a},{b}" for a, b in interpolated],
        "costs": costs}, indent=0) + "\n")
    print(f"{len(costs)} pairs ({len(interpolated)} interpolated: {interpolated}) -> {args.out}")


if __name__ == "__main__":
    main()
