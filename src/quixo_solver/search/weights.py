"""The evaluation's weights as data: what the search kernel scores an unproven position with
(_heuristic.pxd), per board size, settable from Python (``Solver(weights=...)``), from a file
(``quixo match --engine-a time=1,weights=FILE``) and tuned by ``tools/tune_weights.py``
(the Texel method).

A weights file is JSON:

    {"format": "quixo-weights", "version": 1,
     "sizes": {"5": {"own_line": [1, 4, 16, 64], "their_line": [1, 4, 16, 64],
                     "own_ends": 6, "their_ends": 6, "cube": 3, "tempo": 0}, ...}}

`own_line[k - 1]` is the weight of a line (rank, file, long diagonal) holding k cubes of the
side to move and none of the other side's; `their_line` the same for the other side, counted
against. A size not in the file keeps the default weights.
"""
from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Mapping

import numpy as np
import numpy.typing as npt

from solverkit.arrayfile import write_atomically
from solverkit.messages import clip, cut_path

from ..rules import geometry
from ..errors import QuixoError

FORMAT = "quixo-weights"
VERSION = 1
LINE_COUNTS = 4            # a line holds 1..4 cubes of one side before it is full (5x5)
KERNEL_WEIGHTS = 16        # own_line[6], their_line[6], own_ends, their_ends, cube, tempo
# Bounds that keep every evaluation inside the kernel's EVAL_LIMIT (20000): 12 lines, 10 ends,
# 25 cubes and the tempo at their largest add up to 14000.
LIMITS = {"line": 500, "ends": 500, "cube": 100, "tempo": 500}


class WeightsError(QuixoError):
    """Weights that cannot be used: a bad file, a value out of range."""


@dataclass(frozen=True)
class Weights:
    """The weights of one board size (see the module docstring)."""

    own_line: tuple[int, ...] = (1, 4, 16, 64)
    their_line: tuple[int, ...] = (1, 4, 16, 64)
    own_ends: int = 6
    their_ends: int = 6
    cube: int = 3
    tempo: int = 0

    def __post_init__(self) -> None:
        for name in ("own_line", "their_line"):
            values = getattr(self, name)
            if not isinstance(values, (tuple, list)) or len(values) != LINE_COUNTS:
                raise WeightsError(f"{name} must be {LINE_COUNTS} whole numbers, not "
                                   f"{clip(values)}")
            object.__setattr__(self, name, tuple(_whole(name, v, LIMITS["line"])
                                                 for v in values))
        for name, limit in (("own_ends", "ends"), ("their_ends", "ends"), ("cube", "cube"),
                            ("tempo", "tempo")):
            _whole(name, getattr(self, name), LIMITS[limit])

    def kernel(self) -> tuple[int, ...]:
        """The kernel's Weights struct as KERNEL_WEIGHTS whole numbers (_heuristic.pxd)."""
        return ((0, *self.own_line, 0) + (0, *self.their_line, 0)
                + (self.own_ends, self.their_ends, self.cube, self.tempo))

    def vector(self) -> npt.NDArray[np.float64]:
        """The weights in the order of `features`' columns."""
        return np.array([*self.own_line, *self.their_line, self.own_ends, self.their_ends,
                         self.cube, self.tempo], dtype=np.float64)

    @classmethod
    def from_vector(cls, vector: Any) -> "Weights":
        values = [int(round(float(v))) for v in vector]
        return cls(tuple(values[0:4]), tuple(values[4:8]), *values[8:12])


def _whole(name: str, value: object, limit: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise WeightsError(f"{name} must be whole numbers, not {clip(value)}")
    if not -limit <= value <= limit:
        raise WeightsError(f"{name} must be within -{limit} .. {limit}, not {value}")
    return value


@dataclass(frozen=True)
class WeightSet:
    """Weights by board size; a size without its own weights uses the defaults."""

    sizes: Mapping[int, Weights] = field(default_factory=dict)

    def for_size(self, size: int) -> Weights:
        """This set's weights of a size, else the shipped defaults', else the rulebook's."""
        if size in self.sizes:
            return self.sizes[size]
        return DEFAULTS.sizes.get(size, Weights()) if self is not DEFAULTS else Weights()

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION,
                "sizes": {str(size): asdict(weights) for size, weights in
                          sorted(self.sizes.items())}}

    @classmethod
    def from_json(cls, data: object, where: str = "the weights") -> "WeightSet":
        if (not isinstance(data, dict) or data.get("format") != FORMAT
                or not isinstance(data.get("sizes"), dict)):
            raise WeightsError(f"{where} is not a weights file (format {FORMAT!r})")
        if data.get("version") != VERSION:
            raise WeightsError(f"{where} is of version {clip(data.get('version'))}; this "
                               f"program reads version {VERSION}")
        sizes: dict[int, Weights] = {}
        for key, values in data["sizes"].items():
            if key not in ("3", "4", "5") or not isinstance(values, dict):
                raise WeightsError(f"{where}: sizes are 3, 4 or 5 with their weights, not "
                                   f"{clip(key)}")
            unknown = set(values) - {f.name for f in Weights.__dataclass_fields__.values()}
            if unknown:
                raise WeightsError(f"{where}: unknown weights {sorted(unknown)}")
            try:
                sizes[int(key)] = Weights(**values)
            except WeightsError as error:
                raise WeightsError(f"{where}, size {key}: {error}") from None
        return cls(sizes)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> "WeightSet":
        """A weights file; WeightsError naming the file and the problem."""
        where = cut_path(path)
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise WeightsError(f"no weights file {where}") from None
        except (OSError, UnicodeDecodeError, ValueError) as error:
            raise WeightsError(f"cannot read the weights file {where}: "
                               f"{type(error).__name__}") from None
        return cls.from_json(data, where)

    def save(self, path: str | os.PathLike[str]) -> None:
        write_atomically(Path(path), [(json.dumps(self.to_json(), indent=2) + "\n")
                                      .encode("utf-8")])


def weight_set(weights: WeightSet | Weights | str | os.PathLike[str] | None) -> WeightSet:
    """A WeightSet from what a user passes: None (the defaults), a WeightSet, one Weights for
    every size, or a weights file."""
    if weights is None:
        return DEFAULTS
    if isinstance(weights, WeightSet):
        return weights
    if isinstance(weights, Weights):
        return WeightSet({size: weights for size in geometry.SIZES})
    if isinstance(weights, (str, os.PathLike)):
        return WeightSet.load(weights)
    raise WeightsError(f"weights must be a WeightSet, a Weights or a file, not {clip(weights)}")


# -- the features: the pure-Python twin of the kernel's evaluate ---------------------------------

def features(size: int, mine: int, theirs: int) -> npt.NDArray[np.float64]:
    """The counts the evaluation weighs, in `Weights.vector()`'s order: lines by the number of
    my cubes (1..4) holding none of theirs, minus the same for theirs, my rank/file ends,
    minus theirs, my cubes minus theirs, 1 (the tempo). evaluate = features . vector
    (exactly)."""
    lines = geometry.lines(size)
    counts = np.zeros(2 * LINE_COUNTS + 4)
    for index, line in enumerate(lines):
        own, other = bin(mine & line).count("1"), bin(theirs & line).count("1")
        if other == 0 and 1 <= own <= LINE_COUNTS:
            counts[own - 1] += 1
        if own == 0 and 1 <= other <= LINE_COUNTS:
            counts[LINE_COUNTS + other - 1] -= 1
        if index < 2 * size:
            ends = _line_ends(size, index)
            if mine & ends == ends:
                counts[2 * LINE_COUNTS] += 1
            elif theirs & ends == ends:
                counts[2 * LINE_COUNTS + 1] -= 1
    counts[2 * LINE_COUNTS + 2] = bin(mine).count("1") - bin(theirs).count("1")
    counts[2 * LINE_COUNTS + 3] = 1
    return counts


def _line_ends(size: int, index: int) -> int:
    if index < size:                      # rank `index`: its first and last files
        return (1 << (index * size)) | (1 << (index * size + size - 1))
    file = index - size                   # file: ranks 1 and N
    return (1 << file) | (1 << ((size - 1) * size + file))


RULEBOOK = WeightSet({size: Weights() for size in geometry.SIZES})   # the rulebook's, everywhere


def _shipped_defaults() -> WeightSet:
    """The tuned weights that ship with the package (tools/tune_weights.py wrote them; the
    rulebook's for a size they do not name)."""
    return WeightSet.load(Path(__file__).with_name("default_weights.json"))


DEFAULTS = _shipped_defaults()
