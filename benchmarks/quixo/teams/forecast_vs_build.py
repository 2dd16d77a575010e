"""Issue 61: the four-player plan's forecast, made before the build, against the build's
journal, per number of blanks (goal: within 25%), with the build's pauses taken out.

    python benchmarks/quixo/teams/forecast_vs_build.py --dir DIR --size 4 \
        --forecast benchmarks/results/teams-4x4-plan-before-build.json \
        --pauses PAUSES.log --out benchmarks/results/teams-4x4-forecast-vs-build.json

--forecast is `quixo tablebase plan --players 4 --size 4 --json` saved before the build.
--pauses lists the times the build was stopped (kill -STOP) for other work, one a line:
`END-TIME-ISO ... paused N s` (a line without "paused N s" is skipped); each pause is
taken out of the wall time of the tier it overlaps (a tier's wall time is the journal's
`seconds` ending at its `finished`; a tier resumed from a checkpoint spans its runs, and is
listed). Times without a zone are UTC.
"""
import argparse
import json
import re
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

from quixo_solver.teams.tables import builder

PAUSE = re.compile(r"^(\S+)\s.*paused (\d+(?:\.\d+)?) s")


def pauses(path: Path | None) -> list[tuple[datetime, datetime]]:
    found = []
    for line in (path.read_text().splitlines() if path else []):
        match = PAUSE.match(line)
        if match:
            end = datetime.fromisoformat(match.group(1))
            if end.tzinfo is None:
                end = end.replace(tzinfo=timezone.utc)
            found.append((end - timedelta(seconds=float(match.group(2))), end))
    return found


def overlap(start: datetime, end: datetime, stopped: list[tuple[datetime, datetime]]) -> float:
    return sum(max(0.0, (min(end, b) - max(start, a)).total_seconds()) for a, b in stopped)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True)
    parser.add_argument("--size", type=int, default=4)
    parser.add_argument("--forecast", required=True)
    parser.add_argument("--pauses")
    parser.add_argument("--out")
    args = parser.parse_args()
    forecast = json.loads(Path(args.forecast).read_text())["seconds_by_blanks"]
    stopped = pauses(Path(args.pauses) if args.pauses else None)
    cells = args.size * args.size
    measured: dict[int, dict[str, float]] = {}
    resumed = []          # (a resumed tier's seconds span its runs: its pauses are not seen)
    for line in builder.read_journal(Path(args.dir)):
        if line["size"] != args.size:
            continue
        if line.get("resumed"):
            resumed.append([line["team"], line["other"]])
        end = datetime.fromisoformat(line["finished"].replace("Z", "+00:00"))
        paused = overlap(end - timedelta(seconds=line["seconds"]), end, stopped)
        row = measured.setdefault(cells - line["team"] - line["other"],
                                  {"seconds": 0.0, "paused": 0.0, "cpu_seconds": 0.0,
                                   "tiers": 0, "longest_plies": 0})
        row["seconds"] += line["seconds"] - paused
        row["paused"] += paused
        row["cpu_seconds"] += line["cpu_seconds"]
        row["tiers"] += 1
        row["longest_plies"] = max(row["longest_plies"], line["longest_plies"])
    rows = []
    for blanks, row in sorted(measured.items()):
        predicted = forecast.get(str(blanks))
        rows.append({"blanks": blanks, **{k: round(v, 1) for k, v in row.items()},
                     "forecast_seconds": predicted,
                     "ratio": round(row["seconds"] / predicted, 3) if predicted else None})
    total = sum(row["seconds"] for row in measured.values())
    record = {"command": " ".join(["python", *sys.argv]), "size": args.size,
              "wall_seconds_without_pauses": round(total, 1),
              "paused_seconds": round(sum(row["paused"] for row in measured.values()), 1),
              "cpu_seconds": round(sum(row["cpu_seconds"] for row in measured.values()), 1),
              "forecast_seconds": round(sum(forecast[str(b)] for b in measured), 1),
              "resumed_tiers": resumed, "by_blanks": rows}
    print(f"{'blanks':>6} {'tiers':>5} {'seconds':>9} {'forecast':>9} {'ratio':>6} "
          f"{'paused':>7} {'longest':>7}")
    for row in rows:
        ratio = "" if row["ratio"] is None else f"{row['ratio']:.2f}"
        print(f"{row['blanks']:>6} {row['tiers']:>5} {row['seconds']:>9.1f} "
              f"{row['forecast_seconds'] or 0:>9.1f} {ratio:>6} {row['paused']:>7.1f} "
              f"{row['longest_plies']:>7}")
    print(f"built: {total / 3600:.2f} h of wall time without pauses "
          f"({record['paused_seconds']:.0f} s of pauses), forecast for those blanks "
          f"{record['forecast_seconds'] / 3600:.2f} h; CPU {record['cpu_seconds'] / 3600:.2f} h")
    if args.out:
        Path(args.out).write_text(json.dumps(record, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
