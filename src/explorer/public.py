"""The explorer as a public service: ASGI middleware in front of the application.

- Rate limits: each client address (as uvicorn sees it: behind a proxy on this machine, the
  address in X-Forwarded-For) gets a token bucket (ratelimit.py); a request to the API that
  finds it empty is answered 429 with Retry-After and `{"error": ...}`, without reaching the
  application. Pages and static files are not counted. A handler may take more tokens for a
  bigger request (a batch of probes: app.py).
- CORS: every answer under /api/ may be read by a page of any origin
  (`Access-Control-Allow-Origin: *`; a preflight OPTIONS is answered 204 here).
- gzip: an answer of at least GZIP_MIN_BYTES of text or JSON, sent in one piece, is
  compressed when the request accepts gzip (an answer that carries its own Content-Encoding,
  compressed once and kept, passes as it is; a stream of events is never held back).
- The access log: one line per request, in the Common Log Format followed by the time the
  answer took in milliseconds. The processes of a server write to the same file (or stderr),
  each line whole: see AccessLog.
"""
from __future__ import annotations

import gzip
import io
import json
import os
import threading
import time
from typing import Any, Callable, TextIO

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .ratelimit import RateLimiter

GZIP_MIN_BYTES = 512
# the most that one write puts in a pipe in one piece (POSIX: at least 512; Linux: 4096); a
# file opened for appending takes each write in one piece, whatever its length
WHOLE_WRITE_BYTES = 4096
GZIP_LEVEL = 5                      # small answers: level 5 gives nearly all of level 9
COMPRESSIBLE = (b"application/json", b"text/", b"application/javascript", b"image/svg+xml")
API_PREFIX = "/api/"
CORS_HEADERS = [(b"access-control-allow-origin", b"*"),
                (b"access-control-expose-headers", b"ETag, Retry-After")]
PREFLIGHT_HEADERS = [*CORS_HEADERS,
                     (b"access-control-allow-methods", b"GET, POST, OPTIONS"),
                     (b"access-control-allow-headers", b"Content-Type, If-None-Match"),
                     (b"access-control-max-age", b"86400"), (b"content-length", b"0")]


def accepts_gzip(scope: Scope) -> bool:
    """Whether the request takes a gzip answer (RFC 9110, 12.5.3): its Accept-Encoding, in
    any case and over as many header lines as it takes, names gzip (or its alias x-gzip), or
    else `*`, with a weight above 0; `gzip;q=0` refuses it. No header: not compressed."""
    weights: dict[str, float] = {}
    for name, value in scope.get("headers", ()):
        if name.lower() == b"accept-encoding":
            for item in value.decode("latin-1").split(","):
                coding, _, parameters = item.partition(";")
                weights.setdefault(coding.strip().lower(), coding_weight(parameters))
    for coding in ("gzip", "x-gzip", "*"):
        if coding in weights:
            return weights[coding] > 0
    return False


def coding_weight(parameters: str) -> float:
    """The weight `q=` of an Accept-Encoding item's parameters: 1 when it has none, or one
    that cannot be read (the coding is named, so taken)."""
    for parameter in parameters.split(";"):
        key, _, value = parameter.partition("=")
        if key.strip().lower() == "q":
            try:
                weight = float(value.strip())
            except ValueError:
                return 1.0
            return weight if 0 <= weight <= 1 else 1.0
    return 1.0


def client_of(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "-"


def compressed(body: bytes) -> bytes:
    return gzip.compress(body, GZIP_LEVEL, mtime=0)


class AccessLog:
    """One line per request on `stream` (None: no log). The lines are written a batch at a
    time, every FLUSH_SECONDS, by a thread of their own (`start`; `close` writes the rest):
    a write per request, on the event loop, cost a busy server a tenth of its time. Each
    write to the stream's file descriptor holds whole lines, at most WHOLE_WRITE_BYTES of
    them, so that the lines of several processes never mix (a file is opened for appending:
    each write goes to its end in one piece; a pipe takes such a write in one piece)."""

    FLUSH_SECONDS = 0.25

    def __init__(self, stream: TextIO | None, clock: Callable[[], float] = time.time) -> None:
        self.stream = stream
        self.clock = clock
        self._second = -1
        self._stamp = ""
        self._lines: list[str] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._writer: threading.Thread | None = None

    def start(self) -> None:
        if self.stream is not None and self._writer is None:
            self._writer = threading.Thread(target=self._write_every, name="access-log",
                                            daemon=True)
            self._writer.start()

    def close(self) -> None:
        self._stop.set()
        if self._writer is not None:
            self._writer.join(timeout=2)
            self._writer = None
        self.flush()

    def _write_every(self) -> None:
        while not self._stop.wait(self.FLUSH_SECONDS):
            self.flush()

    def flush(self) -> None:
        with self._lock:
            lines, self._lines = self._lines, []
        if lines and self.stream is not None:
            try:
                write_whole_lines(self.stream, lines)
            except (OSError, ValueError):      # a log that cannot be written stops nothing
                pass

    def stamp(self) -> str:
        """[day/month/year:hh:mm:ss +0000], made once a second."""
        now = int(self.clock())
        if now != self._second:
            self._second = now
            self._stamp = time.strftime("[%d/%b/%Y:%H:%M:%S +0000]", time.gmtime(now))
        return self._stamp

    def write(self, scope: Scope, status: int, sent: int, seconds: float) -> None:
        if self.stream is None:
            return
        query = scope.get("query_string", b"")
        target = scope.get("raw_path") or scope["path"].encode()
        if query:
            target += b"?" + query
        request = (f'{scope["method"]} {target.decode("latin-1")[:2000]} '
                   f'HTTP/{scope.get("http_version", "1.1")}')
        request = request.replace("\\", "\\\\").replace('"', '\\"')
        line = (f'{client_of(scope)} - - {self.stamp()} "{request}" {status} '
                f'{sent or "-"} {1000 * seconds:.1f}\n')
        with self._lock:
            self._lines.append(line)
        if self._writer is None:          # not started (a test's app): at once
            self.flush()


def write_whole_lines(stream: TextIO, lines: list[str]) -> None:
    """Write `lines` to the stream's file descriptor, as few writes as there are pieces of
    whole lines of at most WHOLE_WRITE_BYTES (a longer line is a write of its own); a stream
    without one (a test's) is written as it is."""
    try:
        descriptor = stream.fileno()
    except (io.UnsupportedOperation, AttributeError):
        stream.write("".join(lines))
        stream.flush()
        return
    stream.flush()                             # what the stream holds goes first
    piece: list[bytes] = []
    held = 0
    for line in lines:
        data = line.encode("utf-8", "replace")
        if piece and held + len(data) > WHOLE_WRITE_BYTES:
            write_all(descriptor, b"".join(piece))
            piece, held = [], 0
        piece.append(data)
        held += len(data)
    if piece:
        write_all(descriptor, b"".join(piece))


def write_all(descriptor: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(descriptor, view):]


class PublicService:
    """The middleware of the module's docstring around `app`."""

    def __init__(self, app: ASGIApp, limiter: RateLimiter, log: AccessLog) -> None:
        self.app = app
        self.limiter = limiter
        self.log = log

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        is_api = scope["path"].startswith(API_PREFIX)
        state: dict[str, Any] = {"status": 0, "sent": 0}

        async def logged_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                state["status"] = message["status"]
            elif message["type"] == "http.response.body":
                state["sent"] += len(message.get("body", b""))
            await send(message)
        try:
            if is_api and scope["method"] == "OPTIONS":
                await logged_send({"type": "http.response.start", "status": 204,
                                   "headers": PREFLIGHT_HEADERS})
                await logged_send({"type": "http.response.body", "body": b""})
                return
            if is_api:
                wait = self.limiter.take(client_of(scope))
                if wait:
                    await self.refuse(wait, logged_send)
                    return
            await self.app(scope, receive, self.wrap_send(scope, logged_send, is_api))
        finally:
            self.log.write(scope, state["status"], state["sent"],
                           time.perf_counter() - started)

    async def refuse(self, wait: int, send: Send) -> None:
        await send({"type": "http.response.start", "status": 429,
                    "headers": [*CORS_HEADERS, (b"content-type", b"application/json"),
                                (b"retry-after", str(wait).encode()),
                                (b"cache-control", b"no-store")]})
        await send({"type": "http.response.body",
                    "body": json.dumps({"error": self.limiter.message(wait)}).encode()})

    def wrap_send(self, scope: Scope, send: Send, is_api: bool) -> Send:
        """`send` with the CORS headers (the API) and gzip (when the client takes it)."""
        gzip_ok = accepts_gzip(scope)
        held: list[Message] = []

        async def wrapped(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                if is_api:
                    headers += CORS_HEADERS
                message = {**message, "headers": headers}
                if gzip_ok and may_compress(headers):
                    held.append(message)          # until the body shows how long it is
                    return
                await send(message)
            elif held and message["type"] == "http.response.body":
                start = held.pop()
                body = message.get("body", b"")
                if message.get("more_body") or len(body) < GZIP_MIN_BYTES:
                    await send(start)             # a stream, or too short to gain
                    await send(message)
                    return
                body = compressed(body)
                headers = [(name, value) for name, value in start["headers"]
                           if name != b"content-length"]
                headers += [(b"content-encoding", b"gzip"), (b"vary", b"Accept-Encoding"),
                            (b"content-length", str(len(body)).encode())]
                await send({**start, "headers": headers})
                await send({**message, "body": body})
            else:
                await send(message)
        return wrapped


def may_compress(headers: list[tuple[bytes, bytes]]) -> bool:
    """Whether an answer with these headers may be compressed here: text or JSON, not
    encoded already, not a stream of events."""
    kind = b""
    for name, value in headers:
        if name == b"content-encoding":
            return False
        if name == b"content-type":
            kind = value
    return kind.startswith(COMPRESSIBLE) and not kind.startswith(b"text/event-stream")
