"""The `qwixx` command line: probabilities, value, advise, simulate.

Every command takes --json and then prints exactly one JSON object on stdout; errors go to
stderr with exit status 2 and a message that names the problem.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from quixo_solver.progress import Progress

from . import probabilities
from .errors import QwixxError
from .sheet import Dice, Sheet
from .simulate import StrategyError, parse_strategies, simulate
from .solitaire import TABLE_NAME, ExpectedValues, default_directory, states_to_solve

EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130


def emit(args, payload: dict, text: str) -> None:
    print(json.dumps(payload) if args.json else text)


def load_values(args) -> ExpectedValues:
    directory = Path(args.dir) if args.dir else default_directory()
    bar = None
    if not (directory / TABLE_NAME).exists():
        print(f"qwixx: solving the single-player table into {directory} (once)", file=sys.stderr)
        bar = Progress(states_to_solve(), "single-player table")
    try:
        return ExpectedValues.load(directory, progress=bar.advance if bar else None)
    finally:
        if bar:
            bar.close()


def parse_sheet(text: str | None) -> Sheet:
    return Sheet() if text is None else Sheet.parse(text)


def command_probabilities(args) -> None:
    emit(args, probabilities.tables_json(), probabilities.tables_text())


def command_value(args) -> None:
    sheet = parse_sheet(args.sheet)
    value = load_values(args).value(sheet)
    emit(args, {"sheet": str(sheet), "expected_score": value},
         f"{sheet}\nscore now {sheet.score()}, expected final score {value:.4f} "
         "(single player, optimal play)")


def describe(option) -> dict:
    first, second = option
    return {"white": first,
            "colour": None if second is None else {"row": second[0], "number": second[1]},
            "penalty": first is None and second is None}


def option_text(option, dice: Dice) -> str:
    first, second = option
    parts = []
    if first is not None:
        parts.append(f"white sum {dice.white_sum} in {first}")
    if second is not None:
        parts.append(f"{second[1]} in {second[0]} (white + {second[0]})")
    return " then ".join(parts) if parts else "no mark: penalty"


def command_advise(args) -> None:
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


def command_simulate(args) -> None:
    strategies = parse_strategies(args.strategy, args.players)
    if args.games < 1:
        raise QwixxError(f"--games must be at least 1, not {args.games}")
    if not 0 <= args.seed < 2 ** 64:
        raise QwixxError(f"--seed must be 0 .. 2**64-1, not {args.seed}")
    values = load_values(args) if any(s.name == "optimal" for s in strategies) else None
    bar = Progress(args.games, "games")
    try:
        result = simulate(strategies, args.games, args.seed, values=values,
                          progress=bar.advance)
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
    parser = argparse.ArgumentParser(prog="qwixx", description="Exact Qwixx statistics.")
    commands = parser.add_subparsers(dest="command", required=True)

    def add(name: str, handler, help_text: str, table: bool = False):
        sub = commands.add_parser(name, help=help_text)
        sub.add_argument("--json", action="store_true", help="print one JSON object")
        if table:
            sub.add_argument("--dir", help="folder of the single-player table "
                             "(default: $QWIXX_TABLE_DIR, else the cache folder)")
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
    sim.add_argument("--players", type=int, default=2)
    sim.add_argument("--strategy", default="optimal",
                     help="one for all or one per player: optimal, greedy, cautious:K, random")
    sim.add_argument("--games", type=int, default=10_000)
    sim.add_argument("--seed", type=int, default=0)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        args.handler(args)
    except (QwixxError, StrategyError) as error:
        print(f"qwixx: error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except OSError as error:
        where = f" ({error.filename})" if error.filename else ""
        print(f"qwixx: error: {error.strerror or error}{where}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("qwixx: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
