"""The one HTTP client of tables on the web (tablebase/web/http.py): Retry-After read as seconds
or as an HTTP date, retries with backoff, and the remote tablebase retrying a transient
answer as the download does (the download's own fault tests: test_tablebase_download.py)."""
import email.utils
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from quixo_solver.tablebase.errors import RemoteError, RemoteRateLimited
from quixo_solver.tablebase.web.http import Retries, Transient, http_url, retry_after
from quixo_solver.tablebase.web.remote import RemoteTablebase


def test_retry_after_is_seconds_or_an_http_date():
    assert retry_after("120") == 120.0
    assert retry_after(None) is None and retry_after("") is None
    assert retry_after("soon") is None
    in_a_minute = email.utils.formatdate(time.time() + 60, usegmt=True)
    assert 55 <= retry_after(in_a_minute) <= 60
    assert retry_after(email.utils.formatdate(time.time() - 60, usegmt=True)) == 0.0


def test_a_url_must_be_http_with_a_host():
    assert http_url("https://example.org:8443/tables", "a mirror", ValueError).port == 8443
    for bad in ("ftp://example.org", "http://", "http://example.org/?x=1", "http://h:99999",
                42):
        with pytest.raises(ValueError):
            http_url(bad, "a mirror", ValueError)


def test_transient_faults_are_tried_again_until_the_answer():
    faults = [Transient("cut"), Transient("busy", retry_after=0.0)]

    def attempt():
        if faults:
            raise faults.pop(0)
        return "answer"

    assert Retries(attempts=3, backoff=0.001).run(attempt, lambda fault, _: RuntimeError()) \
        == "answer"


def test_the_last_fault_and_a_long_retry_after_end_the_attempts():
    tried = []

    def failing():
        tried.append(1)
        raise Transient("cut")

    with pytest.raises(RuntimeError, match="cut False"):
        Retries(attempts=3, backoff=0.001).run(
            failing, lambda fault, too_long: RuntimeError(f"{fault} {too_long}"))
    assert len(tried) == 3

    def asks_to_wait():
        tried.append(1)
        raise Transient("busy", retry_after=3600)

    tried.clear()
    with pytest.raises(RuntimeError, match="busy True"):
        Retries(attempts=3).run(asks_to_wait,
                                lambda fault, too_long: RuntimeError(f"{fault} {too_long}"))
    assert len(tried) == 1


class Flaky(BaseHTTPRequestHandler):
    """/api/v1/tables: the statuses of `self.server.plan` first (with Retry-After 0), then
    a listing of the 3x3 class (0, 0)."""

    def do_GET(self):
        plan = self.server.plan
        status = plan.pop(0) if plan else 200
        body = json.dumps({"files": [{"size": 3, "mover": 0, "opponent": 0}]} if status == 200
                          else {"error": "busy"}).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        if status != 200:
            self.send_header("Retry-After", self.server.retry_after)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def flaky():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Flaky)
    server.plan, server.retry_after = [], "0"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()
    server.server_close()


def test_the_remote_tablebase_tries_a_503_and_a_429_again(flaky):
    flaky.plan = [503, 429]
    with RemoteTablebase(f"http://127.0.0.1:{flaky.server_port}") as remote:
        assert remote.classes() == {(3, 0, 0)}
        assert remote.requests == 3


def test_the_remote_tablebase_reports_the_last_transient_answer(flaky):
    flaky.plan = [503] * 5
    with RemoteTablebase(f"http://127.0.0.1:{flaky.server_port}") as remote:
        with pytest.raises(RemoteError, match="with 503: busy"):
            remote.classes()
        assert remote.requests == 3


def test_a_long_retry_after_is_not_waited_for(flaky):
    flaky.plan, flaky.retry_after = [429], "3600"
    with RemoteTablebase(f"http://127.0.0.1:{flaky.server_port}") as remote:
        with pytest.raises(RemoteRateLimited) as refused:
            remote.classes()
        assert refused.value.retry_after == 3600 and remote.requests == 1
