"""A mirror for the download tests: a real HTTP server on a loopback port (threads in the test
process) serving a real folder, whose answers to a file can be planned fault by fault: a
status (with Retry-After), a connection cut in the middle, a flipped byte, a truncated file, a
stall. Every request is logged with its Range header and the status answered."""
from __future__ import annotations

import socket
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Iterator
from contextlib import contextmanager


@dataclass(frozen=True)
class Status:
    """Answer with this status and no file (503 with `retry_after` seconds, say)."""
    code: int
    retry_after: str | None = None


@dataclass(frozen=True)
class Cut:
    """Send the headers of the whole answer, `after` bytes of the body, then close."""
    after: int


@dataclass(frozen=True)
class Flip:
    """Serve the file with the byte at `offset` flipped."""
    offset: int


@dataclass(frozen=True)
class Truncate:
    """Serve the file cut to `length` bytes (a consistent but short answer)."""
    length: int


@dataclass(frozen=True)
class Stall:
    """Send `after` bytes of the body, go silent for `seconds`, then send the rest."""
    after: int
    seconds: float


@dataclass(frozen=True)
class Logged:
    name: str
    range: str | None
    status: int
    time: float


class FaultyMirror:
    """`url` serves `folder` (and `manifest`, if given, as MANIFEST.json instead of the
    folder's); `plan(name, *faults)` queues faults for the next requests of `name`, one per
    request; `ignore_range` answers every request with the whole file (200)."""

    def __init__(self, folder: Path, manifest: bytes | None = None) -> None:
        self.folder = Path(folder)
        self.manifest = manifest
        self.ignore_range = False
        self.faults: dict[str, list[Any]] = {}
        self.log: list[Logged] = []
        self.lock = threading.Lock()
        mirror = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                try:
                    mirror.answer(self)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up
                    self.close_connection = True

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.server.handle_error = lambda request, address: None  # type: ignore[method-assign]
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.02,),
                                       daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def plan(self, name: str, *faults: Any) -> None:
        with self.lock:
            self.faults.setdefault(name, []).extend(faults)

    def requests(self, name: str) -> list[Logged]:
        with self.lock:
            return [entry for entry in self.log if entry.name == name]

    def answer(self, handler: BaseHTTPRequestHandler) -> None:
        name = handler.path.lstrip("/")
        asked_range = handler.headers.get("Range")
        with self.lock:
            queued = self.faults.get(name)
            fault = queued.pop(0) if queued else None
        if name == "MANIFEST.json" and self.manifest is not None:
            data = self.manifest
        elif "/" not in name and (self.folder / name).is_file():
            data = (self.folder / name).read_bytes()
        else:
            fault = Status(404)
        if isinstance(fault, Status):
            self.record(name, asked_range, fault.code)
            handler.send_response(fault.code)
            if fault.retry_after is not None:
                handler.send_header("Retry-After", fault.retry_after)
            handler.send_header("Content-Length", "2")
            handler.end_headers()
            handler.wfile.write(b"no")
            return
        if isinstance(fault, Truncate):
            data = data[:fault.length]
        if isinstance(fault, Flip):
            changed = bytearray(data)
            changed[fault.offset] ^= 0x40
            data = bytes(changed)
        start = 0
        if asked_range and not self.ignore_range:
            start = int(asked_range.removeprefix("bytes=").split("-")[0])
            if start >= len(data):
                self.record(name, asked_range, 416)
                handler.send_response(416)
                handler.send_header("Content-Range", f"bytes */{len(data)}")
                handler.send_header("Content-Length", "0")
                handler.end_headers()
                return
        status = 206 if start else 200
        self.record(name, asked_range, status)
        handler.send_response(status)
        if status == 206:
            handler.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
        handler.send_header("Content-Length", str(len(data) - start))
        handler.end_headers()
        body = data[start:]
        if isinstance(fault, Cut):
            handler.wfile.write(body[:fault.after])
            handler.wfile.flush()
            handler.connection.shutdown(socket.SHUT_RDWR)
            handler.close_connection = True
            return
        if isinstance(fault, Stall):
            handler.wfile.write(body[:fault.after])
            handler.wfile.flush()
            time.sleep(fault.seconds)
            body = body[fault.after:]
        handler.wfile.write(body)

    def record(self, name: str, asked_range: str | None, status: int) -> None:
        with self.lock:
            self.log.append(Logged(name, asked_range, status, time.monotonic()))


@contextmanager
def faulty_mirror(folder: Path, manifest: bytes | None = None) -> Iterator[FaultyMirror]:
    mirror = FaultyMirror(folder, manifest)
    try:
        yield mirror
    finally:
        mirror.close()
