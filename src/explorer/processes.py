"""`quixo serve --processes N`: N server processes on one listening socket.

One process's event loop (HTTP parsing, routing, the JSON and gzip of each answer, the access
log) bounds what one server answers, whatever its cores: profiled under load, the loop thread
was busy nearly all the time while the tables' decoding, on threads of its own, was not. So
the parent binds the socket, does the start-up work once (the small tables are built before
this, and with --check-tables every block is checked here, the children inheriting the checked
tables), then forks N children, each running uvicorn on an inherited socket: on Linux each its own,
bound with SO_REUSEPORT to the same port, the kernel spreading new connections evenly over
them; elsewhere one they share. Each child opens the tables it probes by mapping the files,
so their pages are in the page cache once for all of them.

What they must agree on lives in shared memory made before the fork (`SharedState`): the
per-client rate limit, the search slots and queue, the status counters (shared.py).

The children are in a process group of their own, so Ctrl-C reaches the parent alone: the
parent, on SIGINT, SIGTERM or SIGHUP, sends each child SIGTERM (uvicorn finishes the requests
under way and writes the rest of the access log), waits STOP_SECONDS, then kills what is left.
A child whose parent disappears (killed outright) stops by itself. A child that dies while the
server runs is reported on stderr and replaced; one that dies before it was ready to serve
would only die again, so the server stops, with exit status 1.
"""
from __future__ import annotations

import gc
import os
import signal
import socket
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field
from typing import Any, Callable, TextIO

from quixo_solver.tablebase import Tablebase

from .pool import SlotLedger
from .ratelimit import RateLimiter
from .settings import Settings
from .shared import ProcessCounts

STOP_SECONDS = 10.0          # a child's graceful shutdown takes 2 s at most (server.py)
WATCH_SECONDS = 0.2          # how often the parent looks for children that exited


@dataclass
class SharedState:
    """What the processes of one server share, made before they fork: the rate limiter, the
    search slots' ledger, each process's counts (`ready` once it serves, its answer cache's
    entries and hits), the tables (opened, and checked with --check-tables, by the parent)
    and this process's number among `processes`."""

    processes: int
    limiter: RateLimiter
    ledger: SlotLedger
    counts: ProcessCounts
    tablebase: Tablebase | None = None
    tables_checked: bool = False
    index: int = 0

    @classmethod
    def of(cls, settings: Settings, processes: int = 1,
           tablebase: Tablebase | None = None) -> "SharedState":
        return cls(processes, RateLimiter(settings.rate, settings.burst),
                   SlotLedger(settings.searches, settings.queue, processes),
                   ProcessCounts(processes, ("ready", "cached_answers", "cache_hits")),
                   tablebase)

    def become(self, index: int) -> None:
        """Make this (newly forked) process the `index`th."""
        self.index = self.ledger.counts.index = self.counts.index = index

    def forget(self, index: int) -> None:
        """What a process that died held: a lock (if it died in the few lines that hold
        one), its slots, its queue places, its counts."""
        for lock in (self.limiter.lock, self.ledger.lock):
            if lock.free_if_abandoned():
                print(f"quixo serve: process {index + 1} died holding a lock: freed",
                      file=sys.stderr)
        self.ledger.forget(index)
        self.counts.forget(index)


def listening_sockets(host: str, port: int, processes: int) -> list[socket.socket]:
    """The sockets the processes listen on: on Linux one each, bound with SO_REUSEPORT, so
    that the kernel spreads new connections over them by their addresses; elsewhere one that
    they all accept on. (On one shared socket, the process that wakes first accepts every
    connection waiting: of wrk's 32 connections opened at once, one of two processes took 30.)
    They are made in the parent, so that a replacement takes over its process's socket with
    the connections waiting there."""
    spread = sys.platform.startswith("linux") and hasattr(socket, "SO_REUSEPORT")
    if not spread:
        return [bound_socket(host, port)]
    # bound first without SO_REUSEPORT: a port another server holds is refused, even when
    # that server's sockets have SO_REUSEPORT (this one must not join them)
    with bound_socket(host, port, listening=False) as probe:
        port = probe.getsockname()[1]
    sockets: list[socket.socket] = []
    try:
        for _ in range(processes):
            sockets.append(bound_socket(host, port, reuse_port=True))
    except OSError:
        for made in sockets:
            made.close()
        raise
    return sockets


def bound_socket(host: str, port: int, reuse_port: bool = False,
                 listening: bool = True) -> socket.socket:
    """A TCP socket bound to host:port (IPv6 when the host is) and listening, as uvicorn
    binds one."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if reuse_port:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    try:
        sock.bind((host.strip("[]"), port))
    except OSError:
        sock.close()
        raise
    if listening:
        sock.listen(2048)
    sock.set_inheritable(True)
    return sock


@dataclass
class Supervisor:
    """The parent: forks `processes` children that each run `child(state)` (a server that
    returns when it is told to stop), then calls `started()` (no thread of the parent's may
    run before the forks), replaces the children that die, stops them all on a signal."""

    processes: int
    state: SharedState
    child: Callable[[SharedState], None]
    started: Callable[[], None] = lambda: None         # once the children are forked
    report: TextIO = field(default_factory=lambda: sys.stderr)
    _children: dict[int, int] = field(default_factory=dict)      # pid: its number
    _stopped_by: int | None = None     # the signal that stops the server
    _failed: bool = False

    def run(self) -> int:
        """Serve until a child dies at its start (then 1), or until a signal, which is
        raised again once every child has stopped (as uvicorn does: SIGINT is then
        KeyboardInterrupt)."""
        handled = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
        previous = {number: signal.signal(number, self._stop) for number in handled}
        try:
            for index in range(self.processes):
                self._fork(index)
            self.started()
            self._watch()
        finally:
            for number, handler in previous.items():
                signal.signal(number, handler)
        if self._failed:
            return 1
        if self._stopped_by is not None:
            signal.raise_signal(self._stopped_by)
        return 0

    @property
    def _stopping(self) -> bool:
        return self._stopped_by is not None

    def _stop(self, number: int, frame: Any) -> None:
        if not self._stopping:
            self._stopped_by = number
            self._signal_children(signal.SIGTERM)

    def _signal_children(self, number: int) -> None:
        for pid in list(self._children):
            try:
                os.kill(pid, number)
            except ProcessLookupError:
                pass

    def _fork(self, index: int) -> None:
        gc.freeze()        # what the parent made is shared with the child, page for page
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                os.setpgid(0, 0)     # Ctrl-C reaches the parent, which stops the children
                for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
                    signal.signal(number, signal.SIG_DFL)
                self.state.become(index)
                stop_when_orphaned(os.getppid())
                self.child(self.state)
            except BaseException:       # a child never returns into the parent's code
                traceback.print_exc()
                code = 1
            finally:
                sys.stderr.flush()
                os._exit(code)
        self._children[pid] = index

    def _watch(self) -> None:
        deadline = None
        while self._children:
            for pid, index, status in self._reaped():
                ready = self.state.counts.get("ready", index)
                self.state.forget(index)
                if not self._stopping:
                    self._replace(pid, index, status, bool(ready))
            if self._stopping and deadline is None:
                deadline = time.monotonic() + STOP_SECONDS
            if deadline is not None and time.monotonic() > deadline:
                self._signal_children(signal.SIGKILL)
            time.sleep(WATCH_SECONDS)

    def _reaped(self) -> list[tuple[int, int, int]]:
        """(pid, number, wait status) of each child that has exited."""
        reaped = []
        while self._children:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            if pid in self._children:
                reaped.append((pid, self._children.pop(pid), status))
        return reaped

    def _replace(self, pid: int, index: int, status: int, ready: bool) -> None:
        """Start another child in place of one that died; stop the server if it died
        before it was ready (another would die the same way)."""
        what = f"process {index + 1} of {self.processes} (pid {pid}) {describe_exit(status)}"
        if not ready:
            print(f"quixo serve: error: {what} before it served: stopping", file=self.report)
            self._failed = True
            self._stop(signal.SIGTERM, None)
            return
        print(f"quixo serve: {what}; starting another", file=self.report)
        self._fork(index)


def describe_exit(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"was killed by signal {os.WTERMSIG(status)}"
    return f"exited with status {os.WEXITSTATUS(status)}"


def stop_when_orphaned(parent: int) -> None:
    """Send this process SIGTERM once its parent is gone (killed without stopping it)."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os.kill(os.getpid(), signal.SIGTERM)
    threading.Thread(target=watch, name="parent-watch", daemon=True).start()
