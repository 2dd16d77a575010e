"""A remote tablebase: the tables of another `quixo serve`, probed through its JSON API (SPEC
"Web" and "Tables on the web") with the probe API of a local `Tablebase`.

    with RemoteTablebase("http://127.0.0.1:8000") as tablebase:
        tablebase.probe(board)            # ProbeResult(wdl=1, plies=21)
        tablebase.probe_moves(board)      # every move's result: one request
        tablebase.best_line(board)        # the line of best play to the end: one request

Many positions go in one request (`POST /api/v1/quixo/probe`, at most 1,024 positions
each), on one kept-alive connection (reopened when the server has closed it). Answers are kept
in a bounded cache (least recently used first out): a value never changes. Which classes the
server holds comes from `GET /api/v1/tables`, asked once. What goes wrong is a RemoteError
with one line: a timeout (RemoteTimeout), a host that cannot be reached (RemoteUnreachable), a
429 (RemoteRateLimited, with the Retry-After it gave), any other refusal with the server's own
message; a position whose class the server has not built is a MissingTableError, as locally.
Every request only reads, so what is transient (a connection cut or refused, 408, 425, 429 and
the 5xx of TRANSIENT_STATUS) is tried again after the server's Retry-After or a short backoff
(http.Retries: RETRIES); a Retry-After longer than RETRIES accepts, or a silent server past
`timeout` (the caller's budget for one request), ends the request at once.

The search kernel reads local files only: a solver with a remote tablebase answers exactly
where the server's tables reach the position and its moves, and searches without tables
elsewhere.
"""
from __future__ import annotations

import gzip
import http.client
import json
import socket
import threading
import urllib.parse
from collections import OrderedDict
from typing import Any, Sequence

from solverkit.messages import clip

from ...rules.baseboard import check_board
from ...rules.board import Board, Move
from ...rules.notation import format_position
from .. import values
from ..errors import (MissingTableError, RemoteError, RemoteRateLimited, RemoteTimeout,
                     RemoteUnreachable)
from ..probe import DRAW_CODE, BaseTablebase, Position
from .http import TRANSIENT_STATUS, USER_AGENT, Retries, Transient, http_url, retry_after

BATCH_LIMIT = 1024              # positions in one request (SPEC)
DEFAULT_TIMEOUT = 30.0          # seconds for one request
DEFAULT_CACHE = 200_000         # value codes kept (about 150 bytes each)
API = "/api/v1"
WDL = {"win": values.WIN, "draw": values.DRAW, "loss": values.LOSS}
# a probe is interactive: a few quick attempts, and no Retry-After of more than 10 s waited
RETRIES = Retries(attempts=3, backoff=0.25, max_retry_after=10.0)


class ConnectionLost(RemoteError):
    """The server closed the connection before its answer (worth another attempt)."""


class RetriedFault(Transient):
    """A transient fault of one attempt of a request, with what it ends in if it is the last:
    the server's `answer` (a 429 or a 5xx, then read as any other answer), else the
    connection's `error`."""

    def __init__(self, reason: str, retry_after: float | None = None, *,
                 answer: tuple[int, dict[str, str], bytes] | None = None,
                 error: RemoteError | None = None) -> None:
        super().__init__(reason, retry_after)
        self.answer = answer
        self.error = error if error is not None else RemoteError(reason)


class RemoteTablebase(BaseTablebase):
    """The tables served by the `quixo serve` at `url` (`http://HOST:PORT`, or https; a path
    after the host is the server's prefix). `timeout`: seconds for one request;
    `cache_entries`: value codes kept."""

    def __init__(self, url: str, timeout: float = DEFAULT_TIMEOUT,
                 cache_entries: int = DEFAULT_CACHE) -> None:
        parts = http_url(url, "a remote tablebase", RemoteError)
        self.port = parts.port
        prefix = parts.path.rstrip("/")
        if prefix.endswith(API):
            prefix = prefix[:-len(API)]
        self.url = f"{parts.scheme}://{parts.netloc}{prefix}"
        self.secure = parts.scheme == "https"
        self.host = parts.hostname or ""      # (http_url checked there is one)
        self.prefix = prefix
        self.timeout = timeout
        self.cache_entries = cache_entries
        self._cache: OrderedDict[tuple[int, int, int], int] = OrderedDict()
        self._classes: set[tuple[int, int, int]] | None = None
        self._connection: http.client.HTTPConnection | None = None
        self._lock = threading.RLock()
        self.requests = 0            # requests sent, for the tests and the curious

    def __repr__(self) -> str:
        return f"RemoteTablebase({self.url!r})"

    def close(self) -> None:
        with self._lock:
            if self._connection is not None:
                self._connection.close()
                self._connection = None

    # -- what the server holds --------------------------------------------------------------
    def has_table(self, size: int, mover_count: int, opponent_count: int) -> bool:
        return (size, mover_count, opponent_count) in self.classes()

    def classes(self) -> set[tuple[int, int, int]]:
        """(size, mover, opponent) of every class the server serves (GET /api/v1/tables,
        asked once)."""
        with self._lock:
            if self._classes is None:
                listing = self.request("GET", f"{API}/tables")
                try:
                    self._classes = {(int(row["size"]), int(row["mover"]), int(row["opponent"]))
                                     for row in listing["files"]}
                except (KeyError, TypeError, ValueError):
                    raise RemoteError(f"{self.url} answered /api/v1/tables without its "
                                      "list of files") from None
            return self._classes

    # -- values -------------------------------------------------------------------------------
    def codes_of(self, size: int, positions: Sequence[Position]) -> list[int]:
        with self._lock:
            keys = [(size, mover, opponent) for mover, opponent in positions]
            missing = list(dict.fromkeys(key for key in keys if key not in self._cache))
            served = self.classes() if missing else set()
            for _, mover, opponent in missing:
                found = (size, mover.bit_count(), opponent.bit_count())
                if found not in served:     # asked of nobody: the server has not built it
                    raise MissingTableError(
                        f"{self.url} serves no table for class ({found[1]}, {found[2]}) of "
                        f"the {size}x{size} board")
            for start in range(0, len(missing), BATCH_LIMIT):
                self._fetch(missing[start:start + BATCH_LIMIT])
            codes = []
            for key in keys:
                codes.append(self._cache[key])
                self._cache.move_to_end(key)
            return codes

    def _fetch(self, keys: list[tuple[int, int, int]]) -> None:
        """Ask the server for `keys` in one batch and cache the answers (then drop the least
        recently used beyond the cache's size); MissingTableError for a class not built."""
        sent = [format_position(size, mover, opponent, "X") for size, mover, opponent in keys]
        answer = self.request("POST", f"{API}/quixo/probe", {"positions": sent})
        results = answer.get("results") if isinstance(answer, dict) else None
        if not isinstance(results, list) or len(results) != len(sent):
            raise RemoteError(f"{self.url} answered a batch of {len(sent)} positions without "
                              "as many results")
        refused = None
        for key, position, result in zip(keys, sent, results):
            if not isinstance(result, dict) or result.get("position") != position:
                raise RemoteError(f"{self.url} answered for another position than {position}")
            if "error" in result:
                refused = refused or str(result["error"])
                continue
            self._cache[key] = code_of(result, self.url)
        while len(self._cache) > max(self.cache_entries, len(keys)):
            self._cache.popitem(last=False)
        if refused is not None:
            raise MissingTableError(f"{self.url}: {refused}")

    def best_line(self, board: Board, moves: int | None = None, *,
                  through_draws: bool = False) -> list[Move]:
        """As BaseTablebase.best_line, in one request: the server's line of best play
        (`GET /api/v1/quixo/mainline`, which takes the same first best move among equals).
        Where the server's tables end the line stops, at the first position one of whose
        moves leaves them (a local line may go on there through the best moves the tables
        reach)."""
        check_board(board, Board)
        position = format_position(board.size, board.mover_cubes, board.opponent_cubes, "X")
        answer = self.request("GET", f"{API}/quixo/mainline?"
                              + urllib.parse.urlencode({"position": position}))
        code = code_of(answer, self.url)
        with self._lock:
            self._cache[(board.size, board.mover_cubes, board.opponent_cubes)] = code
        try:
            line = [Move.from_text(text) for text in answer["moves"]]
        except (KeyError, TypeError, ValueError):
            raise RemoteError(f"{self.url} answered a mainline without its moves") from None
        if code == DRAW_CODE and not through_draws:
            line = line[:1]
        return line if moves is None else line[:moves]

    # -- HTTP -------------------------------------------------------------------------------
    def request(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        """The JSON answer of one request to the server (`path` under its prefix), on the
        kept-alive connection, tried again through transient faults (RETRIES); RemoteError
        (or MissingTableError for a 404) otherwise."""
        data = None if body is None else json.dumps(body).encode()
        headers = {"Accept": "application/json", "Accept-Encoding": "gzip",
                   "User-Agent": USER_AGENT}
        if data is not None:
            headers["Content-Type"] = "application/json"

        def attempt() -> tuple[int, dict[str, str], bytes]:
            try:
                found = self._exchange(method, self.prefix + path, data, headers)
            except (RemoteUnreachable, ConnectionLost) as error:
                raise RetriedFault(str(error), error=error) from None
            if found[0] in TRANSIENT_STATUS:
                raise RetriedFault(f"HTTP {found[0]}", retry_after(found[1].get("retry-after")),
                                   answer=found)
            return found

        with self._lock:
            try:
                status, reply, content = RETRIES.run(attempt, lambda fault, _: fault)
            except RetriedFault as last:      # the last attempt's fault, or a long Retry-After
                if last.answer is None:
                    raise last.error from None
                status, reply, content = last.answer
        if reply.get("content-encoding", "").lower() == "gzip":
            try:
                content = gzip.decompress(content)
            except (OSError, EOFError):
                raise RemoteError(f"{self.url} sent a damaged compressed answer") from None
        try:
            answer = json.loads(content)
        except ValueError:
            answer = None
        message = answer.get("error") if isinstance(answer, dict) else None
        if status == 429:
            retry = retry_after(reply.get("retry-after"))
            seconds = None if retry is None else round(retry)
            raise RemoteRateLimited(
                f"{self.url} refuses more requests for now (429 Too Many Requests"
                + (f", retry after {seconds} s" if seconds is not None else "") + ")"
                + (f": {message}" if message else ""), seconds)
        if status == 404 and message and path.startswith((f"{API}/quixo/probe",
                                                          f"{API}/quixo/mainline")):
            raise MissingTableError(f"{self.url}: {message}")   # a class it has not built
        if status != 200 or answer is None:
            raise RemoteError(f"{self.url} answered {method} {clip(path)} with {status}"
                              + (f": {message}" if message else
                                 " without JSON (is it a quixo serve?)"))
        return answer

    def _exchange(self, method: str, path: str, data: bytes | None,
                  headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
        """(status, lower-case headers, body) of one request. A kept-alive connection that
        the server closed meanwhile is opened again once (every request here may be
        repeated: they only read)."""
        for attempt in (1, 2):
            reused = self._connection is not None
            connection = self._connect()
            try:
                connection.request(method, path, data, headers)
                response = connection.getresponse()
                content = response.read()
            except (TimeoutError, socket.timeout):
                self.close()
                raise RemoteTimeout(f"{self.url} did not answer within {self.timeout:g} s") \
                    from None
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError,
                    http.client.BadStatusLine) as error:
                self.close()
                if reused and attempt == 1:
                    continue                # the server closed an idle connection: again
                raise ConnectionLost(f"{self.url} closed the connection: {error}") from None
            except OSError as error:
                self.close()
                raise self._unreachable(error) from None
            self.requests += 1
            if response.will_close:
                self.close()
            return response.status, {name.lower(): value for name, value in
                                      response.getheaders()}, content
        raise AssertionError("unreachable")

    def _connect(self) -> http.client.HTTPConnection:
        if self._connection is None:
            kind = http.client.HTTPSConnection if self.secure else http.client.HTTPConnection
            connection = kind(self.host, self.port, timeout=self.timeout)
            try:
                connection.connect()
            except (TimeoutError, socket.timeout):
                raise RemoteTimeout(f"{self.url} did not accept a connection within "
                                    f"{self.timeout:g} s") from None
            except OSError as error:
                raise self._unreachable(error) from None
            self._connection = connection
        return self._connection

    def _unreachable(self, error: OSError) -> RemoteUnreachable:
        reason = error.strerror or str(error) or type(error).__name__
        return RemoteUnreachable(f"cannot reach the remote tablebase {self.url}: {reason}")


def code_of(answer: Any, url: str) -> int:
    """The value code of a probe answer ({"value", "plies", ...})."""
    try:
        wdl = WDL[answer["value"]]
        plies = answer["plies"]
        if wdl != values.DRAW and (isinstance(plies, bool) or not isinstance(plies, int)
                                   or plies < 0):
            raise ValueError(plies)
    except (KeyError, TypeError, ValueError):
        raise RemoteError(f"{url} answered a probe without a value and plies") from None
    return values.encode(wdl, plies)
