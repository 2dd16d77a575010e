"""The engine as it was at commit 33b5858 (or any tree of that age), behind the engine protocol
(SPEC "Engine protocol"), so that `quixo match` can play today's engine against it:

    quixo match --engine-a 'cmd=quixo engine --no-tablebase,time=0.1' \\
        --engine-b 'cmd=python benchmarks/quixo/engines/legacy_engine.py --tree SRC,time=0.1'

    python benchmarks/quixo/engines/legacy_engine.py [--tree SRC] [--tables DIR] [--hash MIB]

`--tree` (default $QUIXO_LEGACY_TREE, else /work/ref-main/src) is the `src` folder of a built
copy of that tree; it goes first on `sys.path`, so `import quixo_solver` is the old package
(the script checks that it is), and only its public API is used: `Board`, `parse_board`,
`Solver(tt_mib, tablebase)` with `solve(board, depth=, time=, nodes=, clock=, increment=)`
and `prepare(size)`, `Tablebase(folder)`, and for four players `quixo_solver.teams.TeamBoard`
and `quixo_solver.teams.solve.TeamSolver`. Tables are off unless `--tables` names a folder.

What the old engine cannot do, and how the adapter stands in for it:
- It cannot be stopped in a search: `stop` ends a search with limits only when the search
  ends (its limits still hold); `go infinite` (or `go` with no limit) deepens one depth at a
  time and looks at `stop` between depths.
- It reports nothing while it searches: one `info` line comes with its result.
- It knows nothing of a game's history: the moves of `position ... moves ...` are played on
  the board, which the old search reads as a position alone.
A command it cannot read gets `info string error <reason>`, as the SPEC asks.
"""
from __future__ import annotations

import argparse
import os
import shlex
import sys
import threading
import time
from typing import Any, Callable, TextIO

DEFAULT_TREE = "/work/ref-main/src"
DEFAULT_HASH_MIB = 64
MAX_DEPTH = 64                   # an old search without limits deepens up to this
MOVETIME_SHARE_OF_CLOCK = 0.9    # as today's engine: movetime with a clock
COMMANDS = "uci, isready, setoption, ucinewgame, position, go, stop, quit"


class ProtocolError(ValueError):
    """A command the adapter cannot read."""


class LegacyEngine:
    """The protocol around the old package `api` (a namespace with Board, parse_board,
    Solver, Tablebase, TeamBoard, TeamSolver)."""

    def __init__(self, api: Any, send: Callable[[str], None], tables: str | None,
                 hash_mib: int) -> None:
        self.api = api
        self._send = send
        self.tables = tables
        self.hash_mib = hash_mib
        self.board: Any = None
        self._solvers: dict[str, Any] = {}
        self._prepared: set[tuple[str, int]] = set()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._searching = False
        self._unbounded = False
        self._stop = threading.Event()

    def send(self, line: str) -> None:
        with self._lock:
            self._send(line)

    # -- commands --
    def handle(self, line: str) -> bool:
        words = line.split()
        if not words:
            return True
        command, rest = words[0].lower(), words[1:]
        try:
            if command == "quit":
                self.finish()
                return False
            if command == "uci":
                self.send(f"id name quixo-solver legacy ({self.api.__version__}, "
                          f"{self.api.__file__})")
                self.send("id author the quixo-solver developers")
                self.send(f"option name Hash type spin default {self.hash_mib} min 1 "
                          "max 1048576")
                self.send("uciok")
            elif command == "isready":
                self.send("readyok")
            elif command == "stop":
                self._stop.set()
            elif command == "setoption":
                self._wait_idle(command)
                self._setoption(rest)
            elif command == "ucinewgame":
                self._wait_idle(command)
                self.board = None
            elif command == "position":
                self._wait_idle(command)
                self.board = None
                board = self._position(rest)
                self._solver(board)
                self.board = board
            elif command == "go":
                self._wait_idle(command)
                self._go(rest)
            else:
                raise ProtocolError(f"unknown command {words[0][:60]!r} (commands: "
                                    f"{COMMANDS})")
        except Exception as error:       # the old package's errors are ValueErrors too
            text = " ".join(str(error).split())[:300]
            self.send(f"info string error {text}")
        return True

    def finish(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def _wait_idle(self, command: str) -> None:
        with self._lock:
            unbounded = self._searching and self._unbounded and not self._stop.is_set()
        if unbounded:
            raise ProtocolError(f"{command} while a search without limits runs: send stop "
                                "first")
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def _setoption(self, words: list[str]) -> None:
        lowered = [word.lower() for word in words]
        if lowered[:1] != ["name"] or "value" not in lowered:
            raise ProtocolError("setoption needs: setoption name NAME value VALUE")
        split = lowered.index("value")
        name, value = " ".join(words[1:split]), " ".join(words[split + 1:])
        if name.lower() != "hash":
            raise ProtocolError(f"unknown option {name[:60]!r} (options: Hash)")
        if not value.isdigit() or not 1 <= int(value) <= 1048576:
            raise ProtocolError(f"Hash takes a whole number of MiB, not {value[:60]!r}")
        if int(value) != self.hash_mib:
            self.hash_mib = int(value)
            self._solvers.clear()
            self._prepared.clear()

    def _position(self, words: list[str]) -> Any:
        moves: list[str] = []
        if "moves" in words:
            split = words.index("moves")
            words, moves = words[:split], words[split + 1:]
        if words[:1] and words[0].lower() == "startpos":
            settings = {"size": 5, "players": 2}
            rest = words[1:]
            while rest:
                key = rest.pop(0).lower()
                if key not in settings or not rest or not rest[0].isdigit():
                    raise ProtocolError("position startpos takes size N and players 2|4")
                settings[key] = int(rest.pop(0))
            if settings["players"] == 2:
                board = self.api.Board(size=settings["size"])
            elif settings["players"] == 4 and self.api.TeamBoard is not None:
                board = self.api.TeamBoard(size=settings["size"])
            else:
                raise ProtocolError(f"this engine plays 2 or 4 players, not "
                                    f"{settings['players']}")
        elif len(words) == 2:
            board = self.api.parse_board(" ".join(words))
        else:
            raise ProtocolError("position needs startpos or a board and the player to move")
        for number, move in enumerate(moves, 1):
            try:
                board.push(move)
            except ValueError as error:
                raise ProtocolError(f"move {number} ({move[:20]}): {error}") from None
        return board

    def _solver(self, board: Any) -> Any:
        kind = type(board).__name__
        solver = self._solvers.get(kind)
        if solver is None:
            if self.api.TeamBoard is not None and isinstance(board, self.api.TeamBoard):
                solver = self.api.TeamSolver(self.hash_mib)
            else:
                tablebase = None if self.tables is None else self.api.Tablebase(self.tables)
                solver = self.api.Solver(self.hash_mib, tablebase)
            self._solvers[kind] = solver
        if (kind, board.size) not in self._prepared:
            solver.prepare(board.size)
            self._prepared.add((kind, board.size))
        return solver

    def _go(self, words: list[str]) -> None:
        board = self.board
        if board is None:
            raise ProtocolError("go needs a position first")
        if board.is_game_over():
            raise ProtocolError("the game is over: there is no move to search")
        mover = str(board.turn).lower()
        values: dict[str, int] = {}
        infinite = False
        rest = [word.lower() for word in words]
        while rest:
            key = rest.pop(0)
            if key == "infinite":
                infinite = True
                continue
            known = key in ("movetime", "depth", "nodes") or (
                key.endswith(("time", "inc")) and len(key) <= 7)
            if not known or key in values or not rest:
                raise ProtocolError(f"go: cannot read {key[:30]!r}")
            text = rest.pop(0)
            digits = text[1:] if text.startswith("-") else text
            if not digits.isdigit():
                raise ProtocolError(f"go: {key} must be a whole number, not {text[:30]!r}")
            values[key] = int(text)
        limits: dict[str, Any] = {}
        if "depth" in values:
            limits["depth"] = values["depth"]
        if "nodes" in values:
            limits["nodes"] = values["nodes"]
        clock = values.get(f"{mover}time")
        if "movetime" in values:
            seconds = values["movetime"] / 1000
            if clock is not None:
                seconds = min(seconds, max(clock, 1) / 1000 * MOVETIME_SHARE_OF_CLOCK)
            limits["time"] = seconds
        elif clock is not None:
            limits["clock"] = max(clock, 1) / 1000
            limits["increment"] = values.get(f"{mover}inc", 0) / 1000
        unbounded = infinite or not limits
        solver = self._solver(board)
        self._stop.clear()
        with self._lock:
            self._searching, self._unbounded = True, unbounded
        self._thread = threading.Thread(target=self._search,
                                        args=(solver, board, limits, infinite, unbounded),
                                        daemon=True)
        self._thread.start()

    # -- searching --
    def _search(self, solver: Any, board: Any, limits: dict[str, Any], infinite: bool,
                unbounded: bool) -> None:
        started = time.perf_counter()
        move = None
        try:
            if unbounded:
                for depth in range(1, MAX_DEPTH + 1):
                    result = solver.solve(board, depth=depth)
                    self.send(_info(result, time.perf_counter() - started))
                    move = result.best_move
                    if result.value != "unknown" or self._stop.is_set():
                        break
            else:
                result = solver.solve(board, **limits)
                self.send(_info(result, time.perf_counter() - started))
                move = result.best_move
        except Exception as error:
            self.send(f"info string error the old engine failed: {type(error).__name__}: "
                      f"{' '.join(str(error).split())[:200]}")
        if move is None:
            move = next(iter(board.legal_moves))
        if infinite:
            self._stop.wait()
        with self._lock:
            self._searching = False
            self._send(f"bestmove {move}")


def _info(result: Any, seconds: float) -> str:
    if result.value in ("win", "loss") and result.plies is not None:
        score = f"{result.value} {result.plies}"
    elif result.value == "draw":
        score = "draw"
    else:
        score = f"cp {result.score}"
    nps = int(result.nodes / seconds) if seconds > 0 else 0
    line = (f"info depth {result.depth} score {score} nodes {result.nodes} nps {nps} "
            f"time {int(seconds * 1000)}")
    if result.principal_variation:
        line += " pv " + " ".join(str(move) for move in result.principal_variation)
    return line


def load_api(tree: str) -> Any:
    """The old package's public API, from `tree` put first on sys.path."""
    tree = os.path.abspath(tree)
    if not os.path.isdir(os.path.join(tree, "quixo_solver")):
        raise SystemExit(f"legacy_engine: no quixo_solver package in {tree}")
    sys.path.insert(0, tree)
    import quixo_solver
    if not os.path.abspath(quixo_solver.__file__).startswith(tree + os.sep):
        raise SystemExit(f"legacy_engine: imported {quixo_solver.__file__}, not the tree "
                         f"{tree}")
    api = argparse.Namespace(Board=quixo_solver.Board, Solver=quixo_solver.Solver,
                             Tablebase=quixo_solver.Tablebase,
                             parse_board=quixo_solver.parse_board,
                             TeamBoard=None, TeamSolver=None,
                             __version__=getattr(quixo_solver, "__version__", "?"),
                             __file__=tree)
    try:
        from quixo_solver.teams import TeamBoard
        from quixo_solver.teams.solve import TeamSolver
        api.TeamBoard, api.TeamSolver = TeamBoard, TeamSolver
    except ImportError:
        pass
    return api


def run(api: Any, input_stream: TextIO, output_stream: TextIO, tables: str | None,
        hash_mib: int) -> None:
    def send(line: str) -> None:
        output_stream.write(line + "\n")
        output_stream.flush()

    engine = LegacyEngine(api, send, tables, hash_mib)
    while True:
        line = input_stream.readline()
        if not line:
            engine.finish()
            return
        if not engine.handle(line):
            return


def command(tree: str) -> str:
    """The command line of this adapter over `tree`, run by this Python (for `cmd=`)."""
    return shlex.join([sys.executable, os.path.abspath(__file__), "--tree", tree])


def portable(text: str, tree: str) -> str:
    """`text` with the paths of this machine that `command(tree)` holds replaced by names:
    python, this script's folder as the project names it (benchmarks/quixo/engines),
    LEGACY_SRC for `tree`."""
    here = os.path.dirname(os.path.abspath(__file__))
    repository = os.path.dirname(os.path.dirname(os.path.dirname(here)))
    for path, name in ((sys.executable, "python"), (here, os.path.relpath(here, repository)),
                       (os.path.abspath(tree), "LEGACY_SRC"), (tree, "LEGACY_SRC")):
        text = text.replace(path, name)
    return text


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", default=os.environ.get("QUIXO_LEGACY_TREE", DEFAULT_TREE),
                        help="the src folder of the old, built tree (default "
                        "$QUIXO_LEGACY_TREE, else %(default)s)")
    parser.add_argument("--tables", default=None, help="tablebase folder (default: none)")
    parser.add_argument("--hash", type=int, default=DEFAULT_HASH_MIB, help="MiB")
    args = parser.parse_args(argv)
    api = load_api(args.tree)
    try:
        run(api, sys.stdin, sys.stdout, args.tables, args.hash)
    except (KeyboardInterrupt, BrokenPipeError):
        pass


if __name__ == "__main__":
    main()
