"""The commands on a position or a game against the solver: `quixo perft`, `solve`,
`analyze` and `play` (each a builder `add_X` of its parser and its handler `command_X`)."""
from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from . import answers, arguments, play
from .answers import DEFAULT_SOLVE_SECONDS
from .command_context import board_or_start, emit, new_solver
from .. import limits
from ..rules._perft import perft, perft_divide
from ..variants import PLAYER_COUNTS, find_variant, parse_board

PERFT_DESCRIPTION = """Count the move sequences of exactly DEPTH moves from POSITION, as chess
perft does: a move that ends the game has no continuations, so a game that ends after fewer
than DEPTH moves adds nothing (it counts only at its own depth). --divide splits the same count
by first move."""

SOLVE_DESCRIPTION = """Solve POSITION (default: the empty board of --size). On 3x3 and 4x4 the
whole game's tables are built into the tablebase folder the first time. Alpha-beta searches
first; when it proves nothing in half of --time, a proof-number search (df-pn) takes the other
half."""

ANALYZE_DESCRIPTION = """Every legal move of POSITION with its value for the player to move,
best first; --time is shared by the moves."""


def add_perft(commands: arguments.Commands) -> None:
    """`quixo perft POSITION DEPTH`: move sequences counted."""
    parser = commands.add_parser("perft", help="count move sequences from a position",
                                 description=PERFT_DESCRIPTION)
    parser.add_argument("position", metavar="POSITION",
                        help="position in SPEC notation, e.g. '...../...../...../...../..... X', "
                        "or a four-player one such as 'Xx..o/...../...../...../..... O1'")
    parser.add_argument("depth", metavar="DEPTH", type=arguments.perft_depth,
                        help=f"number of moves (0 .. {limits.MAX_PERFT_DEPTH})")
    parser.add_argument("--divide", action="store_true", help="count per first move")
    parser.add_argument("--threads", type=arguments.threads, default=0,
                        help="cores to use (default: all)")
    arguments.add_common(parser)
    parser.set_defaults(handler=command_perft)


def command_perft(args: argparse.Namespace) -> None:
    board = parse_board(args.position)
    started = time.perf_counter()
    payload: dict[str, Any] = {"position": str(board), "depth": args.depth}
    if args.divide:
        counts = perft_divide(board, args.depth, threads=args.threads)
        nodes = sum(counts.values()) if args.depth > 0 else 1
        payload["nodes"] = nodes        # the SPEC's fields first
        payload["divide"] = [{"move": str(m), "nodes": n} for m, n in counts.items()]
        lines = [f"{m}: {n}" for m, n in counts.items()]
    else:
        nodes = perft(board, args.depth, threads=args.threads)
        payload["nodes"] = nodes
        lines = []
    seconds = time.perf_counter() - started
    payload["seconds"] = round(seconds, 6)
    lines.append(f"nodes: {nodes}")
    lines.append(f"time: {seconds:.3f} s ({nodes / max(seconds, 1e-9) / 1e6:.1f} M/s)")
    emit(args, payload, lines)


def add_solve(commands: arguments.Commands) -> None:
    """`quixo solve [POSITION]`: the value, plies and best move."""
    parser = commands.add_parser("solve", help="value, plies and best move of a position",
                                 description=SOLVE_DESCRIPTION)
    parser.add_argument("position", metavar="POSITION", nargs="?")
    parser.add_argument("--size", type=arguments.board_size, default=5,
                        help="board size without POSITION")
    parser.add_argument("--players", type=int, choices=PLAYER_COUNTS, default=2,
                        help="without POSITION: the two-player or the four-player (teams) game")
    parser.add_argument("--time", type=arguments.seconds, default=None,
                        help=f"search time limit in seconds (default {DEFAULT_SOLVE_SECONDS:g} "
                        "when no --depth is given)")
    parser.add_argument("--depth", type=arguments.plies, default=None,
                        help="search depth limit in plies")
    parser.add_argument("--prove", action="store_true",
                        help="only the proof-number search (df-pn): proves wins and losses far "
                        "beyond alpha-beta's depth, with a bound on their plies")
    arguments.add_search_options(parser)
    parser.set_defaults(handler=command_solve)


def command_solve(args: argparse.Namespace) -> None:
    board = board_or_start(args)
    answer = answers.solve_answer(board, new_solver(board, args), depth=args.depth,
                                  time=args.time, prove=args.prove)
    emit(args, answer, answers.solve_lines(answer))


def add_analyze(commands: arguments.Commands) -> None:
    """`quixo analyze POSITION`: every legal move with its value."""
    parser = commands.add_parser("analyze", help="every legal move with its value",
                                 description=ANALYZE_DESCRIPTION)
    parser.add_argument("position", metavar="POSITION")
    parser.add_argument("--time", type=arguments.seconds, default=None,
                        help="total search time in seconds")
    parser.add_argument("--depth", type=arguments.plies, default=None,
                        help="search depth limit in plies")
    arguments.add_search_options(parser)
    parser.set_defaults(handler=command_analyze)


def command_analyze(args: argparse.Namespace) -> None:
    board = parse_board(args.position)
    answer = answers.analyze_answer(board, new_solver(board, args), depth=args.depth,
                                    time=args.time)
    emit(args, answer, answers.analyze_lines(answer))


def add_play(commands: arguments.Commands) -> None:
    """`quixo play`: a game against the engine in the terminal."""
    parser = commands.add_parser("play", help="play a game against the engine in the terminal")
    parser.add_argument("--size", type=arguments.board_size, default=5)
    parser.add_argument("--players", type=int, choices=PLAYER_COUNTS, default=2,
                        help="4: the team game (you play both players of your team)")
    parser.add_argument("--as", dest="as_", choices=("X", "O", "x", "o"), default="X",
                        type=str.upper, help="the side you play (X moves first)")
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument("--time", type=arguments.seconds, default=None,
                       help="the engine's thinking time per move (default 2 s)")
    limit.add_argument("--clock", type=arguments.clock, default=None, metavar="TIME[+INCREMENT]",
                       help="a game clock for every player, such as 10m+5s, 90s, 1m30s+2s "
                       "or 300 (seconds): the engine manages its time; whoever runs out "
                       "loses on time")
    arguments.add_search_options(parser)
    parser.set_defaults(handler=command_play)


def command_play(args: argparse.Namespace) -> None:
    """The game in the terminal; with --json the dialogue goes to stderr and stdout gets one
    object once the game is over: the start, the moves, the result and why it ended."""
    board = find_variant(args.players).start(args.size)
    start = str(board)
    solver = new_solver(board, args)
    talk = sys.stderr if args.json else sys.stdout

    def prompt_on_stderr(prompt: str) -> str:
        print(prompt, end="", file=sys.stderr, flush=True)
        return input()

    result = play.run(board, solver, human=args.as_, seconds=args.time or 2.0,
                      clock=args.clock, read=prompt_on_stderr if args.json else input,
                      write=lambda line: print(line, file=talk))
    if not args.json:
        return
    reason = ("abandoned" if result == "*" else "line" if board.is_game_over() else "time")
    moves = [str(move) for move in board.move_stack]
    print(json.dumps({"start": start, "human": args.as_, "moves": moves,
                      "position": str(board), "result": result, "reason": reason}))
