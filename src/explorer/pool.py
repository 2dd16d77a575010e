"""The search pool: at most one search per core, a bounded queue, and searches that stop when
their client goes away.

A search (or any job long enough to need a core: a Qwixx rollout) runs in a worker thread,
where the kernels release the GIL, while the event loop goes on serving everyone else. The pool
holds `slots` slots (by default one per core); a job keeps on its slot what the next job
there may use again (`Slot.kept`: the Quixo service keeps a solver per variant, with its
transposition table, all sharing the server's one `Tablebase`). The pool knows nothing of
what runs on it. A request
that finds every slot busy waits in a first-come first-served queue of at most `queue` places;
when that is full too it is refused at once (`PoolFull`: the API answers 503 with a
Retry-After header), so that no client ever hangs.

A job is told to stop through its slot (`Slot.stop`: `stop()` on each thing kept there that
can stop, a solver, which ends a running search within about a thousand nodes); the slot is
free again once the worker thread has returned, then `allow()` readies them for the next job.
`run` watches the client's connection while the job runs: a client that disconnects stops its
job, which frees the slot within a second.

The slots and the queue are the whole server's, however many processes it runs (`quixo serve
--processes`): a `SlotLedger` in memory that they share counts each process's busy slots and
waiting requests, and a process takes a slot only while the server has one free. A slot freed
in one process goes to that process's next waiter at once; the waiters of the other processes
look for it every POLL_SECONDS (first come, first served within a process).
"""
from __future__ import annotations

import asyncio
import collections
import math
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Awaitable, Callable, Protocol, TypeVar, cast

from .shared import ProcessCounts, SharedLock

T = TypeVar("T")
POLL_SECONDS = 0.05


class PoolFull(Exception):
    """Every slot is busy and the queue is full: come back after `retry_after` seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"every search slot is busy and the queue is full: try again in "
                         f"{retry_after} s")
        self.retry_after = retry_after


class ClientGone(Exception):
    """The client disconnected while its job waited or ran (the job was stopped)."""


class Stoppable(Protocol):
    """What a slot stops and readies again: a solver."""

    def stop(self) -> None: ...

    def allow(self) -> None: ...


Kept = TypeVar("Kept", bound=Stoppable)


class Slot:
    """One core's worth of work, and what its jobs keep there between jobs (a solver, whose
    transposition table then stays allocated)."""

    def __init__(self, number: int) -> None:
        self.number = number
        self._kept: dict[str, Stoppable] = {}
        self._stopped = False
        self._lock = threading.Lock()     # stop() comes from the event loop, jobs in a thread

    def kept(self, key: str, make: Callable[[], Kept]) -> Kept:
        """What is kept on the slot under `key`: `make()` on first use."""
        with self._lock:
            if key not in self._kept:
                made = make()
                if self._stopped:           # the job was stopped before it got here
                    made.stop()
                self._kept[key] = made
            return cast(Kept, self._kept[key])     # (one key, one kind: the caller's)

    def stop(self) -> None:
        """Stop the slot's running search (from any thread)."""
        self._set_stopped(True)

    def allow(self) -> None:
        """Ready the slot for its next job."""
        self._set_stopped(False)

    def _set_stopped(self, stopped: bool) -> None:
        # the flag under the lock (a thing made meanwhile sees it), the things told outside
        with self._lock:
            self._stopped = stopped
            kept = list(self._kept.values())
        for each in kept:
            if stopped:
                each.stop()
            else:
                each.allow()


class SlotLedger:
    """The server's `slots` slots and `queue` places, counted per process (`processes` rows,
    this process's `counts.index`) in shared memory: busy, queued, jobs started and requests
    refused. Busy and queued change under the lock, so that no two processes take the last
    slot or place."""

    def __init__(self, slots: int, queue: int, processes: int = 1) -> None:
        if slots < 1 or queue < 0:
            raise ValueError(f"a pool needs at least one slot and a queue of 0 or more, not "
                             f"{slots} and {queue}")
        self.slots = slots
        self.queue = queue
        self.counts = ProcessCounts(processes, ("busy", "queued", "started", "refused"))
        self.lock = SharedLock()

    def take_slot(self) -> bool:
        """Count a slot taken by this process, if the server has one free."""
        return self._count_one_more("busy", self.slots)

    def return_slot(self) -> None:
        with self.lock:
            self.counts.add("busy", -1)

    def join_queue(self) -> bool:
        """Count a request of this process in the queue, if the server's has room."""
        return self._count_one_more("queued", self.queue)

    def _count_one_more(self, name: str, most: int) -> bool:
        """Add one to this process's `name` if the server's total is under `most`."""
        with self.lock:
            if self.counts.total(name) >= most:
                return False
            self.counts.add(name)
            return True

    def set_queued(self, waiting: int) -> None:
        with self.lock:
            self.counts.set("queued", waiting)

    def forget(self, index: int) -> None:
        """Free what a process that died held (its slots and places)."""
        with self.lock:
            self.counts.forget(index)


class SearchPool:
    """`slots` slots and a queue of at most `queue` waiting requests (see the module); with
    a `ledger`, those of a server of several processes."""

    def __init__(self, slots: int, queue: int, retry_after: float = 1.0,
                 ledger: SlotLedger | None = None) -> None:
        self.ledger = ledger or SlotLedger(slots, queue)
        self.size = self.ledger.slots
        self.queue_limit = self.ledger.queue
        self.retry_after = max(1, math.ceil(retry_after))
        # as many slots as the server's: this process may hold all of them at once
        self._free = collections.deque(Slot(n) for n in range(self.size))
        self._waiting: collections.deque[asyncio.Future[Slot]] = collections.deque()
        self._executor = ThreadPoolExecutor(max_workers=self.size,
                                            thread_name_prefix="search")
        self._polling = False

    def counts(self) -> dict[str, int]:
        """The whole server's (every process's) busy slots, queued requests, jobs started
        and requests answered 503: for the server's status."""
        return self.ledger.counts.totals()

    def close(self) -> None:
        for slot in list(self._free):
            slot.stop()
        self._executor.shutdown(wait=False, cancel_futures=True)

    async def _take(self) -> Slot:
        """A free slot, after waiting in the queue if need be; PoolFull when the queue is
        full. A waiter that is cancelled (its client went away) leaves the queue."""
        if not self._waiting and self.ledger.take_slot():
            return self._free.popleft()
        if not self.ledger.join_queue():
            self.ledger.counts.add("refused")
            raise PoolFull(self.retry_after)
        waiter: asyncio.Future[Slot] = asyncio.get_running_loop().create_future()
        self._waiting.append(waiter)
        self._hand_over()               # (which looks again later while it waits)
        try:
            return await waiter
        except asyncio.CancelledError:
            if waiter in self._waiting:
                self._waiting.remove(waiter)
                self.ledger.set_queued(len(self._waiting))
            elif waiter.done() and not waiter.cancelled():
                self.release(waiter.result())      # handed over just as we were cancelled
            raise

    def release(self, slot: Slot) -> None:
        """Give the slot back, then to the next waiter (of this process: the others' look
        for it)."""
        slot.allow()
        self._free.append(slot)
        self.ledger.return_slot()
        self._hand_over()

    def _hand_over(self) -> None:
        """Give free slots to the waiters in turn while the server has one free; while some
        still wait, look again in POLL_SECONDS (another process may free one)."""
        while self._waiting:
            if self._waiting[0].done():         # cancelled: its request has gone
                self._waiting.popleft()
                continue
            if not self.ledger.take_slot():
                break
            self._waiting.popleft().set_result(self._free.popleft())
        self.ledger.set_queued(len(self._waiting))
        if self._waiting and not self._polling:
            self._polling = True
            asyncio.get_running_loop().call_later(POLL_SECONDS, self._poll)

    def _poll(self) -> None:
        self._polling = False
        self._hand_over()

    def start(self, slot: Slot, job: Callable[[Slot], T],
              deadline: float | None = None) -> asyncio.Future[T]:
        """Run `job(slot)` in a worker thread; the slot is released once the thread has
        returned, whatever becomes of the request that asked for it. After `deadline`
        seconds the job is told to stop (the hard cap on any search)."""
        self.ledger.counts.add("started")
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self._executor, job, slot)
        timer = None if deadline is None else loop.call_later(
            deadline, lambda: None if future.done() else slot.stop())

        def finished(_: object) -> None:
            if timer is not None:
                timer.cancel()
            self.release(slot)
        future.add_done_callback(finished)
        return future

    async def run(self, job: Callable[[Slot], T],
                  disconnected: Callable[[], Awaitable[None]] | None = None,
                  deadline: float | None = None) -> T:
        """Run `job(slot)` on a slot of its own and return its result. `disconnected()`
        returns when the client goes away: the job is then told to stop (its slot is free as
        soon as the thread returns) and ClientGone is raised."""
        watcher = None if disconnected is None else asyncio.ensure_future(disconnected())
        try:
            slot = await self.acquire(watcher)
            future = self.start(slot, job, deadline)
            try:
                if watcher is not None:
                    both: set[asyncio.Future[Any]] = {future, watcher}
                    await asyncio.wait(both, return_when=asyncio.FIRST_COMPLETED)
                    if not future.done():
                        slot.stop()
                        raise ClientGone()
                return await asyncio.shield(future)
            except asyncio.CancelledError:
                if not future.done():  # the server shuts down, or the response was abandoned
                    slot.stop()
                raise
        finally:
            if watcher is not None and not watcher.done():
                watcher.cancel()

    async def acquire(self, watcher: asyncio.Future[None] | None = None) -> Slot:
        """A slot of one's own (after a wait in the queue if need be), to hand to `start`;
        PoolFull when the queue is full; ClientGone if `watcher` (the client's disconnect)
        finishes first, in which case the request has left the queue."""
        if watcher is None:
            return await self._take()
        waiting = asyncio.ensure_future(self._take())
        both: set[asyncio.Future[Any]] = {waiting, watcher}
        await asyncio.wait(both, return_when=asyncio.FIRST_COMPLETED)
        if waiting.done():
            return waiting.result()
        waiting.cancel()
        try:
            slot = await waiting
        except asyncio.CancelledError:
            raise ClientGone() from None
        self.release(slot)                # the slot came just as the client left
        raise ClientGone()
