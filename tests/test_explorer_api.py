"""The explorer's Quixo API (SPEC "Web"), on a real `quixo serve`: every answer is the object
the command line prints with --json, every refusal its one-line message with the right status;
pages, static files and their caching; paths outside the static files. (The search pool's
limits, disconnects and faults: test_explorer_server.py.)"""
from __future__ import annotations

import json
import urllib.parse

import pytest

from quixo_solver.frontends.cli import main

from .explorer_server import Client, running_server
from .extras import require

require("starlette", "uvicorn")

EMPTY_4 = "..../..../..../.... X"
MIDGAME_4 = "XO../.X../..O./.... O"
NEAR_END_5 = "XXXXO/OOOOX/XXXXO/OOOOX/XXXO. X"     # one blank: a built 5x5 class
OPEN_5 = "XO.../...../..O../...../..... X"          # 5x5, no table: searched
TEAMS_3 = "X../.o./... O1"                          # four players, 3x3: the complete solution


@pytest.fixture(scope="module")
def client(tables):
    with running_server(tables, "--searches", "2", "--queue", "2", "--max-search-time", "5",
                        "--search-time", "2", "--hash", "8") as url:
        yield Client(url)


def query(**parameters: str) -> str:
    return urllib.parse.urlencode(parameters)


def cli_json(capsys, *argv: str) -> dict:
    status = main([*argv, "--json"])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    return json.loads(captured.out)


def cli_error(capsys, *argv: str) -> str:
    status = main(list(argv))
    captured = capsys.readouterr()
    assert status == 2 and captured.out == ""
    prefix = "quixo: error: "
    assert captured.err.startswith(prefix)
    return captured.err[len(prefix):].rstrip("\n")


# -- answers: the command line's objects ---------------------------------------------------------

@pytest.mark.parametrize("command", ["analyze", "solve"])
@pytest.mark.parametrize("position", [EMPTY_4, MIDGAME_4, NEAR_END_5, TEAMS_3,
                                      ".../.X./... O"])
def test_exact_answers_are_the_command_lines(client, tables, capsys, command, position):
    answer = client.get(f"/api/v1/quixo/{command}?" + query(position=position))
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "application/json"
    assert answer.json() == cli_json(capsys, command, position, "--dir", str(tables))


def test_the_empty_4x4_board_is_a_win_in_21(client):
    answer = client.get("/api/v1/quixo/solve?position=..../..../..../...._X").json()
    assert (answer["value"], answer["plies"], answer["source"]) == ("win", 21, "tablebase")
    moves = client.get("/api/v1/quixo/analyze?position=..../..../..../...._X").json()["moves"]
    assert len(moves) == 32 and moves[0] == {"move": "a1d1", "value": "win", "plies": 21}


@pytest.mark.parametrize("command", ["analyze", "solve"])
def test_searched_answers_are_the_command_lines(client, tables, capsys, command):
    """A search to a fixed depth from a cleared table is the same search: only the time it
    took differs."""
    answer = client.get(f"/api/v1/quixo/{command}?" + query(position=OPEN_5, depth="3"))
    assert answer.status_code == 200
    expected = cli_json(capsys, command, OPEN_5, "--depth", "3", "--dir", str(tables))
    got = answer.json()
    if command == "solve":
        assert got["source"] == "search" and got["depth"] == 3
        got.pop("seconds"), expected.pop("seconds")
    assert got == expected


def test_a_position_takes_underscore_or_space(client):
    underscore = client.get("/api/v1/quixo/solve?position=..../..../..../...._X").json()
    space = client.get("/api/v1/quixo/solve?" + query(position=EMPTY_4)).json()
    assert underscore == space and underscore["position"] == EMPTY_4


def test_probe_is_the_command_lines(client, tables, capsys):
    answer = client.get("/api/v1/quixo/probe?" + query(position=MIDGAME_4))
    assert answer.status_code == 200
    assert answer.json() == cli_json(capsys, "tablebase", "probe", MIDGAME_4, "--dir",
                                     str(tables))


def test_probe_of_a_class_not_built_is_404_with_the_command_lines_message(client, tables,
                                                                          capsys):
    position = "...../...../...../...../..... X"
    answer = client.get("/api/v1/quixo/probe?" + query(position=position))
    assert answer.status_code == 404
    assert answer.json() == {"error": cli_error(capsys, "tablebase", "probe", position,
                                                "--dir", str(tables))}


# -- bad input: 400 with the command line's one-line message -------------------------------------

@pytest.mark.parametrize("parameters, argv", [
    ({"position": "..../..../..../.... Q"}, ["..../..../..../.... Q"]),
    ({"position": "XXXX/...."}, ["XXXX/...."]),
    ({"position": ""}, [""]),
    ({"position": "-h"}, ["--", "-h"]),
    ({"position": EMPTY_4, "time": "abc"}, [EMPTY_4, "--time", "abc"]),
    ({"position": EMPTY_4, "time": "-1"}, [EMPTY_4, "--time=-1"]),
    ({"position": EMPTY_4, "time": "nan"}, [EMPTY_4, "--time", "nan"]),
    ({"position": EMPTY_4, "time": "inf"}, [EMPTY_4, "--time", "inf"]),
    ({"position": EMPTY_4, "time": ""}, [EMPTY_4, "--time="]),
    ({"position": EMPTY_4, "depth": "0"}, [EMPTY_4, "--depth", "0"]),
    ({"position": EMPTY_4, "depth": "121"}, [EMPTY_4, "--depth", "121"]),
    ({"position": EMPTY_4, "depth": "2.5"}, [EMPTY_4, "--depth", "2.5"]),
    ({"position": EMPTY_4, "depth": "9" * 40}, [EMPTY_4, "--depth", "9" * 40]),
    ({}, []),
])
@pytest.mark.parametrize("command", ["analyze", "solve"])
def test_bad_input_is_400_with_the_command_lines_message(client, tables, capsys, command,
                                                         parameters, argv):
    answer = client.get(f"/api/v1/quixo/{command}?" + query(**parameters))
    assert answer.status_code == 400
    # `quixo analyze` reads its arguments as the API does (`solve` alone would take no
    # position as the empty board, where the API requires one)
    assert answer.json() == {"error": cli_error(capsys, "analyze", "--dir", str(tables),
                                                *argv)}


@pytest.mark.parametrize("url, fragment", [
    ("/api/v1/quixo/analyze?position=..../..../..../...._X&colour=red", "unknown parameter"),
    ("/api/v1/quixo/analyze?position=..../..../..../...._X&position=.../.../..._X",
     "given twice"),
    ("/api/v1/quixo/solve?position=..../..../..../...._X&time=100", "at most 5 seconds"),
    ("/api/v1/quixo/probe?position=..../..../..../...._X&time=1", "unknown parameter"),
    ("/api/v1/quixo/live?position=..../..../..../...._X&time=1&clock=1m",
     "either a time or a clock"),
    ("/api/v1/quixo/live?position=..../..../..../...._X&clock=soon", "bad clock"),
    ("/api/v1/quixo/live?position=..../..../..../...._X&analyze=yes", "1 or 0"),
    ("/api/v1/quixo/clock?clock=10m%2B", "bad clock"),
    ("/api/v1/quixo/position?position=X" + "." * 30 + "_X", "cells"),
])
def test_other_refusals_are_400_with_one_line(client, url, fragment):
    answer = client.get(url)
    assert answer.status_code == 400
    message = answer.json()["error"]
    assert fragment in message and "\n" not in message and "Traceback" not in message


def test_the_clock_is_read_as_quixo_play_reads_it(client):
    assert client.get("/api/v1/quixo/clock?clock=" + urllib.parse.quote("1m30s+2s")).json() \
        == {"clock": "1m30s+2s", "seconds": 90.0, "increment": 2.0}


def test_a_query_over_8_kb_is_414(client):
    answer = client.get("/api/v1/quixo/analyze?position=" + "." * 9000)
    assert answer.status_code == 414 and "8192" in answer.json()["error"]


def test_other_methods_are_405_with_json(client):
    answer = client.post("/api/v1/quixo/analyze?position=..../..../..../...._X")
    assert answer.status_code == 405 and "GET" in answer.json()["error"]


# -- the page's own requests ---------------------------------------------------------------------

def test_position_lists_moves_symmetries_and_swaps(client):
    info = client.get("/api/v1/quixo/position?position=X.../..../..../...._O").json()
    assert info["position"] == "X.../..../..../.... O" and info["turn"] == "O"
    assert info["rows"] == ["X...", "....", "....", "...."]
    assert len(info["moves"]) == 32 - 2        # O may not take X's corner cube (2 moves)
    assert {"move": "b1a1", "position": "X.../..../..../O... X"} in info["moves"]
    assert len(info["symmetries"]) == 8 and info["symmetries"][0] == info["position"]
    assert "...X/..../..../.... O" in info["symmetries"]
    assert info["swapped"] == "O.../..../..../.... X"
    assert info["turn_passed"] == "X.../..../..../.... X"
    assert not info["game_over"] and info["winner"] is None


def test_four_player_swap_moves_every_seat_on(client):
    info = client.get("/api/v1/quixo/position?" + query(position="XxOo./...../...../...../..... X2")).json()
    assert info["swapped"] == "OoxX./...../...../...../..... O2"
    assert info["turn_passed"] == "XxOo./...../...../...../..... O2"
    assert info["player_names"] == ["X1", "O1", "X2", "O2"]


def test_a_finished_game_has_no_moves(client):
    info = client.get("/api/v1/quixo/position?" + query(position="XXXX/OO../..../.... O")).json()
    assert info["game_over"] and info["winner"] == "X" and info["moves"] == []


def events(body: str) -> list[tuple[str, dict]]:
    found = []
    for block in body.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.split("\n"))
        found.append((lines["event"], json.loads(lines["data"])))
    return found


def test_live_answers_a_table_position_at_once(client, tables, capsys):
    answer = client.get("/api/v1/quixo/live?position=..../..../..../...._X&analyze=1")
    assert answer.headers["content-type"].startswith("text/event-stream")
    got = events(answer.text)
    assert [name for name, _ in got] == ["solve", "analyze", "end"]
    assert got[0][1] == cli_json(capsys, "solve", EMPTY_4, "--dir", str(tables))
    assert got[1][1] == cli_json(capsys, "analyze", EMPTY_4, "--dir", str(tables))


def test_live_reports_every_depth_of_a_search(client):
    answer = client.get("/api/v1/quixo/live?" + query(position=OPEN_5, depth="4",
                                                        analyze="1"))
    got = events(answer.text)
    names = [name for name, _ in got]
    assert names == ["iteration"] * 4 + ["solve", "analyze", "end"]
    assert [data["depth"] for _, data in got[:4]] == [1, 2, 3, 4]
    assert got[4][1]["depth"] == 4 and got[4][1]["position"] == OPEN_5
    assert len(got[5][1]["moves"]) == 44 - 3     # not O's cube on b5 (c3 is not on the border)


def test_live_on_a_clock_plays_a_move(client):
    got = events(client.get("/api/v1/quixo/live?" + query(position=OPEN_5,
                                                             clock="0.5+0")).text)
    solve = dict(got)["solve"]
    assert solve["best_move"] and got[-1][0] == "end"


# -- pages and static files ----------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/", "/quixo", "/quixo/..../..../..../...._X",
                                  "/quixo/Xx..o/...../...../...../....._O1", "/qwixx"])
def test_pages(client, path):
    answer = client.get(path)
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/html")
    assert answer.headers["cache-control"] == "no-cache"
    again = client.get(path, headers={"If-None-Match": answer.headers["etag"]})
    assert again.status_code == 304


def test_a_page_path_that_is_no_position_is_404(client):
    answer = client.get("/quixo/not-a-position")
    assert answer.status_code == 404 and answer.headers["content-type"].startswith("text/html")


def static_urls(client) -> list[str]:
    page = client.get("/quixo").text
    return sorted({part.split('"')[0] for part in page.split('href="')[1:] + page.split('src="')[1:]
                   if part.startswith("/static/")})


def test_static_files_carry_caching_headers(client):
    urls = static_urls(client)
    assert any(url.endswith("quixo.js") for url in urls)
    for url in urls:
        answer = client.get(url)
        assert answer.status_code == 200
        assert answer.headers["cache-control"] == "public, max-age=31536000, immutable"
        assert client.get(url, headers={"If-None-Match": answer.headers["etag"]}
                          ).status_code == 304


@pytest.mark.parametrize("tail", [
    "../app.py", "..%2fapp.py", "%2e%2e/app.py", "%2e%2e%2fapp.py", "..%5capp.py",
    "%252e%252e%252fapp.py", "....//app.py", "/etc/passwd", "%2fetc%2fpasswd",
    "..%2f..%2f..%2fpyproject.toml", "style.css%00.js", "style.css/..", "./style.css",
    "STYLE.CSS", "", ".", "..", "static/style.css", "%00", "~/.bashrc",
])
def test_no_path_outside_the_static_files(client, tail):
    """Whatever the dots and encodings (sent as they are), a path gets one of the explorer's
    own files or 404."""
    urls = static_urls(client)
    served = {client.get(url).content for url in urls}
    served |= {client.get(page).content for page in ("/", "/quixo", "/qwixx")}
    base = [url for url in urls if url.endswith("style.css")][0].rsplit("/", 1)[0]
    for url in (f"{base}/{tail}", f"/static/{tail}", f"/static/x/{tail}", f"/{tail}"):
        answer = client.get(url)
        assert answer.status_code in (200, 404), (url, answer.status_code)
        if answer.status_code == 200:
            assert answer.content in served, url
        else:
            assert "error" in answer.json()


def test_an_old_version_of_a_static_file_is_404(client):
    assert client.get("/static/0000000000000000/style.css").status_code == 404


def test_unknown_paths_are_404_with_json(client):
    for path in ("/nothing", "/api/v1/quixo", "/api/v2/quixo/analyze", "/api/v1/chess/solve"):
        answer = client.get(path)
        assert answer.status_code == 404 and "error" in answer.json()
