"""The ``quixo`` command line. Every command takes ``--json`` and then prints one JSON object;
bad input gives one line on stderr and exit status 2, never a traceback (the frame both
command lines share: solverkit.commandline)."""
from __future__ import annotations

import argparse
import io
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from solverkit.commandline import (CommandFailed, OneLineParser, number, parse_duration, parsed,
                                   run_command, whole_number_argument)
from solverkit.version import __version__

from . import answers, play
from .. import limits
from .. import tablebase as tb
from ..tournament.clock import TimeControl
from ..rules._perft import perft, perft_divide
from ..rules.baseboard import BaseBoard
from ..errors import QuixoError
from ..search import DEPTH_LIMIT
from ..search.weights import weight_set
from ..tablebase.checkpoint import DEFAULT_SECONDS as DEFAULT_CHECKPOINT
from ..tablebase.files import VERSION as TABLE_FORMAT
from ..tablebase.verify import MAX_SAMPLE
from ..variants import PLAYER_COUNTS, find_variant, parse_board, variant_of

if TYPE_CHECKING:
    from ..search import BaseSolver

SMALL_BOARDS = (3, 4)   # boards whose whole solution builds in seconds when first asked for
DEFAULT_SOLVE_SECONDS = answers.DEFAULT_SOLVE_SECONDS


def _emit(args: argparse.Namespace, payload: dict[str, Any], lines: list[str]) -> None:
    if args.json:
        print(json.dumps(payload))
    else:
        print("\n".join(lines))


def command_perft(args: argparse.Namespace) -> None:
    board = parse_board(args.position)
    started = time.perf_counter()
    payload: dict[str, Any] = {"position": str(board), "depth": args.depth}
    if args.divide:
        counts = perft_divide(board, args.depth, threads=args.threads)
        nodes = sum(counts.values()) if args.depth > 0 else 1
        payload["nodes"] = nodes        # the SPEC's fields first
        payload["divide"] = [{"move": str(m), "nodes": n} for m, n in counts.items()]
        lines = [f"{m}: {n}" for m, n in counts.items()]
    else:
        nodes = perft(board, args.depth, threads=args.threads)
        payload["nodes"] = nodes
        lines = []
    seconds = time.perf_counter() - started
    payload["seconds"] = round(seconds, 6)
    lines.append(f"nodes: {nodes}")
    lines.append(f"time: {seconds:.3f} s ({nodes / max(seconds, 1e-9) / 1e6:.1f} M/s)")
    _emit(args, payload, lines)


def _directory(args: argparse.Namespace) -> Path:
    return Path(args.dir).expanduser() if args.dir else tb.default_directory()


def _board_or_start(args: argparse.Namespace) -> BaseBoard:
    if args.position:
        return parse_board(args.position)
    return find_variant(args.players).start(args.size)


def _ensure_small_board_tables(size: int, directory: Path, args: argparse.Namespace) -> None:
    """3x3 and 4x4 are solved whole in seconds: build them the first time they are asked
    for, so that every answer there is exact."""
    if size in SMALL_BOARDS:
        report = tb.build(directory, size, jobs=getattr(args, "jobs", 0))
        if report.solved:
            print(f"built the {size}x{size} tables in {directory} "
                  f"({report.seconds:.1f} s)", file=sys.stderr)


def _tablebase(args: argparse.Namespace) -> tb.BaseTablebase:
    """The tables of --remote (another quixo serve), else of the folder (--dir)."""
    if args.remote is not None:
        if args.dir is not None:
            raise QuixoError("give either --dir or --remote, not both")
        return tb.RemoteTablebase(args.remote, timeout=args.remote_timeout)
    return tb.Tablebase(_directory(args))


def _solver(board: BaseBoard, args: argparse.Namespace) -> BaseSolver[Any]:
    """The solver of the board's variant, with the tables of --dir (or --remote) where the
    variant has tables and --no-tablebase is not given."""
    variant = variant_of(board)
    tablebase = None
    if variant.uses_tablebases and not args.no_tablebase:
        tablebase = _tablebase(args)
        if isinstance(tablebase, tb.Tablebase):
            _ensure_small_board_tables(board.size, tablebase.directory, args)
    elif args.remote is not None and args.no_tablebase:
        raise QuixoError("give either --remote or --no-tablebase, not both")
    return variant.new_solver(args.hash, tablebase, args.weights)


def command_solve(args: argparse.Namespace) -> None:
    board = _board_or_start(args)
    answer = answers.solve_answer(board, _solver(board, args), depth=args.depth,
                                  time=args.time, prove=args.prove)
    _emit(args, answer, answers.solve_lines(answer))


def command_analyze(args: argparse.Namespace) -> None:
    board = parse_board(args.position)
    answer = answers.analyze_answer(board, _solver(board, args), depth=args.depth,
                                    time=args.time)
    _emit(args, answer, answers.analyze_lines(answer))


def command_play(args: argparse.Namespace) -> None:
    """The game in the terminal; with --json the dialogue goes to stderr and stdout gets one
    object once the game is over: the start, the moves, the result and why it ended."""
    board = find_variant(args.players).start(args.size)
    start = str(board)
    solver = _solver(board, args)
    talk = sys.stderr if args.json else sys.stdout

    def prompt_on_stderr(prompt: str) -> str:
        print(prompt, end="", file=sys.stderr, flush=True)
        return input()

    result = play.run(board, solver, human=args.as_, seconds=args.time or 2.0,
                      clock=args.clock, read=prompt_on_stderr if args.json else input,
                      write=lambda line: print(line, file=talk))
    if not args.json:
        return
    reason = ("abandoned" if result == "*" else "line" if board.is_game_over() else "time")
    moves = [str(move) for move in board.move_stack]
    print(json.dumps({"start": start, "human": args.as_, "moves": moves,
                      "position": str(board), "result": result, "reason": reason}))


def command_match(args: argparse.Namespace) -> None:
    from ..tournament.run import run_match
    from ..tournament.settings import MatchSettings, read_positions
    from ..tournament.summary import summary, summary_lines, summary_path, write_summary

    openings = (() if args.openings is None else tuple(
        text for _, text in read_positions(Path(args.openings).expanduser())))
    settings = MatchSettings(args.engine_a, args.engine_b, size=args.size,
                             players=args.players, seed=args.seed,
                             opening_plies=args.opening_plies, max_plies=args.max_plies,
                             adjudicate=args.adjudicate, openings=openings)
    records = Path(args.records).expanduser()
    summary_file = (Path(args.summary).expanduser() if args.summary
                    else summary_path(records))
    if summary_file.resolve() == records.resolve():
        raise QuixoError(f"the summary would overwrite the records file {records}: give "
                         "--summary another name")
    directory = _directory(args)
    if settings.variant.uses_tablebases and (settings.adjudicate or any(
            e.uses_tables for e in settings.engines.values())):
        # once here, before the workers start: each of them opens the finished tables
        _ensure_small_board_tables(args.size, directory, args)
    jobs = args.jobs or limits.check_threads(0)
    run = run_match(settings, args.pairs, records, jobs=jobs, tables=directory,
                    stop_after=args.stop_after, sprt=args.sprt)
    payload = summary(run, settings, args.pairs, jobs, records)
    payload["summary"] = str(summary_file)
    write_summary(summary_file, payload)
    _emit(args, payload, summary_lines(payload, records, summary_file))


def command_judge(args: argparse.Namespace) -> None:
    from ..tournament import judge

    directory = _directory(args)
    extra: dict[str, Any]
    if args.games is not None:
        if args.engine:
            raise QuixoError("--engine is for --positions: the games name their engines")
        games = judge.read_games(Path(args.games).expanduser())
        tablebase = judge.open_tables(directory, judge.sizes_of_games(games) or {5})
        found = judge.judge_games(games, tablebase)
        tallies = found.tallies
        extra = {"games": found.games, "adjudicated": found.adjudicated}
    else:
        if not args.engine:
            raise QuixoError("--positions needs at least one --engine SETTING")
        boards = judge.read_positions(Path(args.positions).expanduser())
        tablebase = judge.open_tables(directory, {board.size for board in boards})
        for setting in args.engine:
            judge.engine_setting(setting, args.go)     # every setting read before any plays
        tallies = judge.judge_positions(boards, args.engine, tablebase, args.go)
        extra = {"positions": len(boards), "go": args.go}
    payload = judge.report(tallies, args.worst, **extra, tables=str(directory))
    _emit(args, payload, judge.report_lines(payload))


def command_engine(args: argparse.Namespace) -> None:
    from . import engine_protocol

    hash_mib = engine_protocol.check_hash(args.hash)
    tablebase = None if args.no_tablebase else tb.Tablebase(_directory(args))
    if isinstance(sys.stdin, io.TextIOWrapper):   # bytes that are not UTF-8: an unknown
        sys.stdin.reconfigure(errors="replace")   # command, not a crash
    engine_protocol.run(sys.stdin, sys.stdout, tablebase, hash_mib, weight_set(args.weights))


def command_tablebase_build(args: argparse.Namespace) -> None:
    client = _cluster_client(args)
    try:
        report = tb.build(_directory(args), args.size, args.max_blanks, jobs=args.jobs,
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
    _emit(args, payload, lines)


def command_tablebase_compress(args: argparse.Namespace) -> None:
    report = tb.compress_folder(_directory(args), jobs=args.jobs)
    payload = {"directory": str(report.directory), "converted": len(report.converted),
               "already_compressed": len(report.already), "entries": report.entries,
               "bytes_before": report.bytes_before, "bytes_after": report.bytes_after,
               "seconds": round(report.seconds, 3)}
    ratio = (f" ({report.bytes_after / report.entries:.3f} bytes per entry)"
             if report.entries else "")
    _emit(args, payload, [f"converted {len(report.converted)} tables from "
                          f"{report.bytes_before} to {report.bytes_after} bytes{ratio} in "
                          f"{report.seconds:.1f} s; {len(report.already)} were compressed "
                          f"already, in {report.directory}"])


def _cluster_client(args: argparse.Namespace) -> Any:
    """The Dask client of --workers (a local cluster) or --scheduler, or None."""
    from ..tablebase import cluster

    if args.workers is None and args.scheduler is None:
        return None
    memory = None if args.memory_per_worker is None else int(args.memory_per_worker * 2**30)
    client = (cluster.local_client(args.workers, memory) if args.workers is not None
              else cluster.remote_client(args.scheduler))
    link = cluster.dashboard_link(client)
    if link and not args.json:
        print(f"Dask dashboard: {link}", file=sys.stderr)
    return client


def command_tablebase_plan(args: argparse.Namespace) -> None:
    from ..tablebase import forecast

    units = tb.units(args.size, args.max_blanks)
    calibration = None
    throughput = args.throughput
    if throughput is None:
        calibration = forecast.calibrate(threads=1)
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
              f"1 core, 5x5 <= 1 blank" if calibration else "given")
    lines += [f"{len(units)} pairs, {payload['positions']:,} positions, "
              f"{payload['entries']:,} entries; disk at most about {found.disk_bytes / gib:.1f} GiB "
              "(the files, and two checkpoints of the largest pair); "
              f"largest pair {found.largest_memory / gib:.1f} GiB of memory",
              f"throughput {throughput:,.0f} entries per core-second ({source})",
              f"critical path: {len(found.critical_path)} pairs, "
              f"{found.critical_seconds / 3600:.2f} h",
              f"estimated wall time on {_count(args.workers, 'worker')} x "
              f"{_count(args.cores, 'core')} "
              f"({found.memory_per_worker / gib:.1f} GiB each): "
              f"{found.wall_seconds / 3600:.2f} h"]
    _emit(args, payload, lines)


def _unit_disk(unit: tb.Unit) -> int:
    return unit.disk_bytes


def command_tablebase_stats(args: argparse.Namespace) -> None:
    built = tb.stats.built_classes(_directory(args), args.size)
    classes = [row for row, _ in built]
    written_by = tb.stats.writers(built)
    lines = [f"{'mover':>5} {'opp':>4} {'win':>12} {'draw':>12} {'loss':>12}"]
    lines += [f"{c['mover']:>5} {c['opponent']:>4} {c['win']:>12} {c['draw']:>12} {c['loss']:>12}"
              for c in classes]
    total = {key: sum(c[key] for c in classes) for key in ("win", "draw", "loss")}
    lines.append(f"{'all':>10} {total['win']:>12} {total['draw']:>12} {total['loss']:>12}")
    lines.append(f"format {TABLE_FORMAT}, written by version {', '.join(written_by)}")
    _emit(args, {"size": args.size, "classes": classes, "format": TABLE_FORMAT,
                 "written_by": written_by}, lines)


def command_tablebase_verify(args: argparse.Namespace) -> None:
    report = tb.verify(_directory(args), args.size, jobs=args.jobs, min_blanks=args.min_blanks,
                       max_blanks=args.max_blanks, sample=args.sample, seed=args.seed)
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
    _emit(args, payload, lines + [f"{summary}: {report.mismatches} mismatches"])
    if not report.ok:
        raise CommandFailed("the tables disagree with their children")


def command_tablebase_manifest(args: argparse.Namespace) -> None:
    from solverkit.progress import ByteProgress

    from ..tablebase import manifest

    directory = _directory(args)
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


def command_tablebase_download(args: argparse.Namespace) -> None:
    from ..tablebase import download

    settings = download.DownloadSettings(jobs=args.jobs, timeout=args.timeout)
    report = download.download(args.base, _directory(args), args.size, args.max_blanks,
                               settings)
    payload = {"base": report.base, "files": report.files, "bytes": report.bytes,
               "fetched": len(report.fetched), "kept": len(report.kept)}
    _emit(args, payload, [f"fetched {len(report.fetched)} files and kept "
                          f"{len(report.kept)} already there: {report.files} files, "
                          f"{report.bytes / 1e6:,.1f} MB in {report.directory}, checked "
                          f"against {report.base} ({report.seconds:.1f} s)"])


def command_tablebase_sample(args: argparse.Namespace) -> None:
    from ..tablebase import sample

    with tb.Tablebase(_directory(args)) as tablebase:
        drawn = sample.draw(tablebase, args.size, args.count, args.blanks, args.seed)
    path = sample.write_sample(args.out, drawn)
    counts = {name: int((drawn.value == wdl).sum())
              for name, wdl in (("win", 1), ("draw", 0), ("loss", -1))}
    payload = {"out": str(path), "size": args.size, "count": args.count,
               "blank_counts": list(drawn.blank_counts), "seed": args.seed, **counts}
    _emit(args, payload, [f"{args.count:,} positions of {', '.join(map(str, drawn.blank_counts))}"
                          f" blanks ({counts['win']:,} won, {counts['draw']:,} drawn, "
                          f"{counts['loss']:,} lost by the player to move) in {path}"])


def command_tablebase_probe(args: argparse.Namespace) -> None:
    board = parse_board(args.position)
    with _tablebase(args) as tablebase:
        answer = answers.probe_answer(board, tablebase)
    _emit(args, answer, answers.probe_lines(answer))


def command_serve(args: argparse.Namespace) -> None:
    try:
        import starlette  # noqa: F401  (the web extra, checked before anything starts)
        import uvicorn  # noqa: F401
        from explorer.server import serve
        from explorer.settings import Settings
    except ImportError as error:
        raise QuixoError(f"quixo serve needs the web extra ({error.name} is missing): "
                         'pip install "quixo-solver[web]"') from None
    options: dict[str, Any] = {"hash_mib": args.hash}
    for option, name in (("search_time", "search_seconds"),
                         ("max_search_time", "max_search_seconds"),
                         ("searches", "searches"), ("queue", "queue"),
                         ("rate_limit", "rate"), ("burst", "burst")):
        if getattr(args, option) is not None:
            options[name] = getattr(args, option)
    qwixx = Path(args.qwixx_dir).expanduser() if args.qwixx_dir else None
    settings = Settings(_directory(args), qwixx, check_tables=args.check_tables, **options)
    serve(settings, build_parser(), args.host, args.port, open_browser=args.open,
          access_log=args.access_log)


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


def _size(text: str) -> int:
    if text not in ("3", "4", "5"):
        raise argparse.ArgumentTypeError(f"board size must be 3, 4 or 5, not {text!r}")
    return int(text)


def _blank_list(text: str) -> list[int]:
    """An argparse type: blank counts such as 0,1,2 or 3-6 (or both: 0,3-6)."""
    counts: list[int] = []
    for part in text.split(","):
        low, _, high = part.strip().partition("-")
        first = _blanks(low)
        last = _blanks(high) if high else first
        if last < first:
            raise argparse.ArgumentTypeError(f"a range of blank counts goes up, not "
                                             f"{part.strip()!r}")
        counts += range(first, last + 1)
    return counts


def _engine_setting(text: str) -> Any:
    """An argparse type: a match's engine setting such as time=1,hash=16."""
    from ..tournament.settings import EngineSetting

    return EngineSetting.parse(text)


_threads = whole_number_argument("a number of threads (0: every core)", 0, limits.MAX_THREADS)
_perft_depth = whole_number_argument("a depth", 0, limits.MAX_PERFT_DEPTH)
_plies = whole_number_argument("a depth in plies", 1, DEPTH_LIMIT)
_blanks = whole_number_argument("a number of blank cubes", 0, 25)
_seconds = number("a number of seconds", lambda value: limits.check_seconds("the time", value))
_mib = number("a number of MiB", lambda value: limits.check_table_mib(value, "the table size"))
_workers = whole_number_argument("a number of workers", 1, 100000)
_port = whole_number_argument("a port", 1, 65535)
_queue = whole_number_argument("a queue length", 0, 100000)
_burst = whole_number_argument("a number of requests", 1, 100_000_000)
_request_rate = number("a number of requests a second (0: no limit)",
                       lambda value: limits.check_positive("the rate limit", value, 1e9)
                       if value else 0.0)
_gib = number("a number of GiB", lambda value: limits.check_positive("the memory", value, 1e6))
_duration = parsed("a duration", parse_duration)
_rate = number("a number of entries per second",
               lambda value: limits.check_positive("the throughput", value, 1e12))
_pairs = whole_number_argument("a number of game pairs", 1, 1000000)
_downloads = whole_number_argument("a number of files at once", 1, 64)
_sample_count = whole_number_argument("a number of positions", 1, 10_000_000)
_worst = whole_number_argument("a number of moves", 0, 1000000)
_opening_plies = whole_number_argument("a number of opening plies", 0, 40)
_max_plies = whole_number_argument("a ply limit", 1, 100000)
_seed = whole_number_argument("a seed", 0, 2**63 - 1)
_entries_to_verify = whole_number_argument("a number of entries", 1, MAX_SAMPLE)
_clock = parsed("a time control such as 10m+5s", TimeControl.parse)
_engine = parsed("an engine setting such as time=1,hash=16", _engine_setting)


def _sprt_setting(text: str) -> Any:
    """An argparse type: `--sprt elo0=0,elo1=10,alpha=0.05,beta=0.05`."""
    from ..tournament.match_stats import Sprt

    return Sprt.parse(text)


_sprt = parsed("a test such as elo0=0,elo1=10", _sprt_setting)


def _search_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--no-tablebase", action="store_true", help="do not use tables")
    parser.add_argument("--hash", type=_mib, default=64,
                        help="transposition table size in MiB (default 64)")
    _weights_option(parser)
    _common(parser, directory=True, jobs=True)
    _remote_options(parser)


def _remote_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--remote", metavar="URL", default=None,
                        help="probe the tables of another quixo serve (http://HOST:PORT) "
                        "instead of a folder")
    parser.add_argument("--remote-timeout", type=_seconds, default=30.0, metavar="SECONDS",
                        help="seconds to wait for one answer of --remote (default 30)")


def _weights_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--weights", metavar="FILE",
                        help="the evaluation's weights file (default: the shipped weights; "
                        "tools/tune_weights.py writes one)")


def _common(parser: argparse.ArgumentParser, *, directory: bool = False,
            jobs: bool = False) -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    if directory:
        parser.add_argument("--dir", help="tablebase folder (default: $QUIXO_TABLEBASE_DIR, "
                            "else the user's cache folder)")
    if jobs:
        parser.add_argument("--jobs", type=_threads, default=0,
                            help="threads to use (default: every core)")


MATCH_DESCRIPTION = """Game pairs between engine settings A and B from random openings, each
opening played once with each colour, on --jobs worker processes; prints the wins/draws/losses
of A, the score with its 95% interval and the Elo difference with its error (from the variance
of the game pairs), and writes the summary as JSON and one line per game to the records file. A
draw is adjudicated on the third repetition of a position and at the ply limit, and with
--adjudicate any game once its position is in the tables. Running the same match with the same
records file again resumes it. An engine setting is keys such as 'time=1' (seconds per move),
'depth=6', 'nodes=100000', 'clock=10s+0.1s', 'hash=64' (MiB), 'tables=on|off', 'traps=on|off'
(with tables: the best move that sets the opponent the most traps), separated by commas; 'cmd=PROGRAM ARGS' plays a program that speaks the
engine protocol ('cmd=quixo engine,time=0.1'), which loses a game when it crashes, answers
late or plays an illegal move. --sprt stops the match once a sequential test decides."""

ENGINE_DESCRIPTION = """The engine protocol of the SPEC (UCI-style, one command per line on
stdin, answers on stdout): uci, isready, setoption name Hash value MIB (and Traps value
true|false: the best table move that sets the opponent the most traps), ucinewgame, position
startpos [size N] [players 2|4] [moves ...] or position POSITION [moves ...], go [xtime MS]
[otime MS] [xinc MS] [oinc MS] [movetime MS] [depth D] [nodes N] [infinite], stop, quit. Any
program can play the engine this way; quixo match --engine-a 'cmd=quixo engine,time=0.1' does.
A command it cannot read gets 'info string error REASON' and the engine reads on."""

JUDGE_DESCRIPTION = """Judge moves by the tables: each move made from a position in the tables
is an error if it drops the value (win to draw or loss, draw to loss) and perfect if it keeps
the value and the exact plies (the fastest win, the longest loss, any draw); in a kept win or
loss, the plies lost are those beyond the fastest win or short of the longest loss. Prints,
per engine, the moves, the judged ones, the errors, the error rate overall and by blanks, the
share of perfect moves, the mean plies lost and the worst moves with their positions. The
moves are those of recorded games (--games) or each engine's choice in the positions of a
file (--positions; only the positions in the tables are played)."""

PLAN_DESCRIPTION = """Every class pair of the build with its positions, entries, memory, disk
and time; the critical path; the wall time on --workers workers of --cores cores, from a
throughput measured in a short calibration build (5x5 <= 1 blank, 1 core) unless --throughput
gives it."""


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


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="quixo", description="Quixo rules, perft, tablebases and search.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = commands.add_parser("perft", help="count move sequences from a position",
                            description="Count the move sequences of exactly DEPTH moves from "
                            "POSITION, as chess perft does: a move that ends the game has no "
                            "continuations, so a game that ends after fewer than DEPTH moves "
                            "adds nothing (it counts only at its own depth). --divide splits "
                            "the same count by first move.")
    p.add_argument("position", metavar="POSITION",
                   help="position in SPEC notation, e.g. '...../...../...../...../..... X', "
                   "or a four-player one such as 'Xx..o/...../...../...../..... O1'")
    p.add_argument("depth", metavar="DEPTH", type=_perft_depth,
                   help=f"number of moves (0 .. {limits.MAX_PERFT_DEPTH})")
    p.add_argument("--divide", action="store_true", help="count per first move")
    p.add_argument("--threads", type=_threads, default=0, help="cores to use (default: all)")
    _common(p)
    p.set_defaults(handler=command_perft)

    p = commands.add_parser("solve", help="value, plies and best move of a position",
                            description="Solve POSITION (default: the empty board of --size). "
                            "On 3x3 and 4x4 the whole game's tables are built into the "
                            "tablebase folder the first time. Alpha-beta searches first; when "
                            "it proves nothing in half of --time, a proof-number search "
                            "(df-pn) takes the other half.")
    p.add_argument("position", metavar="POSITION", nargs="?")
    p.add_argument("--size", type=_size, default=5, help="board size without POSITION")
    p.add_argument("--players", type=int, choices=PLAYER_COUNTS, default=2,
                   help="without POSITION: the two-player or the four-player (teams) game")
    p.add_argument("--time", type=_seconds, default=None,
                   help=f"search time limit in seconds (default {DEFAULT_SOLVE_SECONDS:g} "
                   "when no --depth is given)")
    p.add_argument("--depth", type=_plies, default=None, help="search depth limit in plies")
    p.add_argument("--prove", action="store_true",
                   help="only the proof-number search (df-pn): proves wins and losses far "
                   "beyond alpha-beta's depth, with a bound on their plies")
    _search_options(p)
    p.set_defaults(handler=command_solve)

    p = commands.add_parser("analyze", help="every legal move with its value",
                            description="Every legal move of POSITION with its value for the "
                            "player to move, best first; --time is shared by the moves.")
    p.add_argument("position", metavar="POSITION")
    p.add_argument("--time", type=_seconds, default=None, help="total search time in seconds")
    p.add_argument("--depth", type=_plies, default=None, help="search depth limit in plies")
    _search_options(p)
    p.set_defaults(handler=command_analyze)

    p = commands.add_parser("play", help="play a game against the engine in the terminal")
    p.add_argument("--size", type=_size, default=5)
    p.add_argument("--players", type=int, choices=PLAYER_COUNTS, default=2,
                   help="4: the team game (you play both players of your team)")
    p.add_argument("--as", dest="as_", choices=("X", "O", "x", "o"), default="X",
                   type=str.upper, help="the side you play (X moves first)")
    limit = p.add_mutually_exclusive_group()
    limit.add_argument("--time", type=_seconds, default=None,
                       help="the engine's thinking time per move (default 2 s)")
    limit.add_argument("--clock", type=_clock, default=None, metavar="TIME[+INCREMENT]",
                       help="a game clock for every player, such as 10m+5s, 90s, 1m30s+2s "
                       "or 300 (seconds): the engine manages its time; whoever runs out "
                       "loses on time")
    _search_options(p)
    p.set_defaults(handler=command_play)

    p = commands.add_parser("match", help="play two engine settings against each other",
                            description=MATCH_DESCRIPTION)
    p.add_argument("--engine-a", type=_engine, required=True, metavar="SETTING")
    p.add_argument("--engine-b", type=_engine, required=True, metavar="SETTING")
    p.add_argument("--pairs", type=_pairs, default=20, help="game pairs (default 20)")
    p.add_argument("--size", type=_size, default=5)
    p.add_argument("--players", type=int, choices=PLAYER_COUNTS, default=2,
                   help="4: the team game (one team is engine A, the other engine B)")
    p.add_argument("--seed", type=_seed, default=1, help="seed of the openings (default 1)")
    p.add_argument("--opening-plies", type=_opening_plies, default=4,
                   help="random plies of each opening (default 4)")
    p.add_argument("--max-plies", type=_max_plies, default=200,
                   help="a game that reaches this many plies is a draw (default 200)")
    p.add_argument("--openings", metavar="FILE", default=None,
                   help="start the games from the positions of FILE (one per line, '#' "
                   "starts a comment), pair N from its N-th (cycling), before the random "
                   "plies of --opening-plies (give 0 to play them as they are)")
    p.add_argument("--adjudicate", action="store_true",
                   help="end a game as soon as its position is in the tables of --dir, "
                   "scored as the tables say (the record's adjudication gives the position "
                   "and its value)")
    p.add_argument("--records", default="quixo-match.jsonl", metavar="FILE",
                   help="the game records, one JSON line per game (default "
                   "quixo-match.jsonl); an existing file of the same match is resumed")
    p.add_argument("--summary", default=None, metavar="FILE",
                   help="the JSON summary (default: the records file's name with "
                   ".summary.json)")
    p.add_argument("--stop-after", type=_duration, default=None, metavar="DURATION",
                   help="start no game after this long (90m, 2h30m, or minutes; run again to "
                   "resume)")
    p.add_argument("--sprt", type=_sprt, default=None, metavar="elo0=E0,elo1=E1[,alpha=A,"
                   "beta=B]", help="a sequential probability ratio test of normalized Elo "
                   "(pentanomial, as fastchess and OpenBench): the match stops once it "
                   "accepts H0 or H1 (alpha and beta default to 0.05); --pairs is then the "
                   "most it plays")
    _common(p, directory=True)
    p.add_argument("--jobs", type=_threads, default=0,
                   help="games played at once, one worker process each (default: one per "
                   "core)")
    p.set_defaults(handler=command_match)

    p = commands.add_parser("judge", help="judge moves against the tables",
                            description=JUDGE_DESCRIPTION)
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("--positions", metavar="FILE",
                        help="one SPEC position per line ('#' starts a comment): each "
                        "--engine's move in each of them is judged")
    source.add_argument("--games", metavar="FILE",
                        help="the game records of quixo match (JSON lines), or lines "
                        '{"start": POSITION, "moves": [...]}: every move is judged')
    p.add_argument("--engine", action="append", default=[], metavar="SETTING",
                   help="an engine setting as quixo match takes it ('depth=4,tables=off', "
                   "'cmd=quixo engine --no-tablebase'); give it more than once to judge "
                   "several")
    p.add_argument("--go", default="movetime 100", metavar="GO",
                   help="the limits of an engine whose setting gives none: the protocol's "
                   "go arguments movetime MS, depth D, nodes N (default 'movetime 100')")
    p.add_argument("--worst", type=_worst, default=10,
                   help="the worst moves listed per engine (default 10)")
    _common(p, directory=True)
    p.set_defaults(handler=command_judge)

    p = commands.add_parser("engine", help="speak the engine protocol on stdin/stdout",
                            description=ENGINE_DESCRIPTION)
    p.add_argument("--hash", type=_mib, default=64,
                   help="transposition table size in MiB (default 64; the Hash option)")
    p.add_argument("--no-tablebase", action="store_true", help="do not use tables")
    _weights_option(p)
    p.add_argument("--dir", help="tablebase folder (default: $QUIXO_TABLEBASE_DIR, else the "
                   "user's cache folder); the engine probes the tables built there")
    p.set_defaults(handler=command_engine)

    p = commands.add_parser("tablebase", help="build, inspect and check tablebases")
    tablebase_commands = p.add_subparsers(dest="tablebase_command", metavar="ACTION",
                                          required=True)
    q = tablebase_commands.add_parser("build", help="solve every class with few blanks")
    q.add_argument("--size", type=_size, default=5)
    q.add_argument("--max-blanks", type=_blanks, default=None,
                   help="only classes with at most this many blank cubes (default: all)")
    q.add_argument("--force", action="store_true",
                   help="build even if the memory or disk check says no")
    where = q.add_mutually_exclusive_group()
    where.add_argument("--workers", type=_workers, default=None,
                       help="build on a local Dask cluster of this many worker processes "
                       '(needs pip install "quixo-solver[cluster]")')
    where.add_argument("--scheduler", metavar="ADDRESS", default=None,
                       help="build on the running Dask cluster of this scheduler, whose "
                       "workers share the folder")
    q.add_argument("--memory-per-worker", type=_gib, default=None, metavar="GiB",
                   help="with --workers: memory each worker gives to units (default: the "
                   "available memory, shared)")
    q.add_argument("--stop-after", type=_duration, default=None, metavar="DURATION",
                   help="end cleanly after this long (2h30m, 90m, 45s, or minutes), the pair "
                   "being solved saved: the same command resumes (under a job's wall-time "
                   "limit, leave a few minutes for the last save)")
    q.add_argument("--checkpoint-every", type=_duration, default=DEFAULT_CHECKPOINT,
                   metavar="DURATION",
                   help="a long pair saves its state this often, so that a build killed at any "
                   f"moment loses at most about that much work (default "
                   f"{DEFAULT_CHECKPOINT / 60:g}m)")
    _common(q, directory=True, jobs=True)
    q.set_defaults(handler=command_tablebase_build)

    q = tablebase_commands.add_parser(
        "plan", help="what a build takes: units, memory, disk, time on W workers",
        description=PLAN_DESCRIPTION)
    q.add_argument("--size", type=_size, default=5)
    q.add_argument("--max-blanks", type=_blanks, default=None)
    q.add_argument("--workers", type=_workers, default=1)
    q.add_argument("--cores", type=_workers, default=1, help="cores of each worker")
    q.add_argument("--memory-per-worker", type=_gib, default=None, metavar="GiB")
    q.add_argument("--throughput", type=_rate, default=None,
                   help="entries solved per second per core (skips the calibration)")
    _common(q)
    q.set_defaults(handler=command_tablebase_plan)

    q = tablebase_commands.add_parser(
        "compress", help="convert a folder of tables of the older format (one byte per "
        "entry) to the compressed one",
        description="Each file is converted on its own and replaced atomically; an "
        "interrupted conversion resumes where it stopped when run again.")
    _common(q, directory=True, jobs=True)
    q.set_defaults(handler=command_tablebase_compress)

    q = tablebase_commands.add_parser("stats", help="win/draw/loss counts per built class")
    q.add_argument("--size", type=_size, default=5)
    _common(q, directory=True)
    q.set_defaults(handler=command_tablebase_stats)

    q = tablebase_commands.add_parser("verify", help="re-derive every built position")
    q.add_argument("--size", type=_size, default=5)
    q.add_argument("--min-blanks", type=_blanks, default=0,
                   help="verify only the classes with at least this many blanks (default 0)")
    q.add_argument("--max-blanks", type=_blanks, default=None,
                   help="... and at most this many (default: every built class)")
    q.add_argument("--sample", type=_entries_to_verify, default=None, metavar="N",
                   help="re-derive N random entries of each class (runs of 512 entries, every "
                        "entry of a smaller class) instead of every entry")
    q.add_argument("--seed", type=_seed, default=0, help="seed of the sample (default 0)")
    _common(q, directory=True, jobs=True)
    q.set_defaults(handler=command_tablebase_verify)

    q = tablebase_commands.add_parser(
        "manifest", help="write the folder's MANIFEST.json: every table file with its bytes, "
        "SHA-256, format and class counts", description=MANIFEST_DESCRIPTION)
    _common(q, directory=True, jobs=True)
    q.set_defaults(handler=command_tablebase_manifest)

    q = tablebase_commands.add_parser(
        "download", help="fetch tables from a mirror, each checked against its manifest",
        description=DOWNLOAD_DESCRIPTION)
    q.add_argument("base", metavar="BASE",
                   help="the mirror's URL, which serves BASE/MANIFEST.json and the files "
                   "(another quixo serve: http://HOST:PORT/tables)")
    q.add_argument("--size", type=_size, default=None,
                   help="only the tables of this board size (default: every size listed)")
    q.add_argument("--max-blanks", type=_blanks, default=None,
                   help="only classes with at most this many blank cubes (default: all)")
    q.add_argument("--jobs", type=_downloads, default=4,
                   help="files fetched at once (default 4)")
    q.add_argument("--timeout", type=_seconds, default=30.0,
                   help="seconds a silent connection is waited for before it is retried "
                   "(default 30)")
    _common(q, directory=True)
    q.set_defaults(handler=command_tablebase_download)

    q = tablebase_commands.add_parser(
        "sample", help="random positions with their exact values, for learning (.npz)",
        description=SAMPLE_DESCRIPTION)
    q.add_argument("--count", type=_sample_count, required=True, help="positions to draw")
    q.add_argument("--blanks", type=_blank_list, required=True, metavar="LIST",
                   help="the blank counts to draw from, such as 0,1,2 or 3-6")
    q.add_argument("--seed", type=_seed, required=True)
    q.add_argument("--out", required=True, metavar="FILE", help="the .npz file to write")
    q.add_argument("--size", type=_size, default=5)
    _common(q, directory=True)
    q.set_defaults(handler=command_tablebase_sample)

    q = tablebase_commands.add_parser("probe", help="look a position up")
    q.add_argument("position", metavar="POSITION")
    _common(q, directory=True)
    _remote_options(q)
    q.set_defaults(handler=command_tablebase_probe)

    p = commands.add_parser("serve", help="the explorer: every move's value in the browser",
                            description="Serve the explorer (pages for Quixo and Qwixx and "
                            "the JSON API /api/v1/...) until Ctrl-C. Needs the web extra: "
                            'pip install "quixo-solver[web]". The 3x3 and 4x4 tables are built '
                            "into --dir first when missing.")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1; the server has no "
                   "authentication)")
    p.add_argument("--port", type=_port, default=8000, help="port (default 8000)")
    p.add_argument("--open", action="store_true", help="open the explorer in a browser")
    p.add_argument("--search-time", type=_seconds, default=None, metavar="SECONDS",
                   help="a search's time when a request gives no time or depth (default "
                   f"{DEFAULT_SOLVE_SECONDS:g})")
    p.add_argument("--max-search-time", type=_seconds, default=None, metavar="SECONDS",
                   help="the longest search a request may ask for (default 60)")
    p.add_argument("--searches", type=_workers, default=None,
                   help="searches at once (default: one per core)")
    p.add_argument("--queue", type=_queue, default=None,
                   help="requests that may wait for a search (default 8); more get 503")
    p.add_argument("--hash", type=_mib, default=64,
                   help="each search's transposition table in MiB (default 64)")
    p.add_argument("--rate-limit", type=_request_rate, default=None, metavar="PER_SECOND",
                   help="API requests a second each client may make after a burst (default "
                   "50; 0: no limit); more get 429 with Retry-After")
    p.add_argument("--burst", type=_burst, default=None,
                   help="API requests a client may make at once (default 500)")
    p.add_argument("--check-tables", action="store_true",
                   help="check every block of every table at start-up, while serving (a "
                   "damaged table is found at once, and every probe after it is as fast as "
                   "a warm one)")
    p.add_argument("--access-log", default="-", metavar="FILE",
                   help="one line per request, appended to FILE ('-': stderr, the default; "
                   "'off': none)")
    p.add_argument("--qwixx-dir", default=None,
                   help="the Qwixx tables' folder (default: $QWIXX_TABLE_DIR, else the cache "
                   "folder)")
    p.add_argument("--dir", help="tablebase folder (default: $QUIXO_TABLEBASE_DIR, else the "
                   "user's cache folder)")
    p.set_defaults(handler=command_serve, json=False)
    return parser


INTERRUPTED: dict[str | None, str] = {
    "build": "interrupted; the finished classes are kept, run the same command again to resume",
    "compress": "interrupted; the converted tables are kept, run the same command again to "
                "resume",
    "download": "interrupted; the files already checked are kept, run the same command again "
                "to resume",
    "match": "interrupted; the finished games are kept in the records file, run the same "
             "command again to resume"}


def _interrupted(args: argparse.Namespace) -> str:
    return INTERRUPTED.get(getattr(args, "tablebase_command", None) or args.command,
                           "interrupted")


def main(argv: Sequence[str] | None = None) -> int:
    return run_command("quixo", build_parser(), argv, (QuixoError, tb.MissingTableError),
                       _interrupted)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
