"""Reading four-player values from a folder's tables: `TeamTablebase`.

Each side's file is opened (and its head, trailer and block index checked) the first time a
position of that side is probed; a block is checked before its values are used (files.py).
Probes from several threads take turns (one lock: a probe is one block's decompression at
most).
"""
from __future__ import annotations

import os
import threading
from pathlib import Path

from ...tablebase.errors import MissingTableError
from . import files
from ._tier_index import TierSideIndex
from .tiers import tiers

Roles = tuple[int, int, int, int]


class TeamTablebase:
    """The four-player tables of one folder."""

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)
        self._sides: dict[tuple[int, int, int], tuple[TierSideIndex, files.SideTable]] = {}
        self._lock = threading.Lock()

    def close(self) -> None:
        with self._lock:
            for _, table in self._sides.values():
                table.close()
            self._sides.clear()

    def has_side(self, size: int, team_count: int, other_count: int) -> bool:
        with self._lock:
            return self._side(size, team_count, other_count) is not None

    def has_size(self, size: int) -> bool:
        """Whether any side of the board is built."""
        return any((self.directory / files.side_name(size, t, u)).exists()
                   for tier in tiers(size) for t, u in tier.sides)

    def code_of(self, size: int, roles: Roles) -> int:
        """The value code (_value_code.pxd) of a position for the team to move;
        MissingTableError when its side is not built."""
        team = bin(roles[0] | roles[2]).count("1")
        other = bin(roles[1] | roles[3]).count("1")
        with self._lock:
            opened = self._side(size, team, other)
            if opened is None:
                raise MissingTableError(f"the four-player tables of side ({team}, {other}) of "
                                        f"{size}x{size} are not in {self.directory}")
            index, table = opened
            return table.value(index.index_of(roles))

    def _side(self, size: int, team_count: int,
              other_count: int) -> tuple[TierSideIndex, files.SideTable] | None:
        """The side's index and opened file; None while it is not built (looked for again
        on the next probe: a build may be adding it)."""
        key = (size, team_count, other_count)
        opened = self._sides.get(key)
        if opened is None:
            path = self.directory / files.side_name(*key)
            if not path.exists():
                return None
            opened = self._sides[key] = (TierSideIndex(*key), files.SideTable(path, key))
        return opened
