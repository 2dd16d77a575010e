"""Issue 38's record of a whole game, from a built folder: every step after the build, each
timed as its own process, and one JSON.

    python benchmarks/quixo/tablebase/whole_game.py --dir DIR \
        --decoded-rows DIR/../census-rows.jsonl \
        --expected benchmarks/results/5x5-up-to-5-blanks.json \
        benchmarks/results/5x5-6-blanks.json benchmarks/results/5x5-7-blanks.json \
        benchmarks/results/5x5-up-to-10-blanks.json

The steps:
1. verify: `quixo tablebase verify --sample N` on every class (N random entries of each class
   re-derived from their children, every entry of a class no larger than N);
2. manifest: `quixo tablebase manifest`, copied to --manifest-out;
3. census: tablebase_census.py (beside this script) --decode (with --decoded-rows, it resumes,
   and can have run beside the build: see that script);
4. figures: solution_figures.py (beside it too) into --figures, the docs page's figures.

The record (--out) is the census, with:
- steps: each step's wall seconds and peak resident memory;
- checks: the verifier's result; each --expected file's classes compared with these counts
  (win, draw and loss); each pair's peak memory in the build journal against --plan's
  memory for it (a `quixo tablebase plan --json` record);
- disk: the bytes of the table files, the build's peak (--disk-log) and the plan's bound;
  what was run, and on what machine.

It refuses a folder where a class of the game is missing, and exits with status 1 after
writing the record if a check failed (a mismatch, a difference, a pair over its plan).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tablebase_census import differences

from quixo_solver.tablebase.format import files
from quixo_solver.tablebase import pairs
from solverkit.arrayfile import write_atomically

HERE = Path(__file__).resolve().parent      # benchmarks/quixo/tablebase: the scripts it runs
BENCHMARKS = HERE.parents[1]                # benchmarks: results/


def timed_child(arguments: list[str], may_fail: bool = False) -> tuple[float, int, str]:
    """Wall seconds, peak resident bytes and standard output of a child process (os.wait4
    gives that one process's resource use); a failure ends the script, but status 1 when
    may_fail (the verifier's "mismatches")."""
    with tempfile.TemporaryFile("w+") as output:
        started = time.perf_counter()
        child = subprocess.Popen(arguments, stdout=output)
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - started
        code = os.waitstatus_to_exitcode(status)
        if code != 0 and not (may_fail and code == 1):
            sys.exit(f"{' '.join(arguments)} failed with status {code}")
        output.seek(0)
        return seconds, usage.ru_maxrss * 1024, output.read()


def quixo(*arguments: str) -> list[str]:
    return [sys.executable, "-m", "quixo_solver", *arguments]


def script(name: str, *arguments: str) -> list[str]:
    return [sys.executable, str(HERE / name), *arguments]


def game_classes(size: int) -> list[tuple[int, int]]:
    return [(a, b) for unit in pairs.units(size) for a, b in unit.classes]


def memory_against_plan(census: dict, plan_file: Path) -> dict:
    """Each built pair's peak memory (journal) against the plan's memory for that pair."""
    planned = {(unit["mover"], unit["opponent"]): unit["memory_bytes"]
               for unit in json.loads(plan_file.read_text())["units"]}
    pairs = [(line["peak_memory_bytes"], planned[(line["mover"], line["opponent"])], line)
             for line in census.get("build", {}).get("pairs", [])
             if line.get("peak_memory_bytes") and (line["mover"], line["opponent"]) in planned]
    if not pairs:
        return {"plan": str(plan_file), "pairs": 0}
    peak, planned_peak, line = max(pairs, key=lambda pair: pair[0])
    return {"plan": str(plan_file), "pairs": len(pairs),
            "over_plan": [[line["mover"], line["opponent"], used, allowed]
                          for used, allowed, line in pairs if used > allowed],
            "largest": {"mover": line["mover"], "opponent": line["opponent"],
                        "peak_memory_bytes": peak, "planned_bytes": planned_peak}}


def disk_peak(disk_log: Path) -> dict:
    """The largest sample of a build's disk log: lines of "TIME BYTES", the folder's bytes
    (tables and checkpoints) sampled while the build ran, e.g. every 20 s by
    `while ...; do echo "$(date -u +%FT%TZ) $(du -sb DIR | cut -f1)"; sleep 20; done`."""
    samples = []
    for number, line in enumerate(disk_log.read_text().splitlines(), 1):
        fields = line.split()
        if len(fields) != 2 or not fields[1].isdigit():
            sys.exit(f"{disk_log}:{number}: expected 'TIME BYTES', got {line!r}")
        samples.append((int(fields[1]), fields[0]))
    if not samples:
        sys.exit(f"{disk_log} holds no samples")
    peak, when = max(samples)
    return {"build_peak_bytes": peak, "build_peak_at": when, "samples": len(samples),
            "first_sample": samples[0][1], "last_sample": samples[-1][1]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", required=True, type=Path, help="the built folder")
    parser.add_argument("--size", default="5")
    parser.add_argument("--sample", default="1000000",
                        help="entries the verifier re-derives in each class")
    parser.add_argument("--jobs", default="2")
    parser.add_argument("--decoded-rows", type=Path, help="the census's resume file")
    parser.add_argument("--expected", type=Path, nargs="*", default=[],
                        help="earlier records whose class counts must equal these")
    parser.add_argument("--plan", type=Path,
                        default=BENCHMARKS / "results" / "plan-5x5-2-cores.json")
    parser.add_argument("--out", type=Path,
                        default=BENCHMARKS / "results" / "5x5-whole-game.json")
    parser.add_argument("--manifest-out", type=Path,
                        default=BENCHMARKS / "results" / "5x5-MANIFEST.json")
    parser.add_argument("--figures", type=Path,
                        default=BENCHMARKS.parent / "docs" / "solved")
    parser.add_argument("--disk-log", type=Path,
                        help="the build's samples of its folder's bytes (disk_peak)")
    args = parser.parse_args()
    folder, size = args.dir, int(args.size)
    disk = disk_peak(args.disk_log) if args.disk_log else {}
    classes = game_classes(size)
    missing = [(a, b) for a, b in classes if not (folder / files.table_name(size, a, b)).exists()]
    if missing:
        sys.exit(f"{folder} lacks {len(missing)} of the {len(classes)} classes of the "
                 f"{size}x{size} game, {missing[0]} the first: build them first")
    steps = {}

    def step(name: str, arguments: list[str], may_fail: bool = False) -> str:
        seconds, peak, output = timed_child(arguments, may_fail)
        steps[name] = {"command": " ".join(arguments[1:]), "seconds": round(seconds, 1),
                       "peak_memory_bytes": peak}
        return output

    verified = json.loads(step("verify", quixo(
        "tablebase", "verify", "--size", args.size, "--dir", str(folder), "--sample",
        args.sample, "--jobs", args.jobs, "--json"), may_fail=True))
    step("manifest", quixo("tablebase", "manifest", "--dir", str(folder), "--jobs", args.jobs))
    args.manifest_out.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(folder / "MANIFEST.json", args.manifest_out)
    scratch = tempfile.TemporaryDirectory()
    census_file = Path(scratch.name) / "census.json"
    resume = ["--decoded-rows", str(args.decoded_rows)] if args.decoded_rows else []
    step("census", script("tablebase_census.py", "--dir", str(folder), "--size", args.size,
                          "--decode", "--threads", args.jobs, *resume, "--out",
                          str(census_file)))
    step("figures", script("solution_figures.py", "--dir", str(folder), "--census",
                           str(census_file), "--out-dir", str(args.figures)))
    record = json.loads(census_file.read_text())
    scratch.cleanup()
    compared = []
    for earlier in args.expected:
        found = differences(record["classes"], earlier)
        listed = len(json.loads(earlier.read_text())["classes"])
        compared.append({"file": str(earlier), "classes": listed, "differences": found})
    memory = memory_against_plan(record, args.plan) if args.plan.exists() else None
    if args.plan.exists():
        disk["plan_bytes"] = json.loads(args.plan.read_text())["disk_bytes"]
    record = {
        "what": f"the whole {size}x{size} game from the folder's tables: the census "
                "(benchmarks/quixo/tablebase/tablebase_census.py --decode) and the checks and "
                "costs of each step after the build (benchmarks/quixo/tablebase/whole_game.py)",
        "command": " ".join(sys.argv),
        "machine": f"{os.cpu_count()} cores, "
                   f"{os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30:.1f} GiB",
        **record,
        "steps": steps,
        "checks": {"verify": verified, "earlier_records": compared,
                   "memory_against_plan": memory},
        "disk": {"table_bytes": sum((folder / files.table_name(size, a, b)).stat().st_size
                                    for a, b in classes), **disk},
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(args.out, [(json.dumps(record, indent=1) + "\n").encode()])
    failed = (verified["mismatches"] or any(c["differences"] for c in compared)
              or (memory is not None and memory.get("over_plan")))
    print(json.dumps({"out": str(args.out), "verify_mismatches": verified["mismatches"],
                      "steps": steps, "failed": bool(failed)}, indent=1))
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
