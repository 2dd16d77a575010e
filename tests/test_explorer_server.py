"""The explorer's server under load and faults, on a real `quixo serve`: at most one search per
slot, a bounded queue, 503 with Retry-After when it is full, a client that disconnects frees
its slot within a second (plain requests and live searches) while everyone else is answered,
damaged table files named in the error and never read, loopback by default."""
from __future__ import annotations

import json
import shutil
import socket
import time
import urllib.parse
from pathlib import Path

import pytest

from quixo_solver.frontends.cli import main
from quixo_solver.tablebase.format import files

from .explorer_server import Client, running_server
from .extras import require

require("starlette", "uvicorn")

OPEN_5 = "XO.../...../..O../...../..... X"          # 5x5, far from any table: searched
NEAR_END_5 = "XXXXO/OOOOX/XXXXO/OOOOX/XXXO. X"     # one blank: class (13, 11), built
EMPTY_4 = "..../..../..../.... X"


def status(client: Client) -> dict:
    return client.get("/api/v1/status").json()   # type: ignore[return-value]


def wait_for(client: Client, condition, seconds: float = 10.0) -> float:
    """Seconds until `condition(status)` holds, as far as the client can tell: until the
    first status request that finds it was sent (fails after `seconds`)."""
    started = time.monotonic()
    while True:
        asked = time.monotonic()
        if condition(status(client)):
            return asked - started
        if asked - started > seconds:
            pytest.fail(f"the server's status stayed {status(client)}")
        time.sleep(0.01)


def open_request(client: Client, path: str) -> socket.socket:
    """A request whose answer nobody reads yet (the client may hang up on it)."""
    connection = socket.create_connection((client.host, int(client.port)))
    connection.sendall(f"GET {path} HTTP/1.1\r\nHost: explorer\r\n\r\n".encode())
    return connection


def search_path(seconds: float = 30, kind: str = "solve") -> str:
    return f"/api/v1/quixo/{kind}?" + urllib.parse.urlencode({"position": OPEN_5,
                                                               "time": seconds})


@pytest.fixture(scope="module")
def one_slot(tables):
    """A server with one search slot and a queue of one."""
    with running_server(tables, "--searches", "1", "--queue", "1", "--max-search-time", "30",
                        "--search-time", "1", "--hash", "8") as url:
        yield Client(url)


def test_a_full_queue_gets_503_with_retry_after_and_tables_are_still_answered(one_slot):
    running = open_request(one_slot, search_path())
    wait_for(one_slot, lambda s: s["busy"] == 1)
    queued = open_request(one_slot, search_path())
    wait_for(one_slot, lambda s: s["queued"] == 1)
    refused = one_slot.get(search_path(1))
    assert refused.status_code == 503
    assert int(refused.headers["retry-after"]) >= 1
    assert "busy" in refused.json()["error"]                     # type: ignore[index]
    # exact answers need no slot: the server goes on answering them at once
    started = time.monotonic()
    exact = one_slot.get("/api/v1/quixo/analyze?position=..../..../..../...._X")
    assert exact.status_code == 200 and time.monotonic() - started < 5
    # the queued client leaves: it leaves the queue
    queued.close()
    wait_for(one_slot, lambda s: s["queued"] == 0, seconds=2)
    # the running client leaves: its search stops and the slot is freed within a second (as
    # the client sees it: its close, the server noticing, the search stopping, the status
    # request), even while the search still opens the 5x5 tables
    running.close()
    assert wait_for(one_slot, lambda s: s["busy"] == 0, seconds=5) < 1.0
    answer = one_slot.get(search_path(0.2))
    assert answer.status_code == 200 and answer.json()["position"] == OPEN_5   # type: ignore[index]


def test_a_live_search_stops_when_its_page_moves_on(one_slot):
    path = "/api/v1/quixo/live?" + urllib.parse.urlencode(
        {"position": OPEN_5, "time": 30, "analyze": 1})
    connection = open_request(one_slot, path)
    received = b""
    while b"event: iteration" not in received:
        chunk = connection.recv(65536)
        assert chunk, received
        received += chunk
    assert received.startswith(b"HTTP/1.1 200")
    assert status(one_slot)["busy"] == 1
    connection.close()
    assert wait_for(one_slot, lambda s: s["busy"] == 0, seconds=5) < 1.0


def test_a_queued_live_search_that_leaves_frees_its_place(one_slot):
    running = open_request(one_slot, search_path())
    wait_for(one_slot, lambda s: s["busy"] == 1)
    waiting = open_request(one_slot, "/api/v1/quixo/live?" + urllib.parse.urlencode(
        {"position": OPEN_5, "time": 30}))
    wait_for(one_slot, lambda s: s["queued"] == 1)
    waiting.close()
    wait_for(one_slot, lambda s: s["queued"] == 0, seconds=2)
    running.close()
    wait_for(one_slot, lambda s: s["busy"] == 0, seconds=2)


def test_searches_are_capped_by_the_server(one_slot, tables):
    """A time over the server's longest is refused; a depth alone is searched as the command
    line would, but is stopped at the longest time and answers what it found."""
    answer = one_slot.get("/api/v1/quixo/solve?" + urllib.parse.urlencode(
        {"position": OPEN_5, "time": 31}))
    assert answer.status_code == 400 and "at most 30 seconds" in answer.text
    with running_server(tables, "--searches", "1", "--max-search-time", "1.5",
                        "--search-time", "1") as url:
        started = time.monotonic()
        answer = Client(url).get("/api/v1/quixo/solve?" + urllib.parse.urlencode(
            {"position": OPEN_5, "depth": 60}))
        seconds = time.monotonic() - started
        assert answer.status_code == 200
        found = answer.json()
        assert found["value"] == "unknown" and 1 <= found["depth"] < 60   # type: ignore
        assert seconds < 10


# -- damaged tables ------------------------------------------------------------------------------

def damage(path: Path) -> None:
    """Flip every byte of a table's values (its header and checksums stay intact)."""
    header = files.read_header(path)
    with open(path, "r+b") as handle:
        handle.seek(header.data_offset)
        values = handle.read(header.entries)
        handle.seek(header.data_offset)
        handle.write(bytes(value ^ 0x5A for value in values))


@pytest.fixture(scope="module")
def damaged_tables(tables, tmp_path_factory):
    """A copy of the tables whose every 5x5 file has damaged values."""
    folder = tmp_path_factory.mktemp("damaged")
    for table in Path(tables).iterdir():
        shutil.copy(table, folder / table.name)
    damaged = []
    for mover in range(26):
        for opponent in range(26 - mover):
            path = folder / files.table_name(5, mover, opponent)
            if path.exists():
                damage(path)
                damaged.append(path)
    assert folder / files.table_name(5, 13, 11) in damaged
    return folder


@pytest.mark.parametrize("kind", ["probe", "solve", "analyze"])
def test_a_damaged_table_gives_the_command_lines_error_naming_the_file(damaged_tables, capsys,
                                                                       kind):
    with running_server(damaged_tables, "--searches", "1", "--search-time", "1") as url:
        answer = Client(url).get(f"/api/v1/quixo/{kind}?" + urllib.parse.urlencode(
            {"position": NEAR_END_5}))
        assert answer.status_code == 503
        message = answer.json()["error"]                          # type: ignore[index]
        assert "damaged" in message and str(damaged_tables) in message
        assert "value" not in answer.json() and "moves" not in answer.json()  # type: ignore
        argv = (["tablebase", "probe"] if kind == "probe" else [kind])
        assert main([*argv, NEAR_END_5, "--dir", str(damaged_tables)]) == 2
        err = capsys.readouterr().err
        if kind == "probe":
            assert err == f"quixo: error: {message}\n"
        else:
            assert "damaged" in err and str(damaged_tables) in err
        # the server goes on answering what the intact tables know
        assert Client(url).get("/api/v1/quixo/solve?position=..../..../..../...._X"
                               ).json()["plies"] == 21            # type: ignore[index]


def test_the_live_search_reports_a_damaged_table_as_an_error_event(damaged_tables):
    with running_server(damaged_tables, "--searches", "1", "--search-time", "1") as url:
        answer = Client(url).get("/api/v1/quixo/live?" + urllib.parse.urlencode(
            {"position": NEAR_END_5, "analyze": 1}))
        assert answer.status_code in (200, 503)
        if answer.status_code == 200:
            blocks = [dict(line.split(": ", 1) for line in block.split("\n"))
                      for block in answer.text.strip().split("\n\n")]
            names = [block["event"] for block in blocks]
            assert "error" in names and "solve" not in names and names[-1] == "end"
            error = json.loads(blocks[names.index("error")]["data"])["error"]
        else:
            error = answer.json()["error"]                         # type: ignore[index]
        assert "damaged" in error and str(damaged_tables) in error


# -- start-up ------------------------------------------------------------------------------------

def test_loopback_is_the_default_and_any_other_host_is_warned_about(capsys):
    from explorer import server

    assert server.is_loopback("127.0.0.1") and server.is_loopback("::1")
    assert server.is_loopback("localhost") and server.is_loopback("127.0.0.2")
    assert not server.is_loopback("0.0.0.0") and not server.is_loopback("192.168.1.10")
    assert not server.is_loopback("example.org")
    parser_default = [action.default for action in _serve_parser()._actions
                      if "--host" in action.option_strings]
    assert parser_default == ["127.0.0.1"]
    assert "no authentication" in server.host_warning("0.0.0.0")
    assert server.host_warning("127.0.0.1") is None


def _serve_parser():
    from quixo_solver.frontends.cli import build_parser

    commands = [action for action in build_parser()._actions
                if hasattr(action, "choices") and isinstance(action.choices, dict)][0]
    return commands.choices["serve"]


def test_serve_without_the_web_extra_says_what_to_install(monkeypatch, capsys):
    import builtins

    real_import = builtins.__import__

    def without_uvicorn(name, *args, **kwargs):
        if name == "uvicorn":
            raise ImportError("No module named 'uvicorn'", name="uvicorn")
        return real_import(name, *args, **kwargs)
    monkeypatch.setattr(builtins, "__import__", without_uvicorn)
    assert main(["serve", "--port", "1"]) == 2
    assert 'pip install "quixo-solver[web]"' in capsys.readouterr().err


def test_the_small_tables_are_built_at_start_up(tmp_path, tables):
    """A fresh folder gets the whole 3x3 and 4x4 games before the server answers, so that
    the empty 4x4 board is exact at once."""
    with running_server(tmp_path, "--searches", "1", log=tmp_path / "serve.log") as url:
        answer = Client(url).get("/api/v1/quixo/solve?position=..../..../..../...._X").json()
        assert answer["source"] == "tablebase" and answer["plies"] == 21  # type: ignore
    log = (tmp_path / "serve.log").read_text()
    assert "built the 4x4 tables" in log and "127.0.0.1" in log
