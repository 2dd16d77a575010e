"""The ``quixo`` command line. Every command takes ``--json`` and then prints one JSON object;
bad input gives one line on stderr and exit status 2, never a traceback (the frame both
command lines share: solverkit.commandline). Each command's parser and handler live with the
commands of its kind: position_commands, match_commands, service_commands and
tablebase_commands."""
from __future__ import annotations

import argparse
import sys
from typing import Sequence

from solverkit.commandline import OneLineParser, run_command
from solverkit.version import __version__

from .match_commands import add_judge, add_match
from .position_commands import add_analyze, add_perft, add_play, add_solve
from .service_commands import add_engine, add_serve
from .tablebase_commands import add_tablebase
from .. import tablebase as tb
from ..errors import QuixoError


def build_parser() -> argparse.ArgumentParser:
    """The parser of every command, in the order `quixo --help` lists them."""
    parser = OneLineParser(
        prog="quixo", description="Quixo rules, perft, tablebases and search.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    add_perft(commands)
    add_solve(commands)
    add_analyze(commands)
    add_play(commands)
    add_match(commands)
    add_judge(commands)
    add_engine(commands)
    add_tablebase(commands)
    add_serve(commands)
    # the web API reads its queries with this same parser: `quixo serve` hands it over
    parser.set_defaults(command_line=parser)
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
