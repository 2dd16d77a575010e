"""One numpy array in a file: a 36-byte header, then the array's bytes (little-endian).

Header: magic 8s, format version u16, dtype 2s (kind and item size: b"f8", b"u2"), four
dimensions u32 (unused ones 0), crc32 of the data u32, then the crc32 of those 32 bytes.
Written to a temporary name in the same folder and renamed, so a file under its final name is
complete; read back only when every check passes, with an error naming the file otherwise.
"""
from __future__ import annotations

import os
import struct
import zlib
from pathlib import Path

import numpy as np

HEADER = struct.Struct("<8sH2s4II")
CHECKED = struct.Struct("<I")
HEADER_SIZE = HEADER.size + CHECKED.size


def _crc(data: np.ndarray) -> int:
    return zlib.crc32(np.ascontiguousarray(data).reshape(-1).view(np.uint8))


def write_array(path: Path | str, magic: bytes, version: int, array: np.ndarray) -> Path:
    if len(magic) != 8 or array.ndim > 4:
        raise ValueError("magic is 8 bytes; at most 4 dimensions")
    data = np.ascontiguousarray(array, dtype=array.dtype.newbyteorder("<"))
    code = f"{data.dtype.kind}{data.dtype.itemsize}".encode()
    shape = list(data.shape) + [0] * (4 - data.ndim)
    head = HEADER.pack(magic, version, code, *shape, _crc(data))
    head += CHECKED.pack(zlib.crc32(head))
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".partial")
    with open(temporary, "wb") as handle:
        handle.write(head)
        handle.write(data.tobytes())
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)
    return path


def read_array(path: Path | str, magic: bytes, version: int, error: type[Exception]) -> np.ndarray:
    """The array stored at `path`; `error` (an exception class) names what is wrong."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise error(f"{path}: no such file") from None
    if len(raw) < HEADER_SIZE:
        raise error(f"{path}: truncated header ({len(raw)} bytes)")
    found, found_version, code, *rest = HEADER.unpack_from(raw)
    shape, data_crc = [d for d in rest[:4] if d], rest[4]
    if found != magic:
        raise error(f"{path}: not a {magic.rstrip(bytes(1)).decode()} file (bad magic)")
    if zlib.crc32(raw[:HEADER.size]) != CHECKED.unpack_from(raw, HEADER.size)[0]:
        raise error(f"{path}: header checksum mismatch (corrupt file)")
    if found_version != version:
        raise error(f"{path}: format version {found_version}, expected {version}")
    dtype = np.dtype("<" + code.decode()[0] + code.decode()[1:])
    expected = HEADER_SIZE + dtype.itemsize * int(np.prod(shape, dtype=np.int64))
    if len(raw) != expected:
        raise error(f"{path}: {len(raw)} bytes where {expected} were expected (truncated)")
    data = np.frombuffer(raw, dtype=dtype, offset=HEADER_SIZE).reshape(shape)
    if _crc(data) != data_crc:
        raise error(f"{path}: data checksum mismatch (corrupt file)")
    return data.copy()
