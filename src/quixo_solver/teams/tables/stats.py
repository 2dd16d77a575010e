"""Win, draw and loss counts of the built four-player classes, from the files' headers.

A class, as SPEC "Four-player tables" names it, is the cubes of each player (the cubes whose
dot points at them) and the player to move. A side's file counts its positions by the cubes
of the roles (the mover, the next player, the mate, the last player); the game is the same
whichever seat moves, so each count of roles stands for four classes, one per seat to move,
with the same counts.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ...rules.geometry import check_size
from ...tablebase.errors import MissingTableError
from ..notation import PLAYERS
from . import files
from .tiers import tiers


def built_sides(directory: str | os.PathLike[str],
                size: int) -> list[files.SideHeader]:
    """The checked header of each built side of the board, in build order."""
    size = check_size(size)
    found = []
    for tier in tiers(size):
        for t, u in tier.sides:
            if (Path(directory) / files.side_name(size, t, u)).exists():
                found.append(files.read_header(Path(directory), size, t, u))
    return found


def class_counts(directory: str | os.PathLike[str], size: int) -> list[dict[str, Any]]:
    """One row per class of the built sides: {"counts": {"X1": .., "O1": .., "X2": ..,
    "O2": ..}, "mover": seat, "win", "draw", "loss"} over raw positions; MissingTableError
    if the folder has no four-player table of the board."""
    rows = []
    for header in built_sides(directory, size):
        t, u = header.team_count, header.other_count
        for own in range(t + 1):
            for next_ in range(u + 1):
                roles = (own, next_, t - own, u - next_)
                win, draw, loss = (int(n) for n in header.class_counts[own, next_])
                for mover in range(4):
                    rows.append({"counts": {seat: roles[(number - mover) % 4]
                                            for number, seat in enumerate(PLAYERS)},
                                 "mover": PLAYERS[mover], "win": win, "draw": draw,
                                 "loss": loss})
    if not rows:
        raise MissingTableError(f"no four-player table of the {size}x{size} board in "
                                f"{directory}")
    return rows


def writers(headers: list[files.SideHeader]) -> list[str]:
    return sorted({header.written_by for header in headers})
