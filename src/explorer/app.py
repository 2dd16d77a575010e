"""The explorer's ASGI application (Starlette): the pages, the static files and the JSON API
of SPEC "Web" and "Tables on the web", with its errors.

Every answer of the API is the JSON object of the same command line command (built by the
same function: quixo_solver.frontends.answers, qwixx_stats.answers). The Qwixx page's tracker
takes a POST with a JSON body (qwixx_api.py). Errors are JSON `{"error": ...}` with the command
line's one-line message: 400 for bad input, 404 for an unknown path or a
position whose table is not built, 414 for a query longer than 8 KB, 503 with Retry-After when
every search slot is busy and the queue is full, 503 without it when the server's own tables
are damaged or missing, 429 with Retry-After for a client over its rate limit. Never 500: a bug
is logged with its traceback and answered 503.

Exact answers carry an ETag and a long Cache-Control (caching.py); searched ones are
`no-store`. In front of it all, the public service's middleware (public.py): rate limits,
CORS, gzip and the access log.

Static files are read once at start-up and served from memory under
`/static/<hash of their content>/NAME`, with a year's `Cache-Control: immutable` (a new version
of a file is a new URL); the pages themselves are `no-cache` with an ETag. The tables folder
is a mirror under `/tables/` (tables.py). No other path reaches a file, whatever its dots and
encodings.
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import logging
import math
import mimetypes
import threading
import traceback
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from importlib import resources
from typing import Any, AsyncIterator, Awaitable, Callable, TextIO, TypeVar

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from quixo_solver.tablebase import MissingTableError, Tablebase, TablebaseError
from solverkit.commandline import error_line
from solverkit.version import __version__

from .arguments import BadRequest, query_values
from .caching import NO_CACHE, NO_STORE, Encoded, cached_response
from .pages import render_pages
from .events import EventStream, wait_for_disconnect
from .pool import ClientGone, PoolFull, SearchPool
from .public import AccessLog, PublicService, accepts_gzip, client_of
from .quixo_api import ANALYZE, BATCH_LIMIT, CLOCK, SEARCH, QuixoService, read_position
from .qwixx_api import QwixxService, read_json_body
from .processes import SharedState
from .ratelimit import TooManyRequests
from .served_tables import ServedTables, check_all_tables
from .settings import BATCH_POSITIONS_PER_REQUEST, MAX_QUERY_BYTES, Settings, cores
from .tables import TableFolder

log = logging.getLogger("explorer")
Handler = Callable[[Request], Awaitable[Response | EventStream]]
T = TypeVar("T")
STATIC_CACHE = "public, max-age=31536000, immutable"
PUBLISH_SECONDS = 1.0          # how often a process tells the others its cache's counts


@dataclass(frozen=True)
class StaticFile:
    body: bytes
    media_type: str
    etag: str


def load_static() -> tuple[str, dict[str, StaticFile], dict[str, StaticFile]]:
    """(version, static files, pages) from the package's `static` and `pages` folders: the
    version is a hash of every static file's name and content and of every page's parts; the
    pages get the static URLs of that version."""
    package = resources.files("explorer")
    contents = {(folder, entry.name): entry.read_bytes()
                for folder in ("static", "pages") for entry in sorted(
                    (package / folder).iterdir(), key=lambda entry: entry.name)
                if entry.is_file()}
    digest = hashlib.sha256()
    for (folder, name), body in contents.items():
        digest.update(f"{folder}/{name}".encode() + b"\0" + body + b"\0")
    version = digest.hexdigest()[:16]
    files = {name: StaticFile(body, media_type(name), f'"{version}"')
             for (folder, name), body in contents.items() if folder == "static"}
    pages = {name: StaticFile(body, media_type(name), f'"{content_hash(body)}"')
             for name, body in render_pages(f"/static/{version}").items()}
    return version, files, pages


def content_hash(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()[:16]


def media_type(name: str) -> str:
    media = mimetypes.guess_type(name)[0] or "application/octet-stream"
    if media.startswith("text/") or media in ("application/javascript", "image/svg+xml"):
        media += "; charset=utf-8"
    return media


def json_response(body: bytes | dict[str, Any], status: int = 200,
                  headers: dict[str, str] | None = None) -> Response:
    if isinstance(body, dict):
        body = json.dumps(body).encode()
    return Response(body, status, headers, media_type="application/json")


def error_json(error: BaseException | str, status: int,
               headers: dict[str, str] | None = None) -> Response:
    """`{"error": <one line>}` with `status`, kept by no cache (what it says may change)."""
    return json_response({"error": error_line(error)}, status,
                         {"Cache-Control": NO_STORE, **(headers or {})})


def error_response(error: BaseException) -> Response:
    """The JSON error of a request that failed (see the module)."""
    if isinstance(error, (PoolFull, TooManyRequests)):
        return error_json(str(error), 429 if isinstance(error, TooManyRequests) else 503,
                          {"Retry-After": str(error.retry_after)})
    if isinstance(error, BadRequest):
        return error_json(error, error.status)
    if isinstance(error, MissingTableError):
        return error_json(error, 404)
    if is_server_fault(error):
        return error_json(error, 503)
    if isinstance(error, ValueError):
        return error_json(error, 400)
    if isinstance(error, MemoryError):
        return error_json("not enough memory for this request", 503)
    log.error("internal error:\n%s", "".join(traceback.format_exception(error)))
    return error_json(f"internal error: {type(error).__name__}: {error}", 503)


def is_server_fault(error: BaseException) -> bool:
    """A problem of the server's own files (a damaged or unreadable table), not the request."""
    from qwixx_stats.errors import TableError

    return isinstance(error, (TablebaseError, TableError, OSError))


def describe_job_error(error: BaseException) -> str:
    """The one-line message of a job that failed in a live search."""
    if not isinstance(error, (ValueError, MissingTableError, OSError)):
        log.error("internal error:\n%s", "".join(traceback.format_exception(error)))
        return error_line(f"internal error: {type(error).__name__}: {error}")
    return error_line(error)


def api(handler: Handler) -> Handler:
    """A JSON API handler whose every failure becomes the JSON error of `error_response`."""
    async def answer(request: Request) -> Response | EventStream:
        try:
            return await handler(request)
        except ClientGone:
            return Response(status_code=204)      # nobody reads it: the client has gone
        except Exception as error:
            return error_response(error)
    return answer


def query_pairs(request: Request) -> list[tuple[str, str]]:
    return list(request.query_params.multi_items())


class QueryLimit:
    """ASGI middleware: a query string over MAX_QUERY_BYTES gets 414 before anything reads
    it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and len(scope.get("query_string", b"")) > MAX_QUERY_BYTES:
            response = json_response({"error": f"the query is longer than "
                                               f"{MAX_QUERY_BYTES} bytes"}, 414)
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)


class Explorer:
    """The server's state: one Tablebase, one search pool, the Quixo and Qwixx services, the
    static files."""

    def __init__(self, settings: Settings, quixo_parser: argparse.ArgumentParser,
                 state: SharedState | None = None) -> None:
        self.settings = settings
        self.state = state or SharedState.of(settings)
        self.tablebase = self.state.tablebase or Tablebase(settings.directory)
        self.table_folder = TableFolder(settings.directory,   # /tables/ and /api/v1/tables
                                        getattr(self.tablebase, "shipped", None))
        self.tables = ServedTables(self.table_folder)
        self.limiter = self.state.limiter
        self.tables_checked = threading.Event()     # --check-tables: set when done
        if self.state.tables_checked:
            self.tables_checked.set()
        self.batches = asyncio.Semaphore(1)    # one batch probe at a time, in a thread
        # Exact answers are made on threads of their own, one per core: the tables' decoding
        # lets go of the GIL, so that the cores decode side by side while the event loop
        # reads and writes the other requests (measured with benchmarks/explorer/
        # tablebase_service_load.py: the decoding is most of an analysis's time).
        self.exact_worker = ThreadPoolExecutor(cores(), thread_name_prefix="exact")
        self.pool = SearchPool(settings.searches, settings.queue,
                               retry_after=settings.search_seconds, ledger=self.state.ledger)
        self.quixo = QuixoService(settings, self.tablebase, self.pool, quixo_parser)
        self.qwixx = QwixxService(settings, self.pool)
        self.version, self.files, self.pages = load_static()
        # the longest a job may run (then it is stopped): a search at the longest time, and a
        # live search's solve and analyze one after the other
        self.deadline = settings.max_search_seconds + 1
        self.live_deadline = 2 * settings.max_search_seconds + 1

    def close(self) -> None:
        self.pool.close()
        self.exact_worker.shutdown(wait=False, cancel_futures=True)
        self.tablebase.close()

    # -- pages and files -------------------------------------------------------------------
    def page(self, request: Request, name: str, status: int = 200) -> Response:
        page = self.pages[name]
        if status == 200 and request.headers.get("if-none-match") == page.etag:
            return Response(status_code=304, headers={"ETag": page.etag})
        return Response(page.body, status, {"Cache-Control": "no-cache", "ETag": page.etag},
                        media_type=page.media_type)

    async def index(self, request: Request) -> Response:
        return self.page(request, "index.html")

    async def quixo_page(self, request: Request) -> Response:
        """The Quixo page; a path that is not a position gets the page with status 404 (the
        page shows why)."""
        position = request.path_params.get("position")
        if position is not None:
            try:
                read_position(position)
            except ValueError:
                return self.page(request, "quixo.html", 404)
        return self.page(request, "quixo.html")

    async def qwixx_page(self, request: Request) -> Response:
        return self.page(request, "qwixx.html")

    async def static(self, request: Request) -> Response:
        found = self.files.get(request.path_params["name"])
        if request.path_params["version"] != self.version or found is None:
            return json_response({"error": "no such file"}, 404)
        if request.headers.get("if-none-match") == found.etag:
            return Response(status_code=304, headers={"ETag": found.etag,
                                                      "Cache-Control": STATIC_CACHE})
        return Response(found.body, 200, {"Cache-Control": STATIC_CACHE, "ETag": found.etag},
                        media_type=found.media_type)

    # -- the Quixo API ---------------------------------------------------------------------
    async def quixo_answer(self, request: Request, kind: str) -> Response:
        key = (kind, request.scope["query_string"])
        cached = self.quixo.cache.get(key)
        if cached is not None:
            return cached_response(request, cached)
        asked = self.quixo.search_request(query_pairs(request))
        compress = accepts_gzip(request.scope)
        exact = await self.on_exact_worker(
            lambda: None if (found := self.quixo.exact_answer(kind, asked)) is None
            else Encoded.of(found, compress))
        if exact is not None:
            self.quixo.cache.put(key, exact)
            return cached_response(request, exact)
        answer = await self.pool.run(self.quixo.searched_answer(kind, asked),
                                     lambda: wait_for_disconnect(request.receive),
                                     self.deadline)
        return json_response(answer, headers={"Cache-Control": NO_STORE})

    async def on_exact_worker(self, job: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.exact_worker, job)

    async def exact(self, request: Request, kind: str, answer: Callable[[], dict[str, Any]],
                    lasts: Callable[[dict[str, Any]], bool] = lambda body: True) -> Response:
        """An answer that never changes, from the cache or made by `answer()` (on the exact
        answers' thread) and kept; one that `lasts` says may change (a line that ends where
        the tables end: more tables take it further) is neither kept nor cached for long."""
        key = (kind, request.scope["query_string"])
        cached = self.quixo.cache.get(key)
        if cached is None:
            compress = accepts_gzip(request.scope)

            def make() -> tuple[Encoded, bool]:
                body = answer()
                return Encoded.of(body, compress), lasts(body)

            made, lasting = await self.on_exact_worker(make)
            if not lasting:
                return cached_response(request, made, NO_CACHE)
            cached = made
            self.quixo.cache.put(key, cached)
        return cached_response(request, cached)

    async def quixo_analyze(self, request: Request) -> Response:
        return await self.quixo_answer(request, "analyze")

    async def quixo_solve(self, request: Request) -> Response:
        return await self.quixo_answer(request, "solve")

    async def quixo_probe(self, request: Request) -> Response:
        if request.method == "POST":
            return await self.quixo_probe_batch(request)
        return await self.exact(request, "probe",
                                lambda: self.quixo.probe(query_pairs(request)))

    async def quixo_probe_batch(self, request: Request) -> Response:
        """`POST /api/v1/quixo/probe` with `{"positions": [P, ...]}` (at most BATCH_LIMIT):
        each position's probe answer or error, in order. It counts as one request per
        BATCH_POSITIONS_PER_REQUEST positions against the client's rate limit, and runs in a
        worker thread (one batch at a time), the event loop serving the rest meanwhile."""
        query_values(query_pairs(request), ())
        body = await read_json_body(request)
        positions = body.get("positions") if isinstance(body, dict) else None
        if not isinstance(positions, list) or not all(isinstance(p, str) for p in positions):
            raise BadRequest('a batch probe is a JSON object {"positions": [POSITION, ...]} '
                             "with positions as strings")
        if len(positions) > BATCH_LIMIT:
            raise BadRequest(f"a batch probe takes at most {BATCH_LIMIT} positions, not "
                             f"{len(positions)}", 413)
        extra = math.ceil(len(positions) / BATCH_POSITIONS_PER_REQUEST) - 1
        if extra > 0:
            self.limiter.check(client_of(request.scope), extra)
        async with self.batches:
            answer = await run_in_threadpool(self.quixo.probe_batch, positions)
        return json_response(answer, headers={"Cache-Control": NO_STORE})

    async def quixo_mainline(self, request: Request) -> Response:
        return await self.exact(request, "mainline", lambda: self.quixo.mainline(
            self.quixo.position_of(query_pairs(request))), lasts=lambda line: line["complete"])

    async def quixo_position(self, request: Request) -> Response:
        return await self.exact(request, "position",
                                lambda: self.quixo.position(query_pairs(request)))

    async def quixo_clock(self, request: Request) -> Response:
        """A time control in the --clock syntax of `quixo play`, read as the command line
        reads it: {"clock", "seconds", "increment"} (the page's game against the engine)."""
        query_values(query_pairs(request), (CLOCK,))
        clock = self.quixo.clock(query_pairs(request))
        if clock is None:
            raise BadRequest("the parameter 'clock' is required (a time control such as "
                             "10m+5s)")
        return json_response({"clock": request.query_params["clock"], "seconds": clock[0],
                              "increment": clock[1]})

    async def quixo_live(self, request: Request) -> EventStream:
        """A search that reports each completed depth (Server-Sent Events): `iteration`
        events, then `solve` (the solve answer), with analyze=1 `analyze`, then `end`. With
        clock=TIME+INCREMENT (the --clock syntax: the mover's time left) the engine decides
        how long to think, as in a game on a clock."""
        pairs = query_pairs(request)
        values = query_values(pairs, (*SEARCH, CLOCK, ANALYZE))
        asked = self.quixo.search_request([(n, v) for n, v in pairs
                                           if n in ("position", "time", "depth")])
        clock = self.quixo.clock(pairs)
        if clock is not None and "time" in values:
            raise BadRequest("give either a time or a clock, not both")
        if values.get("analyze", "0") not in ("0", "1"):
            raise BadRequest(f"analyze must be 1 or 0, not {values['analyze'][:60]!r}")
        analyze = values.get("analyze") == "1"
        if clock is None:
            solve = self.quixo.exact_answer("solve", asked)
            moves = self.quixo.exact_answer("analyze", asked) if analyze else None
            if solve is not None and (moves is not None or not analyze):
                return EventStream([("solve", solve)] + ([("analyze", moves)] if moves else []))
        watcher = asyncio.ensure_future(wait_for_disconnect(request.receive))
        try:
            slot = await self.pool.acquire(watcher)
        finally:
            watcher.cancel()
        return EventStream(pool=self.pool, slot=slot,
                           job=self.quixo.live_job(asked, clock, analyze),
                           deadline=self.live_deadline, describe_error=describe_job_error)

    async def status(self, request: Request) -> Response:
        """The whole server's state, summed over its processes: the search pool's (slots,
        busy, queued, jobs started and requests refused), the answer caches' (each process
        keeps its own: their entries and hits; another process's as of PUBLISH_SECONDS ago
        at most), whether --check-tables is done, requests refused for their rate, the
        processes and how many of them serve."""
        query_values(query_pairs(request), ())
        pool, searches = self.pool, self.pool.counts()
        self.publish_counts()
        caches = self.state.counts.totals()
        return json_response({"searches": pool.size, "busy": searches["busy"],
                              "queued": searches["queued"], "queue": pool.queue_limit,
                              "started": searches["started"], "refused": searches["refused"],
                              "cached_answers": caches["cached_answers"],
                              "cache_hits": caches["cache_hits"],
                              "tables_checked": self.tables_checked.is_set(),
                              "rate_limited": self.limiter.refused,
                              "processes": self.state.processes,
                              "processes_serving": caches["ready"]})

    def publish_counts(self) -> None:
        """This process's answer cache's entries and hits, for the status of any process."""
        self.state.counts.set("cached_answers", len(self.quixo.cache))
        self.state.counts.set("cache_hits", self.quixo.cache.hits)

    async def publish_counts_every(self, seconds: float) -> None:
        while True:
            self.publish_counts()
            await asyncio.sleep(seconds)

    async def health(self, request: Request) -> Response:
        query_values(query_pairs(request), ())
        return json_response({"status": "ok", "version": __version__},
                             headers={"Cache-Control": NO_STORE})

    async def served_tables(self, request: Request) -> Response:
        """The manifest of the tables this server serves (served_tables.py): it changes as
        tables are added, so a cache asks again each time (with its ETag)."""
        query_values(query_pairs(request), ())
        listing = await run_in_threadpool(self.tables.listing)
        return cached_response(request, Encoded.of(listing), NO_CACHE)

    # -- the Qwixx API ---------------------------------------------------------------------
    async def qwixx_value(self, request: Request) -> Response:
        return json_response(await self.qwixx.value(query_pairs(request), request))

    async def qwixx_advise(self, request: Request) -> Response:
        return json_response(await self.qwixx.advise(query_pairs(request), request))

    async def qwixx_track(self, request: Request) -> Response:
        """The page's tracker (qwixx_api.QwixxService.track): a JSON body, POST."""
        query_values(query_pairs(request), ())
        return json_response(self.qwixx.track(await read_json_body(request)))


async def not_found(request: Request, exc: Exception) -> Response:
    return json_response({"error": f"no such page or API: {request.url.path[:200]}"}, 404)


async def method_not_allowed(request: Request, exc: Exception) -> Response:
    return json_response({"error": f"{request.method[:20]} is not allowed here: the API "
                                   "answers GET (a batch probe and the Qwixx tracker, POST)"},
                         405)


async def server_error(request: Request, exc: Exception) -> Response:
    return error_response(exc)


def create_app(settings: Settings, quixo_parser: argparse.ArgumentParser,
               access_log: TextIO | None = None, state: SharedState | None = None) -> ASGIApp:
    """The explorer's application for `settings` (see the module). `quixo_parser` is the
    `quixo` command line's parser: the API reads its queries as the command line reads its
    arguments (it is passed in, so that the explorer never imports the command line that
    starts it). `access_log`: where the line of each request goes (None: nowhere). `state`:
    what it shares with the server's other processes (None: a server of one process)."""
    explorer = Explorer(settings, quixo_parser, state)
    log_lines = AccessLog(access_log)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        log_lines.start()
        stop = threading.Event()
        if settings.check_tables and not explorer.tables_checked.is_set():
            threading.Thread(target=check_all_tables,
                             args=(explorer.tablebase, stop, explorer.tables_checked),
                             name="check-tables", daemon=True).start()
        publisher = asyncio.ensure_future(explorer.publish_counts_every(PUBLISH_SECONDS))
        explorer.state.counts.set("ready", 1)
        try:
            yield
        finally:
            publisher.cancel()
            stop.set()
            explorer.close()
            log_lines.close()

    def endpoint(handler: Handler) -> Handler:
        return api(handler)

    routes = [
        Route("/", explorer.index),
        Route("/quixo", explorer.quixo_page),
        Route("/quixo/{position:path}", explorer.quixo_page),
        Route("/qwixx", explorer.qwixx_page),
        Route("/static/{version}/{name}", explorer.static),
        Route("/api/v1/quixo/analyze", endpoint(explorer.quixo_analyze)),
        Route("/api/v1/quixo/solve", endpoint(explorer.quixo_solve)),
        Route("/api/v1/quixo/probe", endpoint(explorer.quixo_probe), methods=["GET", "POST"]),
        Route("/api/v1/quixo/mainline", endpoint(explorer.quixo_mainline)),
        Route("/api/v1/quixo/position", endpoint(explorer.quixo_position)),
        Route("/api/v1/quixo/live", endpoint(explorer.quixo_live)),
        Route("/api/v1/quixo/clock", endpoint(explorer.quixo_clock)),
        Route("/api/v1/status", endpoint(explorer.status)),
        Route("/api/v1/health", endpoint(explorer.health)),
        Route("/api/v1/tables", endpoint(explorer.served_tables)),
        Route("/api/v1/qwixx/value", endpoint(explorer.qwixx_value)),
        Route("/api/v1/qwixx/advise", endpoint(explorer.qwixx_advise)),
        Route("/api/v1/qwixx/track", endpoint(explorer.qwixx_track), methods=["POST"]),
        *explorer.table_folder.routes(),
    ]
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={404: not_found, 405: method_not_allowed,
                                        Exception: server_error})
    app.state.explorer = explorer
    return PublicService(QueryLimit(app), explorer.limiter, log_lines)
