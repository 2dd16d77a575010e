"""Four-player table files: one per side of a tier, its values compressed in blocks.

An entry is a symmetry class of positions (_tier_index.pxd); the win, draw and loss counts
are over every raw position of the side (an entry counts for its orbit).

Layout (little-endian):
    head, 16 bytes: magic 8s b"QUIXO4T\\0", version H (1), board size B, the mover's team's
        cubes B, the other team's B, 3 reserved bytes
    blocks: the side's value codes (u16, _value_code.pxd) in index order, BLOCK_ENTRIES per
        block, each compressed alone (zlib, so that a probe decompresses one block)
    block index: blocks + 1 offsets (u64, from the first block), then one CRC-32 per block of
        its compressed bytes
    counts: the raw positions won, drawn and lost (u64 each) of every class of the side, by
        the cubes of the mover (0..T) then of the next player (0..U) (_tier_index.raw_counts)
    trailer, 96 bytes (TRAILER): entries Q, wins Q, draws Q, losses Q, longest plies I, block
        entries I, blocks Q, the CRC-32 of the head, of the block index and of the counts
        (I each), the version of the package that wrote the file (H each), 18 reserved bytes,
        b"Q4TBTRAL", then the CRC-32 of the trailer before it

Nothing is used before it is checked: opening a file checks its head, trailer and block
index; a block's CRC-32 is checked before it is decompressed. Files are written under a
temporary name and renamed (solverkit.arrayfile.write_atomically).
"""
from __future__ import annotations

import mmap
import struct
import zlib
from collections import OrderedDict
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from solverkit.arrayfile import write_atomically
from solverkit.version import __version__

from ...tablebase.errors import CorruptTableError
from ._tier_index import TierSideIndex, side_entries

MAGIC = b"QUIXO4T\0"
VERSION = 1
HEAD = struct.Struct("<8sHBBB3x")
TRAILER = struct.Struct("<QQQQIIQIIIHHH18x8sI")
TRAILER_MAGIC = b"Q4TBTRAL"
assert HEAD.size == 16 and TRAILER.size == 96
BLOCK_ENTRIES = 1 << 16         # 128 KiB of values: a probe decompresses one block
BATCH_BLOCKS = 64               # blocks compressed at once (zlib releases the GIL)
LEVEL = 6
CACHED_BLOCKS = 8               # decompressed blocks a reader keeps for its probes
# the version of the package that writes, as the trailer records it (its first three numbers)
WRITER = tuple((int(part) if part.isdigit() else 0)
               for part in (__version__.split(".") + ["0", "0"])[:3])
VALUE = np.dtype("<u2")         # a value code as the blocks hold it
Side = tuple[int, int, int]     # (board size, the mover's team's cubes, the other team's)


@dataclass(frozen=True)
class SideHeader:
    size: int
    team_count: int
    other_count: int
    entries: int
    wins: int                   # raw positions won, drawn, lost by the team to move
    draws: int
    losses: int
    longest_plies: int
    block_entries: int
    blocks: int
    written_by: str
    class_counts: npt.NDArray[np.int64]   # [own cubes, next player's cubes, win/draw/loss]


def side_name(size: int, team_count: int, other_count: int) -> str:
    return f"quixo{size}x{size}-teams-{team_count:02d}-{other_count:02d}.q4t"


def write_side(directory: Path, size: int, team_count: int, other_count: int,
               values: npt.NDArray[np.uint16], threads: int = 0) -> Path:
    """Write one side's values (atomically); returns the file's path."""
    index = TierSideIndex(size, team_count, other_count)
    if values.dtype != np.uint16 or values.shape != (index.entries,):
        raise ValueError(f"side ({team_count}, {other_count}) of {size}x{size} has "
                         f"{index.entries} uint16 values, not {values.shape} {values.dtype}")
    class_counts, longest = index.raw_counts(values, threads)
    wins, draws, losses = (int(n) for n in class_counts.sum(axis=(0, 1)))
    counts = class_counts.astype("<u8").tobytes()
    blocks = -(-len(values) // BLOCK_ENTRIES)
    compressed = list(_compressed_blocks(values, blocks, threads))
    offsets = np.zeros(blocks + 1, dtype="<u8")
    offsets[1:] = np.cumsum([len(block) for block in compressed], dtype=np.uint64)
    crcs = np.array([zlib.crc32(block) for block in compressed], dtype="<u4")
    block_index = offsets.tobytes() + crcs.tobytes()
    head = HEAD.pack(MAGIC, VERSION, size, team_count, other_count)
    body = TRAILER.pack(len(values), wins, draws, losses, longest, BLOCK_ENTRIES, blocks,
                        zlib.crc32(head), zlib.crc32(block_index), zlib.crc32(counts), *WRITER,
                        TRAILER_MAGIC, 0)
    trailer = body[:-4] + struct.pack("<I", zlib.crc32(body[:-4]))
    return write_atomically(Path(directory) / side_name(size, team_count, other_count),
                            [head, *compressed, block_index, counts, trailer])


def _compressed_blocks(values: npt.NDArray[np.uint16], blocks: int,
                       threads: int) -> Iterator[bytes]:
    with ThreadPoolExecutor(max(1, threads or 1)) as pool:
        for first in range(0, blocks, BATCH_BLOCKS):
            pieces = [values[i * BLOCK_ENTRIES:(i + 1) * BLOCK_ENTRIES].astype(VALUE).tobytes()
                      for i in range(first, min(first + BATCH_BLOCKS, blocks))]
            yield from pool.map(lambda raw: zlib.compress(raw, LEVEL), pieces)


class SideTable:
    """One side's file, opened and checked (head, trailer, block index); its values are read
    a block at a time, each block checked before use."""

    def __init__(self, path: Path, expected: Side):
        self.path = Path(path)
        try:
            with open(self.path, "rb") as handle:
                self._map = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
        except ValueError:              # an empty file cannot be mapped
            raise CorruptTableError(f"{self.path} is empty, not a four-player table") from None
        try:
            self.header = _checked_header(self.path, self._map, expected)
            blocks = self.header.blocks
            index_bytes = 12 * blocks + 8
            start = len(self._map) - TRAILER.size - self.header.class_counts.nbytes - index_bytes
            # (copies: a view would keep the map from closing)
            self._offsets = np.frombuffer(self._map, dtype="<u8", count=blocks + 1,
                                          offset=start).astype(np.int64)
            self._crcs = np.frombuffer(self._map, dtype="<u4", count=blocks,
                                       offset=start + 8 * (blocks + 1)).copy()
            if self._offsets[0] != 0 or self._offsets[-1] != start - HEAD.size or np.any(
                    np.diff(self._offsets) <= 0):
                raise CorruptTableError(f"{self.path}: its block index does not match its "
                                        "blocks")
        except BaseException:
            self._map.close()
            raise
        self._cache: OrderedDict[int, npt.NDArray[np.uint16]] = OrderedDict()

    def block(self, number: int) -> npt.NDArray[np.uint16]:
        """The values of one block, checked (CorruptTableError if damaged)."""
        cached = self._cache.get(number)
        if cached is not None:
            self._cache.move_to_end(number)
            return cached
        values = self._decoded(number)
        self._cache[number] = values
        if len(self._cache) > CACHED_BLOCKS:
            self._cache.popitem(last=False)
        return values

    def _decoded(self, number: int) -> npt.NDArray[np.uint16]:
        """One block, checked and decompressed (no cache: threads may call it at once)."""
        start = HEAD.size + int(self._offsets[number])
        stop = HEAD.size + int(self._offsets[number + 1])
        raw = self._map[start:stop]
        if zlib.crc32(raw) != int(self._crcs[number]):
            raise CorruptTableError(f"{self.path}: block {number} is damaged (CRC-32)")
        expected = min(BLOCK_ENTRIES, self.header.entries - number * BLOCK_ENTRIES)
        decompressor = zlib.decompressobj()
        try:        # never more than the block's values (and one byte to tell a longer one)
            data = decompressor.decompress(raw, 2 * expected + 1)
        except zlib.error:
            data = b""
        if len(data) != 2 * expected or not decompressor.eof:
            raise CorruptTableError(f"{self.path}: block {number} does not decompress to "
                                    f"its {expected} values")
        return np.frombuffer(data, dtype=VALUE)

    def value(self, index: int) -> int:
        """The value code of one entry."""
        block, offset = divmod(index, BLOCK_ENTRIES)
        return int(self.block(block)[offset])

    def values(self, threads: int = 0) -> npt.NDArray[np.uint16]:
        """Every value of the side, each block checked (decompressed on `threads` threads)."""
        out = np.empty(self.header.entries, dtype=np.uint16)

        def fill(number: int) -> None:
            start = number * BLOCK_ENTRIES
            values = self._decoded(number)
            out[start:start + len(values)] = values

        with ThreadPoolExecutor(max(1, threads or 1)) as pool:
            list(pool.map(fill, range(self.header.blocks)))
        return out

    def close(self) -> None:
        self._cache.clear()
        self._map.close()


def _checked_header(path: Path, data: mmap.mmap, expected: Side) -> SideHeader:
    if len(data) < HEAD.size + TRAILER.size + 8:
        raise CorruptTableError(f"{path} is too short for a four-player table")
    head = data[:HEAD.size]
    magic, version, size, team_count, other_count = HEAD.unpack(head)
    if magic != MAGIC:
        raise CorruptTableError(f"{path} is not a four-player Quixo table (bad magic)")
    if version != VERSION:
        raise CorruptTableError(f"{path} is a four-player table of version {version}; this "
                                f"program reads version {VERSION}")
    if (size, team_count, other_count) != expected:
        raise CorruptTableError(f"{path} holds side {(size, team_count, other_count)}, not "
                                f"{expected}")
    raw = data[len(data) - TRAILER.size:]
    fields = TRAILER.unpack(raw)
    (entries, wins, draws, losses, longest, block_entries, blocks, head_crc, index_crc,
     counts_crc, major, minor, patch, trailer_magic, trailer_crc) = fields
    if trailer_magic != TRAILER_MAGIC or zlib.crc32(raw[:-4]) != trailer_crc:
        raise CorruptTableError(f"{path}: its trailer is damaged or missing (truncated file?)")
    if head_crc != zlib.crc32(head):
        raise CorruptTableError(f"{path}: its head is damaged (CRC-32)")
    if entries != side_entries(size, team_count, other_count) or block_entries != \
            BLOCK_ENTRIES or blocks != -(-entries // BLOCK_ENTRIES):
        raise CorruptTableError(f"{path}: its trailer does not describe side "
                                f"({team_count}, {other_count}) of {size}x{size}")
    index_bytes = 12 * blocks + 8
    counts_bytes = 8 * 3 * (team_count + 1) * (other_count + 1)
    if len(data) < HEAD.size + index_bytes + counts_bytes + TRAILER.size:
        raise CorruptTableError(f"{path} is truncated")
    counts_start = len(data) - TRAILER.size - counts_bytes
    index_start = counts_start - index_bytes
    if zlib.crc32(data[index_start:index_start + index_bytes]) != index_crc:
        raise CorruptTableError(f"{path}: its block index is damaged (CRC-32)")
    raw_counts = data[counts_start:counts_start + counts_bytes]
    if zlib.crc32(raw_counts) != counts_crc:
        raise CorruptTableError(f"{path}: its counts are damaged (CRC-32)")
    class_counts = np.frombuffer(raw_counts, dtype="<u8").astype(np.int64).reshape(
        team_count + 1, other_count + 1, 3)
    if [wins, draws, losses] != [int(n) for n in class_counts.sum(axis=(0, 1))]:
        raise CorruptTableError(f"{path}: its counts do not add up to its totals")
    return SideHeader(size, team_count, other_count, entries, wins, draws, losses, longest,
                      block_entries, blocks, f"{major}.{minor}.{patch}", class_counts)


def read_header(directory: Path, size: int, team_count: int, other_count: int) -> SideHeader:
    """A side's checked header (its blocks are not read)."""
    table = open_side(directory, size, team_count, other_count)
    try:
        return table.header
    finally:
        table.close()


def open_side(directory: Path, size: int, team_count: int, other_count: int) -> SideTable:
    return SideTable(Path(directory) / side_name(size, team_count, other_count),
                     (size, team_count, other_count))


def is_intact(directory: Path, size: int, team_count: int, other_count: int, *,
              check_data: bool = False) -> bool:
    """Whether the side's file is there and complete (with `check_data`, every block too)."""
    path = Path(directory) / side_name(size, team_count, other_count)
    if not path.exists():
        return False
    try:
        table = SideTable(path, (size, team_count, other_count))
        try:
            if check_data:
                for number in range(table.header.blocks):
                    table._decoded(number)
        finally:
            table.close()
    except CorruptTableError:
        return False
    return True
