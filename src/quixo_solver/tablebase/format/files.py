"""Table files: one per class, its values compressed in blocks (format version 4).

An entry is a symmetry class of positions (_orbit_index.pxd); the win, draw and loss counts
are over every raw position (each entry counts for the positions of its orbit).

Layout (little-endian):
    head, 16 bytes: magic 8s b"QUIXOTB\\0", version H (4), board size B, mover cubes B,
        opponent cubes B, 3 reserved bytes
    blocks: the class's values in index order, `block entries` per block, each block coded on
        its own (_codec.pxd: a static context model and rANS, in segments that decode alone)
    model: the class's coding model (_codec.CodecModel.to_bytes)
    block index: blocks + 1 offsets (u64, from the first block: where each block starts, then
        the end of the last), then one CRC-32 per block (u32)
    trailer, 128 bytes (TRAILER): entries Q, wins Q, draws Q, losses Q, longest plies I,
        longest win i (plies, -1 for none) and its raw positions Q, longest loss i and its
        raw positions Q, block entries I, segment entries I, blocks Q, bytes of the blocks Q,
        bytes of the model I, then the CRC-32 of the head, of the model and of the block index
        (I each), the version of the package that wrote the file (major, minor, patch: H each;
        0.0.0 for files written before it was recorded), 10 reserved bytes, b"QTBTRAIL", and
        the CRC-32 of the trailer before it

The file holds no value the rules decide: positions with a line on the board, positions whose
mover has no move (win or loss in 0 plies, SPEC "Terminal positions") and holes (slots of no
position) are "don't care" entries, coded as whatever costs least; every reader answers them
from the position (_codec.pxd position_kind). Nothing is used before it is checked: opening a
file checks its head, trailer, model and block index (a few KiB to a few MiB), and a block's
CRC-32 is checked the first time any value is read from it (`_compressed_table.CompressedTable`,
and the kernels through the same flags); a build or the verifier check every block of what they
read.
Files are written under a temporary name in the same folder and renamed, so a file under its
final name is always complete.

Format 3 (one byte per entry) is not read here: `quixo tablebase compress` converts a folder of
them (tablebase/format/compress.py), and any other command names the file and says so.
"""
from __future__ import annotations

import os
import struct
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from solverkit.arrayfile import TEMPORARY_SUFFIX, write_atomically  # noqa: F401
from solverkit.messages import clip
from solverkit.version import __version__

from . import _codec, coding
from ._orbit_index import entry_count, orbit_class
from ._compressed_table import CompressedTable
from ..errors import CorruptTableError, OldFormatError, TablebaseError

__all__ = ["CompressedTable", "CorruptTableError", "OldFormatError", "TablebaseError"]

MAGIC = b"QUIXOTB\0"
VERSION = 4
HEAD = struct.Struct("<8sHBBB3x")
TRAILER = struct.Struct("<QQQQIiQiQIIQQIIIIHHH10x8sI")
TRAILER_MAGIC = b"QTBTRAIL"
HEAD_SIZE = HEAD.size
assert HEAD.size == 16 and TRAILER.size == 128
# the version of this package, as the trailer records it
WRITER = tuple(int(part) for part in __version__.split(".")[:3])
COMPRESS_HINT = "convert the folder with: quixo tablebase compress --dir FOLDER"


@dataclass(frozen=True)
class ClassCounts:
    """What every format's header says first: the class, its entries and its raw positions
    won, drawn and lost."""
    size: int
    mover_count: int
    opponent_count: int
    entries: int
    wins: int
    draws: int
    losses: int


@dataclass(frozen=True)
class TableHeader(ClassCounts):
    longest_plies: int
    longest_win: int               # plies of the longest win, -1 if the class has none
    longest_win_positions: int     # raw positions won in that many plies
    longest_loss: int
    longest_loss_positions: int
    block_entries: int
    segment_entries: int
    blocks: int
    data_bytes: int
    model_bytes: int
    head_crc: int
    model_crc: int
    index_crc: int
    written_by: str | None         # the package version that wrote the file, if recorded

    @property
    def data_offset(self) -> int:
        return HEAD_SIZE

    @property
    def model_offset(self) -> int:
        return HEAD_SIZE + self.data_bytes

    @property
    def index_offset(self) -> int:
        return self.model_offset + self.model_bytes

    @property
    def file_bytes(self) -> int:
        return self.index_offset + 12 * self.blocks + 8 + TRAILER.size


def table_name(size: int, mover_count: int, opponent_count: int) -> str:
    return f"quixo{size}x{size}-{mover_count:02d}-{opponent_count:02d}.qtb"


def class_figures(size: int, mover_count: int, opponent_count: int,
                  values: npt.NDArray[np.uint16],
                  counts: npt.NDArray[np.int64] | None = None) -> dict[str, int]:
    """What a file's trailer says of its values: raw positions won, drawn and lost, and the
    longest win and loss with their raw positions (`counts`: the class's code_counts, if
    they are known)."""
    if counts is None:
        counts = orbit_class(size, mover_count, opponent_count).code_counts(values)
    wins, losses = counts[1::2], counts[2::2]
    won, lost = np.flatnonzero(wins), np.flatnonzero(losses)
    longest_win = int(won.max()) if won.size else -1
    longest_loss = int(lost.max()) if lost.size else -1
    return {"wins": int(wins.sum()), "draws": int(counts[0]) if counts.size else 0,
            "losses": int(losses.sum()), "longest_plies": max(longest_win, longest_loss, 0),
            "longest_win": longest_win,
            "longest_win_positions": int(wins[longest_win]) if won.size else 0,
            "longest_loss": longest_loss,
            "longest_loss_positions": int(losses[longest_loss]) if lost.size else 0}


def table_pieces(size: int, mover_count: int, opponent_count: int,
                 values: npt.NDArray[np.uint16], threads: int = 1
                 ) -> Iterator[bytes | memoryview]:
    """The bytes of a class's table file, a batch of blocks at a time."""
    values = np.ascontiguousarray(values, dtype=np.uint16)
    orbits = orbit_class(size, mover_count, opponent_count)
    if values.size != orbits.entries:
        raise ValueError(f"{values.size} values for class ({mover_count}, {opponent_count}), "
                         f"which has {orbits.entries} entries")
    counts = orbits.code_counts(values)
    figures = class_figures(size, mover_count, opponent_count, values, counts)
    model, filled = coding.choose_model(orbits, values, counts, threads)
    head = HEAD.pack(MAGIC, VERSION, size, mover_count, opponent_count)
    yield head
    lengths, checksums = [], []
    for data, block_lengths, block_checksums in coding.coded_blocks(model, orbits, values,
                                                                    threads, filled):
        lengths.append(block_lengths)
        checksums.append(block_checksums)
        yield data.data
    sizes = np.concatenate(lengths).astype(np.uint64)
    offsets = np.concatenate(([0], np.cumsum(sizes))).astype("<u8")
    index = offsets.tobytes() + np.concatenate(checksums).astype("<u4").tobytes()
    model_bytes = model.to_bytes()
    yield model_bytes
    yield index
    fields = (orbits.entries, figures["wins"], figures["draws"], figures["losses"],
              figures["longest_plies"], figures["longest_win"],
              figures["longest_win_positions"], figures["longest_loss"],
              figures["longest_loss_positions"], coding.BLOCK_ENTRIES,
              coding.SEGMENT_ENTRIES, sizes.size, int(offsets[-1]), len(model_bytes),
              zlib.crc32(head), zlib.crc32(model_bytes), zlib.crc32(index), *WRITER,
              TRAILER_MAGIC)
    trailer = TRAILER.pack(*fields, 0)[:TRAILER.size - 4]
    yield trailer + struct.pack("<I", zlib.crc32(trailer))


def write_table(directory: Path, size: int, mover_count: int, opponent_count: int,
                values: npt.NDArray[np.uint16], threads: int = 1) -> Path:
    """Write a solved class atomically (compressed). A failed write (a full disk) leaves no
    temporary file and names the cause and the file."""
    path = Path(directory) / table_name(size, mover_count, opponent_count)
    return write_atomically(path, table_pieces(size, mover_count, opponent_count, values,
                                               threads))


def _refuse_old(path: Path, version: int) -> OldFormatError:
    if version == 3:
        return OldFormatError(f"{path} has format version 3 (one byte per entry); this "
                              f"program reads version {VERSION}: {COMPRESS_HINT}")
    return OldFormatError(f"{path} has format version {version}; this program reads version "
                          f"{VERSION}: rebuild it (quixo tablebase build)")


def file_version(path: Path) -> int:
    """The format version a table file says it has (its head unchecked): for messages."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(10)
    except OSError as error:
        raise TablebaseError(f"cannot read table {path}: {error.strerror}") from error
    if len(head) < 10 or head[:8] != MAGIC:
        raise CorruptTableError(f"{path} is not a Quixo table file (bad or short header)")
    return int.from_bytes(head[8:10], "little")


def read_header(path: Path, expected: tuple[int, int, int] | None = None) -> TableHeader:
    """Check the head, the trailer and their checksums, the file's length and, when
    `expected` (size, mover, opponent) is given, that the file is that class's table."""
    path = Path(path)
    try:
        with open(path, "rb") as handle:
            head = handle.read(HEAD_SIZE)
            actual = os.fstat(handle.fileno()).st_size
            if actual >= HEAD_SIZE + TRAILER.size:
                handle.seek(actual - TRAILER.size)
            raw = handle.read(TRAILER.size)
    except OSError as error:
        raise TablebaseError(f"cannot read table {path}: {error.strerror}") from error
    if len(head) < 10 or head[:8] != MAGIC:
        raise CorruptTableError(f"{path} is not a Quixo table file (bad or short header)")
    version = int.from_bytes(head[8:10], "little")
    if version != VERSION:
        raise _refuse_old(path, version)
    if len(raw) < TRAILER.size or actual < HEAD_SIZE + TRAILER.size:
        raise CorruptTableError(f"{path} is truncated: {actual} bytes")
    fields = TRAILER.unpack(raw)
    if fields[-2] != TRAILER_MAGIC or zlib.crc32(raw[:-4]) != fields[-1]:
        raise CorruptTableError(f"{path} is truncated or damaged: its last {TRAILER.size} "
                                "bytes are not a table's trailer")
    _, _, size, mover_count, opponent_count = HEAD.unpack(head)
    writer = fields[17:20]
    written_by = ".".join(map(str, writer)) if any(writer) else None
    header = TableHeader(*(size, mover_count, opponent_count, *fields[:17], written_by))
    if zlib.crc32(head) != header.head_crc:
        raise CorruptTableError(f"{path} has a damaged header (checksum mismatch)")
    if expected is not None:
        found = (header.size, header.mover_count, header.opponent_count)
        if found != expected or header.entries != entry_count(*expected):
            raise CorruptTableError(
                f"{path} holds class {found[1:]} of the {found[0]}x{found[0]} board with "
                f"{header.entries} entries, not the table its name says")
    if header.segment_entries == 0 or header.block_entries % header.segment_entries or \
            header.blocks != -(-header.entries // header.block_entries) or \
            header.block_entries // header.segment_entries > 256 or \
            header.segment_entries > _codec.PARAMETERS["MAX_SEGMENT"]:
        raise CorruptTableError(f"{path} has an impossible header ({header.blocks} blocks of "
                                f"{header.block_entries} entries for {header.entries})")
    if actual != header.file_bytes:
        raise CorruptTableError(f"{path} is truncated or padded: {actual} bytes, expected "
                                f"{header.file_bytes}")
    return header


def open_table(path: Path, expected: tuple[int, int, int] | None = None) -> CompressedTable:
    """A table with its head, trailer, model and block index checked; each block is checked
    the first time a value is read from it."""
    path = Path(path)
    header = read_header(path, expected)
    mapped = np.memmap(path, dtype=np.uint8, mode="r")
    if mapped.size != header.file_bytes:
        raise CorruptTableError(f"{path} changed while it was read")
    model_bytes = bytes(mapped[header.model_offset:header.index_offset])
    index = np.array(mapped[header.index_offset:header.index_offset + 12 * header.blocks + 8])
    if zlib.crc32(model_bytes) != header.model_crc:
        raise CorruptTableError(f"{path} is damaged: its model does not match its checksum")
    if zlib.crc32(index.tobytes()) != header.index_crc:
        raise CorruptTableError(f"{path} is damaged: its block index does not match its "
                                "checksum")
    occupied = header.mover_count + header.opponent_count
    try:
        orbits = orbit_class(header.size, header.mover_count, header.opponent_count)
        model = _codec.CodecModel.from_bytes(model_bytes, occupied, header.mover_count)
    except ValueError as error:
        raise CorruptTableError(f"{path} is damaged: {error}") from None
    offsets = index[:8 * (header.blocks + 1)].view("<u8")
    checksums = index[8 * (header.blocks + 1):].view("<u4")
    if offsets[0] != 0 or offsets[-1] != header.data_bytes or np.any(np.diff(offsets.astype(
            np.int64)) < 0):
        raise CorruptTableError(f"{path} is damaged: its block index is not in order")
    data = mapped[HEAD_SIZE:HEAD_SIZE + header.data_bytes]
    return CompressedTable(path, header, model, orbits, data, offsets, checksums)


def load_values(path: Path, expected: tuple[int, int, int] | None = None,
                threads: int = 1) -> np.ndarray:
    """A table's value codes as a uint16 array in memory, every block checked (what the
    verifier reads; holes hold 0)."""
    return open_table(path, expected).values(threads)


def is_intact(path: Path, expected: tuple[int, int, int], *, check_data: bool = True) -> bool:
    """Whether the file is a complete table of that class, and with `check_data` undamaged
    (every block checked). A file of an older format raises OldFormatError."""
    try:
        table = open_table(path, expected)
        if check_data:
            table.check_all()
    except OldFormatError:
        raise
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
