"""The JSON of a tracked game's parts (track/game_json.py): a game's settings and a turn, read
into the rules' values and refused with one set of words, which the save file and the
explorer's tracker both give."""
import pytest

from qwixx_stats.errors import GameError, GameRecordError, QwixxError
from qwixx_stats.track.game_json import (MIN_PLAYERS, GameSettings, TurnDecisions,
                                         read_settings, read_turn)


def test_settings_are_read_with_a_zero_based_seat():
    settings = read_settings(3, 4, 2)
    assert settings == GameSettings(players=3, lock_after=4, me=1)
    assert read_settings(2, 5, None).me is None
    game = settings.new_game()
    assert (game.players, game.lock_after, game.history) == (3, 4, [])


@pytest.mark.parametrize("players, lock_after, me, message", [
    (1, 5, None, "players must be 2..8, not 1"),
    (9, 5, None, "players must be 2..8, not 9"),
    (True, 5, None, "players must be 2..8, not True"),
    ("2", 5, None, "players must be 2..8, not '2'"),
    (2, 3, None, "lock_after must be 5 or 4, not 3"),
    (2, 5.0, None, "lock_after must be 5 or 4, not 5.0"),
    (2, 5, 3, "me must be a seat 1..2 or null, not 3"),
    (2, 5, 0, "me must be a seat 1..2 or null, not 0"),
])
def test_bad_settings_are_refused(players, lock_after, me, message):
    with pytest.raises(GameRecordError) as refused:
        read_settings(players, lock_after, me)
    assert str(refused.value) == message


def test_a_turn_is_read_into_the_rules_values():
    turn = {"dice": "3,4,-,1,2,5", "first": ["red", None], "second": ["blue", 9]}
    assert read_turn(turn, 2, "turn 1") == TurnDecisions("3,4,-,1,2,5", ["red", None],
                                                         ("blue", 9))
    assert read_turn(dict(turn, second=None), 2, "turn 1").second is None


GOOD = {"dice": "3,4,6,1,2,5", "first": [None, None], "second": None}


@pytest.mark.parametrize("turn, message", [
    ([1, 2], "the turn must be an object with dice, first and second"),
    ({"dice": "3,4,6,1,2,5", "first": [None, None]},
     "the turn must be an object with dice, first and second"),
    (dict(GOOD, extra=1), "the turn must be an object with dice, first and second"),
    (dict(GOOD, dice=[3, 4, 6, 1, 2, 5]),
     'the turn: dice must be text like "3,4,6,1,2,5", not [3, 4, 6, 1, 2, 5]'),
    (dict(GOOD, first=[None]),
     "the turn: first must list one row or null for each of the 2 players, not [None]"),
    (dict(GOOD, first=["r", None]),
     "the turn: first must list one row or null for each of the 2 players, not ['r', None]"),
    (dict(GOOD, second=["b", 9]), "the turn: second must be [row, number] or null, not "
                                  "['b', 9]"),
    (dict(GOOD, second=["blue", "9"]), "the turn: second must be [row, number] or null, not "
                                       "['blue', '9']"),
    (dict(GOOD, second="blue 9"), "the turn: second must be [row, number] or null, not "
                                  "'blue 9'"),
])
def test_a_bad_turn_is_refused_naming_it(turn, message):
    with pytest.raises(GameRecordError) as refused:
        read_turn(turn, 2, "the turn")
    assert str(refused.value) == message


def test_record_errors_are_game_errors():
    assert issubclass(GameRecordError, GameError) and issubclass(GameRecordError, QwixxError)
    assert MIN_PLAYERS == 2
