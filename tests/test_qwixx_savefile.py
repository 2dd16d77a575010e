"""The save file of `qwixx track` (savefile.py): what it holds, that it is written atomically,
and that a damaged, changed or impossible file is refused with a SaveFileError naming it."""
import json
import os

import pytest

from qwixx_stats.errors import QwixxError, SaveFileError, TrackError
from qwixx_stats.rules.game import Game
from qwixx_stats.track.savefile import (FORMAT, MAX_SAVE_BYTES, MAX_TURNS, VERSION, checksum,
                                        game_record, load_game, save_game)

from .refusals import assert_one_line
from .qwixx_games import FIVE_EACH, build_game

def test_save_file_is_readable_json_with_a_checksum(tmp_path):
    save = tmp_path / "game.json"
    game = build_game(2, [("3,4,6,1,2,5", ["red", None], ("blue", 9))])
    save_game(save, game, 1)
    data = json.loads(save.read_text())
    assert data == {"format": "qwixx-track", "version": 1, "players": 2, "lock_after": 5,
                    "me": 2, "turns": [{"dice": "3,4,6,1,2,5", "first": ["red", None],
                                        "second": ["blue", 9]}],
                    "checksum": checksum(data)}
    assert data["checksum"].startswith("sha256:") and len(data["checksum"]) == 7 + 64
    assert save.read_text().count("\n") == 5       # one turn a line


def write_body(path, body):
    body = dict(body)
    body["checksum"] = checksum(body)
    path.write_text(json.dumps(body))


GOOD_BODY = {"format": "qwixx-track", "version": 1, "players": 2, "lock_after": 5, "me": None,
             "turns": [{"dice": "3,4,6,1,2,5", "first": ["red", None], "second": None}]}


TAMPERED = [
    (lambda text: text.replace("3,4,6,1,2,5", "3,4,6,1,2,6"), "the checksum does not match"),
    (lambda text: text.replace('"players": 2', '"players": 3'), "the checksum does not match"),
    (lambda text: text[:len(text) // 2], "not JSON"),
    (lambda text: "\xff\xfe" + text, "not UTF-8"),
    (lambda text: text.replace("qwixx-track", "qwixx-other"), "not a qwixx-track save file"),
    (lambda text: text.replace('"checksum"', '"checksum_"'), "it has no checksum"),
    (lambda text: "[1, 2]", "not a qwixx-track save file"),
    (lambda text: "", "not JSON"),
]


def tampered_file(tmp_path, change):
    """A good save file, changed by `change` (its text to a new text)."""
    save = tmp_path / "game.json"
    write_body(save, GOOD_BODY)
    load_game(save)                                        # the good file loads
    save.write_text(change(save.read_text()), encoding="latin-1")
    return save


@pytest.mark.parametrize("change, message", TAMPERED)
def test_tampered_or_damaged_save_file_is_refused(tmp_path, change, message):
    save = tampered_file(tmp_path, change)
    with pytest.raises(SaveFileError, match=message) as error:
        load_game(save)
    assert str(save) in str(error.value)
    assert_one_line(error.value)


@pytest.mark.parametrize("change, message", [
    ({"version": 2}, "version 2 is not supported"),
    ({"players": 9}, "players must be 2..8"),
    ({"lock_after": 3}, "lock_after must be 5 or 4"),
    ({"me": 3}, "me must be a seat 1..2"),
    ({"extra": 1}, "unexpected member 'extra'"),
    ({"turns": [{"dice": "3,4,6,1,2,5", "first": ["red", None], "second": None},
                {"dice": "3,4,6,1,2,5", "first": [None, "red"], "second": ["red", 5]}]},
     "turn 2: .*5 is not a white die plus the red die"),
    ({"turns": [{"dice": "3,4,6,1,2,5", "first": ["red", "red"], "second": None},
                {"dice": "2,2,6,1,2,5", "first": ["red", None], "second": None}]},
     "turn 2: player 1 cannot mark 4 in red"),
    ({"turns": [{"dice": "3,4,6,1,2,5", "first": ["purple", None], "second": None}]},
     "turn 1: first must list one row or null"),
    ({"turns": [{"dice": "3,4,9,1,2,5", "first": [None, None], "second": None}]},
     "turn 1: .*every die shows 1..6"),
    ({"turns": [{"dice": "3,4,6,1,2,5", "first": [None, None]}]},
     "turn 1 must be an object with dice, first and second"),
    ({"turns": "none"}, "turns must be a list"),
])
def test_save_file_with_a_valid_checksum_but_bad_content_is_refused(tmp_path, change, message):
    save = tmp_path / "game.json"
    write_body(save, dict(GOOD_BODY, **change))
    with pytest.raises(SaveFileError, match=message) as error:
        load_game(save)
    assert str(save) in str(error.value)


def test_turns_after_the_end_are_refused(tmp_path):
    game = build_game(2, FIVE_EACH + [("6,6,1,1,1,1", ["red", "yellow"], None)])
    assert game.is_over()
    save = tmp_path / "game.json"
    save_game(save, game, None)
    body = json.loads(save.read_text())
    body["turns"].append({"dice": "1,1,1,1,1,1", "first": [None, None], "second": None})
    write_body(save, {k: v for k, v in body.items() if k != "checksum"})
    with pytest.raises(SaveFileError, match="turn 7 comes after the end of the game"):
        load_game(save)


def test_a_saved_game_loads_as_it_was_played(tmp_path):
    turns = [("1,1,1,1,1,1", ["red", "yellow", None], None),
             ("2,3,1,6,2,5", [None, "blue", "red"], ("green", 4)),
             ("1,1,1,1,1,1", [None, None, None], None)]            # a penalty for player 3
    game = build_game(3, turns, lock_after=4)
    assert game.sheets[2].penalties == 1
    save = tmp_path / "game.json"
    save_game(save, game, 2)
    loaded, me = load_game(save)
    assert me == 2 and loaded.players == 3 and loaded.lock_after == 4
    assert loaded.sheets == game.sheets and loaded.active == game.active
    assert [(r.active, r.dice, r.first, r.second, r.penalty) for r in loaded.history] == \
        [(r.active, r.dice, r.first, r.second, r.penalty) for r in game.history]
    record = game_record(game, 2)
    assert json.loads(save.read_text()) == record
    assert (record["format"], record["version"]) == (FORMAT, VERSION) == ("qwixx-track", 1)


def test_a_save_file_is_replaced_whole_or_not_at_all(tmp_path, monkeypatch):
    """A save that fails (here: the rename) leaves the file of the previous turn, complete,
    and no temporary file."""
    save = tmp_path / "game.json"
    save_game(save, build_game(2, FIVE_EACH[:1]), None)
    before = save.read_bytes()

    def fail(source, target):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError, match="No space left on device"):
        save_game(save, build_game(2, FIVE_EACH), None)
    assert save.read_bytes() == before and os.listdir(tmp_path) == ["game.json"]
    monkeypatch.undo()
    assert len(load_game(save)[0].history) == 1


def test_a_file_too_large_is_refused_before_it_is_parsed(tmp_path):
    save = tmp_path / "big.json"
    save.write_bytes(b" " * (MAX_SAVE_BYTES + 1))
    with pytest.raises(SaveFileError, match="larger than 1,000,000 bytes"):
        load_game(save)
    assert MAX_TURNS == 8 * (44 + 4)


def test_save_file_errors_are_tracker_errors():
    assert issubclass(SaveFileError, TrackError) and issubclass(SaveFileError, QwixxError)


def test_an_empty_game_round_trips(tmp_path):
    save = tmp_path / "new.json"
    save_game(save, Game(4), None)
    game, me = load_game(save)
    assert me is None and game.players == 4 and game.history == []
    assert save.read_text().count("\n") == 3
