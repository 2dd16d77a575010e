"""Reading table files of format version 3 (one byte per entry), for `compress` only.

Layout (little-endian): an 80-byte header (magic b"QUIXOTB\\0", version H = 3, board size,
mover and opponent cubes B each, 7 reserved bytes, entries, wins, draws, losses and escapes
Q each, longest plies, block bytes, CRC-32 of the block checksums, CRC-32 of the escapes and
the header's own CRC-32, I each), one CRC-32 per block of `block bytes` values, one byte per
entry (ESCAPE = 255: the code is among the escapes), then the escapes: their entry indices
(u64, ascending) and their codes (u16). Every block is checked before its values are used.
"""
from __future__ import annotations

import os
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ._orbit_index import entry_count
from .files import ClassCounts
from ..errors import CorruptTableError, TablebaseError

MAGIC = b"QUIXOTB\0"
VERSION = 3
HEADER = struct.Struct("<8sHBBB7xQQQQQIIIII")
ESCAPE = 0xFF


@dataclass(frozen=True)
class Header3(ClassCounts):
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
        return HEADER.size + 4 * self.blocks

    @property
    def escapes_offset(self) -> int:
        return self.data_offset + self.entries

    @property
    def file_bytes(self) -> int:
        return self.escapes_offset + 10 * self.escapes


def read_header(path: Path, expected: tuple[int, int, int]) -> Header3:
    with open(path, "rb") as handle:
        head = handle.read(HEADER.size)
        actual = os.fstat(handle.fileno()).st_size
    if len(head) < HEADER.size or head[:8] != MAGIC:
        raise CorruptTableError(f"{path} is not a Quixo table file (bad or short header)")
    fields = HEADER.unpack(head)
    if zlib.crc32(head[:-4]) != fields[-1] or fields[1] != VERSION:
        raise CorruptTableError(f"{path} is not an intact table of format version 3")
    header = Header3(*fields[2:14])
    found = (header.size, header.mover_count, header.opponent_count)
    if found != expected or header.entries != entry_count(*expected) or \
            header.block_bytes == 0 or header.escapes > header.entries:
        raise CorruptTableError(f"{path} is not the table its name says")
    if actual != header.file_bytes:
        raise CorruptTableError(f"{path} is truncated or padded: {actual} bytes, expected "
                                f"{header.file_bytes}")
    return header


def load_values(path: Path, expected: tuple[int, int, int]) -> tuple[Header3, np.ndarray]:
    """The header and every value code (uint16) of a format-3 file, every block and the
    escapes checked; CorruptTableError naming the file otherwise."""
    path = Path(path)
    try:
        header = read_header(path, expected)
        checksums = np.fromfile(path, dtype="<u4", count=header.blocks, offset=HEADER.size)
        indices = np.fromfile(path, dtype="<u8", count=header.escapes,
                              offset=header.escapes_offset)
        codes = np.fromfile(path, dtype="<u2", count=header.escapes,
                            offset=header.escapes_offset + 8 * header.escapes)
        data = np.memmap(path, dtype=np.uint8, mode="r", offset=header.data_offset,
                         shape=(header.entries,))
    except OSError as error:
        raise TablebaseError(f"cannot read table {path}: {error.strerror}") from error
    if zlib.crc32(checksums.tobytes()) != header.checksums_crc or \
            zlib.crc32(indices.tobytes() + codes.tobytes()) != header.escapes_crc:
        raise CorruptTableError(f"{path} is damaged: its checksums or escapes do not match "
                                "its header")
    values = np.empty(header.entries, dtype=np.uint16)
    for block in range(header.blocks):
        start = block * header.block_bytes
        chunk = data[start:start + header.block_bytes]
        if zlib.crc32(chunk.data) != int(checksums[block]):
            raise CorruptTableError(f"{path} is damaged: block {block} (values from {start}) "
                                    "does not match its checksum")
        values[start:start + chunk.size] = chunk
    if np.any(indices >= header.entries) or np.count_nonzero(values == ESCAPE) != indices.size \
            or np.any(values[indices.astype(np.int64)] != ESCAPE) or np.any(codes < ESCAPE):
        raise CorruptTableError(f"{path} is damaged: its escaped values do not match")
    values[indices.astype(np.int64)] = codes
    return header, values
