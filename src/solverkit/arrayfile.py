"""One numpy array in a file: a 36-byte header, then the array's bytes (little-endian).

Header: magic 8s, format version u16, dtype 2s (kind and item size: b"f8", b"u2"), four
dimensions u32 (unused ones 0), crc32 of the data u32, then the crc32 of those 32 bytes.
Written to a temporary name of its own in the same folder (`NAME.partial-<pid>-<random>`, so
that two processes writing the same file at once do not clash) and renamed, so a file under its
final name is complete; a failed write (disk full) removes the temporary file and raises an
OSError naming the cause and the final path. Read back only when every check passes, with an
error naming the file otherwise.
"""
from __future__ import annotations

import math
import os
import secrets
import struct
import zlib
from collections.abc import Iterable
from pathlib import Path

import numpy as np

HEADER = struct.Struct("<8sH2s4II")
CHECKED = struct.Struct("<I")
HEADER_SIZE = HEADER.size + CHECKED.size
CHUNK = 1 << 24          # bytes per write call


def _crc(data: np.ndarray) -> int:
    # `.data`: an array's bytes as a memoryview (numpy types arrays as buffers only on 3.12+)
    return zlib.crc32(np.ascontiguousarray(data).reshape(-1).view(np.uint8).data)


TEMPORARY_SUFFIX = ".partial"   # a temporary file is NAME.partial-<pid>-<random>


def _temporary_name(path: Path) -> Path:
    return path.with_name(f"{path.name}{TEMPORARY_SUFFIX}-{os.getpid()}-{secrets.token_hex(6)}")


def _open_temporary(path: Path) -> tuple[int, Path]:
    """A new file (O_EXCL, mode 0666 less the umask) next to `path`, and its name."""
    for _ in range(100):
        temporary = _temporary_name(path)
        try:
            return os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL
                           | getattr(os, "O_BINARY", 0), 0o666), temporary
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name next to {path}")


def write_array(path: Path | str, magic: bytes, version: int, array: np.ndarray) -> Path:
    if len(magic) != 8 or array.ndim > 4:
        raise ValueError("magic is 8 bytes; at most 4 dimensions")
    data = np.ascontiguousarray(array, dtype=array.dtype.newbyteorder("<"))
    code = f"{data.dtype.kind}{data.dtype.itemsize}".encode()
    shape = list(data.shape) + [0] * (4 - data.ndim)
    head = HEADER.pack(magic, version, code, *shape, _crc(data))
    head += CHECKED.pack(zlib.crc32(head))
    return write_atomically(path, [head, data.reshape(-1).view(np.uint8).data])


def write_atomically(path: Path | str, pieces: Iterable[bytes | memoryview]) -> Path:
    """Write the byte pieces (bytes, or arrays' bytes as memoryviews: `array.data`) to a
    temporary name of their own beside `path`, sync, then rename: a file under its final name
    is always complete. A failed write removes the temporary file and raises an OSError naming
    the cause and the final path. (The one write path of every file of the project: tables,
    arrays.)"""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = _open_temporary(path)
    try:
        try:
            with open(descriptor, "wb") as handle:
                for piece in pieces:
                    raw = memoryview(piece).cast("B")
                    for start in range(0, len(raw), CHUNK):
                        handle.write(raw[start:start + CHUNK])
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(temporary, path)
        except BaseException:
            try:
                os.unlink(temporary)
            except OSError:
                pass
            raise
    except OSError as error:
        raise OSError(error.errno, error.strerror or str(error), str(path)) from error
    sync_folder(path.parent)
    return path


def sync_folder(folder: Path) -> None:
    """Make the rename durable where the system allows it (best effort)."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


def read_array(path: Path | str, magic: bytes, version: int, error: type[Exception]) -> np.ndarray:
    """The array stored at `path`; `error` (an exception class) names what is wrong."""
    path = Path(path)
    try:
        handle = open(path, "rb")
    except FileNotFoundError:
        raise error(f"{path}: no such file") from None
    with handle:
        size = os.fstat(handle.fileno()).st_size
        head = handle.read(HEADER_SIZE)
        if len(head) < HEADER_SIZE:
            raise error(f"{path}: truncated header ({len(head)} bytes)")
        found, found_version, code, *rest = HEADER.unpack_from(head)
        shape, data_crc = [d for d in rest[:4] if d], rest[4]
        if found != magic:
            raise error(f"{path}: not a {magic.rstrip(bytes(1)).decode()} file (bad magic)")
        if zlib.crc32(head[:HEADER.size]) != CHECKED.unpack_from(head, HEADER.size)[0]:
            raise error(f"{path}: header checksum mismatch (corrupt file)")
        if found_version != version:
            raise error(f"{path}: format version {found_version}, expected {version}")
        try:
            dtype = np.dtype("<" + code.decode("ascii"))
        except (TypeError, ValueError):
            dtype = None
        if dtype is None or dtype.kind not in "biufc":
            raise error(f"{path}: unknown element type {code!r} (corrupt file)")
        expected = HEADER_SIZE + dtype.itemsize * math.prod(shape)
        if size != expected:            # checked before reading: no huge read of a bad file
            raise error(f"{path}: {size} bytes where {expected} were expected (truncated)")
        data = np.empty(shape, dtype=dtype)
        buffer, got = data.reshape(-1).view(np.uint8).data, 0
        while got < len(buffer):
            count = handle.readinto(buffer[got:])
            if not count:
                break
            got += count
        if got != expected - HEADER_SIZE:
            raise error(f"{path}: {HEADER_SIZE + got} bytes where {expected} were expected "
                        "(truncated)")
    if _crc(data) != data_crc:
        raise error(f"{path}: data checksum mismatch (corrupt file)")
    return data


def remove_temporaries(directory: Path) -> None:
    """Delete the temporary files of `directory` left by a writer that was killed (those of a
    process that is still running are left alone)."""
    for leftover in Path(directory).glob(f"*{TEMPORARY_SUFFIX}-*"):
        pid = leftover.name.rsplit(TEMPORARY_SUFFIX + "-", 1)[-1].split("-")[0]
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
