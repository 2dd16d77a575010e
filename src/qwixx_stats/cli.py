"""The `qwixx` command line: probabilities, value, advise, simulate.

Every command takes --json and then prints exactly one JSON object on stdout; errors go to
stderr as exactly one line `qwixx: error: ...` with exit status 2 and nothing on stdout.
Exit status: 0 success (also when the reader of stdout went away: `qwixx ... | head -1`),
1 an internal error (a bug: one line naming it, no traceback), 2 bad input or a file problem,
130 interrupted (Ctrl-C).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path
from typing import Any, Callable, NoReturn

from solverkit.progress import Progress

from . import probabilities
from solverkit.messages import SHOWN as CLIP, silence_stdout

from .errors import QwixxError, cut, cut_path
from .game import MAX_PLAYERS, Option
from .sheet import Dice, Sheet
from .simulate import MAX_GAMES, parse_strategies, simulate
from .solitaire import (TABLE_NAME, ExpectedValues, check_writable_directory,
                        states_to_solve, table_directory)

EXIT_INTERNAL = 1
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130
MESSAGE_LIMIT = 300      # characters of an error line (user text in it is cut to ~60)


class UsageError(QwixxError):
    """Bad command-line arguments (reported by argparse)."""


class Parser(argparse.ArgumentParser):
    """argparse that reports a usage error as one `qwixx: error:` line (no usage text)."""

    def error(self, message: str) -> NoReturn:
        # argparse quotes the user's text ('...'): cut long quotes, and the list of
        # unrecognized arguments, to about CLIP characters
        message = re.sub(r"'([^']{%d})[^']+'" % CLIP, r"'\1...'", message)
        lead = "unrecognized arguments: "
        if message.startswith(lead):
            message = cut(message, len(lead) + CLIP)
        raise UsageError(message)


def whole_number(name: str, low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number low..high, refused with a message giving the bounds."""
    def convert(text: str) -> int:
        stripped = text.strip().replace("_", "")
        digits = stripped[1:] if stripped[:1] in "+-" else stripped
        if not (digits.isascii() and digits.isdigit()):
            raise argparse.ArgumentTypeError(f"must be a whole number {low:,}..{high:,}, "
                                             f"not {cut(repr(text))}")
        value = int(stripped) if len(digits) <= 30 else (high + 1 if stripped[0] != "-"
                                                            else low - 1)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be {low:,}..{high:,}, not "
                                             f"{cut(text.strip())}")
        return value
    convert.__name__ = name
    return convert


def emit(args: argparse.Namespace, payload: dict[str, Any], text: str) -> None:
    print(json.dumps(payload) if args.json else text)


def table_folder(args: argparse.Namespace) -> Path:
    """--dir (~ expanded), else $QWIXX_TABLE_DIR or the cache folder."""
    if args.dir is not None and not args.dir.strip():
        raise QwixxError("--dir must name a folder, not an empty string")
    return table_directory(args.dir)


def load_values(args: argparse.Namespace) -> ExpectedValues:
    directory = table_folder(args)
    bar = None
    if not (directory / TABLE_NAME).exists():
        check_writable_directory(directory)        # fail now, not after a minute of solving
        print(f"qwixx: solving the single-player table into {directory} (once)", file=sys.stderr)
        bar = Progress(states_to_solve(), "single-player table")
    try:
        return ExpectedValues.load(directory, progress=bar.advance if bar else None)
    finally:
        if bar:
            bar.close()


def parse_sheet(text: str | None) -> Sheet:
    return Sheet() if text is None else Sheet.parse(text)


def command_probabilities(args: argparse.Namespace) -> None:
    emit(args, probabilities.tables_json(), probabilities.tables_text())


def command_value(args: argparse.Namespace) -> None:
    sheet = parse_sheet(args.sheet)
    value = load_values(args).value(sheet)
    emit(args, {"sheet": str(sheet), "expected_score": value},
         f"{sheet}\nscore now {sheet.score()}, expected final score {value:.4f} "
         "(single player, optimal play)")


def describe(option: Option) -> dict[str, Any]:
    first, second = option
    return {"white": first,
            "colour": None if second is None else {"row": second[0], "number": second[1]},
            "penalty": first is None and second is None}


def option_text(option: Option, dice: Dice) -> str:
    first, second = option
    parts = []
    if first is not None:
        parts.append(f"white sum {dice.white_sum} in {first}")
    if second is not None:
        parts.append(f"{second[1]} in {second[0]} (white + {second[0]})")
    return " then ".join(parts) if parts else "no mark: penalty"


def command_advise(args: argparse.Namespace) -> None:
    sheet = Sheet.parse(args.sheet)
    dice = Dice.parse(args.dice)
    if sheet.is_finished():
        raise QwixxError(f"the game is over on this sheet ({sheet})")
    values = load_values(args)
    if args.passive:
        choices = values.passive_options(sheet, dice)
        options = [{"white": row, "colour": None, "penalty": False, "expected_score": v}
                   for row, v in choices]
        lines = [f"{v:9.4f}  " + (f"white sum {dice.white_sum} in {row}" if row else "no mark")
                 for row, v in choices]
    else:
        scored = values.active_options(sheet, dice)
        options = [dict(describe(option), expected_score=v) for option, v in scored]
        lines = [f"{v:9.4f}  {option_text(option, dice)}" for option, v in scored]
    emit(args, {"sheet": str(sheet), "dice": str(dice), "active": not args.passive,
                "options": options},
         f"{sheet}\ndice {dice} ({'non-active' if args.passive else 'active'} player); "
         "expected final score, best first:\n" + "\n".join(lines))


def command_simulate(args: argparse.Namespace) -> None:
    strategies = parse_strategies(args.strategy, args.players)
    values = load_values(args) if any(s.name == "optimal" for s in strategies) else None
    bar = Progress(args.games, "games")
    try:
        result = simulate(strategies, args.games, args.seed, values=values,
                          progress=bar.advance, keep_games=False)
    finally:
        bar.close()
    summary = result.summary()
    rate = summary["games_per_second"]
    lines = [f"{summary['games']} games, seed {summary['seed']}, "
             f"{summary['mean_turns']:.2f} turns on average"
             + (f", {rate:,.0f} games/s" if rate else "")]
    lines.append(f"{'seat':>4}  {'strategy':<12} {'mean':>8} {'std':>7} {'min':>5} {'max':>5} "
                 f"{'win rate':>9}")
    for player in summary["players"]:
        lines.append(f"{player['seat']:>4}  {player['strategy']:<12} {player['mean']:>8.2f} "
                     f"{player['std']:>7.2f} {player['min']:>5} {player['max']:>5} "
                     f"{player['win_rate']:>9.4f}")
    emit(args, summary, "\n".join(lines))


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="qwixx", description="Exact Qwixx statistics.")
    commands = parser.add_subparsers(dest="command", required=True)

    def add(name: str, handler: Callable[[argparse.Namespace], None], help_text: str,
            table: bool = False) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help_text)
        sub.add_argument("--json", action="store_true", help="print one JSON object")
        if table:
            sub.add_argument("--dir", help="folder of the single-player table "
                             "(default: $QWIXX_TABLE_DIR, else the cache folder; ~ is "
                             "expanded)")
        sub.set_defaults(handler=handler)
        return sub

    add("probabilities", command_probabilities, "exact dice probabilities for one row")
    value = add("value", command_value, "expected final score of optimal single-player play",
                table=True)
    value.add_argument("--sheet", help="the sheet at the start of a turn (default: empty)")
    advise = add("advise", command_advise, "every option for a roll, best first", table=True)
    advise.add_argument("--sheet", required=True)
    advise.add_argument("--dice", required=True, help="white,white,red,yellow,green,blue")
    advise.add_argument("--passive", action="store_true",
                        help="advise a non-active player (white sum only, no penalty)")
    sim = add("simulate", command_simulate, "games between strategies", table=True)
    sim.add_argument("--players", type=whole_number("--players", 1, MAX_PLAYERS), default=2,
                     help=f"1..{MAX_PLAYERS} (default 2)")
    sim.add_argument("--strategy", default="optimal",
                     help="one for all or one per player: optimal, greedy, cautious:K, random")
    sim.add_argument("--games", type=whole_number("--games", 1, MAX_GAMES), default=10_000,
                     help=f"1..{MAX_GAMES:,} (default 10,000; memory does not grow with it)")
    sim.add_argument("--seed", type=whole_number("--seed", 0, 2 ** 64 - 1), default=0,
                     help="0..2**64-1 (default 0)")
    return parser


def fail(message: str, status: int = EXIT_BAD_INPUT) -> int:
    """Report one line on stderr (newlines folded, length bounded) and return `status`."""
    line = " ".join(str(message).split())
    print(f"qwixx: error: {cut(line, MESSAGE_LIMIT)}", file=sys.stderr)
    return status


def os_error_text(error: OSError) -> str:
    where = f" ({cut_path(os.fsdecode(error.filename))})" if error.filename else ""
    return f"{error.strerror or error}{where}"


def main(argv: list[str] | None = None) -> int:
    try:
        try:
            args = build_parser().parse_args(argv)
        except SystemExit as exit_:              # --help or --version: already printed
            return exit_.code if isinstance(exit_.code, int) else 0
        args.handler(args)
        sys.stdout.flush()                       # a closed pipe shows up here, not at exit
    except BrokenPipeError:   # the reader went away (`qwixx probabilities | head -1`)
        silence_stdout()
        return 0
    except QwixxError as error:
        return fail(str(error))
    except OSError as error:
        return fail(os_error_text(error))
    except KeyboardInterrupt:
        print("qwixx: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except MemoryError:
        return fail("not enough memory for this request")
    except Exception as error:                   # a bug: one line, no traceback
        return fail(f"internal error: {type(error).__name__}: {error}", EXIT_INTERNAL)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
