"""The ``quixo`` command line. Every command takes ``--json`` and then prints one JSON object;
bad input gives a message on stderr and exit status 2, never a traceback."""
from __future__ import annotations

import argparse
import json
import sys
import time

from pathlib import Path

from . import tablebase as tb
from ._perft import perft, perft_divide
from .board import Board
from .errors import QuixoError
from .tablebase.values import WDL_NAMES

EXIT_FAILED = 1
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130
SMALL_BOARDS = (3, 4)   # boards whose whole solution builds in seconds when first asked for


class UsageError(QuixoError):
    """An option whose value is out of range."""


def _emit(args, payload: dict, lines: list[str]) -> None:
    if args.json:
        print(json.dumps(payload))
    else:
        print("\n".join(lines))


def _depth(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"depth must be a whole number, not {text!r}")
    if value < 0:
        raise argparse.ArgumentTypeError(f"depth must be 0 or more, not {value}")
    return value


def command_perft(args) -> None:
    board = Board(args.position)
    started = time.perf_counter()
    payload = {"position": str(board), "depth": args.depth}
    if args.divide:
        counts = perft_divide(board, args.depth, threads=args.threads)
        nodes = sum(counts.values()) if args.depth > 0 else 1
        payload["divide"] = [{"move": str(m), "nodes": n} for m, n in counts.items()]
        lines = [f"{m}: {n}" for m, n in counts.items()]
    else:
        nodes = perft(board, args.depth, threads=args.threads)
        lines = []
    seconds = time.perf_counter() - started
    payload["nodes"] = nodes
    payload["seconds"] = round(seconds, 6)
    lines.append(f"nodes: {nodes}")
    lines.append(f"time: {seconds:.3f} s ({nodes / max(seconds, 1e-9) / 1e6:.1f} M/s)")
    _emit(args, payload, lines)


def _directory(args) -> Path:
    return Path(args.dir).expanduser() if args.dir else tb.default_directory()


def _board_or_start(args) -> Board:
    return Board(args.position) if args.position else Board(size=args.size)


def _terminal_answer(board: Board) -> dict | None:
    status = board.status()
    if status == 0:
        return None
    return {"value": "win" if status > 0 else "loss", "plies": 0, "best_move": None,
            "source": "terminal", "pv": []}


def _principal_variation(tablebase, board: Board) -> list[str]:
    line, child = [], board.copy(stack=False)
    while not child.is_game_over():
        moves = tablebase.probe_moves(child)
        if not moves or moves[0][1].wdl == 0:
            break  # a draw has no end to reach
        line.append(str(moves[0][0]))
        child.push(moves[0][0])
    return line


def _table_answer(tablebase, board: Board) -> dict:
    result = tablebase.probe(board)
    best = tablebase.best_move(board)
    return {"value": result.value, "plies": result.plies,
            "best_move": None if best is None else str(best), "source": "tablebase",
            "pv": _principal_variation(tablebase, board)}


def _ensure_small_board_tables(board: Board, directory: Path, args) -> None:
    if board.size in SMALL_BOARDS:
        report = tb.build(directory, board.size, jobs=getattr(args, "jobs", 0))
        if report.solved and not args.json:
            print(f"built the {board.size}x{board.size} tables in {directory} "
                  f"({report.seconds:.1f} s)", file=sys.stderr)


def command_solve(args) -> None:
    board = _board_or_start(args)
    directory = _directory(args)
    answer = _terminal_answer(board)
    if answer is None and not args.no_tablebase:
        _ensure_small_board_tables(board, directory, args)
        with tb.Tablebase(directory) as tablebase:
            try:
                answer = _table_answer(tablebase, board)
            except tb.MissingTableError:
                answer = None
    if answer is None:
        raise QuixoError(f"no table covers {board}: build its class with 'quixo tablebase "
                         f"build --size {board.size} --max-blanks K'")
    payload = {"position": str(board), **answer}
    plies = "" if answer["plies"] is None else f" in {answer['plies']} plies"
    lines = [f"{board}: {answer['value']}{plies} ({answer['source']})"]
    if answer["best_move"]:
        lines.append(f"best move: {answer['best_move']}")
    if answer["pv"]:
        lines.append("line: " + " ".join(answer["pv"]))
    _emit(args, payload, lines)


def command_analyze(args) -> None:
    board = Board(args.position)
    directory = _directory(args)
    _ensure_small_board_tables(board, directory, args)
    with tb.Tablebase(directory) as tablebase:
        moves = tablebase.probe_moves(board)
    rows = [{"move": str(move), "value": result.value, "plies": result.plies}
            for move, result in moves]
    lines = [f"{row['move']}: {row['value']}"
             + ("" if row["plies"] is None else f" in {row['plies']}") for row in rows]
    _emit(args, {"position": str(board), "moves": rows}, lines or ["no legal moves"])


def command_tablebase_build(args) -> None:
    report = tb.build(_directory(args), args.size, args.max_blanks, jobs=args.jobs,
                      force=args.force)
    payload = {"size": args.size, "directory": str(report.directory),
               "solved": len(report.solved), "already_built": len(report.skipped),
               "positions": sum(unit.positions for unit in report.solved),
               "seconds": round(report.seconds, 3)}
    _emit(args, payload, [f"solved {payload['solved']} class pairs ({payload['positions']} "
                          f"positions) in {report.seconds:.1f} s; {payload['already_built']} "
                          f"were already built, in {report.directory}"])


def command_tablebase_stats(args) -> None:
    classes = tb.stats.class_counts(_directory(args), args.size)
    lines = [f"{'mover':>5} {'opp':>4} {'win':>12} {'draw':>12} {'loss':>12}"]
    lines += [f"{c['mover']:>5} {c['opponent']:>4} {c['win']:>12} {c['draw']:>12} {c['loss']:>12}"
              for c in classes]
    if classes:
        total = {key: sum(c[key] for c in classes) for key in ("win", "draw", "loss")}
        lines.append(f"{'all':>10} {total['win']:>12} {total['draw']:>12} {total['loss']:>12}")
    _emit(args, {"size": args.size, "classes": classes}, lines)


def command_tablebase_verify(args) -> None:
    report = tb.verify(_directory(args), args.size, jobs=args.jobs)
    payload = {"size": args.size, "classes": len(report.classes),
               "positions": sum(c.positions for c in report.classes),
               "mismatches": report.mismatches,
               "failures": [{"mover": c.mover_count, "opponent": c.opponent_count,
                             "mismatches": c.mismatches, "first_indices": c.examples}
                            for c in report.classes if c.mismatches]}
    _emit(args, payload, [f"verified {payload['classes']} classes, {payload['positions']} "
                          f"positions: {report.mismatches} mismatches"])
    if not report.ok:
        raise VerificationFailed()


class VerificationFailed(Exception):
    """Exit status 1: the tables disagree with their children."""


def command_tablebase_probe(args) -> None:
    board = Board(args.position)
    with tb.Tablebase(_directory(args)) as tablebase:
        answer = _terminal_answer(board) or _table_answer(tablebase, board)
    payload = {"position": str(board), **answer}
    plies = "" if answer["plies"] is None else f" in {answer['plies']} plies"
    _emit(args, payload, [f"{answer['value']}{plies}, best move {answer['best_move']}"])


def _size(text: str) -> int:
    if text not in ("3", "4", "5"):
        raise argparse.ArgumentTypeError(f"board size must be 3, 4 or 5, not {text!r}")
    return int(text)


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}")
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected 0 or more, not {value}")
    return value


def _common(parser: argparse.ArgumentParser, *, directory: bool = False, jobs: bool = False):
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    if directory:
        parser.add_argument("--dir", help="tablebase folder (default: $QUIXO_TABLEBASE_DIR, "
                            "else the user's cache folder)")
    if jobs:
        parser.add_argument("--jobs", type=_count, default=0,
                            help="threads to use (default: every core)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="quixo", description="Quixo rules, perft, tablebases and search.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = commands.add_parser("perft", help="count move sequences from a position",
                            description="Count the move sequences of DEPTH moves from "
                            "POSITION (a move that ends the game has no continuations).")
    p.add_argument("position", metavar="POSITION",
                   help="position in SPEC notation, e.g. '...../...../...../...../..... X'")
    p.add_argument("depth", metavar="DEPTH", type=_depth, help="number of moves (0 or more)")
    p.add_argument("--divide", action="store_true", help="count per first move")
    p.add_argument("--threads", type=_count, default=0, help="cores to use (default: all)")
    _common(p)
    p.set_defaults(handler=command_perft)

    p = commands.add_parser("solve", help="value, plies and best move of a position",
                            description="Solve POSITION (default: the empty board of --size). "
                            "On 3x3 and 4x4 the whole game's tables are built into the "
                            "tablebase folder the first time.")
    p.add_argument("position", metavar="POSITION", nargs="?")
    p.add_argument("--size", type=_size, default=5, help="board size without POSITION")
    p.add_argument("--time", type=float, default=None, help="search time limit in seconds")
    p.add_argument("--depth", type=_count, default=None, help="search depth limit in plies")
    p.add_argument("--no-tablebase", action="store_true", help="do not use tables")
    _common(p, directory=True, jobs=True)
    p.set_defaults(handler=command_solve)

    p = commands.add_parser("analyze", help="every legal move with its value")
    p.add_argument("position", metavar="POSITION")
    _common(p, directory=True, jobs=True)
    p.set_defaults(handler=command_analyze)

    p = commands.add_parser("tablebase", help="build, inspect and check tablebases")
    tablebase_commands = p.add_subparsers(dest="tablebase_command", metavar="ACTION",
                                          required=True)
    q = tablebase_commands.add_parser("build", help="solve every class with few blanks")
    q.add_argument("--size", type=_size, default=5)
    q.add_argument("--max-blanks", type=_count, default=None,
                   help="only classes with at most this many blank cubes (default: all)")
    q.add_argument("--force", action="store_true",
                   help="build even if the memory or disk check says no")
    _common(q, directory=True, jobs=True)
    q.set_defaults(handler=command_tablebase_build)

    q = tablebase_commands.add_parser("stats", help="win/draw/loss counts per built class")
    q.add_argument("--size", type=_size, default=5)
    _common(q, directory=True)
    q.set_defaults(handler=command_tablebase_stats)

    q = tablebase_commands.add_parser("verify", help="re-derive every built position")
    q.add_argument("--size", type=_size, default=5)
    _common(q, directory=True, jobs=True)
    q.set_defaults(handler=command_tablebase_verify)

    q = tablebase_commands.add_parser("probe", help="look a position up")
    q.add_argument("position", metavar="POSITION")
    _common(q, directory=True)
    q.set_defaults(handler=command_tablebase_probe)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        args.handler(args)
    except (QuixoError, tb.MissingTableError) as error:
        print(f"quixo: error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except VerificationFailed:
        return EXIT_FAILED
    except KeyboardInterrupt:
        print("quixo: interrupted; finished work is kept, run the command again to resume",
              file=sys.stderr)
        return EXIT_INTERRUPTED
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
