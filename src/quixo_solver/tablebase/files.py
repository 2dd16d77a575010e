"""Table files: one per class, a header, a checksum per block, one byte per entry, then the
few values that do not fit in a byte.

An entry is a symmetry class of positions (_orbit_index.pxd); the win, draw and loss counts
of the header are over every raw position (each entry counts for the positions of its orbit).

Layout (little-endian), format version 3 (version 2 stored every position; it is refused):
    header, 80 bytes:
        magic 8s  b"QUIXOTB\0"    version H     board size B   mover cubes B   opponent cubes B
        reserved 7x                entries Q     wins Q   draws Q   losses Q   escapes Q
        longest plies I            block bytes I    crc32 of the block checksums I
        crc32 of the escapes I     header crc32 I (of the 76 bytes before it)
    block checksums: one crc32 (u32) per `block bytes` of values, the last block shorter
    values: one byte per entry, in the class index's order (holes hold 0): the value code
        (values.py), or ESCAPE for a code of ESCAPE or more (a win or a loss in 127 plies or
        more), whose code is among the escapes
    escapes: `escapes` entry indices (u64, ascending), then their codes (u16)

One byte per entry whatever the longest plies: of the 12.5 billion entries of the 5x5 classes
with at most 5 blanks, a few thousand escape. No value is ever used before the checksum of
its block has been checked: a probe checks a block the first time it reads from it
(`CheckedTable.code`, and the search's kernel through the same `checked` flags), so that
opening a large 5x5 table costs only its header, checksums and escapes, while bit rot
anywhere is still caught; a build or the verifier, which read a table whole, check every
block first (`load_values`). Files are written under a temporary name in the same folder and
renamed, so a file under its final name is always complete.
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
import numpy.typing as npt

from solverkit.arrayfile import TEMPORARY_SUFFIX, write_atomically  # noqa: F401
from solverkit.messages import clip

from ._orbit_index import entry_count, orbit_class
from ..errors import QuixoError

MAGIC = b"QUIXOTB\0"
VERSION = 3
HEADER = struct.Struct("<8sHBBB7xQQQQQIIIII")
HEADER_SIZE = 80
assert HEADER.size == HEADER_SIZE
BLOCK_BYTES = 1 << 16
ESCAPE = 0xFF          # the byte of a value found among the escapes (the search's FILE_ESCAPE)
ESCAPE_BYTES = 10      # an escape: its index (u64) and its code (u16)


class TablebaseError(QuixoError):
    """A table file that cannot be used."""


class CorruptTableError(TablebaseError):
    """A table file that is truncated, damaged or not a table at all."""


@dataclass(frozen=True)
class TableHeader:
    size: int
    mover_count: int
    opponent_count: int
    entries: int
    wins: int
    draws: int
    losses: int
    escapes: int
    longest_plies: int
    block_bytes: int
    checksums_crc: int
    escapes_crc: int

    @property
    def blocks(self) -> int:
        return -(-self.entries // self.block_bytes)

    @property
    def data_offset(self) -> int:
        return HEADER_SIZE + 4 * self.blocks

    @property
    def escapes_offset(self) -> int:
        return self.data_offset + self.entries

    @property
    def file_bytes(self) -> int:
        return self.escapes_offset + ESCAPE_BYTES * self.escapes


def table_name(size: int, mover_count: int, opponent_count: int) -> str:
    return f"quixo{size}x{size}-{mover_count:02d}-{opponent_count:02d}.qtb"


def stored_blocks(values: npt.NDArray[np.uint16],
                  block_bytes: int = BLOCK_BYTES) -> Iterator[tuple[int, npt.NDArray[np.uint8]]]:
    """(first index, bytes as stored) of each block of values: no copy of a whole table is
    ever made."""
    for start in range(0, values.size, block_bytes):
        block = values[start:start + block_bytes]
        yield start, np.minimum(block, ESCAPE).astype(np.uint8)


def write_table(directory: Path, size: int, mover_count: int, opponent_count: int,
                values: npt.NDArray[np.uint16]) -> Path:
    """Write a solved class atomically. A failed write (a full disk) leaves no temporary
    file and names the cause and the file."""
    checksums, escaped = [], []
    for start, block in stored_blocks(values):
        checksums.append(zlib.crc32(block.data))
        escaped.append(np.flatnonzero(block == ESCAPE) + start)
    escape_indices = np.concatenate(escaped or [np.zeros(0, np.int64)]).astype("<u8")
    escapes = escape_indices.tobytes() + values[escape_indices].astype("<u2").tobytes()
    sums = np.array(checksums, dtype="<u4").tobytes()
    counts = orbit_class(size, mover_count, opponent_count).code_counts(values)
    wins = int(counts[1::2].sum())
    draws = int(counts[0]) if counts.size else 0
    losses = int(counts[2::2].sum())
    codes = np.flatnonzero(counts)
    longest = int((int(codes.max()) - 1) >> 1) if codes.size and codes.max() else 0
    fields = (MAGIC, VERSION, size, mover_count, opponent_count, values.size, wins, draws,
              losses, escape_indices.size, longest, BLOCK_BYTES, zlib.crc32(sums),
              zlib.crc32(escapes))
    head = HEADER.pack(*fields, 0)[:HEADER_SIZE - 4]
    head += struct.pack("<I", zlib.crc32(head))
    path = Path(directory) / table_name(size, mover_count, opponent_count)
    return write_atomically(path, chain([head, sums],
                                        (block.data for _, block in stored_blocks(values)),
                                        [escapes]))


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
    header = TableHeader(*fields[2:14])
    if header.block_bytes == 0 or header.escapes > header.entries:
        raise CorruptTableError(f"{path} has an impossible header (block size "
                                f"{header.block_bytes}, {header.escapes} escapes)")
    if expected is not None:
        found = (header.size, header.mover_count, header.opponent_count)
        if found != expected or header.entries != entry_count(*expected):
            raise CorruptTableError(
                f"{path} holds class {found[1:]} of the {found[0]}x{found[0]} board with "
                f"{header.entries} entries, not the table its name says")
    wanted = header.file_bytes
    if actual != wanted:
        raise CorruptTableError(f"{path} is truncated or padded: {actual} bytes, expected "
                                f"{wanted}")
    return header


class CheckedTable:
    """A table's values, memory-mapped read-only, each block checked before its first use.

    `values` is the raw byte array (for kernels that check blocks themselves through
    `checksums` and `checked`, and look ESCAPE bytes up in `escape_indices` and
    `escape_codes`); `code(index)` reads one value after checking its block; `check_all()`
    checks every block that has not been checked yet."""

    def __init__(self, path: Path, expected: tuple[int, int, int] | None = None) -> None:
        self.path = Path(path)
        self.header = header = read_header(self.path, expected)
        self.values: npt.NDArray[np.uint8] = np.zeros(0, dtype=np.uint8)
        self.checksums = np.fromfile(self.path, dtype="<u4", count=header.blocks,
                                     offset=HEADER_SIZE)
        self.escape_indices = np.fromfile(self.path, dtype="<u8", count=header.escapes,
                                          offset=header.escapes_offset)
        self.escape_codes = np.fromfile(self.path, dtype="<u2", count=header.escapes,
                                        offset=header.escapes_offset + 8 * header.escapes)
        if header.entries:
            self.values = np.memmap(self.path, dtype=np.uint8, mode="r",
                                    offset=header.data_offset, shape=(header.entries,))
        if (self.checksums.size, self.values.size, self.escape_codes.size) != \
                (header.blocks, header.entries, header.escapes):
            raise CorruptTableError(f"{self.path} changed while it was read")
        if zlib.crc32(self.checksums.tobytes()) != header.checksums_crc:
            raise CorruptTableError(f"{self.path} is damaged: its block checksums do not "
                                    "match the header")
        if zlib.crc32(self.escape_indices.tobytes() + self.escape_codes.tobytes()) != \
                header.escapes_crc or np.any(self.escape_indices >= header.entries) or \
                np.any(np.diff(self.escape_indices.astype(np.int64)) <= 0) or \
                np.any(self.escape_codes < ESCAPE):
            raise CorruptTableError(f"{self.path} is damaged: its escaped values do not "
                                    "match the header")
        self.checked = np.zeros(header.blocks, dtype=np.uint8)

    def _check_block(self, block: int) -> None:
        start = block * self.header.block_bytes
        data = self.values[start:start + self.header.block_bytes]
        if zlib.crc32(data.data) != int(self.checksums[block]):
            raise CorruptTableError(
                f"{self.path} is damaged: block {block} (values from {start}) does not match "
                "its checksum; rebuild it")
        escapes = np.searchsorted(self.escape_indices, [start, start + data.size])
        if np.count_nonzero(data == ESCAPE) != escapes[1] - escapes[0] or \
                np.any(data[self.escape_indices[escapes[0]:escapes[1]].astype(np.int64) - start]
                       != ESCAPE):
            raise CorruptTableError(f"{self.path} is damaged: block {block} and the escaped "
                                    "values disagree; rebuild it")
        self.checked[block] = 1

    def code(self, index: int) -> int:
        block = index // self.header.block_bytes
        if not self.checked[block]:
            self._check_block(block)
        code = int(self.values[index])
        if code == ESCAPE:
            code = int(self.escape_codes[np.searchsorted(self.escape_indices, index)])
        return code

    def check_all(self) -> "CheckedTable":
        for block in np.flatnonzero(self.checked == 0):
            self._check_block(int(block))
        return self


def open_table(path: Path, expected: tuple[int, int, int] | None = None) -> CheckedTable:
    """A table with its header checked; values are checked block by block as they are read."""
    return CheckedTable(path, expected)


def load_values(path: Path, expected: tuple[int, int, int] | None = None) -> np.ndarray:
    """A table's value codes as a uint16 array in memory, every block checked (what the
    generator and the verifier read). The file is mapped, not read into a second array."""
    table = CheckedTable(path, expected).check_all()
    codes = np.array(table.values, dtype=np.uint16)
    codes[table.escape_indices] = table.escape_codes
    return codes


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
