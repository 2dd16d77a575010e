"""`quixo serve` as a public service, against a real server on loopback: batch probes, the
line of best play, health and the tables' listing, ETag and Cache-Control on exact answers,
gzip, CORS, the per-client rate limit and the access log."""
from __future__ import annotations

import gzip
import hashlib
import http.client
import json
import time
import urllib.parse

import pytest

from quixo_solver import Board
from quixo_solver.tablebase import Tablebase
from solverkit.version import __version__

from .explorer_server import running_server
from .extras import require

require("starlette", "uvicorn")

START_4 = "..../..../..../.... X"


class Reply:
    def __init__(self, response: http.client.HTTPResponse) -> None:
        self.status = response.status
        self.headers = {name.lower(): value for name, value in response.getheaders()}
        self.raw = response.read()

    @property
    def body(self) -> bytes:
        if self.headers.get("content-encoding") == "gzip":
            return gzip.decompress(self.raw)
        return self.raw

    def json(self) -> object:
        return json.loads(self.body)


def exchange(url: str, method: str, path: str, body: object = None,
             headers: dict[str, str] | None = None) -> Reply:
    host, port = urllib.parse.urlsplit(url).netloc.split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=60)
    try:
        data = None if body is None else json.dumps(body).encode()
        sent = dict(headers or {})
        if data is not None:
            sent["Content-Type"] = "application/json"
        connection.request(method, path, data, sent)
        return Reply(connection.getresponse())
    finally:
        connection.close()


def query(position: str) -> str:
    return urllib.parse.urlencode({"position": position})


@pytest.fixture(scope="module")
def logged_server(tables, tmp_path_factory):
    log = tmp_path_factory.mktemp("public") / "access.log"
    with running_server(tables, "--rate-limit", "0", "--access-log", str(log)) as url:
        yield url, log


@pytest.fixture(scope="module")
def server(logged_server):
    return logged_server[0]


def test_health_and_the_tables_served(server, tables):
    assert exchange(server, "GET", "/api/v1/health").json() == {"status": "ok",
                                                               "version": __version__}
    listing = exchange(server, "GET", "/api/v1/tables").json()
    assert listing["manifest"] == 1
    names = sorted(path.name for path in tables.glob("*.qtb"))
    assert [row["name"] for row in listing["files"]] == names
    row = next(row for row in listing["files"] if row["name"] == "quixo4x4-00-00.qtb")
    assert (row["size"], row["mover"], row["opponent"]) == (4, 0, 0)
    assert row["win"] + row["draw"] + row["loss"] == 1
    assert row["sha256"] == hashlib.sha256((tables / row["name"]).read_bytes()).hexdigest()
    assert listing == exchange(server, "GET", "/tables/MANIFEST.json").json()


def test_a_batch_probe_answers_each_position_in_order(server):
    positions = [START_4, "not a position", ".../.../... X", "....O/...../...../...../..... X"]
    answer = exchange(server, "POST", "/api/v1/quixo/probe", {"positions": positions}).json()
    results = answer["results"]
    assert [result["position"] for result in results] == positions
    single = exchange(server, "GET", "/api/v1/quixo/probe?" + query(START_4)).json()
    assert results[0] == single
    assert "error" in results[1] and "error" in results[3]       # bad; a class not built
    assert results[2]["value"] == "win" and results[2]["plies"] == 7


def test_a_batch_of_more_than_1024_positions_is_413(server):
    reply = exchange(server, "POST", "/api/v1/quixo/probe", {"positions": [START_4] * 1025})
    assert reply.status == 413
    assert "at most 1024 positions" in reply.json()["error"]


def test_the_mainline_is_the_tables_line_of_best_play(server, tables):
    answer = exchange(server, "GET", "/api/v1/quixo/mainline?" + query(START_4)).json()
    with Tablebase(tables) as tablebase:
        line = [str(move) for move in tablebase.best_line(Board(size=4))]
    assert answer == {"position": START_4, "value": "win", "plies": 21, "moves": line,
                      "complete": True}
    missing = exchange(server, "GET", "/api/v1/quixo/mainline?" + query(
        "....O/...../...../...../..... X"))
    assert missing.status == 404 and "error" in missing.json()


def test_a_line_that_ends_where_the_tables_end_is_not_kept(tables, tmp_path):
    """A won 5x5 position of 12 cubes each whose first best move takes the blank: without the
    class that move leads to, the line ends at once; once the table is added to the folder it
    goes to the end, so the first answer carries no-cache and the server answers anew."""
    position = "XOOXX/OXXXO/OXOXO/.XOOO/XOOXX X"
    board = Board(position)
    with Tablebase(tables) as tablebase:
        line = [str(move) for move in tablebase.best_line(board)]
    board.push(line[0])
    assert (board.mover_cubes.bit_count(), board.opponent_cubes.bit_count()) == (12, 13)
    cut = {"quixo5x5-12-13.qtb", "quixo5x5-13-12.qtb"}
    folder = tmp_path / "cut"
    folder.mkdir()
    for table in tables.glob("quixo5x5-*.qtb"):
        if table.name not in cut:
            (folder / table.name).symlink_to(table)
    path = "/api/v1/quixo/mainline?" + query(position)
    with running_server(folder, "--rate-limit", "0") as url:
        partial = exchange(url, "GET", path)
        assert partial.json()["complete"] is False and partial.json()["moves"] == []
        assert partial.headers["cache-control"] == "no-cache"
        for name in cut:
            (folder / name).symlink_to(tables / name)
        whole = exchange(url, "GET", path)
        assert whole.json()["complete"] is True and whole.json()["moves"] == line
        assert whole.headers["cache-control"] == "public, max-age=2592000"


def test_exact_answers_carry_an_etag_and_a_long_cache_control(server):
    path = "/api/v1/quixo/probe?" + query(START_4)
    first = exchange(server, "GET", path)
    assert first.status == 200
    assert first.headers["cache-control"] == "public, max-age=2592000"
    again = exchange(server, "GET", path, headers={"If-None-Match": first.headers["etag"]})
    assert again.status == 304 and again.raw == b""
    other = exchange(server, "GET", path, headers={"If-None-Match": '"another"'})
    assert other.status == 200 and other.body == first.body


def test_answers_are_gzipped_for_a_client_that_accepts_it(server):
    path = "/api/v1/quixo/analyze?" + query(START_4)
    plain = exchange(server, "GET", path)
    zipped = exchange(server, "GET", path, headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in plain.headers
    assert zipped.headers["content-encoding"] == "gzip"
    assert len(zipped.raw) < len(plain.raw) and zipped.body == plain.body


@pytest.mark.parametrize("headers, takes", [
    ([], False),
    ([(b"accept-encoding", b"gzip")], True),
    ([(b"accept-encoding", b"GZIP")], True),
    ([(b"Accept-Encoding", b"br, Gzip;Q=0.5")], True),
    ([(b"accept-encoding", b"x-gzip")], True),
    ([(b"accept-encoding", b"gzip;q=0")], False),
    ([(b"accept-encoding", b"gzip; q=0.000, deflate")], False),
    ([(b"accept-encoding", b"identity")], False),
    ([(b"accept-encoding", b"*")], True),
    ([(b"accept-encoding", b"*;q=0")], False),
    ([(b"accept-encoding", b"gzip;q=0, *")], False),          # named: the wildcard is not it
    ([(b"accept-encoding", b"*;q=0, gzip;q=0.1")], True),
    ([(b"accept-encoding", b"br"), (b"accept-encoding", b"gzip")], True),   # two lines
    ([(b"accept-encoding", b"gzip;q=bad")], True),            # named, its weight unreadable
    ([(b"accept-encoding", b"gzipped")], False),
])
def test_accepts_gzip_reads_the_header_as_rfc_9110_does(headers, takes):
    from explorer.public import accepts_gzip

    assert accepts_gzip({"type": "http", "headers": headers}) is takes


def test_an_exact_answer_is_gzipped_by_the_same_reading_of_the_header():
    from starlette.requests import Request

    from explorer.caching import Encoded, cached_response

    answer = Encoded.of({"line": ["..../..../..../.... X"] * 40})
    for header, zipped in [(b"GZIP", True), (b"gzip;q=0", False)]:
        request = Request({"type": "http", "method": "GET", "path": "/", "query_string": b"",
                           "headers": [(b"accept-encoding", header)]})
        response = cached_response(request, answer)
        assert (response.headers.get("content-encoding") == "gzip") is zipped
        assert gzip.decompress(response.body) == answer.body if zipped else \
            response.body == answer.body


def test_the_api_allows_cors(server):
    reply = exchange(server, "GET", "/api/v1/health", headers={"Origin": "https://x.example"})
    assert reply.headers["access-control-allow-origin"] == "*"
    preflight = exchange(server, "OPTIONS", "/api/v1/quixo/probe", headers={
        "Origin": "https://x.example", "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type"})
    assert preflight.status == 204
    assert "POST" in preflight.headers["access-control-allow-methods"]


def test_each_request_is_one_line_of_the_access_log(logged_server):
    server, log = logged_server
    marker = "..../..../..../...O X"
    exchange(server, "GET", "/api/v1/quixo/probe?" + query(marker))
    deadline = time.monotonic() + 10           # the log is written a batch at a time
    while time.monotonic() < deadline:
        lines = [line for line in log.read_text().splitlines()
                 if urllib.parse.quote(marker, safe="/.").replace("%20", "+") in line
                 or query(marker) in line]
        if lines:
            break
        time.sleep(0.1)
    assert len(lines) == 1
    assert lines[0].startswith("127.0.0.1 - - [")
    assert '"GET /api/v1/quixo/probe?' in lines[0] and " HTTP/1.1\" 200 " in lines[0]


def test_a_client_over_its_rate_gets_429_with_retry_after(tables):
    with running_server(tables, "--rate-limit", "0.5", "--burst", "3",
                        "--access-log", "off") as url:
        time.sleep(2.5)      # the burst whole again (the start's readiness check took one)
        statuses = [exchange(url, "GET", "/api/v1/health").status for _ in range(5)]
        assert statuses[:3] == [200, 200, 200] and statuses[3:] == [429, 429]
        refused = exchange(url, "GET", "/api/v1/health")
        assert refused.status == 429 and int(refused.headers["retry-after"]) >= 1
        assert "error" in refused.json()
        assert exchange(url, "GET", "/quixo").status == 200      # pages do not count
        # a batch counts as one request per 16 positions: 64 positions need 4 tokens
        time.sleep(2 * 3 + 0.5)                                   # the burst back
        big = exchange(url, "POST", "/api/v1/quixo/probe", {"positions": [START_4] * 64})
        assert big.status == 429
