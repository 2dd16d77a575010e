"""The tiers of the four-player game: which sides are solved together, in which order, and
the solve of a tier in memory.

A tier is every position with k cubes whose teams hold T and U of them (T >= U), with either
team to move: the sides (T, U) and (U, T), or one side when T = U. A move hands the turn to
the other team: taking an own cube (or passing) stays in the tier, on its other side; taking
a blank leads from side (T, U) to side (U, T + 1) of the tier with one more cube. So the
tiers are ordered, and depend on one another, exactly as the two-player class pairs are
(tablebase/pairs.py), and a tier is solved from the full board down as a pair is.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

from ...rules.geometry import check_size
from . import _tier_retro
from ._tier_index import side_entries

Side = tuple[int, int]          # (the mover's team's cubes, the other team's)
Values = npt.NDArray[np.uint16]


@dataclass(frozen=True)
class Tier:
    size: int
    team_count: int             # T >= U
    other_count: int

    @property
    def sides(self) -> tuple[Side, ...]:
        t, u = self.team_count, self.other_count
        return ((t, u),) if t == u else ((t, u), (u, t))

    @property
    def cubes(self) -> int:
        return self.team_count + self.other_count

    @property
    def needs(self) -> tuple[Side, ...]:
        """The sides of the next tier that taking a blank leads to (none on a full board)."""
        if self.cubes == self.size * self.size:
            return ()
        return tuple(sorted({(u, t + 1) for t, u in self.sides}))

    @property
    def entries(self) -> int:
        return sum(side_entries(self.size, t, u) for t, u in self.sides)

    def __str__(self) -> str:
        return f"tier ({self.team_count}, {self.other_count})"


def tiers(size: int, max_blanks: int | None = None) -> list[Tier]:
    """Every tier with at most ``max_blanks`` blanks (all for None), each after those it
    needs."""
    check_size(size)
    cells = size * size
    fewest_cubes = 0 if max_blanks is None else max(0, cells - max_blanks)
    return [Tier(size, t, cubes - t) for cubes in range(cells, fewest_cubes - 1, -1)
            for t in range(cubes, (cubes - 1) // 2, -1)]


Progress = Callable[[Tier, int, int], None]     # (tier, n of the pass just done, most plies)


class Checkpoints(Protocol):
    """Where a solve saves its state (checkpoint.TierCheckpoints)."""

    def restore(self, sides: Sequence[_tier_retro.TierSide]) -> tuple[int, int] | None: ...
    def reached(self, sides: Sequence[_tier_retro.TierSide], plies: int,
                longest: int) -> None: ...


def solve_tier(tier: Tier, next_values: Mapping[Side, Values], threads: int = 0,
               progress: Progress | None = None,
               checkpoints: Checkpoints | None = None) -> dict[Side, Values]:
    """The value code of every entry of the tier's sides (_tier_index.pxd), for the team to
    move, given the values of the sides it needs. With `checkpoints`, the solve resumes from
    the state they hold and tells them each step it reaches (they may save it, or stop the
    solve)."""
    sides = [_tier_retro.TierSide(tier.size, t, u,
                                  next_values[(u, t + 1)] if tier.needs else None)
             for t, u in tier.sides]
    other = {0: sides[-1], len(sides) - 1: sides[0]}
    restored = None if checkpoints is None else checkpoints.restore(sides)
    if restored is None:
        longest = max(_tier_retro.mark(side, threads) for side in sides)
        plies = _tier_retro.FIRST_PASS
        if checkpoints is not None and plies - 1 <= longest:
            checkpoints.reached(sides, plies, longest)
    else:
        plies, longest = restored
    while plies - 1 <= longest:
        for i, side in enumerate(sides):
            longest = max(longest, _tier_retro.propagate(side, other[i], plies, threads))
        if progress is not None:
            progress(tier, plies, longest)
        plies += 1
        if checkpoints is not None and plies - 1 <= longest:   # (not once the solve is done)
            checkpoints.reached(sides, plies, longest)
    return {(side.index.team_count, side.index.other_count): side.take_values(threads)
            for side in sides}


def solve_board(size: int, threads: int = 0, max_blanks: int | None = None,
                progress: Progress | None = None) -> dict[Side, Values]:
    """Every side of every tier of a board with at most ``max_blanks`` blanks, solved and
    kept in memory: for boards whose tiers all fit at once (3x3: 685,965 slots)."""
    solved: dict[Side, Values] = {}
    for tier in tiers(size, max_blanks):
        solved.update(solve_tier(tier, solved, threads, progress))
    return solved
