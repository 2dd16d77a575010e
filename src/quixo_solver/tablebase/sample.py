"""`quixo tablebase sample`: positions drawn at random, each with its exact value and plies
from the tables, for training and testing agents.

The rule. Given a board size, a set B of blank counts and a seed, the sample is N positions
drawn independently, with replacement, and uniformly from every position with a number of
blanks in B: every SPEC position (the board and the player to move) of those blank counts has
the same chance, 1 / (2 R), where R is the number of raw positions (arrangements of cubes on
the board) of their classes. Positions with a line on the board and unreachable ones are
included, as in the tables' counts (SPEC "Terminal positions"). The draw, with numpy's
default generator (PCG64) seeded with the seed:
- first a class (mover's cubes a, opponent's cubes b) of the blank counts B, with chance
  exactly proportional to its raw positions (an integer drawn uniformly below R, placed among
  the classes' cumulative counts, in the order of B sorted, then a from 0);
- then the cells of its cubes: a uniformly random permutation of a mover's, b opponent's and
  the blank cells (numpy's Generator.permuted, row by row);
- then the player to move, X or O, with chance 1/2 each (a class is relative to the player to
  move: the mover's cubes show the mover's symbol).
The same seed, blank counts, count and numpy version give the same sample.

Uniform over positions weighs the blank counts by their raw positions, so the middle counts
dominate (on 5x5 a class of 12 blanks has about 10^5 times the positions of one of 24). Draw
each blank count on its own (one call per count) for a sample with equal numbers of each.

The file (numpy .npz, `numpy.load(FILE)`), one entry per position in arrays of length N:
`position` (SPEC notation), `mover` and `opponent` (the cubes' bit masks, as
`Board.from_masks` takes them), `turn` ("X" or "O"), `blanks`, `value` (+1 win, 0 draw, -1 loss
for the player to move) and `plies` (plies to the end under best play, -1 for a draw); and
`size`, `blank_counts`, `seed` and `rule` (this rule's first lines) for the whole sample.
"""
from __future__ import annotations

import io
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from solverkit.arrayfile import write_atomically
from solverkit.messages import clip

from ..errors import LimitError
from ..rules.geometry import check_size
from . import values
from .format._index import class_size
from .probe import Tablebase

MAX_COUNT = 10_000_000       # positions of one sample (about 200 bytes each while it is drawn)
RULE = ("uniform over the SPEC positions (board and player to move) with the given blank "
        "counts: a class with chance proportional to its raw positions, a uniformly random "
        "arrangement of its cubes, X or O to move with chance 1/2 (numpy PCG64 seeded with "
        "the seed)")


@dataclass(frozen=True)
class Sample:
    size: int
    blank_counts: tuple[int, ...]
    seed: int
    mover: npt.NDArray[np.uint32]
    opponent: npt.NDArray[np.uint32]
    turn: npt.NDArray[np.str_]
    blanks: npt.NDArray[np.uint8]
    value: npt.NDArray[np.int8]
    plies: npt.NDArray[np.int16]

    def positions(self) -> npt.NDArray[np.str_]:
        """The positions in SPEC notation."""
        return position_strings(self.size, self.mover, self.opponent, self.turn)

    def arrays(self) -> dict[str, npt.NDArray[np.generic]]:
        return {"position": self.positions(), "mover": self.mover, "opponent": self.opponent,
                "turn": self.turn, "blanks": self.blanks, "value": self.value,
                "plies": self.plies, "size": np.array(self.size),
                "blank_counts": np.array(self.blank_counts, dtype=np.uint8),
                "seed": np.array(self.seed, dtype=np.uint64), "rule": np.array(RULE)}


def check_blank_counts(size: int, blank_counts: Iterable[int]) -> tuple[int, ...]:
    cells = size * size
    counts = tuple(sorted(set(blank_counts)))
    if not counts:
        raise LimitError("give at least one blank count")
    for count in counts:
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= cells:
            raise LimitError(f"a blank count of the {size}x{size} board is 0..{cells}, not "
                             f"{clip(count)}")
    return counts


def classes_of(size: int, blank_counts: tuple[int, ...]) -> list[tuple[int, int]]:
    """The classes (mover, opponent) of the blank counts, in the order of the rule."""
    cells = size * size
    return [(a, cells - blanks - a) for blanks in blank_counts
            for a in range(cells - blanks + 1)]


def draw(tablebase: Tablebase, size: int, count: int, blank_counts: Iterable[int],
         seed: int) -> Sample:
    """`count` positions drawn by the rule of the module, with their values from
    `tablebase` (MissingTableError naming the first class of the blank counts it lacks)."""
    size = check_size(size)
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_COUNT:
        raise LimitError(f"the count must be a whole number 1..{MAX_COUNT:,}, not "
                         f"{clip(count)}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise LimitError(f"the seed must be a whole number 0..2**63 - 1, not {clip(seed)}")
    counts = check_blank_counts(size, blank_counts)
    classes = classes_of(size, counts)
    tables = [tablebase.table(size, a, b) for a, b in classes]    # every one, before drawing
    cells = size * size
    rng = np.random.default_rng(seed)
    cumulative = np.cumsum([class_size(size, a, b) for a, b in classes], dtype=np.int64)
    drawn = rng.integers(0, int(cumulative[-1]), size=count, dtype=np.int64)
    chosen = np.searchsorted(cumulative, drawn, side="right")
    mover = np.zeros(count, dtype=np.uint32)
    opponent = np.zeros(count, dtype=np.uint32)
    codes = np.zeros(count, dtype=np.int32)
    bits = np.left_shift(np.uint32(1), np.arange(cells, dtype=np.uint32))
    for number, ((a, b), table) in enumerate(zip(classes, tables)):
        where = np.flatnonzero(chosen == number)
        if not where.size:
            continue
        pattern = np.zeros(cells, dtype=np.uint8)
        pattern[:a] = 1
        pattern[a:a + b] = 2
        cubes = rng.permuted(np.broadcast_to(pattern, (where.size, cells)), axis=1)
        mover[where] = (cubes == 1).astype(np.uint32) @ bits
        opponent[where] = (cubes == 2).astype(np.uint32) @ bits
        codes[where] = table.position_codes(mover[where], opponent[where])
    turn = np.where(rng.integers(0, 2, size=count) == 0, "X", "O")
    cubes_shown = _popcounts(mover) + _popcounts(opponent)
    wins = (codes & 1) == 1
    value = np.where(codes == 0, values.DRAW, np.where(wins, values.WIN, values.LOSS))
    plies = np.where(codes == 0, -1, (codes - 1) >> 1)
    return Sample(size, counts, seed, mover, opponent, turn,
                  (cells - cubes_shown).astype(np.uint8), value.astype(np.int8),
                  plies.astype(np.int16))


def _popcounts(masks: npt.NDArray[np.uint32]) -> npt.NDArray[np.int64]:
    as_bytes = masks.astype("<u4").view(np.uint8).reshape(-1, 4)
    counts: npt.NDArray[np.int64] = np.unpackbits(as_bytes, axis=1).sum(axis=1, dtype=np.int64)
    return counts


def position_strings(size: int, mover: npt.NDArray[np.uint32],
                     opponent: npt.NDArray[np.uint32],
                     turn: npt.NDArray[np.str_]) -> npt.NDArray[np.str_]:
    """SPEC notation of many positions at once (notation.format_position, for arrays)."""
    count = mover.size
    x_turn = turn == "X"
    x_cubes = np.where(x_turn, mover, opponent)
    o_cubes = np.where(x_turn, opponent, mover)
    width = size * (size + 1) + 1
    text = np.full((count, width), ord("/"), dtype=np.uint8)
    for row in range(size):
        for col in range(size):
            square = (size - 1 - row) * size + col
            x = (x_cubes >> np.uint32(square)) & 1 == 1
            o = (o_cubes >> np.uint32(square)) & 1 == 1
            text[:, row * (size + 1) + col] = np.where(x, ord("X"), np.where(o, ord("O"),
                                                                             ord(".")))
    text[:, width - 2] = ord(" ")
    text[:, width - 1] = np.where(x_turn, ord("X"), ord("O"))
    return text.view(f"S{width}").reshape(count).astype(f"U{width}")


def write_sample(path: str | os.PathLike[str], sample: Sample) -> Path:
    """The sample as a numpy .npz file (compressed), written atomically."""
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **sample.arrays())  # type: ignore[arg-type]
    return write_atomically(Path(path).expanduser(), [buffer.getbuffer()])
