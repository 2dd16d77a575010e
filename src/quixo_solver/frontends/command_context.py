"""What the `quixo` commands take from their arguments (the tablebase folder, the tables, the
solver of a board, the board) and how each gives its answer (`emit`: one JSON object with
--json, else lines of text)."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import tablebase as tb
from ..errors import QuixoError
from ..rules.baseboard import BaseBoard
from ..variants import find_variant, parse_board, variant_of

if TYPE_CHECKING:
    from ..search import BaseSolver

SMALL_BOARDS = (3, 4)   # boards whose whole solution builds in seconds when first asked for


def emit(args: argparse.Namespace, payload: dict[str, Any], lines: list[str]) -> None:
    """The answer: the JSON object with --json, else the lines."""
    if args.json:
        print(json.dumps(payload))
    else:
        print("\n".join(lines))


def tablebase_folder(args: argparse.Namespace) -> Path:
    """The folder of --dir, else the default one ($QUIXO_TABLEBASE_DIR or the cache)."""
    return Path(args.dir).expanduser() if args.dir else tb.default_directory()


def board_or_start(args: argparse.Namespace) -> BaseBoard:
    """The board of POSITION, else the empty board of --players and --size."""
    if args.position:
        return parse_board(args.position)
    return find_variant(args.players).start(args.size)


def ensure_small_board_tables(size: int, directory: Path, args: argparse.Namespace) -> None:
    """3x3 and 4x4 are solved whole in seconds: build them the first time they are asked
    for, so that every answer there is exact."""
    if size in SMALL_BOARDS:
        report = tb.build(directory, size, jobs=getattr(args, "jobs", 0))
        if report.solved:
            print(f"built the {size}x{size} tables in {directory} "
                  f"({report.seconds:.1f} s)", file=sys.stderr)


def open_tablebase(args: argparse.Namespace) -> tb.BaseTablebase:
    """The tables of --remote (another quixo serve), else of the folder (--dir)."""
    if args.remote is not None:
        if args.dir is not None:
            raise QuixoError("give either --dir or --remote, not both")
        return tb.RemoteTablebase(args.remote, timeout=args.remote_timeout)
    return tb.Tablebase(tablebase_folder(args))


def new_solver(board: BaseBoard, args: argparse.Namespace) -> BaseSolver[Any]:
    """The solver of the board's variant, with the tables of --dir (or --remote) where the
    variant has tables and --no-tablebase is not given."""
    variant = variant_of(board)
    tablebase = None
    if variant.reads_tables and not args.no_tablebase:
        tablebase = open_tablebase(args)
        if variant.uses_tablebases and isinstance(tablebase, tb.Tablebase):
            ensure_small_board_tables(board.size, tablebase.directory, args)
    elif args.remote is not None and args.no_tablebase:
        raise QuixoError("give either --remote or --no-tablebase, not both")
    return variant.new_solver(args.hash, tablebase, args.weights)
