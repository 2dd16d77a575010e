"""`quixo serve --processes N`, against real servers on loopback: one server to its clients
whichever process answers (the rate limit, the search slots and queue, the status), the access
log's lines whole, a child that dies replaced, and every process gone when the server stops or
its parent is killed."""
from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
from pathlib import Path

import pytest

from .explorer_server import Client, server_process
from .extras import require

require("starlette", "uvicorn")

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="reads which process holds a connection in /proc")

OPEN_5 = "XO.../...../..O../...../..... X"          # 5x5, far from any table: searched


def children_of(pid: int) -> list[int]:
    children = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                children.append(int(entry.name))
    return sorted(children)


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def owners(pids: list[int], server_port: int) -> dict[int, int]:
    """The process (of `pids`) that holds each connection to the server, by client port."""
    inodes: dict[str, int] = {}
    for pid in pids:
        for link in Path(f"/proc/{pid}/fd").iterdir():
            try:
                target = os.readlink(link)
            except OSError:
                continue
            if target.startswith("socket:["):
                inodes[target[8:-1]] = pid
    held = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            local_port = int(fields[1].rsplit(":", 1)[1], 16)
            remote_port = int(fields[2].rsplit(":", 1)[1], 16)
            if local_port == server_port and fields[9] in inodes:
                held[remote_port] = inodes[fields[9]]
    return held


def connections_to_every_process(url: str, children: list[int],
                                 most: int = 64) -> list[tuple[http.client.HTTPConnection, int]]:
    """Keep-alive connections to the server, at least one held by each child, each with the
    child that holds it (connections are opened until every child holds one)."""
    host, port = urllib.parse.urlsplit(url).netloc.split(":")
    opened: list[http.client.HTTPConnection] = []
    for _ in range(most):
        connection = http.client.HTTPConnection(host, int(port), timeout=60)
        connection.connect()
        opened.append(connection)
        time.sleep(0.02)                             # accepted by then
        held = owners(children, int(port))
        by_port = [(c, held.get(c.sock.getsockname()[1], 0)) for c in opened]
        if all(any(pid == child for _, pid in by_port) for child in children):
            return by_port
    pytest.fail(f"no connection reached some process in {most}")


def ask(connection: http.client.HTTPConnection, path: str) -> tuple[int, dict[str, str]]:
    connection.request("GET", path)
    response = connection.getresponse()
    response.read()
    return response.status, {name.lower(): value for name, value in response.getheaders()}


def test_a_burst_over_the_limit_gets_429_whichever_process_answers(tables):
    with server_process(tables, "--processes", "2", "--rate-limit", "0.2", "--burst", "6",
                        "--access-log", "off") as (server, url):
        children = children_of(server.pid)
        assert len(children) == 2
        time.sleep(5.5)          # the burst whole again (the start's readiness check took one)
        connections = connections_to_every_process(url, children)
        answers = []
        for _ in range(4):                       # each process in turn: 8 requests
            for connection, pid in one_per_child(connections):
                answers.append((pid, *ask(connection, "/api/v1/health")))
        statuses = [status for _, status, _ in answers]
        assert statuses.count(200) == 6 and statuses.count(429) == len(statuses) - 6
        refused = [(pid, headers) for pid, status, headers in answers if status == 429]
        assert {pid for pid, _ in refused} == set(children)       # both processes refuse
        assert all(int(headers["retry-after"]) >= 1 for _, headers in refused)
        for connection, _ in connections:
            connection.close()


def one_per_child(connections: list[tuple[http.client.HTTPConnection, int]]
                   ) -> list[tuple[http.client.HTTPConnection, int]]:
    chosen: dict[int, tuple[http.client.HTTPConnection, int]] = {}
    for connection, pid in connections:
        chosen.setdefault(pid, (connection, pid))
    return list(chosen.values())


def test_the_search_slots_and_queue_are_the_whole_servers(tables):
    with server_process(tables, "--processes", "2", "--searches", "1", "--queue", "1",
                        "--max-search-time", "30", "--hash", "8",
                        "--access-log", "off") as (server, url):
        children = children_of(server.pid)
        opened = connections_to_every_process(url, children)
        first, second = (connection for connection, _ in one_per_child(opened))
        for connection, _ in opened:
            if connection not in (first, second):
                connection.close()
        path = "/api/v1/quixo/solve?" + urllib.parse.urlencode({"position": OPEN_5,
                                                                "time": 30})
        first.request("GET", path)                 # one process searches ...
        client = Client(url)
        wait_for_status(client, lambda status: status["busy"] == 1)
        second.request("GET", path)                # ... the other's request waits for it
        wait_for_status(client, lambda status: status["queued"] == 1)
        status = client.get("/api/v1/status").json()
        assert (status["busy"], status["queued"], status["processes"],
                status["processes_serving"]) == (1, 1, 2, 2)
        refused = client.get("/api/v1/quixo/solve?" + urllib.parse.urlencode(
            {"position": OPEN_5, "time": 1}))
        assert refused.status_code == 503 and int(refused.headers["retry-after"]) >= 1
        # the searching client leaves: the waiting one, in the other process, gets the slot
        first.close()
        wait_for_status(client, lambda status: status["queued"] == 0 and status["busy"] == 1)
        second.close()
        wait_for_status(client, lambda status: status["busy"] == 0)


def wait_for_status(client: Client, condition, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition(client.get("/api/v1/status").json()):
        if time.monotonic() > deadline:
            pytest.fail(f"the server's status stayed {client.get('/api/v1/status').json()}")
        time.sleep(0.02)


def test_the_access_log_has_one_whole_line_per_request(tables, tmp_path):
    log = tmp_path / "access.log"
    # long paths, so that the processes' batches of lines are bigger than one write
    markers = [f"m{n:04d}" + "x" * 900 for n in range(600)]
    with server_process(tables, "--processes", "2", "--rate-limit", "0",
                        "--access-log", str(log)) as (server, url):
        host, port = urllib.parse.urlsplit(url).netloc.split(":")

        def client(share: list[str]) -> None:
            for marker in share:
                connection = http.client.HTTPConnection(host, int(port), timeout=60)
                try:
                    assert ask(connection, f"/api/v1/nothing/{marker}")[0] == 404
                finally:
                    connection.close()
        threads = [threading.Thread(target=client, args=(markers[n::6],)) for n in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    lines = log.read_text().splitlines()
    logged = [line for line in lines if "/api/v1/nothing/" in line]
    assert len(logged) == len(markers)
    assert sorted(line.split("/api/v1/nothing/")[1].split(" ")[0] for line in logged) == markers
    assert all(line.startswith("127.0.0.1 - - [") and line.endswith(tuple("0123456789"))
               and " HTTP/1.1\" 404 " in line for line in logged)


def test_a_process_that_dies_is_replaced_and_every_process_stops_with_the_server(tables,
                                                                                  tmp_path):
    output = tmp_path / "serve.log"
    with server_process(tables, "--processes", "2", "--access-log", "off",
                        log=output) as (server, url):
        # A process that dies before it served stops the server (another would die the same
        # way): kill one only once both serve.
        wait_for_status(Client(url), lambda status: status["processes_serving"] == 2, 60)
        first = children_of(server.pid)
        os.kill(first[0], signal.SIGKILL)
        deadline = time.monotonic() + 30
        while len(now := children_of(server.pid)) < 2 or first[0] in now:
            assert time.monotonic() < deadline, now
            time.sleep(0.1)
        for _ in range(10):
            assert Client(url).get("/api/v1/health").status_code == 200
        replaced = children_of(server.pid)
    assert server.returncode != 0                       # stopped by SIGINT, as by Ctrl-C
    assert not any(alive(pid) for pid in replaced)
    report = output.read_text()
    assert f"(pid {first[0]}) was killed by signal 9; starting another" in report
    assert "(2 processes; Ctrl-C stops it)" in report


def test_the_processes_stop_when_the_parent_is_killed(tables):
    with server_process(tables, "--processes", "2", "--access-log", "off") as (server, url):
        children = children_of(server.pid)
        server.kill()
        server.wait()
        deadline = time.monotonic() + 10
        while any(alive(pid) for pid in children):
            assert time.monotonic() < deadline, "the processes outlived their parent"
            time.sleep(0.1)
    host, port = urllib.parse.urlsplit(url).netloc.split(":")
    with pytest.raises(OSError):
        socket.create_connection((host, int(port)), timeout=2)


def test_a_second_server_on_the_same_port_is_refused(tables):
    """Each process's socket shares the port (SO_REUSEPORT): another server must not join
    them."""
    with server_process(tables, "--processes", "2", "--access-log", "off") as (_, url):
        port = urllib.parse.urlsplit(url).port
        second = subprocess.run([sys.executable, "-m", "quixo_solver", "serve", "--dir",
                                 str(tables), "--port", str(port), "--processes", "2"],
                                capture_output=True, text=True, timeout=120)
        assert second.returncode == 2
        assert f"cannot listen on 127.0.0.1:{port}" in second.stderr
