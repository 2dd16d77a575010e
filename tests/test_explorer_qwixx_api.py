"""The explorer's Qwixx API on a real `quixo serve`: /api/v1/qwixx/value and /advise answer the
objects `qwixx value --json` and `qwixx advise --json` print, and refuse bad input with the
command line's one-line message (SPEC "Web"); the page's tracker (POST /api/v1/qwixx/track)
plays the turns `qwixx track` plays, refuses an illegal mark with its reason, takes turns back,
and reads and writes `qwixx track`'s save file, byte for byte."""
from __future__ import annotations

import io
import json
import sys
import urllib.parse

import pytest

from qwixx_stats.cli import main as qwixx_main
from qwixx_stats.track.savefile import load_game

from .explorer_server import Client, running_server
from .extras import require

require("starlette", "uvicorn")

SHEET = "red:2,3,5 yellow: green:12,10 blue: penalties:1 closed:"
OPPONENT = "red:4,6 yellow:3 green: blue:12,11"
DICE = "3,4,6,1,2,5"
# a game entered at `qwixx track` (stdin lines) and the same turns for the page's tracker
TRACK_LINES = ["3,4,6,1,2,5", "r -", "b9", "1,1,2,3,4,5", "- y", "-", "6,6,1,1,1,1", "- -", "-",
               "quit"]
TURNS = [{"dice": "3,4,6,1,2,5", "first": ["red", None], "second": ["blue", 9]},
         {"dice": "1,1,2,3,4,5", "first": [None, "yellow"], "second": None},
         {"dice": "6,6,1,1,1,1", "first": [None, None], "second": None}]


@pytest.fixture(scope="module")
def qwixx_dir(qwixx_table_dir, qwixx_race2, qwixx_values_lock4):
    """The single-player tables of both lock rules and the 2-player race table."""
    return qwixx_table_dir


@pytest.fixture(scope="module")
def client(tables, qwixx_dir):
    with running_server(tables, "--searches", "2", "--queue", "2", "--hash", "8",
                        qwixx_dir=qwixx_dir) as url:
        yield Client(url)


def cli_json(capsys, *argv: str) -> dict:
    status = qwixx_main([*argv, "--json"])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    return json.loads(captured.out)


def cli_error(capsys, *argv: str) -> str:
    status = qwixx_main(list(argv))
    captured = capsys.readouterr()
    assert status == 2 and captured.out == ""
    prefix = "qwixx: error: "
    assert captured.err.startswith(prefix)
    return captured.err[len(prefix):].rstrip("\n")


def get(client: Client, endpoint: str, **parameters: str):
    return client.get(f"/api/v1/qwixx/{endpoint}?" + urllib.parse.urlencode(parameters))


def post(client: Client, body) -> tuple[int, dict]:
    import http.client

    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    connection = http.client.HTTPConnection(client.host, int(client.port), timeout=60)
    try:
        connection.request("POST", "/api/v1/qwixx/track", data,
                           {"Content-Type": "application/json"})
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


# -- value and advise: the command line's objects -------------------------------------------

@pytest.mark.parametrize("parameters, argv", [
    ({}, []),
    ({"sheet": SHEET}, ["--sheet", SHEET]),
    ({"sheet": "red:2,3,4,5,6 closed:yellow", "lock_after": "4"},
     ["--sheet", "red:2,3,4,5,6 closed:yellow", "--lock-after", "4"]),
])
def test_value_is_the_command_lines(client, qwixx_dir, capsys, parameters, argv):
    answer = get(client, "value", **parameters)
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "application/json"
    assert answer.json() == cli_json(capsys, "value", *argv, "--dir", str(qwixx_dir))


def test_the_empty_sheet_is_worth_the_published_optimum(client):
    assert round(get(client, "value").json()["expected_score"], 4) == 115.4831


@pytest.mark.parametrize("parameters, argv", [
    ({"sheet": SHEET, "dice": DICE}, ["--sheet", SHEET, "--dice", DICE]),
    ({"sheet": SHEET, "dice": DICE, "passive": "1"}, ["--sheet", SHEET, "--dice", DICE,
                                                       "--passive"]),
    ({"sheet": SHEET, "dice": DICE, "opponents": OPPONENT, "rollouts": "0"},
     ["--sheet", SHEET, "--dice", DICE, "--opponents", OPPONENT, "--rollouts", "0"]),
    ({"sheet": SHEET, "dice": DICE, "opponents": OPPONENT, "passive": "1", "roller": "1",
      "rollouts": "200", "seed": "7"},
     ["--sheet", SHEET, "--dice", DICE, "--opponents", OPPONENT, "--passive", "--roller", "1",
      "--rollouts", "200", "--seed", "7"]),
    ({"sheet": SHEET, "dice": DICE, "opponents": OPPONENT},      # the defaults: 1,000, seed 0
     ["--sheet", SHEET, "--dice", DICE, "--opponents", OPPONENT]),
    ({"sheet": SHEET, "dice": DICE, "opponents": OPPONENT, "rollouts": "0",
      "judge": "lookahead"},
     ["--sheet", SHEET, "--dice", DICE, "--opponents", OPPONENT, "--rollouts", "0", "--judge",
      "lookahead"]),
    ({"sheet": SHEET, "dice": DICE, "opponents": OPPONENT, "passive": "1", "roller": "1",
      "rollouts": "0", "judge": "lookahead"},
     ["--sheet", SHEET, "--dice", DICE, "--opponents", OPPONENT, "--passive", "--roller", "1",
      "--rollouts", "0", "--judge", "lookahead"]),
])
def test_advise_is_the_command_lines(client, qwixx_dir, capsys, parameters, argv):
    answer = get(client, "advise", **parameters)
    assert answer.status_code == 200, answer.text
    expected = cli_json(capsys, "advise", *argv, "--dir", str(qwixx_dir))
    assert answer.json() == expected
    assert len(expected["options"]) > 2


def test_advise_with_opponents_ranks_by_the_chance_of_winning(client):
    answer = get(client, "advise", sheet=SHEET, dice=DICE, opponents=OPPONENT).json()
    chances = [entry["measured_win_chance"] for entry in answer["options"]]
    assert chances == sorted(chances, reverse=True)
    assert answer["rollouts"] == 1000 and answer["seed"] == 0
    assert all(0 <= entry["win_chance"] <= 1 and entry["expected_score"] > 0
               for entry in answer["options"])


@pytest.mark.parametrize("endpoint, parameters, argv", [
    ("value", {"sheet": "red:2,2"}, ["--sheet", "red:2,2"]),
    ("value", {"sheet": "purple:3"}, ["--sheet", "purple:3"]),
    ("value", {"lock_after": "7"}, ["--lock-after", "7"]),
    ("advise", {"sheet": SHEET}, ["--sheet", SHEET]),
    ("advise", {"sheet": SHEET, "dice": "3,4,6,1,2"}, ["--sheet", SHEET, "--dice", "3,4,6,1,2"]),
    ("advise", {"sheet": SHEET, "dice": "3,4,6,1,2,9"},
     ["--sheet", SHEET, "--dice", "3,4,6,1,2,9"]),
    ("advise", {"sheet": SHEET, "dice": DICE, "roller": "1", "opponents": OPPONENT},
     ["--sheet", SHEET, "--dice", DICE, "--roller", "1", "--opponents", OPPONENT]),
    ("advise", {"sheet": "penalties:4", "dice": DICE}, ["--sheet", "penalties:4", "--dice", DICE]),
    ("advise", {"sheet": SHEET, "dice": DICE, "opponents": "closed:red,blue"},
     ["--sheet", SHEET, "--dice", DICE, "--opponents", "closed:red,blue"]),
    ("advise", {"sheet": SHEET, "dice": DICE, "opponents": ";".join(["red:"] * 8)},
     ["--sheet", SHEET, "--dice", DICE, "--opponents", ";".join(["red:"] * 8)]),
    ("advise", {"sheet": SHEET, "dice": DICE, "rollouts": "-1"},
     ["--sheet", SHEET, "--dice", DICE, "--rollouts", "-1"]),
    ("advise", {"sheet": SHEET, "dice": DICE, "opponents": OPPONENT, "judge": "oracle"},
     ["--sheet", SHEET, "--dice", DICE, "--opponents", OPPONENT, "--judge", "oracle"]),
])
def test_refusals_are_the_command_lines(client, qwixx_dir, capsys, endpoint, parameters, argv):
    answer = get(client, endpoint, **parameters)
    assert answer.status_code == 400
    assert answer.json() == {"error": cli_error(capsys, endpoint, *argv, "--dir",
                                                str(qwixx_dir))}


@pytest.mark.parametrize("endpoint, query, message", [
    ("value", "colour=red", "unknown parameter 'colour'"),
    ("value", "sheet=red:2&sheet=red:3", "the parameter 'sheet' is given twice"),
    ("advise", f"sheet=red:2&dice={DICE}&passive=yes", "passive must be 1 or 0"),
    ("advise", f"sheet=red:2&dice={DICE}&opponents=red:&rollouts=1001",
     "argument --rollouts: at most 1,000 on this server, not 1,001"),
])
def test_the_servers_own_refusals(client, endpoint, query, message):
    answer = client.get(f"/api/v1/qwixx/{endpoint}?{query}")
    assert answer.status_code == 400
    assert message in answer.json()["error"]


# -- the tracker -----------------------------------------------------------------------------

def tracked_by_the_command_line(tmp_path, monkeypatch, capsys):
    """The save file `qwixx track --players 2 --save FILE` writes for TRACK_LINES."""
    path = tmp_path / "game.json"
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(TRACK_LINES) + "\n"))
    status = qwixx_main(["track", "--players", "2", "--save", str(path)])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    return path


def play_turns(client, save: str, turns) -> dict:
    answer: dict = {}
    for turn in turns:
        status, answer = post(client, {"save": save, "turn": turn})
        assert status == 200, answer
        save = answer["save"]
    return answer


def test_a_tracked_game_is_the_command_lines_save_file(client, tmp_path, monkeypatch, capsys):
    written = tracked_by_the_command_line(tmp_path, monkeypatch, capsys).read_text()
    status, game = post(client, {"new": {"players": 2, "lock_after": 5, "me": None}})
    assert status == 200 and game["turns"] == 0 and game["active"] == 1
    answer = play_turns(client, game["save"], TURNS)
    assert answer["save"] == written                       # exported: the very same bytes
    assert answer["sheets"] == ["red:7 yellow: green: blue:9 penalties:1 closed:",
                                "red: yellow:2 green: blue: penalties:0 closed:"]
    assert answer["scores"] == [-3, 1] and answer["active"] == 2 and not answer["over"]
    assert answer["standings"] == "scores: player 1 -3, player 2 1; ahead: player 2 with 1, by 4"
    assert answer["report"] == ["turn 3: player 1: a penalty (1 of 4); player 2: no mark"]
    assert [turn["penalty"] for turn in answer["history"]] == [False, False, True]


def test_a_save_file_written_by_qwixx_track_is_imported_and_goes_on(client, tmp_path,
                                                                    monkeypatch, capsys):
    path = tracked_by_the_command_line(tmp_path, monkeypatch, capsys)
    status, game = post(client, {"save": path.read_text()})
    assert status == 200 and game["turns"] == 3 and game["scores"] == [-3, 1]
    status, game = post(client, {"save": game["save"], "turn": {
        "dice": "2,2,1,1,1,1", "first": [None, "yellow"], "second": None}})
    assert status == 200 and game["turns"] == 4
    path.write_text(game["save"])                      # exported, then read by qwixx track
    loaded, me = load_game(path)
    assert me is None and len(loaded.history) == 4
    assert [str(sheet) for sheet in loaded.sheets] == game["sheets"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("show\nquit\n"))
    assert qwixx_main(["track", "--resume", str(path), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["turns"] == 4 and summary["sheets"] == game["sheets"]


@pytest.mark.parametrize("turn, reason", [
    ({"dice": "1,1,1,1,1,1", "first": ["red", None], "second": None},
     "player 1 (you) cannot mark 2 in red: 2 is left of the last red mark (7): marks go to the "
     "right"),
    ({"dice": "6,6,1,1,1,1", "first": [None, "red"], "second": None},
     "player 2 cannot mark 12 in red: 12 is the last number of red: locking it needs 5 red "
     "marks first (0 so far)"),
    ({"dice": "3,4,6,1,2,5", "first": [None, None], "second": ["red", 8]},
     "player 2 cannot mark 8 in red: 8 is not a white die plus the red die (3+6 = 9, "
     "4+6 = 10)"),
    ({"dice": "1,1,6,1,2,5", "first": [None, None], "second": ["yellow", 2]},
     "player 2 cannot mark 2 in yellow: 2 is already marked in yellow"),
    ({"dice": "3,4,-,1,2,5", "first": [None, None], "second": None},
     "the red die is still rolled (red is open): type its number 1..6"),
])
def test_an_illegal_mark_is_refused_with_the_rules_reason(client, turn, reason):
    status, game = post(client, {"new": {"players": 2, "me": 1}})
    game = play_turns(client, game["save"], TURNS[:1] + [TURNS[1]] + [TURNS[2]])
    for check in (True, False):
        status, answer = post(client, {"save": game["save"], "turn": turn, "check": check})
        assert status == 400
        assert answer == {"error": reason}


@pytest.mark.parametrize("turn, message", [
    ({"dice": "3,4,6,1,2,5", "first": ["r", None], "second": None},
     "the turn: first must list one row or null for each of the 2 players, not ['r', None]"),
    ({"dice": "3,4,6,1,2,5", "first": [None, None], "second": ["b", 9]},
     "the turn: second must be [row, number] or null, not ['b', 9]"),
    ({"dice": "3,4,6,1,2,5", "first": [None, None], "second": ["blue", 13]},
     "13 is not a number of a Qwixx row (2..12)"),
    ({"dice": "3,4,6,1,2,5", "first": [None, None]},
     "the turn must be an object with dice, first and second"),
    ({"dice": 346125, "first": [None, None], "second": None},
     'the turn: dice must be text like "3,4,6,1,2,5", not 346125'),
])
def test_a_turn_is_the_json_a_save_file_holds(client, turn, message):
    """Rows and marks as the save file writes them (no typed forms: `r`, `b 9`); the rules
    refuse a number that no row has."""
    status, game = post(client, {"new": {"players": 2}})
    status, answer = post(client, {"save": game["save"], "turn": turn})
    assert status == 400 and answer == {"error": message}


def test_a_checked_turn_leaves_the_game_as_it_was(client):
    status, game = post(client, {"new": {"players": 3, "me": 2, "lock_after": 4}})
    assert game["names"] == ["player 1", "player 2 (you)", "player 3"] and game["me"] == 2
    turn = {"dice": "3,4,6,1,2,5", "first": ["red", None, "blue"], "second": ["blue", 9]}
    status, checked = post(client, {"save": game["save"], "turn": turn, "check": True})
    assert status == 200 and checked["save"] == game["save"]
    assert checked["report"] == ["turn 1: player 1: 7 in red, 9 in blue; player 2 (you): no mark; "
                                 "player 3: 7 in blue"]
    status, played = post(client, {"save": game["save"], "turn": turn})
    assert played["save"] != game["save"] and played["turns"] == 1 and played["active"] == 2


def test_undo_takes_the_last_turn_back(client):
    status, game = post(client, {"new": {"players": 2}})
    first = play_turns(client, game["save"], TURNS[:1])
    both = play_turns(client, first["save"], TURNS[1:2])
    status, undone = post(client, {"save": both["save"], "undo": True})
    assert status == 200 and undone["save"] == first["save"] and undone["turns"] == 1
    status, undone = post(client, {"save": undone["save"], "undo": True})
    status, answer = post(client, {"save": undone["save"], "undo": True})
    assert status == 400 and answer["error"] == "nothing to take back: no turn has been played yet"


def test_the_end_of_the_game_names_the_winner(client):
    status, game = post(client, {"new": {"players": 2}})
    penalties = [{"dice": "1,1,1,1,1,1", "first": [None, None], "second": None}] * 7
    answer = play_turns(client, game["save"], penalties[:6])
    assert answer["over"] is False and answer["final"] is None
    answer = play_turns(client, answer["save"], penalties[6:])
    assert answer["over"] is True and answer["winners"] == [2] and answer["scores"] == [-20, -15]
    assert answer["final"] == ("game over after 7 turns: player 1 took a fourth penalty\n"
                               "final scores: player 1 -20, player 2 -15\n"
                               "winner: player 2 with -15")
    status, refused = post(client, {"save": answer["save"], "turn": penalties[0]})
    assert status == 400 and "the game is over" in refused["error"]


def test_a_changed_save_file_is_refused(client):
    status, game = post(client, {"new": {"players": 2}})
    game = play_turns(client, game["save"], TURNS[:1])
    changed = game["save"].replace('"3,4,6,1,2,5"', '"3,4,6,1,2,6"')
    status, answer = post(client, {"save": changed})
    assert status == 400
    assert answer["error"] == ("save file sent by the page: the checksum does not match: the "
                               "file was changed or damaged")
    status, answer = post(client, {"save": "{}"})
    assert status == 400 and "not a qwixx-track save file" in answer["error"]


@pytest.mark.parametrize("body, status, message", [
    (b"not json", 400, "the request is not JSON"),
    (b"[1, 2]", 400, "the tracker takes a JSON object"),
    (json.dumps({"new": {"players": 1}}).encode(), 400, "players must be 2..8"),
    (json.dumps({"new": {"players": 2, "me": 3}}).encode(), 400, "me must be a seat 1..2"),
    (json.dumps({"new": {"players": 2, "lock_after": 3}}).encode(), 400,
     "lock_after must be 5 or 4, not 3"),
    (json.dumps({"new": {"players": 2, "colour": 3}}).encode(), 400,
     "new takes players, lock_after and me"),
    (json.dumps({"new": {"players": 2}, "turn": {}}).encode(), 400, "takes nothing else"),
    (json.dumps({"sav": ""}).encode(), 400, "unknown member 'sav'"),
    (json.dumps({"save": 3}).encode(), 400, "save must be the text"),
    (b"{" + b" " * 1_200_000 + b"}", 413, "longer than 1,100,000 bytes"),
])
def test_bad_tracker_requests(client, body, status, message):
    got, answer = post(client, body)
    assert got == status and message in answer["error"]


def test_the_tracker_answers_post_only(client):
    answer = client.get("/api/v1/qwixx/track")
    assert answer.status_code == 405 and "error" in answer.json()
