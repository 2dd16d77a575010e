"""The `qwixx` command line: probabilities, value, advise, simulate, track.

Every command takes --json and then prints exactly one JSON object on stdout. The frame is the
one both command lines share (solverkit.commandline): bad input gets exactly one line
`qwixx: error: ...` on stderr with exit status 2 and nothing on stdout; exit status 0 on
success (also when the reader of stdout went away: `qwixx ... | head -1`), 1 on an internal
error (a bug: one line naming it, no traceback), 130 when interrupted (Ctrl-C).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Callable, Optional, TypeVar

from solverkit.commandline import OneLineParser, run_command, whole_number_argument
from solverkit.messages import cut_path
from solverkit.progress import Progress
from solverkit.version import __version__

from . import answers
from .rules import probabilities
from .track import tracker
from .errors import QwixxError
from .rules.game import MAX_PLAYERS, Option
from .tables.race import RaceTable, race_name
from .rules.constants import LOCK_RULES, MARKS_TO_LOCK
from .rules.sheet import Dice, Sheet
from .strategies.simulate import MAX_GAMES, STRATEGY_HELP, parse_strategies, simulate
from .tables.solitaire import (ExpectedValues, check_writable_directory, states_to_solve,
                               table_directory, table_name)
from .advisor import ADVISED_STRATEGIES, Advisor
from .strategies.registry import DEFAULT_JUDGE, Reads, reads


def choices_metavar(choices: tuple[object, ...]) -> str:
    """`{5,4}`: an option's choices in its usage, as argparse writes them for `choices=`."""
    return "{" + ",".join(map(str, choices)) + "}"


def emit(args: argparse.Namespace, payload: dict[str, Any], text: str) -> None:
    print(json.dumps(payload) if args.json else text)


def table_folder(args: argparse.Namespace) -> Path:
    """--dir (~ expanded), else $QWIXX_TABLE_DIR or the cache folder."""
    if args.dir is not None and not args.dir.strip():
        raise QwixxError("--dir must name a folder, not an empty string")
    return table_directory(args.dir)


T = TypeVar("T")


def load_table(args: argparse.Namespace, name: str, what: str,
               load: Callable[[Path, Optional[Callable[[int], None]]], T]) -> T:
    """A table from the table folder, solved first (with a progress bar on a terminal) when
    it is not there yet."""
    directory = table_folder(args)
    bar = None
    if not (directory / name).exists():
        check_writable_directory(directory)        # fail now, not after a minute of solving
        print(f"qwixx: solving the {what} into {directory} (once)", file=sys.stderr)
        bar = Progress(states_to_solve(), what)
    try:
        return load(directory, bar.advance if bar else None)
    finally:
        if bar:
            bar.close()


def load_values(args: argparse.Namespace, lock_after: int | None = None) -> ExpectedValues:
    rule = args.lock_after if lock_after is None else lock_after
    return load_table(args, table_name(rule), "single-player table",
                      lambda folder, progress: ExpectedValues.load(
                          folder, progress=progress, lock_after=rule))


def load_race(args: argparse.Namespace, players: int, lock_after: int | None = None) -> RaceTable:
    rule = args.lock_after if lock_after is None else lock_after
    return load_table(args, race_name(players, rule), f"{players}-player race table",
                      lambda folder, progress: RaceTable.load(
                          folder, players=players, lock_after=rule, progress=progress))


def load_advisor(args: argparse.Namespace) -> Callable[[int, int], Advisor]:
    def advisor(players: int, lock_after: int) -> Advisor:
        return Advisor(load_race(args, players, lock_after), load_values(args, lock_after),
                       getattr(args, "judge", DEFAULT_JUDGE))
    return advisor


def add_judge(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--judge", type=answers.read_judge, default=DEFAULT_JUDGE,
                        metavar=choices_metavar(ADVISED_STRATEGIES),
                        help="with opponents: the strategy whose chance of winning ranks the "
                        "choices: win (the race model right after the choice, default) or "
                        "lookahead (the choice played to the end of the turn, then the learned "
                        "value at two players, stronger in play)")


def command_probabilities(args: argparse.Namespace) -> None:
    emit(args, dict(probabilities.tables_json(), lock_after=args.lock_after),
         probabilities.tables_text())


def command_value(args: argparse.Namespace) -> None:
    sheet = answers.read_sheet(args.sheet, args.lock_after)
    answer = answers.value_answer(sheet, load_values(args))
    emit(args, answer, f"{sheet}\nscore now {sheet.score()}, expected final score "
         f"{answer['expected_score']:.4f} (single player, optimal play, lock after "
         f"{args.lock_after} marks)")


def option_text(option: Option, dice: Dice) -> str:
    first, second = option
    parts = []
    if first is not None:
        parts.append(f"white sum {dice.white_sum} in {first}")
    if second is not None:
        parts.append(f"{second[1]} in {second[0]} (white + {second[0]})")
    return " then ".join(parts) if parts else "no mark: penalty"


def entry_text(entry: dict[str, Any], dice: Dice, passive: bool) -> str:
    """An option of an advise answer as the text lists it."""
    if passive:
        row = entry["white"]
        return f"white sum {dice.white_sum} in {row}" if row else "no mark"
    return option_text(answers.option_of(entry), dice)


def command_advise(args: argparse.Namespace) -> None:
    sheet = Sheet.parse(args.sheet, args.lock_after)
    dice = Dice.parse(args.dice)
    opponents = (None if args.opponents is None
                 else answers.read_opponents(args.opponents, args.lock_after))
    answers.check_advice(sheet, opponents, args.passive, args.roller)
    if opponents is not None:
        advise_to_win(args, sheet, dice, opponents)
        return
    answer = answers.advise_answer(sheet, dice, load_values(args), args.passive)
    lines = [f"{entry['expected_score']:9.4f}  {entry_text(entry, dice, args.passive)}"
             for entry in answer["options"]]
    emit(args, answer, f"{sheet}\ndice {dice} ({'non-active' if args.passive else 'active'} "
         "player); expected final score, best first:\n" + "\n".join(lines))


def advise_to_win(args: argparse.Namespace, sheet: Sheet, dice: Dice,
                  opponents: list[Sheet]) -> None:
    """advise --opponents: every option by its chance of winning (answers.advise_to_win_answer:
    the race model's estimate, and unless --rollouts 0 the chance measured by playing the game
    on, with its standard error), with the expected score (single-player optimum) beside."""
    advisor = load_advisor(args)(len(opponents) + 1, args.lock_after)
    answer = answers.advise_to_win_answer(sheet, dice, opponents, advisor, args.passive,
                                          args.roller, args.rollouts, args.seed)
    lines = []
    for entry in answer["options"]:
        sampled = ""
        if "measured_win_chance" in entry:
            sampled = (f"{100 * entry['measured_win_chance']:7.2f}% "
                       f"+-{100 * entry['standard_error']:5.2f}  ")
        lines.append(f"{sampled}{100 * entry['win_chance']:7.2f}%  "
                     f"{entry['expected_score']:9.4f}  {entry_text(entry, dice, args.passive)}")
    head = ("measured (+- standard error)  " if args.rollouts else "") + (
        f"model  expected  (model: the chance as the `{args.judge}` strategy estimates it; "
        "expected: the single-player optimum's final score)")
    emit(args, answer,
         f"{sheet}\nagainst {len(opponents)} opponent(s); dice {dice} "
         f"({'non-active' if args.passive else 'active'} player)\n{head}\n" + "\n".join(lines))


def command_simulate(args: argparse.Namespace) -> None:
    strategies = parse_strategies(args.strategy, args.players)
    rotate = not args.fixed_seats
    games = args.games
    if rotate and games % args.players:
        games += args.players - games % args.players
        print(f"qwixx: playing {games:,} games (a multiple of {args.players}, so that every "
              "strategy plays every seat equally often)", file=sys.stderr)
        if games > MAX_GAMES:
            raise QwixxError(f"--games: at most {MAX_GAMES:,} with seat rotation for "
                             f"{args.players} players")
    needed = reads(strategies)
    values = load_values(args) if Reads.VALUES in needed else None
    race = load_race(args, args.players) if Reads.RACE in needed and args.players > 1 else None
    bar = Progress(games, "games")
    try:
        result = simulate(strategies, games, args.seed, values=values, race=race,
                          progress=bar.advance, keep_games=False, rotate=rotate,
                          lock_after=args.lock_after)
    finally:
        bar.close()
    summary = result.summary()
    rate = summary["games_per_second"]
    endings = summary["endings"]
    lines = [f"{summary['games']:,} games, seed {summary['seed']}, lock after "
             f"{summary['lock_after']}, seats {'rotated' if rotate else 'fixed'}; "
             f"{summary['mean_turns']:.2f} turns on average"
             + (f", {rate:,.0f} games/s" if rate else ""),
             f"ended by two closed rows {endings['locks']:,}, by a fourth penalty "
             f"{endings['penalties']:,}"]
    lines.append(f"{'player':>6}  {'strategy':<12} {'mean':>8} {'std':>7} {'min':>5} {'max':>5} "
                 f"{'win rate':>9}  95% interval")
    for player in summary["players"]:
        low, high = player["win_rate_ci95"]
        lines.append(f"{player['player']:>6}  {player['strategy']:<12} {player['mean']:>8.2f} "
                     f"{player['std']:>7.2f} {player['min']:>5} {player['max']:>5} "
                     f"{player['win_rate']:>9.4f}  {low:.4f}..{high:.4f}")
    emit(args, summary, "\n".join(lines))


def command_track(args: argparse.Namespace) -> None:
    tracker.command(args, load_advisor(args))


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="qwixx", description="Exact Qwixx statistics.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    def add(name: str, handler: Callable[[argparse.Namespace], None], help_text: str,
            table: bool = False, lock_rule: bool = True) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help_text)
        sub.add_argument("--json", action="store_true", help="print one JSON object")
        if table:
            sub.add_argument("--dir", help="folder of the tables "
                             "(default: $QWIXX_TABLE_DIR, else the cache folder; ~ is "
                             "expanded)")
        if lock_rule:
            sub.add_argument("--lock-after", type=answers.read_lock_after,
                             default=MARKS_TO_LOCK, metavar=choices_metavar(LOCK_RULES),
                             help="marks a row needs before its last number: 5 (the printed "
                             "rules, default) or 4 (the variant of the rules summary); each "
                             "has its own tables")
        sub.set_defaults(handler=handler)
        return sub

    add("probabilities", command_probabilities, "exact dice probabilities for one row (the "
        "chances of a roll are the same under both lock rules)")
    value = add("value", command_value, "expected final score of optimal single-player play",
                table=True)
    value.add_argument("--sheet", help="the sheet at the start of a turn (default: empty)")
    advise = add("advise", command_advise, "every option for a roll, best first", table=True)
    advise.add_argument("--sheet", required=True)
    advise.add_argument("--dice", required=True, help="white,white,red,yellow,green,blue")
    advise.add_argument("--passive", action="store_true",
                        help="advise a non-active player (white sum only, no penalty)")
    advise.add_argument("--opponents", metavar="SHEET;SHEET...",
                        help="the other players' sheets: rank the options by the estimated "
                        "chance of winning (the `win` strategy's race model, and measured by "
                        "rollouts); the opponents in turn order after you")
    advise.add_argument("--rollouts", type=answers.read_rollouts,
                        default=answers.DEFAULT_ROLLOUTS, help="with --opponents: games played "
                        "on per option to measure its chance, with a standard error (default "
                        "1,000; 0: the model's estimate only)")
    advise.add_argument("--seed", type=answers.read_seed, default=answers.DEFAULT_SEED,
                        help="of the rollouts (default 0)")
    advise.add_argument("--roller", type=answers.read_roller, default=None,
                        help="with --passive: which opponent rolled (default 1)")
    add_judge(advise)
    sim = add("simulate", command_simulate, "games between strategies", table=True)
    sim.add_argument("--players", type=whole_number_argument("a number of players", 1, MAX_PLAYERS), default=2,
                     help=f"1..{MAX_PLAYERS} (default 2)")
    sim.add_argument("--strategy", default="max-score",
                     help=f"one for all or one per player (default max-score): {STRATEGY_HELP}")
    sim.add_argument("--games", type=whole_number_argument("a number of games", 1, MAX_GAMES), default=10_000,
                     help=f"1..{MAX_GAMES:,} (default 10,000; memory does not grow with it)")
    sim.add_argument("--seed", type=answers.read_seed, default=answers.DEFAULT_SEED,
                     help="0..2**64-1 (default 0)")
    sim.add_argument("--fixed-seats", action="store_true",
                     help="keep each strategy in its seat (default: rotate the seats game by "
                     "game, every strategy playing every seat equally often)")
    track = add("track", command_track, "keep the sheets of a game at a real table, with "
                "advice for one player", table=True, lock_rule=False)
    tracker.add_arguments(track)
    add_judge(track)
    return parser


def interrupted(args: argparse.Namespace) -> str:
    """The line Ctrl-C leaves: what was kept (a tracked game's completed turns are saved)."""
    saved = getattr(args, "save", None) or getattr(args, "resume", None)
    if getattr(args, "command", None) == "track" and saved:
        return (f"interrupted; the completed turns are saved in {cut_path(saved)} (go on with "
                f"--resume {cut_path(saved)})")
    return "interrupted"


def main(argv: list[str] | None = None) -> int:
    return run_command("qwixx", build_parser(), argv, (QwixxError,), interrupted)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
