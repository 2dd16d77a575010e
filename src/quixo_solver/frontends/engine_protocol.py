"""The engine protocol (`quixo engine`): the package's solver behind the UCI-style line protocol
of the SPEC's "Engine protocol" section, so that `quixo match` (or any other program) can play
it as a separate program.

    uci                        -> id name ..., id author ..., option name Hash ...,
                                  option name Traps type check default true, uciok
    isready                    -> readyok (at once, also while searching)
    setoption name Hash value 128
    setoption name Traps value false
    ucinewgame                 (forget the game: its position and history)
    position startpos [size N] [players 2|4] [moves M1 M2 ...]
    position POSITION [moves M1 M2 ...]
    go [xtime MS] [otime MS] [xinc MS] [oinc MS] [movetime MS] [depth D] [nodes N] [infinite]
                               -> info depth D score ... nodes N nps N time MS pv ...
                               -> bestmove M
    stop, quit

Two threads: the caller's reads the commands (`EngineSession.handle`, one line at a time), and a
search thread runs each `go`, so that `isready`, `stop` and `quit` are answered while it searches
(`BaseSolver.stop` ends a running search within about a thousand nodes). Every line goes out
whole under one lock, flushed at once.

How the protocol's choices are made here:
- The board of `position ... moves ...` is the start position with the moves pushed on it, so
  the search sees the game's history (a position that repeats an earlier one is a draw).
- `go` with the mover's clock (`xtime`, or `x1time` .. in the four-player game) plays on that
  clock: the solver decides how long to think (search/time_allocation.py). `movetime` is the
  time per move, capped at 9/10 of the mover's clock when one is given too. `depth` and `nodes`
  bound any search. `infinite`, or a `go` with no limit at all, searches until `stop` (or until the
  position is proven; `infinite` then still waits for `stop` before its `bestmove`, as UCI
  asks). A clock that has run out is taken as 1 ms: the engine still answers at once.
- `info` lines come after every completed iteration of the search, one for a table's answer
  (depth 0). `score win N` / `score loss N`: proven; N is the exact plies, or the bound on
  them when only a bound is known. `score draw`: proven. `score cp C`: the heuristic.
- `Traps` (a check option, UCI's `type check`: true or false; true when the engine has tables,
  false without): where the tables answer, play the best move that sets the opponent the most
  traps (tablebase/traps.py), not the first of the equal best moves.
- `position`, `go`, `setoption` and `ucinewgame` need the engine idle: sent during a search
  with limits, they wait for its `bestmove` (so a script may send its commands at once, as it
  may to UCI chess engines); during a search without limits they are refused.
- A command that cannot be read (unknown, malformed, out of range, an illegal move, or one that
  needs the engine idle during a search without limits) gets one line
  `info string error <reason>`, changes nothing, and the engine reads on. A refused `position`
  leaves the engine without a position, so that a later `go` is refused too instead of playing
  some other position; `go` in a finished game is refused (there is no move to play).
- `quit`, or the end of the input, stops a running search (which still sends its `bestmove`)
  and ends the engine.
"""
from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterable, TextIO

from solverkit.commandline import error_line
from solverkit.messages import cut

from solverkit.version import __version__
from ..rules.baseboard import BaseBoard
from ..errors import QuixoError
from ..limits import available_memory, check_tt_mib
from ..search import DEPTH_LIMIT, BaseSolver, SearchResult, Solver
from ..search.weights import WeightSet
from ..tablebase import Tablebase
from ..variants import VARIANTS, Variant, find_variant, parse_board, variant_of

ENGINE_NAME = f"quixo-solver {__version__}"
ENGINE_AUTHOR = "the quixo-solver developers"
HASH_OPTION = "Hash"
TRAPS_OPTION = "Traps"
CHECK_VALUES = {"true": True, "false": False}
DEFAULT_HASH_MIB = 64
MIN_HASH_MIB = 1
LARGEST_HASH_MIB = 1 << 20          # the spin's maximum on a machine with more memory than that
MAX_NODES = 2**63 - 1
MOVETIME_SHARE_OF_CLOCK = 0.9       # movetime with a clock: at most this share of the clock
EXPIRED_CLOCK_SECONDS = 0.001       # a clock at or below zero: answer at once all the same


class ProtocolError(QuixoError):
    """A command the engine cannot read; its message is the reason sent back."""


# -- reading commands -----------------------------------------------------------------------

def parse_position(tokens: list[str]) -> BaseBoard:
    """The board of `position` (the words after it): `startpos [size N] [players P]` or a
    SPEC position (board and player to move), then optionally `moves M1 M2 ...`, pushed on the
    board so that its move stack is the game's history."""
    if "moves" in tokens:
        split = tokens.index("moves")
        head, moves = tokens[:split], tokens[split + 1:]
    else:
        head, moves = tokens, []
    if not head:
        raise ProtocolError("position needs startpos or a position such as "
                            "'...../...../...../...../..... X'")
    if head[0].lower() == "startpos":
        board = _start_position(head[1:])
    else:
        if len(head) != 2:
            raise ProtocolError("position needs a board and the player to move, such as "
                                f"'XX..O/...../...../...../..... X', not {_quote(head)}")
        board = parse_board(" ".join(head))
    for number, move in enumerate(moves, 1):
        if board.is_game_over():
            raise ProtocolError(f"move {number} ({cut(move)}) comes after the end of the game")
        try:
            board.push(move)
        except QuixoError as error:
            raise ProtocolError(f"move {number} ({cut(move)}): {error}") from None
    return board


def _start_position(words: list[str]) -> BaseBoard:
    def refuse(key: str) -> str | None:
        return None if key in ("size", "players") else (
            f"position startpos takes size N and players 2|4, not {_quote([key])}")

    values, _ = _key_values(words, "position startpos", refuse)
    settings = {"size": 5, "players": 2}
    for key, value in values.items():
        if not value.isdigit() or len(value) > 3:
            raise ProtocolError(f"position startpos: {key} must be a number, not {cut(value)}")
        settings[key] = int(value)
    variant = find_variant(settings["players"])
    return variant.start(settings["size"])


def _key_values(words: list[str], command: str, refuse: Callable[[str], str | None],
                flags: tuple[str, ...] = ()) -> tuple[dict[str, str], set[str]]:
    """The `KEY VALUE` pairs and the lone `flags` of a command's words (keys lower-cased);
    `refuse(key)` is the reason a key is not one of the command's, None when it is."""
    values: dict[str, str] = {}
    given: set[str] = set()
    rest = list(words)
    while rest:
        key = rest.pop(0).lower()
        if key in given or key in values:
            raise ProtocolError(f"{command}: {key} is given twice")
        if key in flags:
            given.add(key)
            continue
        reason = refuse(key)
        if reason is not None:
            raise ProtocolError(reason)
        if not rest:
            raise ProtocolError(f"{command}: {key} needs a number")
        values[key] = rest.pop(0)
    return values, given


@dataclass(frozen=True)
class GoRequest:
    """The limits of a `go`: seconds on the mover's `clock` (and its `increment`) or a
    `movetime` in seconds; `depth` plies, `nodes`; `infinite`: until `stop`."""

    clock: float | None = None
    increment: float = 0.0
    movetime: float | None = None
    depth: int | None = None
    nodes: int | None = None
    infinite: bool = False

    @property
    def unbounded(self) -> bool:
        """Whether the search runs until `stop` (or a proof): `infinite`, or no limit."""
        return self.infinite or (self.clock is None and self.movetime is None
                                 and self.depth is None and self.nodes is None)

    def solve_arguments(self) -> dict[str, Any]:
        """The keyword arguments of `BaseSolver.solve` for these limits."""
        if self.unbounded:
            return {"depth": DEPTH_LIMIT}
        arguments: dict[str, Any] = {"depth": self.depth, "nodes": self.nodes}
        if self.movetime is not None:
            limit = self.movetime
            if self.clock is not None:
                limit = min(limit, self.clock * MOVETIME_SHARE_OF_CLOCK)
            arguments["time"] = limit
        elif self.clock is not None:
            arguments["clock"] = self.clock
            arguments["increment"] = self.increment
        return arguments


def clock_keys(variant: Variant) -> dict[str, tuple[str, str]]:
    """`go`'s clock keys of a variant: {"xtime": ("X", "time"), "xinc": ("X", "inc"), ...}
    (x1time, x2inc, ... for the four players)."""
    return {f"{player.lower()}{kind}": (player, kind)
            for player in variant.player_names for kind in ("time", "inc")}


def parse_go(tokens: list[str], board: BaseBoard) -> GoRequest:
    """The limits of `go` (the words after it) for a search of `board`."""
    variant = variant_of(board)
    clocks = clock_keys(variant)
    other_clocks = {key for other in VARIANTS if other is not variant
                    for key in clock_keys(other)} - set(clocks)
    def refuse(key: str) -> str | None:
        if key in other_clocks:
            return (f"go: {key} is not a clock of the {variant.name} game (its clocks: "
                    f"{', '.join(clocks)})")
        if key not in clocks and key not in ("movetime", "depth", "nodes"):
            return (f"go: unknown limit {_quote([key])} (limits: {', '.join(clocks)}, "
                    "movetime, depth, nodes, infinite)")
        return None

    texts, flags = _key_values(tokens, "go", refuse, flags=("infinite",))
    values = {key: _whole(key, text, negative=key.endswith("time") and key != "movetime")
              for key, text in texts.items()}
    infinite = "infinite" in flags
    if infinite and values:
        raise ProtocolError("go infinite takes no other limit: it searches until stop")
    for key, low, high in (("movetime", 1, None), ("depth", 1, DEPTH_LIMIT),
                           ("nodes", 1, MAX_NODES)):
        if key in values and not (low <= values[key] and (high is None or values[key] <= high)):
            bound = f"from {low}" + ("" if high is None else f" to {high}")
            raise ProtocolError(f"go: {key} must be {bound}, not {values[key]}")
    mover = board.turn
    clock = increment = None
    for key, (player, kind) in clocks.items():
        if player == mover and key in values:
            if kind == "time":
                clock = max(values[key] / 1000.0, EXPIRED_CLOCK_SECONDS)
            else:
                increment = values[key] / 1000.0
    return GoRequest(clock=clock, increment=increment or 0.0,
                     movetime=None if "movetime" not in values else values["movetime"] / 1000.0,
                     depth=values.get("depth"), nodes=values.get("nodes"), infinite=infinite)


def _whole(key: str, text: str, negative: bool = False) -> int:
    digits = text[1:] if negative and text.startswith("-") else text
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 19:
        raise ProtocolError(f"go: {key} must be a whole number, not {cut(text)}")
    value = int(text)
    if value > MAX_NODES:
        raise ProtocolError(f"go: {key} is too large: {cut(text)}")
    return value


def parse_setoption(tokens: list[str]) -> tuple[str, str | None]:
    """(name, value) of `setoption name N [value V]` (the words after setoption)."""
    if not tokens or tokens[0].lower() != "name":
        raise ProtocolError("setoption needs: setoption name NAME value VALUE")
    lowered = [token.lower() for token in tokens]
    if "value" in lowered:
        split = lowered.index("value")
        name, value = tokens[1:split], " ".join(tokens[split + 1:])
    else:
        name, value = tokens[1:], None
    if not name:
        raise ProtocolError("setoption needs an option name")
    return " ".join(name), value


def _quote(words: Iterable[str]) -> str:
    return repr(cut(" ".join(words)))


# -- what the engine says -------------------------------------------------------------------

def score_words(result: SearchResult) -> list[str]:
    """`win N`, `loss N`, `draw` or `cp C` of a result."""
    plies = result.plies if result.plies is not None else result.plies_at_most
    if result.value in ("win", "loss") and plies is not None:
        return [result.value, str(plies)]
    if result.value == "draw":
        return ["draw"]
    return ["cp", str(result.score)]


def info_line(result: SearchResult, seconds: float) -> str:
    """`info depth D score ... nodes N nps N time MS pv M1 M2 ...` of a search result,
    `seconds` after the `go`."""
    nps = int(result.nodes / seconds) if seconds > 0 else 0
    words = ["info", "depth", str(result.depth), "score", *score_words(result),
             "nodes", str(result.nodes), "nps", str(nps), "time", str(int(seconds * 1000))]
    if result.principal_variation:
        words += ["pv", *(str(move) for move in result.principal_variation)]
    return " ".join(words)


# -- the session ----------------------------------------------------------------------------

class EngineSession:
    """One engine: the commands of the protocol, read one line at a time by `handle` (which
    returns False after `quit`), and a search thread per `go`. `send(line)` writes a line of
    output (called under the session's lock, from either thread). `tablebase`: the folder of
    the variants with tables, or None; `hash_mib`: the transposition table's size."""

    def __init__(self, send: Callable[[str], None], tablebase: Tablebase | None = None,
                 hash_mib: int = DEFAULT_HASH_MIB, weights: WeightSet | None = None) -> None:
        self._send_line = send
        self.tablebase = tablebase
        self.weights = weights          # None: each variant's default weights
        self.hash_mib = hash_mib
        self.traps = tablebase is not None      # the Traps option
        self.max_hash_mib = max(MIN_HASH_MIB, min(LARGEST_HASH_MIB,
                                                  available_memory() // 2**20))
        self.board: BaseBoard | None = None
        self._solvers: dict[str, BaseSolver[Any]] = {}
        self._prepared: set[tuple[str, int]] = set()
        self._lock = threading.Lock()          # output lines and the searching state
        self._searching = False
        self._search_thread: threading.Thread | None = None
        self._released = threading.Event()     # `stop` or `quit` during `go infinite`
        self._solver: BaseSolver[Any] | None = None   # the one searching now
        self._unbounded = False                # the search runs until stop

    # -- output --
    def send(self, line: str) -> None:
        with self._lock:
            self._send_line(line)

    def error(self, reason: str | BaseException) -> None:
        self.send(f"info string error {error_line(reason)}")

    # -- input --
    def handle(self, line: str) -> bool:
        """Carry out one command line; False once the engine must end (`quit`)."""
        words = line.split()
        if not words:
            return True
        command, arguments = words[0].lower(), words[1:]
        try:
            if command == "quit":
                self.finish()
                return False
            handler = self._commands().get(command)
            if handler is None:
                raise ProtocolError(f"unknown command {_quote([words[0]])} (commands: uci, "
                                    "isready, setoption, ucinewgame, position, go, stop, quit)")
            handler(arguments)
        except QuixoError as error:
            self.error(error)
        except MemoryError:
            self.error("not enough memory for this command")
        except Exception as error:             # a bug: say so, and read on
            self.error(f"internal error: {type(error).__name__}: {error}")
        return True

    def _commands(self) -> dict[str, Callable[[list[str]], None]]:
        return {"uci": self._uci, "isready": self._isready, "setoption": self._setoption,
                "ucinewgame": self._new_game, "position": self._position, "go": self._go,
                "stop": self._stop}

    def _uci(self, arguments: list[str]) -> None:
        self._no_arguments("uci", arguments)
        self.send(f"id name {ENGINE_NAME}")
        self.send(f"id author {ENGINE_AUTHOR}")
        self.send(f"option name {HASH_OPTION} type spin default {self.hash_mib} "
                  f"min {MIN_HASH_MIB} max {self.max_hash_mib}")
        self.send(f"option name {TRAPS_OPTION} type check default "
                  f"{'true' if self.traps else 'false'}")
        self.send("uciok")

    def _isready(self, arguments: list[str]) -> None:
        self._no_arguments("isready", arguments)
        self.send("readyok")

    def _setoption(self, arguments: list[str]) -> None:
        name, value = parse_setoption(arguments)
        self._refuse_while_searching("setoption")
        if name.lower() == TRAPS_OPTION.lower():
            self._set_traps(value)
            return
        if name.lower() != HASH_OPTION.lower():
            raise ProtocolError(f"unknown option {_quote([name])} (options: {HASH_OPTION}, "
                                f"{TRAPS_OPTION})")
        if value is None or not value.isdigit() or len(value) > 9:
            raise ProtocolError(f"{HASH_OPTION} takes a whole number of MiB, not "
                                f"{_quote([value or ''])}")
        mib = int(value)
        if not MIN_HASH_MIB <= mib <= self.max_hash_mib:
            raise ProtocolError(f"{HASH_OPTION} must be {MIN_HASH_MIB} .. {self.max_hash_mib} "
                                f"MiB, not {mib}")
        check_tt_mib(mib, HASH_OPTION)
        if mib != self.hash_mib:
            self.hash_mib = mib
            self._solvers.clear()              # new tables, of the new size, when next used
            self._prepared.clear()

    def _set_traps(self, value: str | None) -> None:
        if value is None or value.lower() not in CHECK_VALUES:
            raise ProtocolError(f"{TRAPS_OPTION} takes true or false, not "
                                f"{_quote([value or ''])}")
        self.traps = CHECK_VALUES[value.lower()]
        for solver in self._solvers.values():
            if isinstance(solver, Solver):
                solver.traps = self.traps

    def _new_game(self, arguments: list[str]) -> None:
        self._no_arguments("ucinewgame", arguments)
        self._refuse_while_searching("ucinewgame")
        self.board = None

    def _position(self, arguments: list[str]) -> None:
        self._refuse_while_searching("position")
        self.board = None
        board = parse_position(arguments)
        self._ready_solver(board)
        self.board = board

    def _go(self, arguments: list[str]) -> None:
        self._refuse_while_searching("go")
        if self.board is None:
            raise ProtocolError("go needs a position first (position startpos ...)")
        board = self.board
        if board.is_game_over():
            raise ProtocolError(f"the game is over ({board.result()}): there is no move to "
                                "search")
        request = parse_go(arguments, board)
        solver = self._ready_solver(board)
        started = time.perf_counter()
        solver.allow()                         # here, so that a stop that follows counts
        self._released.clear()
        with self._lock:
            self._searching = True
            self._solver = solver
            self._unbounded = request.unbounded
        self._search_thread = threading.Thread(
            target=self._search, args=(solver, board.copy(), request, started),
            name="quixo-engine-search", daemon=True)
        self._search_thread.start()

    def _stop(self, arguments: list[str]) -> None:
        self._no_arguments("stop", arguments)
        with self._lock:
            if self._searching and self._solver is not None:
                self._solver.stop()
        self._released.set()

    def finish(self) -> None:
        """Stop a running search, wait for its bestmove, and end (for `quit` and the end of
        the input)."""
        self._stop([])
        if self._search_thread is not None:
            self._search_thread.join()
            self._search_thread = None

    def abort(self) -> None:
        """Stop a running search without waiting for it (its thread is a daemon)."""
        self._stop([])

    # -- searching --
    def _ready_solver(self, board: BaseBoard) -> BaseSolver[Any]:
        """The solver of the board's variant, ready for its size (made and prepared the first
        time: before any clock runs)."""
        variant = variant_of(board)
        solver = self._solvers.get(variant.name)
        if solver is None:
            solver = variant.new_solver(self.hash_mib,
                                        self.tablebase if variant.reads_tables else None,
                                        self.weights, traps=self.traps)
            self._solvers[variant.name] = solver
        if (variant.name, board.size) not in self._prepared:
            solver.allow()                     # no search runs: undo the last stop
            solver.prepare(board.size)
            self._prepared.add((variant.name, board.size))
        return solver

    def _search(self, solver: BaseSolver[Any], board: BaseBoard, request: GoRequest,
                started: float) -> None:
        """The search thread of one `go`: info lines, then bestmove (always, so that the
        other side never waits for it in vain)."""
        reported = False

        def on_iteration(result: SearchResult) -> None:
            nonlocal reported
            reported = True
            self.send(info_line(result, time.perf_counter() - started))

        move: Any = None
        try:
            result = solver.solve(board, on_iteration=on_iteration,
                                  **request.solve_arguments())
            if not reported:
                self.send(info_line(result, time.perf_counter() - started))
            move = result.best_move
        except KeyboardInterrupt:              # Ctrl-C: the reading thread ends the engine
            move = None
        except Exception as error:             # a bug: say so, and still answer
            self.error(f"internal error while searching: {type(error).__name__}: {error}")
        if move is None:
            move = next(iter(board.legal_moves))
        if request.infinite:
            self._released.wait()
        with self._lock:
            self._searching = False
            self._solver = None
            self._send_line(f"bestmove {move}")

    def _refuse_while_searching(self, command: str) -> None:
        """Before a command that needs the engine idle: wait for a search that ends by its
        limits (as a script that sends its commands at once expects); refuse the command
        while a search without limits runs (only `stop` ends it; after a stop, wait for it)."""
        with self._lock:
            thread = self._search_thread
            unbounded = self._searching and self._unbounded and not self._released.is_set()
        if unbounded:
            raise ProtocolError(f"{command} while a search without limits runs: send stop "
                                "first")
        if thread is not None:
            thread.join()
            self._search_thread = None

    @staticmethod
    def _no_arguments(command: str, arguments: list[str]) -> None:
        if arguments:
            raise ProtocolError(f"{command} takes nothing after it, not {_quote(arguments)}")


def run(input_stream: TextIO, output_stream: TextIO, tablebase: Tablebase | None = None,
        hash_mib: int = DEFAULT_HASH_MIB, weights: WeightSet | None = None) -> None:
    """`quixo engine`: read commands from `input_stream` until `quit` or its end, answer on
    `output_stream` (a line at a time, flushed)."""
    def send(line: str) -> None:
        output_stream.write(line + "\n")
        output_stream.flush()

    session = EngineSession(send, tablebase, hash_mib, weights)
    try:
        while True:
            line = input_stream.readline()
            if not line:
                session.finish()
                return
            if not session.handle(line):
                return
    except BaseException:
        session.abort()          # Ctrl-C or a closed output: leave without waiting
        raise


def check_hash(mib: float) -> int:
    """The `--hash` of `quixo engine`: a whole number of MiB that fits in memory."""
    if not float(mib).is_integer() or not math.isfinite(mib) or mib < MIN_HASH_MIB:
        raise QuixoError(f"the engine's hash is a whole number of MiB from {MIN_HASH_MIB}, "
                         f"not {mib:g}")
    check_tt_mib(mib, "the hash")
    return int(mib)
