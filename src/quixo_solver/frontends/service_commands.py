"""The commands that serve the solver to other programs: `quixo engine` (the engine protocol on
stdin and stdout) and `quixo serve` (the explorer, in the browser and as a JSON API)."""
from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path
from typing import Any

from . import arguments
from .answers import DEFAULT_SOLVE_SECONDS
from .command_context import tablebase_folder
from .. import tablebase as tb
from ..errors import QuixoError
from ..search.weights import weight_set


ENGINE_DESCRIPTION = """The engine protocol of the SPEC (UCI-style, one command per line on
stdin, answers on stdout): uci, isready, setoption name Hash value MIB (and Traps value
true|false: the best table move that sets the opponent the most traps), ucinewgame, position
startpos [size N] [players 2|4] [moves ...] or position POSITION [moves ...], go [xtime MS]
[otime MS] [xinc MS] [oinc MS] [movetime MS] [depth D] [nodes N] [infinite], stop, quit. Any
program can play the engine this way; quixo match --engine-a 'cmd=quixo engine,time=0.1' does.
A command it cannot read gets 'info string error REASON' and the engine reads on."""

SERVE_DESCRIPTION = """Serve the explorer (pages for Quixo and Qwixx and the JSON API
/api/v1/...) until Ctrl-C. Needs the web extra: pip install "quixo-solver[web]". The 3x3 and
4x4 tables are built into --dir first when missing."""


def add_engine(commands: arguments.Commands) -> None:
    """`quixo engine`: the engine protocol on stdin and stdout."""
    parser = commands.add_parser("engine", help="speak the engine protocol on stdin/stdout",
                                 description=ENGINE_DESCRIPTION)
    parser.add_argument("--hash", type=arguments.mib, default=64,
                        help="transposition table size in MiB (default 64; the Hash option)")
    parser.add_argument("--no-tablebase", action="store_true", help="do not use tables")
    arguments.add_weights_option(parser)
    parser.add_argument("--dir", help="tablebase folder (default: $QUIXO_TABLEBASE_DIR, else the "
                        "user's cache folder); the engine probes the tables built there")
    parser.set_defaults(handler=command_engine)


def command_engine(args: argparse.Namespace) -> None:
    from . import engine_protocol

    hash_mib = engine_protocol.check_hash(args.hash)
    tablebase = None if args.no_tablebase else tb.Tablebase(tablebase_folder(args))
    if isinstance(sys.stdin, io.TextIOWrapper):   # bytes that are not UTF-8: an unknown
        sys.stdin.reconfigure(errors="replace")   # command, not a crash
    engine_protocol.run(sys.stdin, sys.stdout, tablebase, hash_mib, weight_set(args.weights))


def add_serve(commands: arguments.Commands) -> None:
    """`quixo serve`: the explorer until Ctrl-C."""
    parser = commands.add_parser("serve", help="the explorer: every move's value in the browser",
                                 description=SERVE_DESCRIPTION)
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1; the server has no "
                        "authentication)")
    parser.add_argument("--port", type=arguments.port, default=8000, help="port (default 8000)")
    parser.add_argument("--open", action="store_true", help="open the explorer in a browser")
    parser.add_argument("--search-time", type=arguments.seconds, default=None, metavar="SECONDS",
                        help="a search's time when a request gives no time or depth (default "
                        f"{DEFAULT_SOLVE_SECONDS:g})")
    parser.add_argument("--max-search-time", type=arguments.seconds, default=None,
                        metavar="SECONDS",
                        help="the longest search a request may ask for (default 60)")
    parser.add_argument("--searches", type=arguments.workers, default=None,
                        help="searches at once (default: one per core)")
    parser.add_argument("--queue", type=arguments.queue_length, default=None,
                        help="requests that may wait for a search (default 8); more get 503")
    parser.add_argument("--hash", type=arguments.mib, default=64,
                        help="each search's transposition table in MiB (default 64)")
    parser.add_argument("--rate-limit", type=arguments.request_rate, default=None,
                        metavar="PER_SECOND",
                        help="API requests a second each client may make after a burst (default "
                        "50; 0: no limit); more get 429 with Retry-After")
    parser.add_argument("--burst", type=arguments.burst, default=None,
                        help="API requests a client may make at once (default 500)")
    parser.add_argument("--processes", type=arguments.processes, default=None,
                        help="server processes on the one port (default: one per core; the "
                        "rate limits, searches and queue are the whole server's)")
    parser.add_argument("--check-tables", action="store_true",
                        help="check every block of every table at start-up, while serving (a "
                        "damaged table is found at once, and every probe after it is as fast as "
                        "a warm one)")
    parser.add_argument("--access-log", default="-", metavar="FILE",
                        help="one line per request, appended to FILE ('-': stderr, the default; "
                        "'off': none)")
    parser.add_argument("--qwixx-dir", default=None,
                        help="the Qwixx tables' folder (default: $QWIXX_TABLE_DIR, else the cache "
                        "folder)")
    parser.add_argument("--dir", help="tablebase folder (default: $QUIXO_TABLEBASE_DIR, else the "
                        "user's cache folder)")
    parser.set_defaults(handler=command_serve, json=False)


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
                         ("rate_limit", "rate"), ("burst", "burst"),
                         ("processes", "processes")):
        if getattr(args, option) is not None:
            options[name] = getattr(args, option)
    qwixx = Path(args.qwixx_dir).expanduser() if args.qwixx_dir else None
    settings = Settings(tablebase_folder(args), qwixx, check_tables=args.check_tables, **options)
    serve(settings, args.command_line, args.host, args.port, open_browser=args.open,
          access_log=args.access_log)
