"""How well `quixo tablebase plan` predicts the time of large pairs (issue 38: within 25%).

    python benchmarks/quixo/tablebase/plan_accuracy.py --dir FOLDER --pairs 15,5 13,6 12,7 \
        [--threads 2] [--out benchmarks/results/plan-accuracy.json]

Runs the plan's calibration build (forecast.calibrate: the 5x5 classes with at most 1 blank,
on --threads threads, as `quixo tablebase plan --cores N` calibrates), then solves each pair in
memory from FOLDER's tables of the classes it needs (nothing is written) on --threads threads,
and prints, per pair, the plan's forecast of its wall time on that many cores beside the
measured one, and the ratio. Run it with nothing else on the machine (the build paused): the
forecast is a rate per core, the measurement is wall time.
"""
import argparse
import json
import time
from pathlib import Path

from quixo_solver.tablebase.format import files
from quixo_solver.tablebase.generator import forecast, pair_solver
from quixo_solver.tablebase import pairs


def solve_pair(folder: Path, unit: pairs.Unit, threads: int) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of solving `unit` in memory from `folder`'s tables."""
    inputs = {cls: files.open_table(folder / files.table_name(unit.size, *cls),
                                    (unit.size, *cls)) for cls in unit.needs}
    wall, cpu = time.perf_counter(), time.process_time()
    pair_solver.solve_unit(unit, inputs, threads)
    return time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", type=Path, required=True)
    parser.add_argument("--pairs", nargs="+", required=True, help="pairs such as 15,5")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    calibration = forecast.calibrate(threads=args.threads)
    print(f"calibration: {calibration.entries:,} entries in {calibration.seconds:.1f} s on "
          f"{args.threads} threads ({calibration.throughput / 1e6:.2f} M entries per "
          "core-second)", flush=True)
    rows = []
    for text in args.pairs:
        unit = pairs.Unit(5, *map(int, text.split(",")))
        predicted = forecast.forecast([unit], calibration.throughput,
                                      cores=args.threads).seconds[unit]
        wall, cpu = solve_pair(args.dir, unit, args.threads)
        rows.append({"pair": [unit.mover_count, unit.opponent_count], "entries": unit.entries,
                     "predicted_seconds": round(predicted, 2), "seconds": round(wall, 2),
                     "cpu_seconds": round(cpu, 2), "measured_over_predicted":
                         round(wall / predicted, 3)})
        print(f"pair {unit.mover_count},{unit.opponent_count}: {unit.entries:>14,} entries, "
              f"predicted {predicted:8.1f} s, measured {wall:8.1f} s ({cpu:.1f} CPU s), "
              f"measured/predicted {wall / predicted:.2f}", flush=True)
    record = {"command": "python benchmarks/quixo/tablebase/plan_accuracy.py --dir FOLDER --pairs "
                         + " ".join(args.pairs) + f" --threads {args.threads}",
              "calibration": {"entries": calibration.entries,
                              "seconds": round(calibration.seconds, 2),
                              "entries_per_core_second": round(calibration.throughput)},
              "threads": args.threads, "pairs": rows}
    if args.out:
        args.out.write_text(json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    main()
