"""Running an engine match (``quixo match``), as cutechess runs them for chess engines: two
engine settings play game pairs from random openings, each opening once with each colour, and
the result is a score with its interval and an Elo difference with its error (`match_stats`).

The games not yet in the records file (records.py) are played on worker processes, the file
rewritten after every game, so an interrupted match loses at most the games being played.
Each worker builds its own solvers (and programs) once; a depth-limited game does not depend on
which worker plays it, nor on the games before it, because every search starts from a cleared
transposition table.

With a sequential test (`match_stats.Sprt`, `--sprt`), the match stops once the test decides:
after each game the test is run on the complete pairs recorded; once it accepts H0 or H1 no
game starts, the results of games still running are not recorded, and running the match again
plays nothing more.
"""
from __future__ import annotations

import atexit
import concurrent.futures
import multiprocessing
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from solverkit.messages import clip, cut_path
from solverkit.progress import Progress

from . import match_stats
from .external_engine import check_programs
from .game import play_game
from .match_stats import Sprt
from .players import Player, build_solver, close_players
from .records import read_records, write_records
from .settings import MatchSettings
from ..errors import MatchError
from ..tablebase import Tablebase

MAX_PAIRS = 1000000


@dataclass
class MatchRun:
    """What `run_match` did: the statistics of every recorded game of the match, the games
    played by this run and its wall time (and the cmd= programs' names, when it ran them)."""

    statistics: dict[str, Any]
    played: int
    seconds: float
    records: list[dict[str, Any]] = field(default_factory=list)
    program_names: dict[str, str | None] = field(default_factory=dict)

    @property
    def games_per_minute(self) -> float | None:
        return None if self.seconds <= 0 or not self.played else self.played / self.seconds * 60


_worker_state: dict[str, Any] = {}


def _start_worker(settings: MatchSettings, tables: str | None) -> None:
    """A worker's own solvers (and programs), built once, used for every game it plays; the
    programs end with the worker."""
    _worker_state["settings"] = settings
    _worker_state["solvers"] = {name: build_solver(setting, settings, tables, name)
                                for name, setting in settings.engines.items()}
    _worker_state["tables"] = adjudicator(settings, tables)
    atexit.register(close_players, _worker_state["solvers"])


def _worker_game(pair: int, game: int) -> dict[str, Any]:
    return play_game(_worker_state["settings"], pair, game, _worker_state["solvers"],
                     tables=_worker_state["tables"])


def adjudicator(settings: MatchSettings, tables: str | os.PathLike[str] | None
                ) -> Tablebase | None:
    """The tables an adjudicated match adjudicates by (None for a match that is not);
    MatchError if the folder holds none of the match's board size."""
    if not settings.adjudicate:
        return None
    if tables is None or not Tablebase(tables).has_size(settings.size):
        raise MatchError(f"no {settings.size}x{settings.size} tables to adjudicate by in "
                         f"{'no folder' if tables is None else cut_path(tables)}")
    return Tablebase(tables)


def run_match(settings: MatchSettings, pairs: int, records_path: str | os.PathLike[str], *,
              jobs: int = 0, tables: str | os.PathLike[str] | None = None,
              stop_after: float | None = None, progress: bool | None = None,
              sprt: Sprt | None = None) -> MatchRun:
    """Play the games of pairs 0 .. pairs-1 not yet in the records file on `jobs` worker
    processes (0: one per core; 1: in this process), writing the file after every game.
    `tables`: the tablebase folder of engines with tables on (build 3x3 and 4x4 first:
    `quixo match` does). `stop_after` seconds: start no game after that (resume later).
    `sprt`: stop once the test decides (see the module docstring).
    A progress bar on a terminal (`progress` None), none otherwise."""
    if isinstance(pairs, bool) or not isinstance(pairs, int) or not 1 <= pairs <= MAX_PAIRS:
        raise MatchError(f"the number of game pairs must be 1 .. {MAX_PAIRS}, not "
                         f"{clip(pairs)}")
    path = Path(records_path)
    records = read_records(path, settings)

    def decided() -> bool:
        if sprt is None:
            return False
        return sprt.decided(match_stats.summarize(list(records.values()))["pentanomial"])

    finished = decided()
    todo = [] if finished else [(pair, game) for pair in range(pairs) for game in (0, 1)
                                if (pair, game) not in records]
    names = check_programs(settings) if todo else {}
    judge_tables = adjudicator(settings, tables) if todo else None
    workers = min(jobs or os.cpu_count() or 1, max(len(todo), 1))
    folder = None if tables is None else os.fspath(tables)
    bar = Progress(len(todo), "", enabled=progress)
    started = time.perf_counter()
    played = 0

    def keep(record: dict[str, Any]) -> None:
        nonlocal played, finished
        if finished:            # the test decided while this game ran: it does not count
            return
        records[(record["pair"], record["game"])] = record
        write_records(path, records)
        played += 1
        stats = match_stats.summarize(list(records.values()))
        bar.advance(1, f"A +{stats['wins']} ={stats['draws']} -{stats['losses']}")
        finished = decided()

    def may_start() -> bool:
        return not finished and (stop_after is None
                                 or time.perf_counter() - started < stop_after)

    try:
        if workers <= 1:
            solvers: dict[str, Player] = {}
            try:
                if todo:
                    solvers = {name: build_solver(setting, settings, folder, name)
                               for name, setting in settings.engines.items()}
                for pair, game in todo:
                    if not may_start():
                        break
                    keep(play_game(settings, pair, game, solvers, tables=judge_tables))
            finally:
                close_players(solvers)
        else:
            _run_in_workers(settings, folder, todo, workers, keep, may_start)
    finally:
        bar.close()
    ordered = [records[key] for key in sorted(records)]
    return MatchRun(match_stats.summarize(ordered, sprt), played,
                    time.perf_counter() - started, ordered, names)


def _run_in_workers(settings: MatchSettings, tables: str | None,
                    todo: list[tuple[int, int]], workers: int,
                    keep: Callable[[dict[str, Any]], None],
                    may_start: Callable[[], bool]) -> None:
    """At most `workers` games at a time, in game order; a new one starts as one ends.
    Workers are spawned (not forked): the kernels' OpenMP threads do not survive a fork."""
    context = multiprocessing.get_context("spawn")
    waiting = iter(todo)
    with concurrent.futures.ProcessPoolExecutor(
            workers, mp_context=context, initializer=_start_worker,
            initargs=(settings, tables)) as pool:
        running: set[concurrent.futures.Future[dict[str, Any]]] = set()
        try:
            while True:
                while len(running) < workers and may_start():
                    task = next(waiting, None)
                    if task is None:
                        break
                    running.add(pool.submit(_worker_game, *task))
                if not running:
                    break
                done, running = concurrent.futures.wait(
                    running, return_when=concurrent.futures.FIRST_COMPLETED)
                for future in done:
                    keep(future.result())
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
