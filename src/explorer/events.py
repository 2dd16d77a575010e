"""Server-Sent Events: a response that streams what a job reports while it runs, and stops
the job when the client goes away.

The stream is `text/event-stream` (the WHATWG format: `event: NAME` and `data: JSON` lines,
a blank line after each event), so that the page reads it with `fetch` (which also sees a 503
and its Retry-After) and any other client with an EventSource. It ends with an `end` event;
a job that fails sends `error` with the one-line message first.
"""
from __future__ import annotations

import asyncio
import json
from typing import Any, Callable, Iterable

from starlette.types import Receive, Scope, Send

from .pool import SearchPool, Slot

Emit = Callable[[str, dict[str, Any]], None]
Job = Callable[[Slot, Emit], None]
HEADERS = [(b"content-type", b"text/event-stream; charset=utf-8"),
           (b"cache-control", b"no-store"), (b"x-accel-buffering", b"no")]


def event_bytes(name: str, data: dict[str, Any]) -> bytes:
    return f"event: {name}\ndata: {json.dumps(data)}\n\n".encode()


async def wait_for_disconnect(receive: Receive) -> None:
    """Return when the client has gone away (the ASGI server says http.disconnect)."""
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return


class EventStream:
    """An ASGI response: the `events` known already, then (with a `slot` and a `job`) what
    the job emits while it runs on that slot in a worker thread; `describe_error(exception)`
    is the one-line message of a job that fails."""

    def __init__(self, events: Iterable[tuple[str, dict[str, Any]]] = (),
                 pool: SearchPool | None = None, slot: Slot | None = None,
                 job: Job | None = None, deadline: float | None = None,
                 describe_error: Callable[[BaseException], str] = str) -> None:
        self.events = list(events)
        self.pool, self.slot, self.job = pool, slot, job
        self.describe_error = describe_error
        self.deadline = deadline
        self._future: asyncio.Future[None] | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        watcher = asyncio.ensure_future(wait_for_disconnect(receive))
        try:
            await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
            for name, data in self.events:
                await send(self._body(event_bytes(name, data)))
            if self.job is not None:
                if not await self._follow_job(send, watcher):
                    return
            await send({"type": "http.response.body", "body": event_bytes("end", {}),
                        "more_body": False})
        except OSError:                      # the connection broke while we wrote
            self._stop()
        finally:
            watcher.cancel()
            if self.pool is not None and self.slot is not None and self._future is None:
                self.pool.release(self.slot)     # the job never started: give the slot back

    def _stop(self) -> None:
        """Stop the job if it still runs (once it has returned, its slot may already serve
        another request)."""
        if self.slot is not None and self._future is not None and not self._future.done():
            self.slot.stop()

    @staticmethod
    def _body(data: bytes) -> dict[str, Any]:
        return {"type": "http.response.body", "body": data, "more_body": True}

    async def _follow_job(self, send: Send, watcher: asyncio.Future[None]) -> bool:
        """Send the job's events as they come; False when the client left (the job is then
        told to stop; the pool frees its slot when the thread returns)."""
        assert self.pool is not None and self.slot is not None and self.job is not None
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[tuple[str, dict[str, Any]] | None] = asyncio.Queue()

        def emit(name: str, data: dict[str, Any]) -> None:      # in the worker thread
            loop.call_soon_threadsafe(queue.put_nowait, (name, data))

        job = self.job
        future = self._future = self.pool.start(self.slot, lambda slot: job(slot, emit),
                                                      self.deadline)
        # after every event the job emitted (the same loop, in order): the end of the job
        future.add_done_callback(lambda _: queue.put_nowait(None))
        try:
            while True:
                getter = asyncio.ensure_future(queue.get())
                both: set[asyncio.Future[Any]] = {getter, watcher}
                await asyncio.wait(both, return_when=asyncio.FIRST_COMPLETED)
                if watcher.done():
                    getter.cancel()
                    self._stop()
                    return False
                item = await getter
                if item is None:
                    break
                await send(self._body(event_bytes(*item)))
        except asyncio.CancelledError:
            self._stop()
            raise
        error = future.exception()
        if error is not None:
            await send(self._body(event_bytes("error", {"error": self.describe_error(error)})))
        return True
