"""The arguments of the `quixo` commands: their types (argparse types that check a value as the
library does, so that a bad value gets the library's message) and the options several commands
share."""
from __future__ import annotations

import argparse
from typing import Any, TypeAlias

from solverkit.commandline import (OneLineParser, number, parse_duration, parsed,
                                   whole_number_argument)

from .. import limits
from ..search import DEPTH_LIMIT
from ..tablebase.verify import MAX_SAMPLE
from ..tournament.clock import TimeControl

# what `add_subparsers` gives: each command's builder adds its parser to it
Commands: TypeAlias = "argparse._SubParsersAction[OneLineParser]"


def board_size(text: str) -> int:
    if text not in ("3", "4", "5"):
        raise argparse.ArgumentTypeError(f"board size must be 3, 4 or 5, not {text!r}")
    return int(text)


def blank_list(text: str) -> list[int]:
    """An argparse type: blank counts such as 0,1,2 or 3-6 (or both: 0,3-6)."""
    counts: list[int] = []
    for part in text.split(","):
        low, _, high = part.strip().partition("-")
        first = blanks(low)
        last = blanks(high) if high else first
        if last < first:
            raise argparse.ArgumentTypeError(f"a range of blank counts goes up, not "
                                             f"{part.strip()!r}")
        counts += range(first, last + 1)
    return counts


def _engine_setting(text: str) -> Any:
    """An argparse type: a match's engine setting such as time=1,hash=16."""
    from ..tournament.settings import EngineSetting

    return EngineSetting.parse(text)


threads = whole_number_argument("a number of threads (0: every core)", 0, limits.MAX_THREADS)
perft_depth = whole_number_argument("a depth", 0, limits.MAX_PERFT_DEPTH)
plies = whole_number_argument("a depth in plies", 1, DEPTH_LIMIT)
blanks = whole_number_argument("a number of blank cubes", 0, 25)
seconds = number("a number of seconds", lambda value: limits.check_seconds("the time", value))
mib = number("a number of MiB", lambda value: limits.check_tt_mib(value, "the table size"))
workers = whole_number_argument("a number of workers", 1, 100000)
port = whole_number_argument("a port", 1, 65535)
queue_length = whole_number_argument("a queue length", 0, 100000)
burst = whole_number_argument("a number of requests", 1, 100_000_000)
processes = whole_number_argument("a number of processes", 1, limits.MAX_SERVER_PROCESSES)
request_rate = number("a number of requests a second (0: no limit)",
                      lambda value: limits.check_positive("the rate limit", value, 1e9)
                      if value else 0.0)
gib = number("a number of GiB", lambda value: limits.check_positive("the memory", value, 1e6))
duration = parsed("a duration", parse_duration)
entry_rate = number("a number of entries per second",
                    lambda value: limits.check_positive("the throughput", value, 1e12))
pairs = whole_number_argument("a number of game pairs", 1, 1000000)
downloads = whole_number_argument("a number of files at once", 1, 64)
sample_count = whole_number_argument("a number of positions", 1, 10_000_000)
worst = whole_number_argument("a number of moves", 0, 1000000)
opening_plies = whole_number_argument("a number of opening plies", 0, 40)
max_plies = whole_number_argument("a ply limit", 1, 100000)
seed = whole_number_argument("a seed", 0, 2**63 - 1)
entries_to_verify = whole_number_argument("a number of entries", 1, MAX_SAMPLE)
clock = parsed("a time control such as 10m+5s", TimeControl.parse)
engine_setting = parsed("an engine setting such as time=1,hash=16", _engine_setting)


def _sprt_setting(text: str) -> Any:
    """An argparse type: `--sprt elo0=0,elo1=10,alpha=0.05,beta=0.05`."""
    from ..tournament.match_stats import Sprt

    return Sprt.parse(text)


sprt = parsed("a test such as elo0=0,elo1=10", _sprt_setting)


def add_search_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--no-tablebase", action="store_true", help="do not use tables")
    parser.add_argument("--hash", type=mib, default=64,
                        help="transposition table size in MiB (default 64)")
    add_weights_option(parser)
    add_common(parser, directory=True, jobs=True)
    add_remote_options(parser)


def add_remote_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--remote", metavar="URL", default=None,
                        help="probe the tables of another quixo serve (http://HOST:PORT) "
                        "instead of a folder")
    parser.add_argument("--remote-timeout", type=seconds, default=30.0, metavar="SECONDS",
                        help="seconds to wait for one answer of --remote (default 30)")


def add_weights_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--weights", metavar="FILE",
                        help="the evaluation's weights file (default: the shipped weights; "
                        "tools/tune_weights.py writes one)")


def add_common(parser: argparse.ArgumentParser, *, directory: bool = False,
               jobs: bool = False) -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    if directory:
        parser.add_argument("--dir", help="tablebase folder (default: $QUIXO_TABLEBASE_DIR, "
                            "else the user's cache folder)")
    if jobs:
        parser.add_argument("--jobs", type=threads, default=0,
                            help="threads to use (default: every core)")
