"""Table files: one per class, a 64-byte header then one value per position in index order.

Header (little-endian):
    magic 8s  b"QUIXOTB\\0"      version H     board size B   mover cubes B   opponent cubes B
    value width B (1 or 2)       reserved H    positions Q    wins Q   draws Q   losses Q
    longest plies I              data crc32 I  reserved I   header crc32 I (of the 60 bytes
    before it)

Files are written to a temporary name in the same folder and renamed, so a file under its
final name is always complete; opening one checks the header, the length and the checksum.
A file whose checksum has passed once is noted, with its length and modification time, in
the folder's ``.verified`` list, so that later opens of the unchanged file skip the re-hash
(large 5x5 tables take seconds to hash).
"""
from __future__ import annotations

import json
import os
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import QuixoError

MAGIC = b"QUIXOTB\0"
VERSION = 1
HEADER = struct.Struct("<8sHBBBBHQQQQIIII")
HEADER_SIZE = 64
assert HEADER.size == HEADER_SIZE
TEMPORARY_SUFFIX = ".partial"
VERIFIED_LIST = ".verified"


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
    positions: int
    wins: int
    draws: int
    losses: int
    longest_plies: int
    data_crc: int


def table_name(size: int, mover_count: int, opponent_count: int) -> str:
    return f"quixo{size}x{size}-{mover_count:02d}-{opponent_count:02d}.qtb"


def _crc(data: np.ndarray) -> int:
    crc = 0
    flat = data.reshape(-1).view(np.uint8)
    step = 1 << 28
    for start in range(0, flat.size, step):
        crc = zlib.crc32(flat[start:start + step], crc)
    return crc


def write_table(directory: Path, size: int, mover_count: int, opponent_count: int,
                values: np.ndarray) -> Path:
    """Write a solved class atomically. Values are stored on one byte when they fit."""
    width = 1 if values.size == 0 or int(values.max()) <= 0xFF else 2
    data = np.ascontiguousarray(values, dtype=np.uint8 if width == 1 else np.dtype("<u2"))
    wins = int(np.count_nonzero(values & 1))
    draws = int(np.count_nonzero(values == 0))
    longest = int((int(values.max()) - 1) >> 1) if values.size and values.max() else 0
    fields = (MAGIC, VERSION, size, mover_count, opponent_count, width, 0, values.size, wins,
              draws, values.size - wins - draws, longest, _crc(data))
    head = HEADER.pack(*fields, 0, 0)[:HEADER_SIZE - 4]
    head += struct.pack("<I", zlib.crc32(head))
    path = Path(directory) / table_name(size, mover_count, opponent_count)
    temporary = path.with_name(path.name + f"{TEMPORARY_SUFFIX}-{os.getpid()}")
    with open(temporary, "wb") as handle:
        handle.write(head)
        data.tofile(handle)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)
    return path


def read_header(path: Path) -> TableHeader:
    """Check the header and the file length (not the data checksum)."""
    path = Path(path)
    try:
        with open(path, "rb") as handle:
            head = handle.read(HEADER_SIZE)
    except OSError as error:
        raise TablebaseError(f"cannot read table {path}: {error.strerror}") from error
    if len(head) < HEADER_SIZE or head[:8] != MAGIC:
        raise CorruptTableError(f"{path} is not a Quixo table file (bad or short header)")
    fields = HEADER.unpack(head)
    if zlib.crc32(head[:HEADER_SIZE - 4]) != fields[-1]:
        raise CorruptTableError(f"{path} has a damaged header (checksum mismatch)")
    if fields[1] != VERSION:
        raise CorruptTableError(f"{path} has format version {fields[1]}; this program reads "
                                f"version {VERSION}: rebuild it")
    header = TableHeader(*fields[2:6], *fields[7:13])
    expected = HEADER_SIZE + header.positions * header.width
    actual = path.stat().st_size
    if actual != expected:
        raise CorruptTableError(f"{path} is truncated or padded: {actual} bytes, expected "
                                f"{expected}")
    return header


def open_table(path: Path, *, check_data: bool = True) -> tuple[TableHeader, np.ndarray]:
    """Memory-map a table's values (read-only) after checking header, length and checksum."""
    path = Path(path)
    header = read_header(path)
    dtype = np.uint8 if header.width == 1 else np.dtype("<u2")
    if header.positions == 0:
        return header, np.zeros(0, dtype=dtype)
    values = np.memmap(path, dtype=dtype, mode="r", offset=HEADER_SIZE,
                       shape=(header.positions,))
    if check_data and not _verified_before(path, header):
        if _crc(values) != header.data_crc:
            raise CorruptTableError(f"{path} is damaged: its data does not match its checksum")
        _note_verified(path, header)
    return header, values


def _fingerprint(path: Path, header: TableHeader) -> list[int]:
    status = path.stat()
    return [status.st_size, status.st_mtime_ns, header.data_crc]


def _read_verified(directory: Path) -> dict:
    try:
        with open(directory / VERIFIED_LIST) as handle:
            listed = json.load(handle)
        return listed if isinstance(listed, dict) else {}
    except (OSError, ValueError):
        return {}


def _verified_before(path: Path, header: TableHeader) -> bool:
    return _read_verified(path.parent).get(path.name) == _fingerprint(path, header)


def _note_verified(path: Path, header: TableHeader) -> None:
    listed = _read_verified(path.parent)
    listed[path.name] = _fingerprint(path, header)
    temporary = path.parent / f"{VERIFIED_LIST}{TEMPORARY_SUFFIX}-{os.getpid()}"
    try:
        with open(temporary, "w") as handle:
            json.dump(listed, handle)
        os.replace(temporary, path.parent / VERIFIED_LIST)
    except OSError:
        pass  # a read-only folder: the checksum is simply checked again next time


def load_values(path: Path) -> np.ndarray:
    """A table's values as a uint16 array in memory (what the generator reads)."""
    _, values = open_table(path)
    return np.array(values, dtype=np.uint16)


def remove_partial_files(directory: Path) -> None:
    """Delete temporary files left by a build that was killed while writing (those of a
    process that is still running are left alone)."""
    for leftover in Path(directory).glob(f"*{TEMPORARY_SUFFIX}-*"):
        pid = leftover.name.rsplit("-", 1)[-1]
        if pid.isdigit() and _process_is_running(int(pid)):
            continue
        try:
            leftover.unlink()
        except OSError:
            pass


def _process_is_running(pid: int) -> bool:
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
