"""Table files: one per class, a header, a checksum per block, then one value per entry.

An entry is a symmetry class of positions (_orbit_index.pxd); the win, draw and loss counts
of the header are over every raw position (each entry counts for the positions of its orbit).

Layout (little-endian), format version 3 (version 2 stored every position; it is refused):
    header, 64 bytes:
        magic 8s  b"QUIXOTB\\0"    version H     board size B   mover cubes B   opponent cubes B
        value width B (1 or 2)     reserved H    entries Q      wins Q   draws Q   losses Q
        longest plies I            crc32 of the block checksums I     block bytes I
        header crc32 I (of the 60 bytes before it)
    block checksums: one crc32 (u32) per BLOCK_BYTES of value data, the last block shorter
    values: `entries` values of `width` bytes, in the class index's order (holes hold 0)

No value is ever used before the checksum of its block has been checked: a probe checks a
block the first time it reads from it (`CheckedTable.code`, and the search's kernel through
the same `checked` flags), so that opening a large 5x5 table costs only its header and
checksums, while bit rot anywhere is still caught; a build or the verifier, which read a table
whole, check every block first (`load_values`). Files are written under a temporary name in
the same folder and renamed, so a file under its final name is always complete.
"""
from __future__ import annotations

import os
import struct
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import chain
from pathlib import Path

import numpy as np

from solverkit.arrayfile import TEMPORARY_SUFFIX, write_atomically  # noqa: F401
from solverkit.messages import clip

from ._orbit_index import entry_count, orbit_class
from ..errors import QuixoError

MAGIC = b"QUIXOTB\0"
VERSION = 3
HEADER = struct.Struct("<8sHBBBBHQQQQIIII")
HEADER_SIZE = 64
assert HEADER.size == HEADER_SIZE
BLOCK_BYTES = 1 << 16


class TablebaseError(QuixoError):
    """A table file that cannot be used."""


class CorruptTableError(TablebaseError):
    """A table file that is truncated, damaged or not a table at all."""


@dataclass(frozen=True)
class TableHeader:
    size: int
    mover_count: int
    opponent_count: int
    width: int
    entries: int
    wins: int
    draws: int
    losses: int
    longest_plies: int
    checksums_crc: int
    block_bytes: int

    @property
    def blocks(self) -> int:
        return -(-self.entries * self.width // self.block_bytes)

    @property
    def data_offset(self) -> int:
        return HEADER_SIZE + 4 * self.blocks


def table_name(size: int, mover_count: int, opponent_count: int) -> str:
    return f"quixo{size}x{size}-{mover_count:02d}-{opponent_count:02d}.qtb"


def value_blocks(values: np.ndarray, width: int,
                 block_bytes: int = BLOCK_BYTES) -> Iterator[memoryview]:
    """The values' bytes as stored (`width` bytes each, little-endian), a block at a time: no
    copy of a whole table is ever made."""
    dtype = np.uint8 if width == 1 else np.dtype("<u2")
    step = block_bytes // width
    for start in range(0, values.size, step):
        yield np.ascontiguousarray(values[start:start + step], dtype=dtype).view(np.uint8).data


def write_table(directory: Path, size: int, mover_count: int, opponent_count: int,
                values: np.ndarray) -> Path:
    """Write a solved class atomically. Values are stored on one byte when they fit. A failed
    write (a full disk) leaves no temporary file and names the cause and the file."""
    width = 1 if values.size == 0 or int(values.max()) <= 0xFF else 2
    checksums = np.array([zlib.crc32(block) for block in value_blocks(values, width)],
                         dtype="<u4")
    counts = orbit_class(size, mover_count, opponent_count).code_counts(values)
    wins = int(counts[1::2].sum())
    draws = int(counts[0]) if counts.size else 0
    losses = int(counts[2::2].sum())
    codes = np.flatnonzero(counts)
    longest = int((int(codes.max()) - 1) >> 1) if codes.size and codes.max() else 0
    fields = (MAGIC, VERSION, size, mover_count, opponent_count, width, 0, values.size, wins,
              draws, losses, longest, zlib.crc32(checksums.tobytes()), BLOCK_BYTES)
    head = HEADER.pack(*fields, 0)[:HEADER_SIZE - 4]
    head += struct.pack("<I", zlib.crc32(head))
    path = Path(directory) / table_name(size, mover_count, opponent_count)
    return write_atomically(path, chain([head, checksums.tobytes()],
                                        value_blocks(values, width)))


def read_header(path: Path, expected: tuple[int, int, int] | None = None) -> TableHeader:
    """Check the header, its checksum, the file length and, when `expected` (size, mover,
    opponent) is given, that the file is that class's table (not the value data)."""
    path = Path(path)
    try:
        with open(path, "rb") as handle:
            head = handle.read(HEADER_SIZE)
            actual = os.fstat(handle.fileno()).st_size
    except OSError as error:
        raise TablebaseError(f"cannot read table {path}: {error.strerror}") from error
    if len(head) < HEADER_SIZE or head[:8] != MAGIC:
        raise CorruptTableError(f"{path} is not a Quixo table file (bad or short header)")
    fields = HEADER.unpack(head)
    if zlib.crc32(head[:HEADER_SIZE - 4]) != fields[-1]:
        raise CorruptTableError(f"{path} has a damaged header (checksum mismatch)")
    if fields[1] != VERSION:
        raise CorruptTableError(f"{path} has format version {fields[1]}; this program reads "
                                f"version {VERSION}: rebuild it (quixo tablebase build)")
    header = TableHeader(*fields[2:6], *fields[7:14])
    if header.width not in (1, 2) or header.block_bytes == 0 \
            or header.block_bytes % header.width:
        raise CorruptTableError(f"{path} has an impossible header (value width "
                                f"{header.width}, block size {header.block_bytes})")
    if expected is not None:
        found = (header.size, header.mover_count, header.opponent_count)
        if found != expected or header.entries != entry_count(*expected):
            raise CorruptTableError(
                f"{path} holds class {found[1:]} of the {found[0]}x{found[0]} board with "
                f"{header.entries} entries, not the table its name says")
    wanted = header.data_offset + header.entries * header.width
    if actual != wanted:
        raise CorruptTableError(f"{path} is truncated or padded: {actual} bytes, expected "
                                f"{wanted}")
    return header


class CheckedTable:
    """A table's values, memory-mapped read-only, each block checked before its first use.

    `values` is the raw array (for kernels that check blocks themselves through `checksums`
    and `checked`); `code(index)` reads one value after checking its block; `check_all()`
    checks every block that has not been checked yet."""

    def __init__(self, path: Path, expected: tuple[int, int, int] | None = None) -> None:
        self.path = Path(path)
        self.header = header = read_header(self.path, expected)
        dtype = np.uint8 if header.width == 1 else np.dtype("<u2")
        if header.entries == 0:
            self.values = np.zeros(0, dtype=dtype)
            self.checksums = np.zeros(0, dtype=np.uint32)
        else:
            self.checksums = np.fromfile(self.path, dtype="<u4", count=header.blocks,
                                         offset=HEADER_SIZE)
            self.values = np.memmap(self.path, dtype=dtype, mode="r",
                                    offset=header.data_offset, shape=(header.entries,))
            if self.checksums.size != header.blocks or self.values.size != header.entries:
                raise CorruptTableError(f"{self.path} changed while it was read")
        if zlib.crc32(self.checksums.tobytes()) != header.checksums_crc:
            raise CorruptTableError(f"{self.path} is damaged: its block checksums do not "
                                    "match the header")
        self.checked = np.zeros(header.blocks, dtype=np.uint8)
        self._bytes = self.values.reshape(-1).view(np.uint8)

    def _check_block(self, block: int) -> None:
        start = block * self.header.block_bytes
        if zlib.crc32(self._bytes[start:start + self.header.block_bytes].data) != \
                int(self.checksums[block]):
            raise CorruptTableError(
                f"{self.path} is damaged: block {block} (values from "
                f"{start // self.header.width}) does not match its checksum; rebuild it")
        self.checked[block] = 1

    def code(self, index: int) -> int:
        block = index * self.header.width // self.header.block_bytes
        if not self.checked[block]:
            self._check_block(block)
        return int(self.values[index])

    def check_all(self) -> "CheckedTable":
        for block in np.flatnonzero(self.checked == 0):
            self._check_block(int(block))
        return self


def open_table(path: Path, expected: tuple[int, int, int] | None = None) -> CheckedTable:
    """A table with its header checked; values are checked block by block as they are read."""
    return CheckedTable(path, expected)


def load_values(path: Path, expected: tuple[int, int, int] | None = None) -> np.ndarray:
    """A table's values as a uint16 array in memory, every block checked (what the generator
    and the verifier read). The file is mapped, not read into a second array."""
    table = CheckedTable(path, expected).check_all()
    return np.array(table.values, dtype=np.uint16)


def is_intact(path: Path, expected: tuple[int, int, int], *, check_data: bool = True) -> bool:
    """Whether the file is a complete table of that class, and with `check_data` undamaged
    (every block checked)."""
    try:
        table = open_table(path, expected)
        if check_data:
            table.check_all()
    except TablebaseError:
        return False
    return True


def folder_path(directory: object) -> Path:
    """A tablebase folder's path (`~` expanded); TablebaseError if it is not a path at all."""
    if not isinstance(directory, (str, os.PathLike)):
        raise TablebaseError(f"a tablebase folder must be a path, not {clip(directory)}")
    return Path(directory).expanduser()


def folder_to_read(directory: object) -> Path:
    """An existing, readable tablebase folder; TablebaseError naming the problem otherwise."""
    directory = folder_path(directory)
    if not directory.exists():
        raise TablebaseError(f"no tablebase folder {directory}")
    if not directory.is_dir():
        raise TablebaseError(f"{directory} is not a folder")
    if not os.access(directory, os.R_OK | os.X_OK):
        raise TablebaseError(f"cannot read the folder {directory}")
    return directory


def folder_to_write(directory: object) -> Path:
    """A tablebase folder to build into, created if need be; TablebaseError if it cannot be
    one."""
    directory = folder_path(directory)
    if directory.exists() and not directory.is_dir():
        raise TablebaseError(f"{directory} is not a folder")
    directory.mkdir(parents=True, exist_ok=True)
    if not os.access(directory, os.W_OK | os.X_OK):
        raise TablebaseError(f"cannot write to the folder {directory}")
    return directory
