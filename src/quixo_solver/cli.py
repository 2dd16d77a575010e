"""The ``quixo`` command line. Every command takes ``--json`` and then prints one JSON object;
bad input gives a message on stderr and exit status 2, never a traceback."""
from __future__ import annotations

import argparse
import json
import sys
import time

from .board import Board
from .errors import QuixoError
from ._perft import perft, perft_divide

EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130


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
    p.add_argument("--threads", type=int, default=0, help="cores to use (default: all)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(handler=command_perft)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        args.handler(args)
    except QuixoError as error:
        print(f"quixo: error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("quixo: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
