"""What the processes of one server share (`quixo serve --processes N`): memory mapped before
they fork, and a lock that a process cannot die holding.

The per-client rate limit (ratelimit.py) and the search slots and their queue (pool.py) live in
such memory, so that N processes are one server to its clients: the same limit, the same
number of searches at once, one /api/v1/status. A server of one process keeps them there too:
one code path, whatever the number.

The lock between processes is a POSIX record lock (`fcntl.lockf`) on a file of its own: the
kernel frees it when its holder dies, so a process that is killed never leaves the others
waiting. Where there is no such lock (Windows, which has no fork either, so its server is one
process), a thread lock is all it takes.
"""
from __future__ import annotations

import mmap
import os
import struct
import tempfile
import threading
import weakref
from types import TracebackType

try:
    import fcntl
except ImportError:                  # Windows: one process, no lock between processes
    fcntl = None                     # type: ignore[assignment]


def can_share_between_processes() -> bool:
    return fcntl is not None


class SharedLock:
    """A lock between the threads of a process and between the processes that inherit it (a
    record lock is its process's: the threads of one process need the thread lock too). Its
    file is unlinked at once and closed when the lock is collected."""

    def __init__(self) -> None:
        self._thread_lock = threading.Lock()
        self._descriptor: int | None = None
        if fcntl is not None:
            self._descriptor, path = tempfile.mkstemp(prefix="quixo-serve-lock-")
            os.unlink(path)
            weakref.finalize(self, os.close, self._descriptor)

    def __enter__(self) -> None:
        self._thread_lock.acquire()
        if self._descriptor is not None:
            try:
                fcntl.lockf(self._descriptor, fcntl.LOCK_EX)
            except BaseException:
                self._thread_lock.release()
                raise

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        try:
            if self._descriptor is not None:
                fcntl.lockf(self._descriptor, fcntl.LOCK_UN)
        finally:
            self._thread_lock.release()


def shared_memory(size: int) -> mmap.mmap:
    """`size` bytes of zeros that the processes forked after this share (an anonymous shared
    mapping: a child's writes are seen by its parent and its siblings)."""
    return mmap.mmap(-1, max(size, 1))


class ProcessCounts:
    """Counters kept per process, each row written by its own process and read summed by
    any: `fields` named, 64-bit. The row of a process that died is zeroed by the parent
    (`forget`), so that what it held is not counted for ever."""

    def __init__(self, processes: int, fields: tuple[str, ...]) -> None:
        self.processes = processes
        self.fields = fields
        self._row = struct.Struct(f"={len(fields)}q")
        self._field = struct.Struct("=q")
        self._memory = shared_memory(processes * self._row.size)
        self.index = 0                      # this process's row

    def offset(self, name: str, index: int | None = None) -> int:
        row = self.index if index is None else index
        return row * self._row.size + self.fields.index(name) * self._field.size

    def get(self, name: str, index: int | None = None) -> int:
        value: int = self._field.unpack_from(self._memory, self.offset(name, index))[0]
        return value

    def set(self, name: str, value: int) -> None:
        self._field.pack_into(self._memory, self.offset(name), value)

    def add(self, name: str, amount: int = 1) -> None:
        self.set(name, self.get(name) + amount)

    def total(self, name: str) -> int:
        return sum(self.get(name, index) for index in range(self.processes))

    def totals(self) -> dict[str, int]:
        rows = [self._row.unpack_from(self._memory, index * self._row.size)
                for index in range(self.processes)]
        return {name: sum(row[column] for row in rows)
                for column, name in enumerate(self.fields)}

    def forget(self, index: int) -> None:
        self._row.pack_into(self._memory, index * self._row.size, *[0] * len(self.fields))
