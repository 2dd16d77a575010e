"""The `quixo tablebase` actions: build, plan, compress, stats, verify, manifest, download,
sample and probe (each a builder `add_tablebase_X` of its parser and its handler
`command_tablebase_X`)."""
from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from solverkit.commandline import CommandFailed, UsageError

from . import answers, arguments
from .command_context import emit, open_tablebase, tablebase_folder
from .. import tablebase as tb
from ..errors import QuixoError
from ..limits import check_threads
from ..tablebase.generator.checkpoint import DEFAULT_SECONDS as DEFAULT_CHECKPOINT
from ..tablebase.format.files import VERSION as TABLE_FORMAT
from ..variants import PLAYER_COUNTS, parse_board

PLAN_DESCRIPTION = """Every class pair of the build with its positions, entries, memory, disk
and time; the critical path; the wall time on --workers workers of --cores cores, from a
throughput measured in a short calibration build (5x5 <= 1 blank, on --cores threads, at most
this machine's cores) unless --throughput gives it."""

MANIFEST_DESCRIPTION = """Write DIR/MANIFEST.json (atomically; --json prints it too):
every table file of the folder, of every board size, sorted by name, with its bytes, SHA-256,
format and win/draw/loss counts over raw positions (from its checked header). A mirror serves
it beside the files; quixo tablebase download checks every file against it."""

DOWNLOAD_DESCRIPTION = """Fetch the tables a mirror's manifest lists (BASE/MANIFEST.json; all
of them, or those of --size with at most --max-blanks blanks) into --dir, --jobs files at once.
A file takes its name only once its length, SHA-256 and counts are the manifest's and its own
header and block checksums hold; until then it is NAME.download beside it. Interrupted
transfers resume (Range requests); transient faults are retried with backoff (or after the
server's Retry-After); files already there and matching are kept. A manifest or a file that
does not check out is refused, and the files already checked are kept."""

SAMPLE_DESCRIPTION = """Write COUNT positions drawn uniformly at random, with replacement,
from every position (board and player to move) with a number of blanks in LIST, each with its
value and plies from the tables of --dir, to a numpy .npz file: position, mover, opponent,
turn, blanks, value (+1, 0, -1 for the player to move), plies (-1 for a draw). A class is drawn
with chance proportional to its raw positions, then an arrangement of its cubes uniformly,
then X or O to move; the same seed gives the same sample."""


def add_tablebase(commands: arguments.Commands) -> None:
    """`quixo tablebase ACTION`: each action adds its own parser."""
    parser = commands.add_parser("tablebase", help="build, inspect and check tablebases")
    actions = parser.add_subparsers(dest="tablebase_command", metavar="ACTION", required=True)
    add_tablebase_build(actions)
    add_tablebase_plan(actions)
    add_tablebase_compress(actions)
    add_tablebase_stats(actions)
    add_tablebase_verify(actions)
    add_tablebase_manifest(actions)
    add_tablebase_download(actions)
    add_tablebase_sample(actions)
    add_tablebase_probe(actions)


def add_tablebase_build(actions: arguments.Commands) -> None:
    """`quixo tablebase build`: solve every class with few blanks."""
    parser = actions.add_parser("build", help="solve every class with few blanks")
    parser.add_argument("--size", type=arguments.board_size, default=5)
    parser.add_argument("--players", type=int, choices=PLAYER_COUNTS, default=2,
                        help="4: the team game's tables, tier by tier (in this process)")
    parser.add_argument("--max-blanks", type=arguments.blanks, default=None,
                        help="only classes with at most this many blank cubes (default: all)")
    parser.add_argument("--force", action="store_true",
                        help="build even if the memory or disk check says no")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--workers", type=arguments.workers, default=None,
                       help="build on a local Dask cluster of this many worker processes "
                       '(needs pip install "quixo-solver[cluster]")')
    where.add_argument("--scheduler", metavar="ADDRESS", default=None,
                       help="build on the running Dask cluster of this scheduler, whose "
                       "workers share the folder")
    parser.add_argument("--memory-per-worker", type=arguments.gib, default=None, metavar="GiB",
                        help="with --workers: memory each worker gives to units (default: the "
                        "available memory, shared)")
    parser.add_argument("--stop-after", type=arguments.duration, default=None, metavar="DURATION",
                        help="end cleanly after this long (2h30m, 90m, 45s, or minutes), the pair "
                        "being solved saved: the same command resumes (under a job's wall-time "
                        "limit, leave a few minutes for the last save)")
    parser.add_argument("--checkpoint-every", type=arguments.duration, default=DEFAULT_CHECKPOINT,
                        metavar="DURATION",
                        help="a long pair saves its state this often, so that a build killed at "
                        f"any moment loses at most about that much work (default "
                        f"{DEFAULT_CHECKPOINT / 60:g}m)")
    arguments.add_common(parser, directory=True, jobs=True)
    parser.set_defaults(handler=command_tablebase_build)


def command_tablebase_build(args: argparse.Namespace) -> None:
    if args.players == 4:
        _build_team_tables(args)
        return
    client = _cluster_client(args)
    try:
        report = tb.build(tablebase_folder(args), args.size, args.max_blanks, jobs=args.jobs,
                          force=args.force, client=client, stop_after=args.stop_after,
                          checkpoint_seconds=args.checkpoint_every)
    finally:
        if client is not None:
            client.close()
    payload = {"size": args.size, "directory": str(report.directory),
               "solved": len(report.solved), "already_built": len(report.skipped),
               "positions": sum(unit.positions for unit in report.solved),
               "entries": sum(unit.entries for unit in report.solved),
               "seconds": round(report.seconds, 3), "complete": report.complete,
               "left": len(report.left), "entries_left": sum(u.entries for u in report.left),
               "resumed": [{"mover": u.mover_count, "opponent": u.opponent_count,
                            "plies": place.plies} for u, place in report.resumed.items()]}
    lines = [f"solved {payload['solved']} class pairs ({payload['positions']} positions) in "
             f"{report.seconds:.1f} s; {payload['already_built']} were already built, in "
             f"{report.directory}"]
    lines += [f"{unit} resumed from its saved state" for unit in report.resumed]
    if report.left:
        lines.append(f"stopped after the time budget: {len(report.left)} class pairs "
                     f"({payload['entries_left']:,} entries) are left, from {report.left[0]}; "
                     "their saved state is kept: run the same command again to resume")
    emit(args, payload, lines)


def _build_team_tables(args: argparse.Namespace) -> None:
    from ..teams.tables import builder

    if args.workers is not None or args.scheduler is not None:
        raise UsageError("four-player tables are built in one process (--jobs threads); "
                         "--workers and --scheduler build two-player tables")
    progress = None
    if sys.stderr.isatty() and not args.json:
        def progress(tier: Any, plies: int, longest: int) -> None:
            print(f"\r{tier}: pass {plies}, longest {longest} plies ", end="", file=sys.stderr,
                  flush=True)
    report = builder.build(tablebase_folder(args), args.size, args.max_blanks,
                           threads=check_threads(args.jobs), stop_after=args.stop_after,
                           progress=progress, checkpoint_seconds=args.checkpoint_every)
    if progress is not None:
        print(file=sys.stderr)
    payload = {"size": args.size, "players": 4, "directory": str(report.directory),
               "solved": len(report.solved), "already_built": len(report.skipped),
               "entries": sum(tier.entries for tier in report.solved),
               "seconds": round(report.seconds, 3), "complete": report.complete,
               "left": len(report.left), "entries_left": sum(t.entries for t in report.left)}
    lines = [f"solved {payload['solved']} four-player tiers ({payload['entries']:,} entries) "
             f"in {report.seconds:.1f} s; {payload['already_built']} were already built, in "
             f"{report.directory}"]
    if report.left:
        lines.append(f"stopped after the time budget: {len(report.left)} tiers "
                     f"({payload['entries_left']:,} entries) are left, from {report.left[0]}, "
                     "whose state is saved: run the same command again to go on")
    emit(args, payload, lines)


def _cluster_client(args: argparse.Namespace) -> Any:
    """The Dask client of --workers (a local cluster) or --scheduler, or None."""
    from ..tablebase.generator import cluster

    if args.workers is None and args.scheduler is None:
        return None
    memory = None if args.memory_per_worker is None else int(args.memory_per_worker * 2**30)
    client = (cluster.local_client(args.workers, memory) if args.workers is not None
              else cluster.remote_client(args.scheduler))
    link = cluster.dashboard_link(client)
    if link and not args.json:
        print(f"Dask dashboard: {link}", file=sys.stderr)
    return client


def add_tablebase_plan(actions: arguments.Commands) -> None:
    """`quixo tablebase plan`: what a build takes."""
    parser = actions.add_parser(
        "plan", help="what a build takes: units, memory, disk, time on W workers",
        description=PLAN_DESCRIPTION)
    parser.add_argument("--size", type=arguments.board_size, default=5)
    parser.add_argument("--players", type=int, choices=PLAYER_COUNTS, default=2,
                        help="4: the team game's tiers, from the costs measured on a build")
    parser.add_argument("--max-blanks", type=arguments.blanks, default=None)
    parser.add_argument("--workers", type=arguments.workers, default=1)
    parser.add_argument("--cores", type=arguments.workers, default=1, help="cores of each worker")
    parser.add_argument("--memory-per-worker", type=arguments.gib, default=None, metavar="GiB")
    parser.add_argument("--throughput", type=arguments.entry_rate, default=None,
                        help="entries solved per second per core (skips the calibration)")
    arguments.add_common(parser)
    parser.set_defaults(handler=command_tablebase_plan)


def command_tablebase_plan(args: argparse.Namespace) -> None:
    from ..tablebase.generator import forecast

    if args.players == 4:
        _team_plan(args)
        return
    units = tb.units(args.size, args.max_blanks)
    calibration = None
    throughput = args.throughput
    if throughput is None:
        # On the threads a unit will run on (as many as this machine has): two threads share
        # the memory bandwidth, and each solves about a tenth fewer entries a second than one
        # thread alone does (5.7 against 6.3 M on the 2-core development machine).
        calibration = forecast.calibrate(threads=min(args.cores, check_threads(0)))
        throughput = calibration.throughput
    memory = None if args.memory_per_worker is None else int(args.memory_per_worker * 2**30)
    try:
        found = forecast.forecast(units, throughput, workers=args.workers, cores=args.cores,
                                  memory_per_worker=memory)
    except ValueError as error:
        raise QuixoError(str(error)) from None
    payload: dict[str, Any] = {
        "size": args.size, "max_blanks": args.max_blanks, "workers": args.workers,
        "cores_per_worker": args.cores, "memory_per_worker_bytes": found.memory_per_worker,
        "throughput_entries_per_core_second": round(throughput, 1),
        "calibration": None if calibration is None else {
            "size": calibration.size, "max_blanks": calibration.max_blanks,
            "entries": calibration.entries, "seconds": round(calibration.seconds, 3),
            "threads": calibration.threads},
        "positions": sum(u.positions for u in units), "entries": sum(u.entries for u in units),
        "disk_bytes": found.disk_bytes, "largest_memory_bytes": found.largest_memory,
        "critical_path": {"units": [[u.mover_count, u.opponent_count]
                                    for u in found.critical_path],
                          "seconds": round(found.critical_seconds, 1)},
        "estimated_seconds": round(found.wall_seconds, 1),
        "units": [{"mover": u.mover_count, "opponent": u.opponent_count,
                   "positions": u.positions, "entries": u.entries,
                   "memory_bytes": u.memory_bytes, "disk_bytes": _unit_disk(u),
                   "seconds": round(found.seconds[u], 3)} for u in units]}
    gib = 2**30
    lines = [f"{'pair':>9} {'positions':>16} {'entries':>15} {'memory GiB':>11} "
             f"{'disk GiB':>9} {'seconds':>9}"]
    lines += [f"{u.mover_count:>4},{u.opponent_count:>3} {u.positions:>16,} {u.entries:>15,} "
              f"{u.memory_bytes / gib:>11.2f} {_unit_disk(u) / gib:>9.2f} "
              f"{found.seconds[u]:>9.1f}" for u in units]
    source = (f"measured: {calibration.entries:,} entries in {calibration.seconds:.1f} s on "
              f"{calibration.threads} core{'s' if calibration.threads > 1 else ''}, "
              "5x5 <= 1 blank" if calibration else "given")
    lines += [f"{len(units)} pairs, {payload['positions']:,} positions, "
              f"{payload['entries']:,} entries; disk at most about "
              f"{found.disk_bytes / gib:.1f} GiB "
              "(the files, and two checkpoints of the largest pair); "
              f"largest pair {found.largest_memory / gib:.1f} GiB of memory",
              f"throughput {throughput:,.0f} entries per core-second ({source})",
              f"critical path: {len(found.critical_path)} pairs, "
              f"{found.critical_seconds / 3600:.2f} h",
              f"estimated wall time on {_count(args.workers, 'worker')} x "
              f"{_count(args.cores, 'core')} "
              f"({found.memory_per_worker / gib:.1f} GiB each): "
              f"{found.wall_seconds / 3600:.2f} h"]
    emit(args, payload, lines)


def _team_plan(args: argparse.Namespace) -> None:
    from ..teams.tables import plan as team_plan

    rows = team_plan.plan(args.size, args.max_blanks)
    costs = team_plan.measured_costs(args.size)
    gib = 2**30
    by_blanks: dict[int, float] = {}
    for row in rows:
        by_blanks[row.blanks] = by_blanks.get(row.blanks, 0.0) + row.seconds
    payload = {
        "size": args.size, "players": 4, "max_blanks": args.max_blanks,
        "costs": {"threads": costs["threads"], "note": costs["note"],
                  "measured_blanks": sorted(int(b) for b in costs["seconds_per_entry"])},
        "positions": sum(r.positions for r in rows), "entries": sum(r.entries for r in rows),
        "slots": sum(r.slots for r in rows), "disk_bytes": sum(r.disk_bytes for r in rows),
        "largest_memory_bytes": max(r.memory_bytes for r in rows),
        "estimated_seconds": round(sum(r.seconds for r in rows), 1),
        "seconds_by_blanks": {str(b): round(s, 1) for b, s in sorted(by_blanks.items())},
        "tiers": [{"team": r.tier.team_count, "other": r.tier.other_count,
                   "blanks": r.blanks, "positions": r.positions, "entries": r.entries,
                   "slots": r.slots, "memory_bytes": r.memory_bytes,
                   "disk_bytes": r.disk_bytes, "seconds": round(r.seconds, 1)}
                  for r in rows]}
    lines = [f"{'tier':>7} {'blanks':>6} {'positions':>16} {'entries':>14} {'memory GiB':>11} "
             f"{'seconds':>9}"]
    lines += [f"{r.tier.team_count:>3},{r.tier.other_count:>3} {r.blanks:>6} {r.positions:>16,} "
              f"{r.entries:>14,} {r.memory_bytes / gib:>11.2f} {r.seconds:>9.1f}" for r in rows]
    lines += [f"{len(rows)} tiers, {payload['positions']:,} positions, about "
              f"{payload['entries']:,} entries ({payload['slots']:,} slots); largest tier "
              f"{payload['largest_memory_bytes'] / gib:.1f} GiB of memory; files about "
              f"{payload['disk_bytes'] / gib:.2f} GiB",
              f"estimated wall time on {', '.join(map(str, costs['threads']))} threads: "
              f"{payload['estimated_seconds'] / 3600:.2f} h (costs measured at "
              f"{', '.join(map(str, payload['costs']['measured_blanks']))} blanks; "
              f"{costs['note']})"]
    emit(args, payload, lines)


def _unit_disk(unit: tb.Unit) -> int:
    return unit.disk_bytes


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


def add_tablebase_compress(actions: arguments.Commands) -> None:
    """`quixo tablebase compress`: the older format converted."""
    parser = actions.add_parser(
        "compress", help="convert a folder of tables of the older format (one byte per "
        "entry) to the compressed one",
        description="Each file is converted on its own and replaced atomically; an "
        "interrupted conversion resumes where it stopped when run again.")
    arguments.add_common(parser, directory=True, jobs=True)
    parser.set_defaults(handler=command_tablebase_compress)


def command_tablebase_compress(args: argparse.Namespace) -> None:
    report = tb.compress_folder(tablebase_folder(args), jobs=args.jobs)
    payload = {"directory": str(report.directory), "converted": len(report.converted),
               "already_compressed": len(report.already), "entries": report.entries,
               "bytes_before": report.bytes_before, "bytes_after": report.bytes_after,
               "seconds": round(report.seconds, 3)}
    ratio = (f" ({report.bytes_after / report.entries:.3f} bytes per entry)"
             if report.entries else "")
    emit(args, payload, [f"converted {len(report.converted)} tables from "
                         f"{report.bytes_before} to {report.bytes_after} bytes{ratio} in "
                         f"{report.seconds:.1f} s; {len(report.already)} were compressed "
                         f"already, in {report.directory}"])


def add_tablebase_stats(actions: arguments.Commands) -> None:
    """`quixo tablebase stats`: win/draw/loss counts per class."""
    parser = actions.add_parser("stats", help="win/draw/loss counts per built class")
    parser.add_argument("--size", type=arguments.board_size, default=5)
    parser.add_argument("--players", type=int, choices=PLAYER_COUNTS, default=2,
                        help="4: the team game's classes (counts of each player's cubes)")
    arguments.add_common(parser, directory=True)
    parser.set_defaults(handler=command_tablebase_stats)


def command_tablebase_stats(args: argparse.Namespace) -> None:
    if args.players == 4:
        _team_stats(args)
        return
    built = tb.stats.built_classes(tablebase_folder(args), args.size)
    classes = [row for row, _ in built]
    written_by = tb.stats.writers(built)
    lines = [f"{'mover':>5} {'opp':>4} {'win':>12} {'draw':>12} {'loss':>12}"]
    lines += [f"{c['mover']:>5} {c['opponent']:>4} {c['win']:>12} {c['draw']:>12} {c['loss']:>12}"
              for c in classes]
    total = {key: sum(c[key] for c in classes) for key in ("win", "draw", "loss")}
    lines.append(f"{'all':>10} {total['win']:>12} {total['draw']:>12} {total['loss']:>12}")
    lines.append(f"format {TABLE_FORMAT}, written by version {', '.join(written_by)}")
    emit(args, {"size": args.size, "classes": classes, "format": TABLE_FORMAT,
                "written_by": written_by}, lines)


def _team_stats(args: argparse.Namespace) -> None:
    from ..teams.notation import PLAYERS
    from ..teams.tables import stats as team_stats

    classes = team_stats.class_counts(tablebase_folder(args), args.size)
    lines = [" ".join(f"{seat:>3}" for seat in PLAYERS) + f" {'mover':>5} {'win':>12} "
             f"{'draw':>12} {'loss':>12}"]
    lines += [" ".join(f"{c['counts'][seat]:>3}" for seat in PLAYERS)
              + f" {c['mover']:>5} {c['win']:>12} {c['draw']:>12} {c['loss']:>12}"
              for c in classes]
    emit(args, {"size": args.size, "players": 4, "classes": classes}, lines)


def add_tablebase_verify(actions: arguments.Commands) -> None:
    """`quixo tablebase verify`: every built position re-derived."""
    parser = actions.add_parser("verify", help="re-derive every built position")
    parser.add_argument("--size", type=arguments.board_size, default=5)
    parser.add_argument("--players", type=int, choices=PLAYER_COUNTS, default=2,
                        help="4: the team game's tiers (--min-blanks is not used)")
    parser.add_argument("--min-blanks", type=arguments.blanks, default=0,
                        help="verify only the classes with at least this many blanks (default 0)")
    parser.add_argument("--max-blanks", type=arguments.blanks, default=None,
                        help="... and at most this many (default: every built class)")
    parser.add_argument("--sample", type=arguments.entries_to_verify, default=None, metavar="N",
                        help="re-derive N random entries of each class (runs of 512 entries, every "
                        "entry of a smaller class) instead of every entry")
    parser.add_argument("--seed", type=arguments.seed, default=0,
                        help="seed of the sample (default 0)")
    arguments.add_common(parser, directory=True, jobs=True)
    parser.set_defaults(handler=command_tablebase_verify)


def command_tablebase_verify(args: argparse.Namespace) -> None:
    if args.players == 4:
        _verify_team_tables(args)
        return
    report = tb.verify(tablebase_folder(args), args.size, jobs=args.jobs,
                       min_blanks=args.min_blanks, max_blanks=args.max_blanks,
                       sample=args.sample, seed=args.seed)
    failures = [c for c in report.classes if c.mismatches]
    # a sampled check says so, with the entries it re-derived: never "verified N positions"
    checked = sum(c.sampled or 0 for c in report.classes)
    payload = {"size": args.size, "classes": len(report.classes),
               "positions": sum(c.positions for c in report.classes),
               "mismatches": report.mismatches,
               "check": "whole" if args.sample is None else "sampled",
               "sample": args.sample, "seed": args.seed if args.sample is not None else None,
               "entries_checked": checked if args.sample is not None else None,
               "failures": [{"mover": c.mover_count, "opponent": c.opponent_count,
                             "mismatches": c.mismatches, "first_indices": c.examples,
                             "damaged": c.damaged} for c in failures]}
    lines = [f"class ({c.mover_count}, {c.opponent_count}): "
             + (c.damaged or f"{c.mismatches} mismatches, first at {c.examples}")
             for c in failures]
    summary = (f"verified {payload['classes']} classes, {payload['positions']} positions"
               if args.sample is None else
               f"sampled {args.sample} entries a class (every entry of a smaller one, seed "
               f"{args.seed}): {checked} entries of {payload['classes']} classes re-derived")
    emit(args, payload, lines + [f"{summary}: {report.mismatches} mismatches"])
    if not report.ok:
        raise CommandFailed("the tables disagree with their children")


def _verify_team_tables(args: argparse.Namespace) -> None:
    from ..teams.tables import verify as team_verify

    report = team_verify.verify(tablebase_folder(args), args.size, max_blanks=args.max_blanks,
                                sample=args.sample, seed=args.seed, threads=args.jobs)
    failures = [side for side in report.sides if side.mismatches]
    checked = sum(side.checked for side in report.sides)
    payload = {"size": args.size, "players": 4, "sides": len(report.sides),
               "entries_checked": checked, "mismatches": report.mismatches,
               "check": "whole" if args.sample is None else "sampled",
               "sample": args.sample, "seed": args.seed if args.sample is not None else None,
               "failures": [{"team": side.team_count, "other": side.other_count,
                             "mismatches": side.mismatches, "first_indices": side.examples}
                            for side in failures]}
    lines = [f"side ({side.team_count}, {side.other_count}): {side.mismatches} mismatches, "
             f"first at {side.examples}" for side in failures]
    what = ("every entry" if args.sample is None else
            f"at least {args.sample} random entries a side (seed {args.seed})")
    lines.append(f"re-derived {what} of {len(report.sides)} four-player sides: {checked} "
                 f"entries, {report.mismatches} mismatches")
    emit(args, payload, lines)
    if not report.ok:
        raise CommandFailed("the tables disagree with their children")


def add_tablebase_manifest(actions: arguments.Commands) -> None:
    """`quixo tablebase manifest`: the folder's MANIFEST.json."""
    parser = actions.add_parser(
        "manifest", help="write the folder's MANIFEST.json: every table file with its bytes, "
        "SHA-256, format and class counts", description=MANIFEST_DESCRIPTION)
    arguments.add_common(parser, directory=True, jobs=True)
    parser.set_defaults(handler=command_tablebase_manifest)


def command_tablebase_manifest(args: argparse.Namespace) -> None:
    from solverkit.progress import ByteProgress

    from ..tablebase.web import manifest

    directory = tablebase_folder(args)
    started = time.perf_counter()
    total = sum(path.stat().st_size for path, _ in manifest.table_files(directory))
    bar = ByteProgress(total)
    try:
        found = manifest.folder_manifest(directory, jobs=args.jobs, hashed=bar)
    finally:
        bar.close()
    path = manifest.write_manifest(directory, found)
    seconds = time.perf_counter() - started
    if args.json:
        print(json.dumps(found.to_json()))
        return
    print(f"{len(found.files)} table files, {total:,} bytes, hashed in {seconds:.1f} s "
          f"({total / 1e6 / max(seconds, 1e-9):,.0f} MB/s); the manifest is {path}")


def add_tablebase_download(actions: arguments.Commands) -> None:
    """`quixo tablebase download`: tables fetched from a mirror."""
    parser = actions.add_parser(
        "download", help="fetch tables from a mirror, each checked against its manifest",
        description=DOWNLOAD_DESCRIPTION)
    parser.add_argument("base", metavar="BASE",
                        help="the mirror's URL, which serves BASE/MANIFEST.json and the files "
                        "(another quixo serve: http://HOST:PORT/tables)")
    parser.add_argument("--size", type=arguments.board_size, default=None,
                        help="only the tables of this board size (default: every size listed)")
    parser.add_argument("--max-blanks", type=arguments.blanks, default=None,
                        help="only classes with at most this many blank cubes (default: all)")
    parser.add_argument("--jobs", type=arguments.downloads, default=4,
                        help="files fetched at once (default 4)")
    parser.add_argument("--timeout", type=arguments.seconds, default=30.0,
                        help="seconds a silent connection is waited for before it is retried "
                        "(default 30)")
    arguments.add_common(parser, directory=True)
    parser.set_defaults(handler=command_tablebase_download)


def command_tablebase_download(args: argparse.Namespace) -> None:
    from ..tablebase.web import download

    settings = download.DownloadSettings(jobs=args.jobs, timeout=args.timeout)
    report = download.download(args.base, tablebase_folder(args), args.size, args.max_blanks,
                               settings)
    payload = {"base": report.base, "files": report.files, "bytes": report.bytes,
               "fetched": len(report.fetched), "kept": len(report.kept)}
    emit(args, payload, [f"fetched {len(report.fetched)} files and kept "
                         f"{len(report.kept)} already there: {report.files} files, "
                         f"{report.bytes / 1e6:,.1f} MB in {report.directory}, checked "
                         f"against {report.base} ({report.seconds:.1f} s)"])


def add_tablebase_sample(actions: arguments.Commands) -> None:
    """`quixo tablebase sample`: positions with their values (.npz)."""
    parser = actions.add_parser(
        "sample", help="random positions with their exact values, for learning (.npz)",
        description=SAMPLE_DESCRIPTION)
    parser.add_argument("--count", type=arguments.sample_count, required=True,
                        help="positions to draw")
    parser.add_argument("--blanks", type=arguments.blank_list, required=True, metavar="LIST",
                        help="the blank counts to draw from, such as 0,1,2 or 3-6")
    parser.add_argument("--seed", type=arguments.seed, required=True)
    parser.add_argument("--out", required=True, metavar="FILE", help="the .npz file to write")
    parser.add_argument("--size", type=arguments.board_size, default=5)
    arguments.add_common(parser, directory=True)
    parser.set_defaults(handler=command_tablebase_sample)


def command_tablebase_sample(args: argparse.Namespace) -> None:
    from ..tablebase import sample

    with tb.Tablebase(tablebase_folder(args)) as tablebase:
        drawn = sample.draw(tablebase, args.size, args.count, args.blanks, args.seed)
    path = sample.write_sample(args.out, drawn)
    counts = {name: int((drawn.value == wdl).sum())
              for name, wdl in (("win", 1), ("draw", 0), ("loss", -1))}
    payload = {"out": str(path), "size": args.size, "count": args.count,
               "blank_counts": list(drawn.blank_counts), "seed": args.seed, **counts}
    emit(args, payload, [f"{args.count:,} positions of {', '.join(map(str, drawn.blank_counts))}"
                         f" blanks ({counts['win']:,} won, {counts['draw']:,} drawn, "
                         f"{counts['loss']:,} lost by the player to move) in {path}"])


def add_tablebase_probe(actions: arguments.Commands) -> None:
    """`quixo tablebase probe POSITION`: a position looked up."""
    parser = actions.add_parser("probe", help="look a position up")
    parser.add_argument("position", metavar="POSITION")
    arguments.add_common(parser, directory=True)
    arguments.add_remote_options(parser)
    parser.set_defaults(handler=command_tablebase_probe)


def command_tablebase_probe(args: argparse.Namespace) -> None:
    board = parse_board(args.position)
    with open_tablebase(args) as tablebase:
        answer = answers.probe_answer(board, tablebase)
    emit(args, answer, answers.probe_lines(answer))
