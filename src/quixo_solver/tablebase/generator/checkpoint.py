"""Checkpoints of a pair being solved: a build stopped at any moment resumes inside the pair.

A pair's solve (pair_solver.solve_unit) is a fixed sequence of kernel calls (_retro: mark,
pull and settle on each class, then propagate for n = 1, 2, ... on each class), each over the
chunks of a class, run a slice of chunks at a time. After any slice, the pair's whole state is
its classes' working words and chunk_plies, the largest plies assigned so far, and where the
sequence stands (a Place). That state does not depend on the threads or the order in which the
chunks ran (every update a kernel makes is a minimum, a maximum or a count that all its
un-moves reach), so a solve resumed from it writes the very files of a solve never stopped.

File (little-endian), written atomically (solverkit.arrayfile.write_atomically):
    head: magic 8s b"QXCHECK\\0", version H, board size B, mover cubes B, opponent cubes B,
        3 reserved bytes, metadata length I
    metadata: JSON (where the solve stands, the kernels' STATE_VERSION, the inputs' checksums,
        the arrays' names and lengths), then the CRC-32 of head and metadata (I)
    arrays: each class's words, then its chunk_plies (uint16), in the metadata's order
    tail: the CRC-32 of each PIECE bytes of the arrays (I each), the CRC-32 of those (I), and
        b"QXCKEND\\0"
Nothing is used before it is checked: a checkpoint that does not check out (or that was
written by other kernels, or for other inputs) is set aside and the pair is solved from its
start.
"""
from __future__ import annotations

import json
import os
import struct
import time
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from solverkit.arrayfile import write_atomically

from . import _retro
from .. import pairs
from ..format._compressed_table import CompressedTable
from ..errors import TablebaseError

MAGIC = b"QXCHECK\0"
END = b"QXCKEND\0"
VERSION = 1
HEAD = struct.Struct("<8sHBBB3xI")
CRC = struct.Struct("<I")
PIECE = 1 << 26          # bytes of the arrays under one CRC-32
DEFAULT_SECONDS = 600.0  # how often a long solve saves its state: the most work a stop loses
KERNELS = ("mark", "pull", "settle", "resolve", "propagate")


class CheckpointError(TablebaseError):
    """A checkpoint file that cannot be used (damaged, or not this solve's)."""


class BudgetSpent(TablebaseError):
    """The build's time budget ran out; the pair's state is saved (or it had not started)."""


@dataclass(frozen=True, order=True)
class Place:
    """Where a pair's solve stands: the kernel call (its position in the sequence) and the
    first of its chunks not yet run. Places compare in the order of the sequence."""
    stage: int        # 0: the first steps (mark, pull, settle); 1: the passes
    plies: int        # the pass's n (0 in stage 0)
    kernel: int       # index in KERNELS: each kernel runs on every class before the next
    side: int         # which class of the pair
    chunk: int

    @staticmethod
    def of(kernel: str, side: int, plies: int, chunk: int) -> Place:
        index = KERNELS.index(kernel)
        return Place(int(index >= KERNELS.index("resolve")), plies, index, side, chunk)

    def call(self) -> tuple[int, int, int, int]:
        """The kernel call, without the chunk."""
        return self.stage, self.plies, self.kernel, self.side


START = Place.of("mark", 0, 0, 0)


@dataclass(frozen=True)
class Spent:
    """The solving time a pair has had: wall seconds and the process's CPU seconds (every
    thread's; on a machine shared with other work the CPU time is the steadier measure)."""
    wall: float = 0.0
    cpu: float = 0.0

    def __add__(self, other: Spent) -> Spent:
        return Spent(self.wall + other.wall, self.cpu + other.cpu)


class Stopwatch:
    """Wall and CPU time since it was made."""

    def __init__(self) -> None:
        self.wall, self.cpu = time.monotonic(), time.process_time()

    def spent(self) -> Spent:
        return Spent(time.monotonic() - self.wall, time.process_time() - self.cpu)


def path_of(directory: Path, unit: pairs.Unit) -> Path:
    return Path(directory) / (f".checkpoint-{unit.size}-{unit.mover_count:02d}-"
                              f"{unit.opponent_count:02d}")


def inputs_identity(inputs: dict[tuple[int, int], CompressedTable]) -> list[list[int]]:
    """What a checkpoint records of the tables it was computed from (their classes and
    checksums): a checkpoint is used only with the same inputs."""
    return [[a, b, int(table.header.data_bytes), int(table.header.index_crc),
             int(table.header.model_crc)] for (a, b), table in sorted(inputs.items())]


def _arrays(sides: Sequence[_retro.ClassSide]) -> list[tuple[str, np.ndarray]]:
    found = []
    for side in sides:
        name = f"{side.mover_count}-{side.opponent_count}"
        found += [(f"words {name}", side.words), (f"chunk_plies {name}", side.chunk_plies)]
    return found


def _pieces(array: np.ndarray) -> Iterator[memoryview]:
    raw = array.reshape(-1).view(np.uint8).data
    for start in range(0, len(raw), PIECE):
        yield raw[start:start + PIECE]


def save(path: Path, unit: pairs.Unit, sides: Sequence[_retro.ClassSide], place: Place,
         longest: int, inputs: list[list[int]], spent: Spent = Spent()) -> None:
    """Write the state atomically (a stop during the write leaves the previous checkpoint);
    `spent`: the solving time it holds, for the build's journal."""
    save_state(path, (unit.size, unit.mover_count, unit.opponent_count), _arrays(sides),
               {"place": asdict(place), "longest": longest}, inputs, spent,
               _retro.STATE_VERSION)


def load(path: Path, unit: pairs.Unit, sides: Sequence[_retro.ClassSide],
         inputs: list[list[int]]) -> tuple[Place, int, Spent]:
    """Read a checkpoint into the sides' arrays; (place, longest, the solving time it
    holds). CheckpointError if it does not check out: the sides' arrays may then hold part of
    it (solve afresh)."""
    state, spent = load_state(path, (unit.size, unit.mover_count, unit.opponent_count),
                              _arrays(sides), inputs, _retro.STATE_VERSION)
    return Place(**state["place"]), int(state["longest"]), spent


def save_state(path: Path, key: tuple[int, int, int], arrays: list[tuple[str, np.ndarray]],
               state: dict[str, Any], inputs: list[list[int]], spent: Spent,
               state_version: int) -> None:
    """Write a solve's state atomically: its arrays, where it stands (`state`, JSON), the
    inputs it was computed from, the kernels' state version and the solving time it holds;
    `key` names what is solved (board size and two counts: a pair, a four-player tier)."""
    metadata = json.dumps({
        **state, "seconds": round(spent.wall, 3), "cpu_seconds": round(spent.cpu, 3),
        "state_version": state_version,
        "inputs": inputs, "arrays": [[name, int(array.size)] for name, array in arrays]},
        separators=(",", ":")).encode()
    head = HEAD.pack(MAGIC, VERSION, *key, len(metadata))
    checksums: list[int] = []

    def pieces() -> Iterator[bytes | memoryview]:
        yield head + metadata + CRC.pack(zlib.crc32(head + metadata))
        for _, array in arrays:
            for piece in _pieces(array):
                checksums.append(zlib.crc32(piece))
                yield piece
        table = struct.pack(f"<{len(checksums)}I", *checksums)
        yield table + CRC.pack(zlib.crc32(table)) + END

    write_atomically(path, pieces())


def load_state(path: Path, key: tuple[int, int, int], arrays: list[tuple[str, np.ndarray]],
               inputs: list[list[int]], state_version: int) -> tuple[dict[str, Any], Spent]:
    """Read a state written by save_state into `arrays` (of the lengths it records); (its
    metadata, the solving time it holds). CheckpointError if it does not check out: the
    arrays may then hold part of it."""
    try:
        handle = open(path, "rb")
    except OSError as error:
        raise CheckpointError(f"cannot read {path}: {error.strerror}") from None
    with handle:
        size = os.fstat(handle.fileno()).st_size
        head = handle.read(HEAD.size)
        if len(head) < HEAD.size:
            raise CheckpointError(f"{path} is truncated")
        magic, version, board, a, b, length = HEAD.unpack(head)
        if magic != MAGIC or version != VERSION:
            raise CheckpointError(f"{path} is not a checkpoint of this version")
        if (board, a, b) != key:
            raise CheckpointError(f"{path} is the checkpoint of another pair")
        raw = handle.read(length + CRC.size)
        if len(raw) < length + CRC.size or \
                zlib.crc32(head + raw[:length]) != CRC.unpack_from(raw, length)[0]:
            raise CheckpointError(f"{path} has a damaged header")
        metadata: dict[str, Any] = json.loads(raw[:length])
        if metadata["state_version"] != state_version:
            raise CheckpointError(f"{path} was written by other kernels")
        if metadata["inputs"] != inputs:
            raise CheckpointError(f"{path} was computed from other input tables")
        if metadata["arrays"] != [[name, int(array.size)] for name, array in arrays]:
            raise CheckpointError(f"{path} holds other arrays than this pair's")
        data_bytes = sum(array.nbytes for _, array in arrays)
        pieces = sum(-(-array.nbytes // PIECE) for _, array in arrays)
        expected = HEAD.size + length + CRC.size + data_bytes + CRC.size * (pieces + 1) + len(END)
        if size != expected:
            raise CheckpointError(f"{path} is truncated: {size} bytes, expected {expected}")
        checksums = []
        for _, array in arrays:
            for piece in _pieces(array):
                if handle.readinto(piece) != len(piece):
                    raise CheckpointError(f"{path} is truncated")
                checksums.append(zlib.crc32(piece))
        tail = handle.read()
    table = struct.pack(f"<{len(checksums)}I", *checksums)
    if tail != table + CRC.pack(zlib.crc32(table)) + END:
        raise CheckpointError(f"{path} is damaged: its arrays do not match their checksums")
    # (the times: absent from the checkpoints of builds before the journal)
    spent = Spent(float(metadata.get("seconds", 0)), float(metadata.get("cpu_seconds", 0)))
    return metadata, spent


class Checkpoints:
    """When a pair's solve saves its state, and when it must stop: every `every` seconds of
    solving (0: after every slice), and at the build's `deadline` (time.monotonic(); None:
    none), where it saves and raises BudgetSpent."""

    def __init__(self, path: Path, unit: pairs.Unit, inputs: list[list[int]], *,
                 every: float = DEFAULT_SECONDS, deadline: float | None = None):
        self.path, self.unit, self.inputs = path, unit, inputs
        self.every, self.deadline = every, deadline
        self.last_saved = time.monotonic()
        self.stopwatch = Stopwatch()
        self.saved_place = START      # what the folder holds (or where the solve began)
        self.saved = 0
        self.earlier = Spent()    # the solving time of earlier runs, kept by the checkpoint
        self.resumed = False

    def spent(self) -> Spent:
        """The pair's solving time so far, over every run that saved its work."""
        return self.earlier + self.stopwatch.spent()

    def restore(self, sides: Sequence[_retro.ClassSide]) -> tuple[Place, int] | None:
        """The saved state, read into the sides, or None when there is none (a checkpoint that
        does not check out is removed, with a CheckpointError's message returned instead)."""
        if not self.path.exists():
            return None
        place, longest, self.earlier = load(self.path, self.unit, sides, self.inputs)
        self.saved_place, self.resumed = place, True
        return place, longest

    def reached(self, sides: Sequence[_retro.ClassSide], place: Place, longest: int) -> None:
        """Called after each slice: save when due; at the deadline save and stop."""
        now = time.monotonic()
        over = self.deadline is not None and now >= self.deadline
        if (over or now - self.last_saved >= self.every) and place != self.saved_place:
            save(self.path, self.unit, sides, place, longest, self.inputs,
                 self.spent())
            self.saved += 1
            self.saved_place = place
            self.last_saved = time.monotonic()
        if over:
            raise BudgetSpent(f"the time budget ran out in {self.unit}; its state is saved")

    def discard(self) -> None:
        try:
            self.path.unlink()
        except FileNotFoundError:
            pass
