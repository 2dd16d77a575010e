"""The full rules with several players, and the edge cases other Qwixx programs get wrong."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qwixx_stats import (Dice, DiceError, Game, GameError, GameOverError, IllegalMarkError,
                         QwixxError, Sheet, SheetError, active_options)
from qwixx_stats.errors import TurnFault
from qwixx_stats.rules.game import (after_first_actions, colour_marks, colour_sum_problem,
                                    white_sum_rows)

from .qwixx_api import ANYTHING, COLOUR, DICE_INPUT, assert_refuses, refusal_cases
from .refusals import returns_or_refuses

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


def test_action_1_is_simultaneous_and_one_rule_for_game_and_tracker():
    """after_first_actions is action 1 for Game and for `qwixx track`: each mark is checked on
    the sheets as they were (two players lock red at once), then every row locked closes for
    everyone."""
    start = [Sheet.parse(FIVE_RED), Sheet.parse(FIVE_RED), Sheet.parse("blue:12")]
    dice = Dice.parse("6,6,1,1,1,1")
    after = after_first_actions(start, dice, ["red", "red", None])
    assert [s.mark_count("red") for s in after] == [7, 7, 0]
    assert [s.closed for s in after] == [{"red"}] * 3
    assert after[2] == start[2].close(["red"])
    with pytest.raises(IllegalMarkError) as refused:
        after_first_actions(start, dice, [None, None, "blue"])
    assert str(refused.value) == "player 3 cannot mark 12 in blue: 12 is already marked in blue"
    with pytest.raises(GameError, match="one action-1 decision"):
        after_first_actions(start, dice, ["red", None])


def test_colour_sum_problem_names_the_dice():
    dice = Dice.parse("3,4,6,1,2,5")
    assert colour_sum_problem(dice, "red", 9) is None
    assert colour_sum_problem(dice, "red", 10) is None
    assert colour_sum_problem(dice, "red", 8) == ("8 is not a white die plus the red die "
                                                  "(3+6 = 9, 4+6 = 10)")
    game = game_of("", "")
    with pytest.raises(IllegalMarkError, match=r"\(3\+6 = 9, 4\+6 = 10\)"):
        game.play_turn(dice, [None, None], ("red", 8))


def test_the_marks_a_roll_offers_in_option_order():
    sheet, dice = Sheet.parse("red:2,9 green:12,11"), Dice.parse("3,3,6,1,2,5")
    assert white_sum_rows(sheet, dice) == ["yellow", "green", "blue"]       # 6: red is past it
    # a repeated white die gives each sum once; red 9 is already marked, 9 in red is not legal
    assert colour_marks(sheet, dice) == [("yellow", 4), ("green", 5), ("blue", 8)]
    options = active_options(sheet, dice)
    assert options[:1 + len(colour_marks(sheet, dice))] == [(None, None)] + [
        (None, second) for second in colour_marks(sheet, dice)]


def game_turn(dice="3,4,6,1,2,5", first=(None, None), second=None):
    return lambda: Game(2).play_turn(dice, first, second)


API_CASES = [
    ("Game(0)", lambda: Game(0), GameError),
    ("Game(9)", lambda: Game(9), GameError),
    ("Game(10**9)", lambda: Game(10 ** 9), GameError),
    ("Game('2')", lambda: Game("2"), GameError),
    ("Game(True)", lambda: Game(True), GameError),
    ("Game(2.0)", lambda: Game(2.0), GameError),
    ("Game(sheets=[None])", lambda: Game(1, [None]), SheetError),
    ("Game(sheets=3 for 2)", lambda: Game(2, [Sheet()] * 3), GameError),
    ("Game(active=2)", lambda: Game(2, active=2), GameError),
    ("play_turn(None, ...)", game_turn(dice=None), DiceError),
    ("play_turn(5, ...)", game_turn(dice=5), DiceError),
    ("play_turn(first=None)", game_turn(first=None), GameError),
    ("play_turn(first='ab')", game_turn(first="ab"), GameError),
    ("play_turn(first=[['red'], None])", game_turn(first=[["red"], None]), SheetError),
    ("play_turn(first=[5, None])", game_turn(first=[5, None]), SheetError),
    ("play_turn(second='red')", game_turn(second="red"), GameError),
    ("play_turn(second=5)", game_turn(second=5), GameError),
    ("play_turn(second=('red', '7'))", game_turn(second=("red", "7")), SheetError),
    ("play_turn_with(None)", lambda: Game(2).play_turn_with("3,4,6,1,2,5", None), GameError),
    ("active_options(None, dice)", lambda: active_options(None, "3,4,6,1,2,5"), SheetError),
    ("active_options(sheet, None)", lambda: active_options(Sheet(), None), DiceError),
]


@refusal_cases(API_CASES)
def test_api_refuses_bad_input(call, expected):
    assert_refuses(call, expected)


def test_a_refused_turn_leaves_the_game_as_it_was():
    game = Game(2)
    with pytest.raises(GameError):
        game.play_turn("3,4,6,1,2,5", ["red", None], "yellow")
    assert game.sheets == [Sheet(), Sheet()] and game.history == [] and game.active == 0


@settings(max_examples=200, deadline=None)
@given(DICE_INPUT,
       st.one_of(ANYTHING, st.lists(st.one_of(st.none(), COLOUR), min_size=1, max_size=3)),
       st.one_of(st.none(), ANYTHING, st.tuples(COLOUR, st.integers(0, 14))))
def test_fuzz_play_turn(dice, first, second):
    game = Game(2)
    before = list(game.sheets)
    dice_ok = not isinstance(returns_or_refuses(lambda: Dice.parse(dice), DiceError),
                             DiceError)
    done = returns_or_refuses(lambda: game.play_turn(dice, first, second), GameError,
                              SheetError, IllegalMarkError, DiceError)
    if isinstance(done, QwixxError):
        # the dice are read first: bad dice are refused as such, whatever the decisions
        assert isinstance(done, DiceError) == (not dice_ok)
        assert game.sheets == before and game.history == []
    else:
        assert dice_ok and len(game.history) == 1


def test_pop_takes_turns_back_to_the_game_of_the_first_turns():
    game = game_of(FIVE_RED, "")
    turns = [("6,6,1,1,1,1", ["red", None], None), ("1,2,3,4,5,6", [None, None], ("green", 7)),
             ("3,4,6,1,2,5", ["yellow", "blue"], None)]
    states = []
    for dice, first, second in turns:
        states.append((list(game.sheets), game.active, len(game.history)))
        game.play_turn(dice, first, second)
    for sheets, active, played in reversed(states):
        record = game.pop()
        assert (game.sheets, game.active, len(game.history)) == (sheets, active, played)
        assert record.active == active
    with pytest.raises(GameError, match="nothing to take back"):
        game.pop()
    game.play_turn("6,6,1,1,1,1", ["red", None], None)
    assert game.sheets[0].is_locked("red")


def test_a_turn_step_by_step_names_each_fault_once():
    game = game_of("red:2,3,4,5,6", "red:7")
    turn = game.turn("3,4,6,1,2,5")
    turn.check_first(0, "red")
    with pytest.raises(TurnFault) as refused:
        turn.check_first(1, "red")
    fault = refused.value
    assert (fault.seat, str(fault)) == (1, "player 2 cannot mark 7 in red: 7 is already "
                                           "marked in red")
    assert fault.text(lambda seat: f"seat {seat}") == ("seat 1 cannot mark 7 in red: 7 is "
                                                       "already marked in red")
    with pytest.raises(GameError, match="after every player's action 1"):
        turn.take_second(("red", 9))
    assert [str(s) for s in turn.take_first(["red", None])] == [
        str(Sheet.parse("red:2,3,4,5,6,7")), str(Sheet.parse("red:7"))]
    with pytest.raises(TurnFault, match="player 1 cannot mark 8 in red: 8 is not a white die"):
        turn.take_second(("red", 8))
    assert turn.take_second(("red", 10)) == ("red", 10) and game.history == []
    record = turn.finish()
    assert record.second == ("red", 10) and game.sheets[0].marks("red")[-1] == 10
    with pytest.raises(GameError, match="moved on"):
        turn.finish()


def test_action_2_after_action_1_ended_the_game_is_a_fault_of_the_turn():
    game = game_of(FIVE_RED + " closed:green", "closed:green")
    turn = game.turn("6,6,1,1,1,1")
    turn.take_first(["red", None])
    assert turn.ends_with_first and turn.locked_now == {"red"}
    with pytest.raises(TurnFault) as refused:
        turn.take_second(("yellow", 7))
    assert refused.value.seat is None
    assert str(refused.value) == ("red and green are closed: the game ends with action 1 "
                                  "(no action 2)")
    turn.finish()
    assert game.is_over() and game.history[-1].second is None
