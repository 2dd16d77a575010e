"""Who plays a side of a match: this package's solver, built from its setting, or a cmd=
program (`ExternalEngine`); how each is asked for its move, and how the programs end.
"""
from __future__ import annotations

import os
from typing import Any

from .clock import GameClock
from .engine_process import describe_command
from .external_engine import ExternalEngine, answer_seconds, go_command, position_command
from .settings import EngineSetting, MatchSettings
from ..rules.baseboard import BaseBoard
from ..tablebase import Tablebase

Player = Any     # a BaseSolver (this package's engine) or an ExternalEngine (cmd=)


def build_solver(setting: EngineSetting, settings: MatchSettings,
                 tables: str | os.PathLike[str] | None, label: str = "engine") -> Player:
    """A solver of a setting, ready to play (`prepare`: before any clock runs); for cmd=, the
    program (started before its first game)."""
    if setting.cmd is not None:
        return ExternalEngine(setting, f"engine {label} ({describe_command(setting.cmd)})")
    variant = settings.variant
    use_tables = variant.reads_tables and setting.tables
    solver = variant.new_solver(setting.hash, Tablebase(tables) if use_tables else None,
                                setting.weights, traps=setting.traps)
    solver.prepare(settings.size)
    return solver


def close_players(players: dict[str, Player]) -> None:
    """End the programs among `players` (the solvers need nothing)."""
    for player in players.values():
        if isinstance(player, ExternalEngine):
            player.close()


def choose_move(player: Player, setting: EngineSetting, settings: MatchSettings,
                board: BaseBoard, history: list[str], clocks: GameClock, mover: str,
                start: str | None) -> Any:
    """The move (a move object, or a program's text) of the engine to move."""
    if isinstance(player, ExternalEngine):
        return player.move(position_command(settings, history, start),
                           go_command(setting, clocks),
                           answer_seconds(setting, clocks, mover))
    if setting.clock is not None:
        result = player.solve(board, depth=setting.depth, nodes=setting.nodes,
                              clock=clocks.left(mover), increment=setting.clock.increment)
    else:
        result = player.solve(board, depth=setting.depth, time=setting.time,
                              nodes=setting.nodes)
    return result.best_move
