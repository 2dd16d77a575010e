"""The summary of a match: its settings, the statistics of every recorded game (match_stats)
and what this run did, as JSON (written beside the records file) and as the lines the command
line prints.
"""
from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

from solverkit.arrayfile import write_atomically

from .run import MatchRun
from .settings import MatchSettings


def summary(run: MatchRun, settings: MatchSettings, pairs: int, jobs: int,
            records_path: str | os.PathLike[str]) -> dict[str, Any]:
    """The match's JSON summary: its settings, the statistics (match_stats) and this run."""
    engines = {name: setting.to_json() for name, setting in settings.engines.items()}
    for name, program in run.program_names.items():
        engines[name]["program_name"] = program
    return {"engines": engines,
            "size": settings.size, "players": settings.players, "seed": settings.seed,
            "opening_plies": settings.opening_plies, "max_plies": settings.max_plies,
            "pairs_requested": pairs, **run.statistics,
            "games_played_now": run.played, "seconds_now": round(run.seconds, 1),
            "games_per_minute": (None if run.games_per_minute is None
                                 else round(run.games_per_minute, 2)),
            "jobs": jobs, "records": os.fspath(records_path)}


def summary_path(records_path: str | os.PathLike[str]) -> Path:
    """Where the summary of a records file goes: games.jsonl -> games.summary.json."""
    return Path(records_path).with_suffix(".summary.json")


def write_summary(path: Path, payload: dict[str, Any]) -> None:
    write_atomically(path, [(json.dumps(payload, indent=2) + "\n").encode("utf-8")])


def summary_lines(payload: dict[str, Any], records: Path, summary_file: Path) -> list[str]:
    """The summary as the command line prints it without --json."""
    engines = payload["engines"]
    lines = [f"engine A: {engines['A']['setting']}", f"engine B: {engines['B']['setting']}",
             f"{payload['size']}x{payload['size']}, {payload['players']} players, "
             f"{payload['pairs']} game pairs ({payload['games']} games) from openings of "
             f"{payload['opening_plies']} random plies, seed {payload['seed']}, "
             f"ply limit {payload['max_plies']}"]
    if payload["score"] is not None:
        low, high = payload["score_interval_95"]
        lines.append(f"A: +{payload['wins']} ={payload['draws']} -{payload['losses']}, "
                     f"score {payload['score']:.4f} (95%: {low:.4f} .. {high:.4f})")
    if payload["elo"] is not None:
        lines.append(f"Elo difference (A - B): {payload['elo']:+.1f} +- "
                     f"{payload['elo_error_95']:.1f} (95%, game-pair variance)")
    if payload["note"]:
        lines.append(payload["note"])
    reasons = ", ".join(f"{reason} {count}" for reason, count in payload["reasons"].items())
    on_time = payload["losses_on_time"]
    lines.append(f"games ended by: {reasons}; lost on time: A {on_time['A']}, B {on_time['B']}")
    for engine, forfeits in payload["forfeits"].items():
        if forfeits["crash"] or forfeits["illegal move"]:
            lines.append(f"engine {engine} forfeited: crash {forfeits['crash']}, illegal move "
                         f"{forfeits['illegal move']}, time {forfeits['time']}")
    lines += fastchess_lines(payload)
    rate = payload["games_per_minute"]
    lines.append(f"played {payload['games_played_now']} games now in "
                 f"{payload['seconds_now'] / 60:.1f} min"
                 + ("" if rate is None else f" ({rate:.1f} a minute)")
                 + f"; records in {records}, summary in {summary_file}")
    return lines


def fastchess_lines(payload: dict[str, Any]) -> list[str]:
    """The match's report in fastchess's layout (its "Results of ..." block), for the games
    of complete pairs."""
    games, pairs = payload["games"], payload["pairs"]
    if not pairs:
        return []
    kinds = payload["pair_kinds"]
    engines = payload["engines"]
    points = payload["wins"] + payload["draws"] / 2
    losing_pairs = kinds["LD"] + kinds["LL"]
    pairs_ratio = ((kinds["WW"] + kinds["WD"]) / losing_pairs if losing_pairs else math.inf)
    wl_dd = payload["wl_dd_ratio"]
    elo = ("inf" if payload["elo"] is None else
           f"{payload['elo']:.2f} +/- {payload['elo_error_95']:.2f}")
    nelo = ("n/a" if payload["nelo"] is None else
            f"{payload['nelo']:.2f} +/- {payload['nelo_error_95']:.2f}")
    lines = ["-" * 50,
             f"Results of A vs B ({engines['A']['setting']} - {engines['B']['setting']}):",
             f"Elo: {elo}, nElo: {nelo}",
             f"LOS: {payload['los'] * 100:.2f} %, DrawRatio: {payload['draw_ratio'] * 100:.2f} "
             f"%, PairsRatio: {pairs_ratio:.2f}",
             f"Games: {games}, Wins: {payload['wins']}, Losses: {payload['losses']}, Draws: "
             f"{payload['draws']}, Points: {points:.1f} ({points / games * 100:.2f} %)",
             "Ptnml(0-2): [" + ", ".join(str(n) for n in payload["pentanomial"]) + "], "
             f"WL/DD Ratio: {'inf' if wl_dd is None else format(wl_dd, '.2f')}"]
    sprt = payload.get("sprt")
    if sprt is not None:
        lines.append(f"LLR: {sprt['llr']:.2f} ({sprt['fraction'] * 100:.1f}%) "
                     f"({sprt['lower_bound']:.2f}, {sprt['upper_bound']:.2f}) "
                     f"[{sprt['elo0']:.2f}, {sprt['elo1']:.2f}]")
        if sprt["result"] != "continue":
            lines.append(f"SPRT ({sprt['model']}): {sprt['result']}")
    lines.append("-" * 50)
    return lines
