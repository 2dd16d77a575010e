"""How well the plan's forecast predicts the pairs a real build solved (issue 38: within 25%).

    python benchmarks/quixo/tablebase/plan_from_journal.py --journal FOLDER/BUILD-JOURNAL.jsonl \
        [--throughput 7257500] [--fit-blanks 7] [--skip 12,5] \
        [--out benchmarks/results/plan-from-journal.json]

Reads a build's journal (tablebase/generator/journal.py: each pair's entries and CPU seconds) and compares
each pair's CPU seconds with the forecast's time of the pair on one core
(forecast.unit_seconds) at the calibration's throughput: measured with `quixo tablebase plan`'s
calibration on the same machine, on the cores the build used, with nothing else running
(default: the calibration on both cores of the development machine, with the build paused,
benchmarks/results/plan-5x5-2-cores.json). CPU seconds, not wall time: the journal's pairs ran
beside other work, which stretched their wall time but not their CPU time much.

It also fits the forecast's two constants (KNEE_LOG2, SLOWDOWN_PER_DOUBLING) again to the pairs
of --fit-blanks blanks only, so that the pairs of other blank counts show how the model does on
pairs it was not fitted to. Pairs resumed from a checkpoint made before the journal, and pairs
below --min-entries (their cost is dominated by start-up), are left out: --skip names the
first.
"""
import argparse
import functools
import json
import math
from pathlib import Path

import numpy as np

from quixo_solver.tablebase.generator import forecast
from quixo_solver.tablebase import pairs

PLAN = Path(__file__).resolve().parents[2] / "results" / "plan-5x5-2-cores.json"


def fitted_constants(rows: list[dict], throughput: float) -> tuple[float, float]:
    """(knee_log2, slowdown_per_doubling): a least-squares line of the CPU cost per entry
    against log2(entries), in units of the calibration's cost per entry."""
    entries = np.array([row["entries"] for row in rows], dtype=float)
    cost = np.array([row["cpu_seconds"] for row in rows]) / entries * throughput
    slope, intercept = np.polyfit(np.log2(entries), cost, 1)
    return (1.0 - intercept) / slope, slope


@functools.cache
def units_by_pair(size: int) -> dict[tuple[int, int], pairs.Unit]:
    return {(unit.mover_count, unit.opponent_count): unit for unit in pairs.units(size)}


def predicted_seconds(row: dict, throughput: float) -> float:
    """The forecast's CPU seconds of a journal row's pair on one core."""
    unit = units_by_pair(row["size"])[row["mover"], row["opponent"]]
    return forecast.unit_seconds(unit, throughput)


def level_totals(rows: list[dict], throughput: float) -> list[dict]:
    """Each blank count's CPU seconds, forecast and measured, over every pair of the journal
    (the small ones too: what the whole build's forecast adds up to)."""
    levels = []
    for blanks in sorted({row["blanks"] for row in rows}):
        level = [row for row in rows if row["blanks"] == blanks]
        predicted = sum(predicted_seconds(row, throughput) for row in level)
        measured = sum(row["cpu_seconds"] for row in level)
        levels.append({"blanks": blanks, "pairs": len(level),
                       "entries": sum(row["entries"] for row in level),
                       "predicted_cpu_seconds": round(predicted, 1),
                       "cpu_seconds": round(measured, 1),
                       "predicted_over_measured": round(predicted / measured, 3)
                       if measured else None})
    return levels


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--journal", type=Path, required=True)
    parser.add_argument("--throughput", type=float,
                        default=json.loads(PLAN.read_text())["throughput_entries_per_core_second"],
                        help="the calibration's entries per core-second (default: %(default)s, "
                             "that of the committed plan)")
    parser.add_argument("--fit-blanks", type=int, nargs="+", default=[7])
    parser.add_argument("--min-entries", type=int, default=5 * 10**7)
    parser.add_argument("--skip", nargs="*", default=[], metavar="A,B",
                        help="pairs to leave out (resumed from a checkpoint older than the "
                             "journal: their CPU seconds are those of the last run only)")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    rows = [json.loads(line) for line in args.journal.read_text().splitlines() if line.strip()]
    skipped = {tuple(int(n) for n in pair.split(",")) for pair in args.skip}
    rows = [row for row in rows if (row["mover"], row["opponent"]) not in skipped]
    for row in rows:
        row["blanks"] = row["size"] ** 2 - row["mover"] - row["opponent"]
    levels = level_totals(rows, args.throughput)
    rows = [row for row in rows if row["entries"] >= args.min_entries and row["cpu_seconds"] > 0]
    used = [row for row in rows if row["blanks"] in args.fit_blanks]
    knee, slope = fitted_constants(used, args.throughput)
    print(f"fitted to the {len(used)} pairs of {args.fit_blanks} blanks: knee 2**{knee:.2f} "
          f"entries, {slope:.3f} more per doubling (forecast.py: 2**{forecast.KNEE_LOG2}, "
          f"{forecast.SLOWDOWN_PER_DOUBLING})")
    print(f"{'pair':>9} {'blanks':>6} {'entries':>14} {'predicted':>10} {'CPU s':>9} {'ratio':>6}"
          f" {'flat rate':>9}")
    pairs = []
    for row in rows:
        predicted = predicted_seconds(row, args.throughput)
        flat = row["entries"] / args.throughput     # the forecast before the slowdown
        ratio = predicted / row["cpu_seconds"]
        pairs.append({"pair": [row["mover"], row["opponent"]], "blanks": row["blanks"],
                      "entries": row["entries"], "predicted_cpu_seconds": round(predicted, 1),
                      "cpu_seconds": row["cpu_seconds"], "predicted_over_measured": round(ratio, 3),
                      "flat_rate_over_measured": round(flat / row["cpu_seconds"], 3),
                      "fitted_on": row["blanks"] in args.fit_blanks})
        print(f"{(row['mover'], row['opponent'])!s:>9} {row['blanks']:>6} "
              f"{row['entries']:>14,} {predicted:>10.1f} {row['cpu_seconds']:>9.1f} "
              f"{ratio:>6.3f} {flat / row['cpu_seconds']:>9.3f}")
    unseen = [p for p in pairs if not p["fitted_on"] and p["entries"] >= 10**9]
    worst = max((abs(p["predicted_over_measured"] - 1) for p in unseen), default=math.nan)
    within = sum(abs(p["predicted_over_measured"] - 1) <= 0.25 for p in unseen)
    print(f"pairs of 1e9 entries or more not fitted on: {len(unseen)}, {within} within 25%, "
          f"worst error {worst:.1%}")
    print(f"{'blanks':>6} {'pairs':>5} {'entries':>16} {'predicted':>10} {'CPU s':>9} {'ratio':>6}")
    for level in levels:
        print(f"{level['blanks']:>6} {level['pairs']:>5} {level['entries']:>16,} "
              f"{level['predicted_cpu_seconds']:>10.1f} {level['cpu_seconds']:>9.1f} "
              f"{level['predicted_over_measured'] or math.nan:>6.3f}")
    predicted_total = sum(level["predicted_cpu_seconds"] for level in levels)
    measured_total = sum(level["cpu_seconds"] for level in levels)
    print(f"every pair of the journal: {predicted_total:,.0f} CPU s forecast, "
          f"{measured_total:,.0f} measured ({predicted_total / measured_total:.3f})")
    if args.out:
        args.out.write_text(json.dumps({
            "command": "python benchmarks/quixo/tablebase/plan_from_journal.py --journal "
                       f"FOLDER/BUILD-JOURNAL.jsonl --throughput {args.throughput:.0f} "
                       f"--fit-blanks {' '.join(map(str, args.fit_blanks))}"
                       + (f" --skip {' '.join(args.skip)}" if args.skip else ""),
            "throughput_entries_per_core_second": args.throughput,
            "refitted": {"knee_log2": round(knee, 3), "slowdown_per_doubling": round(slope, 4)},
            "forecast": {"knee_log2": forecast.KNEE_LOG2,
                         "slowdown_per_doubling": forecast.SLOWDOWN_PER_DOUBLING},
            "unseen_large_pairs_worst_error": round(worst, 4),
            "unseen_large_pairs_within_25_percent": within,
            "unseen_large_pairs": len(unseen),
            "levels": levels,
            "pairs": pairs}, indent=1) + "\n")


if __name__ == "__main__":
    main()
