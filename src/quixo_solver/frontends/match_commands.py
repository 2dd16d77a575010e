"""The commands of tournament play: `quixo match` (engine settings against each other) and
`quixo judge` (moves judged by the tables)."""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from . import arguments
from .command_context import emit, ensure_small_board_tables, tablebase_folder
from .. import limits
from ..errors import QuixoError
from ..variants import PLAYER_COUNTS


MATCH_DESCRIPTION = """Game pairs between engine settings A and B from random openings, each
opening played once with each colour, on --jobs worker processes; prints the wins/draws/losses
of A, the score with its 95% interval and the Elo difference with its error (from the variance
of the game pairs), and writes the summary as JSON and one line per game to the records file. A
draw is adjudicated on the third repetition of a position and at the ply limit, and with
--adjudicate any game once its position is in the tables. Running the same match with the same
records file again resumes it. An engine setting is keys such as 'time=1' (seconds per move),
'depth=6', 'nodes=100000', 'clock=10s+0.1s', 'hash=64' (MiB), 'tables=on|off', 'traps=on|off'
(with tables: the best move that sets the opponent the most traps), separated by commas;
'cmd=PROGRAM ARGS' plays a program that speaks the engine protocol ('cmd=quixo
engine,time=0.1'), which loses a game when it crashes, answers late or plays an illegal move.
--sprt stops the match once a sequential test decides."""

JUDGE_DESCRIPTION = """Judge moves by the tables: each move made from a position in the tables
is an error if it drops the value (win to draw or loss, draw to loss) and perfect if it keeps
the value and the exact plies (the fastest win, the longest loss, any draw); in a kept win or
loss, the plies lost are those beyond the fastest win or short of the longest loss. Prints,
per engine, the moves, the judged ones, the errors, the error rate overall and by blanks, the
share of perfect moves, the mean plies lost and the worst moves with their positions. The
moves are those of recorded games (--games) or each engine's choice in the positions of a
file (--positions; only the positions in the tables are played)."""


def add_match(commands: arguments.Commands) -> None:
    """`quixo match`: two engine settings play game pairs."""
    parser = commands.add_parser("match", help="play two engine settings against each other",
                                 description=MATCH_DESCRIPTION)
    parser.add_argument("--engine-a", type=arguments.engine_setting, required=True,
                        metavar="SETTING")
    parser.add_argument("--engine-b", type=arguments.engine_setting, required=True,
                        metavar="SETTING")
    parser.add_argument("--pairs", type=arguments.pairs, default=20, help="game pairs (default 20)")
    parser.add_argument("--size", type=arguments.board_size, default=5)
    parser.add_argument("--players", type=int, choices=PLAYER_COUNTS, default=2,
                        help="4: the team game (one team is engine A, the other engine B)")
    parser.add_argument("--seed", type=arguments.seed, default=1,
                        help="seed of the openings (default 1)")
    parser.add_argument("--opening-plies", type=arguments.opening_plies, default=4,
                        help="random plies of each opening (default 4)")
    parser.add_argument("--max-plies", type=arguments.max_plies, default=200,
                        help="a game that reaches this many plies is a draw (default 200)")
    parser.add_argument("--openings", metavar="FILE", default=None,
                        help="start the games from the positions of FILE (one per line, '#' "
                        "starts a comment), pair N from its N-th (cycling), before the random "
                        "plies of --opening-plies (give 0 to play them as they are)")
    parser.add_argument("--adjudicate", action="store_true",
                        help="end a game as soon as its position is in the tables of --dir, "
                        "scored as the tables say (the record's adjudication gives the position "
                        "and its value)")
    parser.add_argument("--records", default="quixo-match.jsonl", metavar="FILE",
                        help="the game records, one JSON line per game (default "
                        "quixo-match.jsonl); an existing file of the same match is resumed")
    parser.add_argument("--summary", default=None, metavar="FILE",
                        help="the JSON summary (default: the records file's name with "
                        ".summary.json)")
    parser.add_argument("--stop-after", type=arguments.duration, default=None, metavar="DURATION",
                        help="start no game after this long (90m, 2h30m, or minutes; run again to "
                        "resume)")
    parser.add_argument("--sprt", type=arguments.sprt, default=None,
                        metavar="elo0=E0,elo1=E1[,alpha=A,beta=B]",
                        help="a sequential probability ratio test of normalized Elo "
                        "(pentanomial, as fastchess and OpenBench): the match stops once it "
                        "accepts H0 or H1 (alpha and beta default to 0.05); --pairs is then the "
                        "most it plays")
    arguments.add_common(parser, directory=True)
    parser.add_argument("--jobs", type=arguments.threads, default=0,
                        help="games played at once, one worker process each (default: one per "
                        "core)")
    parser.set_defaults(handler=command_match)


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
    directory = tablebase_folder(args)
    if settings.variant.uses_tablebases and (settings.adjudicate or any(
            e.uses_tables for e in settings.engines.values())):
        # once here, before the workers start: each of them opens the finished tables
        ensure_small_board_tables(args.size, directory, args)
    jobs = args.jobs or limits.check_threads(0)
    run = run_match(settings, args.pairs, records, jobs=jobs, tables=directory,
                    stop_after=args.stop_after, sprt=args.sprt)
    payload = summary(run, settings, args.pairs, jobs, records)
    payload["summary"] = str(summary_file)
    write_summary(summary_file, payload)
    emit(args, payload, summary_lines(payload, records, summary_file))


def add_judge(commands: arguments.Commands) -> None:
    """`quixo judge`: moves judged by the tables."""
    parser = commands.add_parser("judge", help="judge moves against the tables",
                                 description=JUDGE_DESCRIPTION)
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--positions", metavar="FILE",
                        help="one SPEC position per line ('#' starts a comment): each "
                        "--engine's move in each of them is judged")
    source.add_argument("--set", metavar="SET",
                        help="a position set with exact answers, by name (quixo-4x4, shipped) "
                        "or file: each --engine's move in each position, scored by stage "
                        "without tables")
    source.add_argument("--games", metavar="FILE",
                        help="the game records of quixo match (JSON lines), or lines "
                        '{"start": POSITION, "moves": [...]}: every move is judged')
    parser.add_argument("--engine", action="append", default=[], metavar="SETTING",
                        help="an engine setting as quixo match takes it ('depth=4,tables=off', "
                        "'cmd=quixo engine --no-tablebase'); give it more than once to judge "
                        "several")
    parser.add_argument("--go", default="movetime 100", metavar="GO",
                        help="the limits of an engine whose setting gives none: the protocol's "
                        "go arguments movetime MS, depth D, nodes N (default 'movetime 100')")
    parser.add_argument("--worst", type=arguments.worst, default=10,
                        help="the worst moves listed per engine (default 10)")
    arguments.add_common(parser, directory=True)
    parser.set_defaults(handler=command_judge)


def command_judge(args: argparse.Namespace) -> None:
    from ..tournament import judge

    directory = tablebase_folder(args)
    extra: dict[str, Any]
    if args.set is not None:
        _judge_set(args, directory)
        return
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
    emit(args, payload, judge.report_lines(payload))


def _judge_set(args: argparse.Namespace, directory: Path) -> None:
    """`quixo judge --set FILE`: each engine's move in each position of a set, scored by the
    set's own answers (mistakes, optimal moves, plies lost, by stage, with intervals)."""
    from ..tournament import judge, position_sets

    if not args.engine:
        raise QuixoError("--set needs at least one --engine SETTING")
    found = position_sets.PositionSet.named_or_read(args.set)
    settings = [(text, judge.engine_setting(text, args.go)) for text in args.engine]
    scores = []
    for text, setting in settings:
        player = judge.PositionPlayer(setting, directory, text)
        try:
            scores.append({"engine": text,
                           **position_sets.score(found, player.move)})
        finally:
            player.close()
    lines = []
    for row in scores:
        lines.append(f"{row['engine']}: {row['mistakes']} mistakes in {row['positions']} "
                     f"positions ({_percent(row['mistake_rate'])}, 95% "
                     f"{_interval(row['mistake_interval'])}); optimal "
                     f"{_percent(row['optimal_share'])}")
        lines += [f"  {stage:<14} {part['positions']:>5} positions, mistakes "
                  f"{_percent(part['mistake_rate'])} {_interval(part['mistake_interval'])}, "
                  f"optimal {_percent(part['optimal_share'])}"
                  for stage, part in row["by_stage"].items()]
    emit(args, {"set": found.name, "positions": len(found.positions), "go": args.go,
                "engines": scores}, lines)


def _percent(share: float | None) -> str:
    return "-" if share is None else f"{100 * share:.1f}%"


def _interval(bounds: list[float] | None) -> str:
    return "" if bounds is None else f"[{100 * bounds[0]:.1f}, {100 * bounds[1]:.1f}]"
