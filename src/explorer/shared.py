"""What the processes of one server share (`quixo serve --processes N`): memory mapped before
they fork, and a lock.

The per-client rate limit (ratelimit.py) and the search slots and their queue (pool.py) live in
such memory, so that N processes are one server to its clients: the same limit, the same
number of searches at once, one /api/v1/status. A server of one process keeps them there too:
one code path, whatever the number.

The lock is a semaphore in shared memory (multiprocessing's Lock): taken and given back without
a system call or letting go of the interpreter lock when nobody else holds it, which is nearly
always (it guards a few lines). A record lock (fcntl.lockf), which its holder's death frees,
cost the event loop 13% of its time: two system calls a request, each letting go of the
interpreter lock, which a decoding thread then held. Against a holder that dies (killed in
those few lines), the parent frees a lock held longer than ABANDONED_SECONDS after a child dies
(`SharedLock.free_if_abandoned`). Where there is no such semaphore, as on a system without
fork, whose server is one process, a thread lock does.
"""
from __future__ import annotations

import mmap
import multiprocessing
import struct
import threading
from types import TracebackType
from typing import Any

ABANDONED_SECONDS = 1.0       # the lock guards a few lines: held this long, its holder died


def process_lock() -> Any:
    """A lock that the processes forked after it share, or a thread lock where there is
    none."""
    try:       # (the processes are forked: a fork context's lock needs no tracker process)
        return multiprocessing.get_context("fork").Lock()
    except (ValueError, ImportError, OSError):      # no fork, or no POSIX semaphores here
        return threading.Lock()


class SharedLock:
    """A lock between the threads of a process and between the processes that inherit it."""

    def __init__(self) -> None:
        self._lock = process_lock()

    def __enter__(self) -> None:
        self._lock.acquire()

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self._lock.release()

    def free_if_abandoned(self) -> bool:
        """Free the lock if it stays held ABANDONED_SECONDS (its holder died): whether it
        was. For the parent, once a child has died."""
        if self._lock.acquire(timeout=ABANDONED_SECONDS):
            self._lock.release()
            return False
        self._lock.release()
        return True


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
