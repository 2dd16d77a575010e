"""The full rules with several players, and the edge cases other Qwixx programs get wrong."""
import pytest

from qwixx_stats import Dice, Game, GameOverError, IllegalMarkError, Sheet, active_options

FIVE_RED = "red:2,3,4,5,6"


def game_of(*sheets):
    return Game(len(sheets), [Sheet.parse(text) for text in sheets])


def test_no_action_2_after_action_1_ends_the_game():
    # green is already closed; the active player locks red with the white sum 12
    game = game_of(FIVE_RED + " closed:green", "closed:green")
    game.play_turn(Dice.parse("6,6,1,1,1,1"), ["red", None], ("yellow", 7))
    assert game.is_over()
    assert game.sheets[0].marks("yellow") == ()          # the planned action 2 did not happen
    assert game.sheets[0].penalties == 0
    options = active_options(Sheet.parse(FIVE_RED + " closed:green"), Dice.parse("6,6,1,1,1,1"))
    assert ("red", None) in options
    assert not [o for o in options if o[0] == "red" and o[1] is not None]


def test_lock_bonus_only_for_the_player_who_locks():
    game = game_of(FIVE_RED, "red:2,3,4,5,6")
    game.play_turn(Dice.parse("6,6,1,1,1,1"), ["red", None], None)
    locker, other = game.sheets
    assert locker.mark_count("red") == 7 and locker.score() == 28
    assert other.mark_count("red") == 5 and other.score() == 15
    assert "red" in other.closed and other.legal_marks("red") == ()


def test_several_players_lock_the_same_row_at_once():
    game = game_of(FIVE_RED, FIVE_RED, FIVE_RED)
    game.play_turn(Dice.parse("6,6,1,1,1,1"), ["red", "red", None], None)
    assert [s.mark_count("red") for s in game.sheets] == [7, 7, 5]
    assert not game.is_over()


def test_several_locks_in_the_last_turn():
    # two different rows locked by two players in the same action 1: the game ends, both
    # locks count, and the active player gets no action 2
    game = game_of(FIVE_RED + " yellow:2,3,4,5,6", "yellow:2,3,4,5,6")
    game.play_turn(Dice.parse("6,6,6,6,1,1"), ["red", "yellow"], ("yellow", 12))
    assert game.is_over()
    assert game.sheets[0].is_locked("red") and not game.sheets[0].is_locked("yellow")
    assert game.sheets[1].is_locked("yellow")
    with pytest.raises(GameOverError):
        game.play_turn(Dice.parse("1,1,1,1,1,1"), [None, None], None)


def test_action_2_in_a_row_another_player_locked_in_action_1_is_refused():
    game = game_of("", FIVE_RED)
    # player 1 (non-active) locks red in action 1; the active player then tries red
    with pytest.raises(IllegalMarkError):
        game.play_turn(Dice.parse("6,6,5,1,1,1"), [None, "red"], ("red", 11))
    # the refused turn left the game as it was
    assert [str(s) for s in game.sheets] == [str(Sheet()), str(Sheet.parse(FIVE_RED))]
    assert game.active == 0 and game.history == []
    game.play_turn("6,6,5,1,1,1", [None, "red"], None)
    assert game.sheets[0].penalties == 1 and game.sheets[1].is_locked("red")


def test_only_the_active_player_takes_a_penalty_and_the_fourth_ends_the_game():
    game = game_of("penalties:3", "")
    game.play_turn(Dice.parse("1,1,1,1,1,1"), [None, None], None)
    assert game.sheets[0].penalties == 4 and game.sheets[1].penalties == 0
    assert game.is_over() and game.history[-1].penalty


def test_active_player_marks_both_actions_in_one_row_left_to_right():
    game = game_of("", "")
    game.play_turn(Dice.parse("2,3,4,1,1,1"), ["red", None], ("red", 7))
    assert game.sheets[0].marks("red") == (5, 7)
    game = game_of("", "")
    with pytest.raises(IllegalMarkError):   # white+red 3 lies left of the white sum 5
        game.play_turn(Dice.parse("2,3,1,1,1,1"), ["red", None], ("red", 3))


def test_non_active_players_are_asked_once_and_never_for_action_2():
    asked = []

    class Recorder:
        def __init__(self, seat):
            self.seat = seat

        def first_action(self, sheet, dice, active):
            asked.append((self.seat, "first", active))
            return None

        def second_action(self, sheet, dice, marked_first):
            asked.append((self.seat, "second", marked_first))
            return None

    game = Game(3)
    game.play_turn_with(Dice.parse("1,2,3,4,5,6"), [Recorder(0), Recorder(1), Recorder(2)])
    assert asked == [(0, "first", True), (1, "first", False), (2, "first", False),
                     (0, "second", False)]
    assert [s.penalties for s in game.sheets] == [1, 0, 0]
    assert game.active == 1


def test_action_2_must_use_a_white_die_and_the_rows_die():
    game = game_of("", "")
    with pytest.raises(IllegalMarkError, match="not a white die plus"):
        game.play_turn(Dice.parse("1,2,3,4,5,6"), [None, None], ("red", 9))
