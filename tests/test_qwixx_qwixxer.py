"""`qwixxer-ga`, the public qwixxer bot's champion (issue 24): its instinct, choice order and
meta-rules on known sheets, the re-decision of an action 2 a lock made illegal, the strategy
name, and the kernel's games equal to the Python player's."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qwixx_stats import Dice, Game, Sheet
from qwixx_stats.errors import GameError, StrategyError
from qwixx_stats.strategies import qwixxer
from qwixx_stats.rules.game import active_options, colour_marks
from qwixx_stats.strategies.qwixxer import (CHAMPION_WEIGHTS, QwixxerPlayer, champion_options, dominates,
                                            instinct, pick, prune)
from qwixx_stats.strategies.simulate import Strategy, parse_strategies, simulate, simulate_twin

W = CHAMPION_WEIGHTS


def test_the_weights_are_the_published_champion():
    # champion.txt of vibelyova/qwixxer: weighted_prob, strikes, concentration, blanks
    assert CHAMPION_WEIGHTS == (0.49085229701342714, -0.8692448091076695,
                                0.01846237488088304, -0.056005580702027866)


def test_instinct_of_a_known_sheet():
    sheet = Sheet.parse("red:2,4,5 yellow:2,3,4,5,6 green:12,9 blue:12,11 penalties:2 "
                        "closed:blue")
    # red: next number 6 (5 rolls of 36), 3 marks, 1 blank; yellow: next 7 (6 rolls), 5 marks;
    # green: next 8 (5 rolls), 2 marks, 2 blanks; blue closed: only its marks count
    chances = 5 / 36 * 4 + 6 / 36 * 6 + 5 / 36 * 3
    expected = chances * W[0] + 2 * W[1] + (9 + 25 + 4 + 4) * W[2] + 3 * W[3]
    assert instinct(sheet) == pytest.approx(expected, abs=1e-12)
    # a row locked by this sheet counts its marks and the lock's, squared, and nothing else;
    # the empty rows' next numbers (2, 12, 12) show on 1 roll of 36 each
    locked = Sheet.parse("red:2,3,4,5,6,12 closed:red")
    assert instinct(locked) == pytest.approx(3 / 36 * W[0] + 49 * W[2], abs=1e-12)


def test_choices_in_the_programs_order():
    sheet = Sheet.parse("closed:green")
    dice = Dice.parse("1,2,3,1,4,6")          # white sum 3; red 4, 5; yellow 2, 3; blue 7, 8
    assert champion_options(sheet, dice) == [
        (None, None),
        ("red", None), ("yellow", None), ("blue", None),
        (None, ("red", 4)), (None, ("red", 5)), (None, ("yellow", 2)),   # yellow 3 is listed
        (None, ("blue", 7)), (None, ("blue", 8)),
        ("red", ("yellow", 2)), ("red", ("yellow", 3)), ("red", ("blue", 7)), ("red", ("blue", 8)),
        ("yellow", ("red", 4)), ("yellow", ("red", 5)), ("yellow", ("blue", 7)),
        ("yellow", ("blue", 8)),
        ("blue", ("red", 4)), ("blue", ("red", 5)), ("blue", ("yellow", 2)),
        ("blue", ("yellow", 3)),
        ("red", ("red", 4)), ("red", ("red", 5))]


def _moves(options, sheet, dice):
    """Options as the program's moves: a single mark is one move whichever action makes it."""
    moves = set()
    for first, second in options:
        marks = ([(first, dice.white_sum)] if first else []) + ([second] if second else [])
        moves.add(tuple(marks) if len(marks) != 1 else ("single", marks[0]))
    return moves


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=6, max_size=6),
       st.lists(st.integers(0, 7), min_size=4, max_size=4), st.booleans())
def test_the_choices_are_every_legal_turn_once(dice, lengths, one_closed):
    numbers = {"red": range(2, 12), "yellow": range(2, 12), "green": range(12, 2, -1),
               "blue": range(12, 2, -1)}
    rows = " ".join(f"{colour}:{','.join(map(str, list(numbers[colour])[:n]))}"
                    for colour, n in zip(numbers, lengths))
    sheet = Sheet.parse(rows + (" closed:yellow" if one_closed else ""))
    roll = Dice.parse(dice)
    options = champion_options(sheet, roll)
    assert len(options) == len(_moves(options, sheet, roll))        # no move twice
    assert _moves(options, sheet, roll) == _moves(active_options(sheet, roll), sheet, roll)


def test_dominance_and_pruning():
    before = Sheet.parse("red:2,3 yellow:3 green:12")
    # one more mark in the row, the same next box
    assert dominates(before.mark("red", 4).mark("red", 5), before.mark("red", 5))
    # a mark moves the next box on: never better than no mark, nor than an earlier mark
    assert not dominates(before.mark("red", 4), before)
    assert not dominates(before.mark("red", 6), before.mark("red", 4))
    assert not dominates(before, before)
    # an open row and a closed one do not compare
    assert not dominates(before.mark("yellow", 4).close({"blue"}), before.close({"blue"})
                         .mark("yellow", 4).close({"green"}))
    # a single mark in a row with fewer marks, same box from the same last box, is dropped
    afters = [before, before.mark("red", 4), before.mark("yellow", 4)]
    singles = [None, ("red", 2), ("yellow", 2)]
    assert prune(before, afters, singles, [1, 2]) == [1]
    # the same box from another last box stays
    other = Sheet.parse("red:2,3 yellow:2 green:12")
    assert prune(other, [other, other.mark("red", 4), other.mark("yellow", 4)], singles,
                 [1, 2]) == [1, 2]


def _game(mine: str, other: str, active: int = 0) -> Game:
    return Game(2, [Sheet.parse(mine), Sheet.parse(other)], active=active)


def test_a_fourth_penalty_ends_a_game_it_leads_and_never_one_it_trails():
    dice = Dice.parse("3,4,1,1,1,1")                   # white sum 7: every empty row can take it
    leading = _game("red:2,3,4,5,6,7 penalties:3", "penalties:0")        # 6 against 0
    player = QwixxerPlayer(leading, 0)
    assert player.first_action(leading.sheets[0], dice, True) is None
    assert player.second_action(leading.sheets[0], dice, False) is None    # the penalty
    trailing = _game("red:2,3,4 penalties:3", "yellow:2,3,4,5,6")
    player = QwixxerPlayer(trailing, 0)
    first = player.first_action(trailing.sheets[0], dice, True)
    trailing.play_turn_with(dice, [player, QwixxerPlayer(trailing, 1)])
    assert first is not None or trailing.history[-1].second is not None
    assert trailing.sheets[0].penalties == 3


def test_it_locks_unless_the_lock_ends_a_game_it_trails():
    dice = Dice.parse("6,6,1,1,1,1")                    # white sum 12 locks red
    game = _game("red:2,3,4,5,6", "green:12")
    assert QwixxerPlayer(game, 0).first_action(game.sheets[0], dice, True) == "red"
    assert QwixxerPlayer(game, 0).first_action(game.sheets[0], dice, False) == "red"
    ahead = _game("red:2,3,4,5,6 yellow:2,3,4 closed:blue", "blue:12,11,10,9,8,2 closed:blue")
    assert QwixxerPlayer(ahead, 0).first_action(ahead.sheets[0], dice, False) == "red"
    behind = _game("red:2,3,4,5,6 green:12 closed:blue", "blue:12,11,10,9,8,2 yellow:2,3,4,5 "
                   "closed:blue")
    # 29 points after the lock, against 38: the active champion stays out of it
    assert QwixxerPlayer(behind, 0).first_action(behind.sheets[0], dice, True) != "red"
    # (a passive champion, as in its program, leaves it to its instinct)
    before = behind.sheets[0]
    expected = None if instinct(before) >= instinct(before.mark("red", 12)) else "red"
    assert QwixxerPlayer(behind, 0).first_action(before, dice, False) == expected


def test_pick_takes_the_highest_instinct_and_a_tie_goes_to_the_later():
    before = Sheet.parse("red:2")
    afters = [before.add_penalty(), before.mark("red", 3), before.mark("red", 3)]
    assert pick(before, 0, afters, [None, ("red", 1), ("red", 1)], True) == 2
    assert pick(before, 0, [before.add_penalty()], [None], True) == 0


def test_a_plan_a_lock_made_illegal_is_decided_again():
    # the champion plans blue 4 (its only mark); the other player locks blue with the white
    # sum in the same action 1, so the champion takes the penalty instead
    game = _game("red:11 yellow:11 green:3 blue:12,11,10", "blue:12,11,10,9,8")
    dice = Dice.parse("1,1,6,6,6,3")

    class LocksBlue:
        def first_action(self, sheet, roll, active):
            return "blue"

        def second_action(self, sheet, roll, marked_first):
            return None

    champion = QwixxerPlayer(game, 0)
    assert champion.first_action(game.sheets[0], dice, True) is None
    assert champion._plan is not None and champion._plan[2] == (None, ("blue", 4))
    game.play_turn_with(dice, [champion, LocksBlue()])
    assert game.sheets[0].penalties == 1 and game.sheets[0].marks("blue") == (12, 11, 10)
    assert "blue" in game.closed


def test_strategy_name_and_wrong_inputs():
    (strategy,) = parse_strategies("qwixxer-ga", 1)
    assert str(strategy) == "qwixxer-ga" and strategy.weights == ()
    with pytest.raises(StrategyError, match="takes no argument"):
        parse_strategies("qwixxer-ga:2", 1)
    with pytest.raises(StrategyError, match="takes no weights"):
        Strategy("qwixxer-ga", weights=(1.0,) * 8)
    with pytest.raises(GameError, match="seat"):
        QwixxerPlayer(Game(2), 2)
    with pytest.raises(GameError, match="sits in a Game"):
        QwixxerPlayer("game", 0)          # type: ignore[arg-type]


@pytest.mark.parametrize("text, players, lock_after, games", [
    ("qwixxer-ga,cautious:1", 2, 5, 30), ("qwixxer-ga,scored", 2, 4, 30),
    ("win,qwixxer-ga", 2, 5, 20), ("lookahead,qwixxer-ga", 2, 5, 12),
    ("qwixxer-ga,greedy,qwixxer-ga", 3, 5, 30)])
def test_kernel_games_equal_python_games(text, players, lock_after, games):
    strategies = parse_strategies(text, players)
    fast = simulate(strategies, games, 17, lock_after=lock_after)
    slow = simulate_twin(strategies, games, 17, lock_after=lock_after)
    assert (fast.scores == slow.scores).all()
    assert (fast.turns == slow.turns).all()
    assert (fast.endings == slow.endings).all()


def test_kernel_equals_python_when_plans_are_decided_again(monkeypatch):
    # four champions under lock-after-4: plans that another's lock made illegal come up, and
    # only then does the Python player list the action-2 marks left (colour_marks)
    decided_again = []

    def counted(sheet, dice):
        decided_again.append(dice)
        return colour_marks(sheet, dice)
    monkeypatch.setattr(qwixxer, "colour_marks", counted)
    strategies = parse_strategies("qwixxer-ga", 4)
    fast = simulate(strategies, 150, 5, lock_after=4)
    slow = simulate_twin(strategies, 150, 5, lock_after=4)
    assert len(decided_again) >= 3
    assert (fast.scores == slow.scores).all() and (fast.turns == slow.turns).all()


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 2 ** 64 - 1), st.sampled_from(["random", "greedy", "weighted", "win"]))
def test_kernel_equals_python_for_any_seed(seed, opponent):
    strategies = parse_strategies(f"qwixxer-ga,{opponent}", 2)
    fast = simulate(strategies, 6, seed)
    slow = simulate_twin(strategies, 6, seed)
    assert (fast.scores == slow.scores).all() and (fast.turns == slow.turns).all()
