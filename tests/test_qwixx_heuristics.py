"""The two outside heuristics (`weighted`, `scored`): their formulas on known sheets, the
game-ending rule, the strategy names and weights, the kernel's games equal to the Python
players', and the race model's correlation (issue 24)."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qwixx_stats import Dice, Game, Sheet
from qwixx_stats.errors import GameError, StrategyError, TableError
from qwixx_stats.strategies.heuristics import (ENDING_VALUE, HeuristicPlayer, WEIGHT_COUNT, choice_value,
                                               scored_change, sum_ways, weighted_change, weighted_features)
from qwixx_stats.strategies.registry import TUNED_WEIGHTS
from qwixx_stats.tables.race import Outlook, RaceTable, win_chance
from qwixx_stats.strategies.simulate import Strategy, parse_strategies, simulate, simulate_twin

UNIT = (1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)


def test_weighted_features_of_a_known_sheet():
    sheet = Sheet.parse("red:2,4,5 yellow:2,3,4,5,6 green:12,9 penalties:2")
    closed = frozenset()
    # red: 3 marks, last box 3, skipped 1; yellow: 5 marks, none skipped; green: 2 marks,
    # last box 3, skipped 2; blue empty
    w = (1.0, 0.5, -2.0, -0.25, 0.125, -3.0, -1.0, 4.0)
    rows = [(3, 1), (5, 0), (2, 2), (0, 0)]
    expected = sum(w[0] * m + w[1] * m * m + w[2] * k + w[3] * k * k + w[4] * m * k
                   for m, k in rows)
    expected += w[5] * 2 + w[6] * 4 + w[7] * 1          # yellow may be locked
    assert weighted_features(w, sheet, closed) == expected
    # a closed row is never counted as one that may be locked
    assert weighted_features(w, sheet, frozenset({"yellow"})) == expected - 4.0


def test_scored_change_of_known_moves():
    w = (2.0, -1.0, 0.5, 0.25, 0.125, -4.0, 3.0, -7.0)
    before = Sheet.parse("red:2,3 green:12")
    after = before.mark("red", 6)          # skips 4 and 5: 3+4 of 36 rolls
    expected = 2.0 - 1.0 * 2 + 0.5 * 4 + 0.25 * 2 + 0.125 * 4 - 4.0 * (3 + 4) / 36
    assert scored_change(w, before, after) == pytest.approx(expected, abs=1e-12)
    assert scored_change(w, before, before.add_penalty()) == -7.0
    assert scored_change(w, before, before) == 0.0
    assert [sum_ways(box) for box in range(11)] == [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]
    lock = Sheet.parse("blue:12,11,10,9,8").mark("blue", 2)    # skips 7..3, locks
    value = scored_change(w, Sheet.parse("blue:12,11,10,9,8"), lock)
    passed = sum(sum_ways(box) for box in range(5, 10))
    assert value == pytest.approx(2.0 - 5 + 0.5 * 25 + 0.25 * 5 + 0.125 * 10
                                  - 4.0 * passed / 36 + 3.0, abs=1e-12)


def test_a_game_ending_choice_is_worth_its_exact_share():
    ahead = Sheet.parse("red:2,3,4,5,6,7,8,9 yellow:2,3,4,5,6 closed:red")
    behind = Sheet.parse("red:2,3 green:12,11,10 closed:red")
    locked = ahead.mark("yellow", 12)
    for name, change in (("weighted", weighted_change), ("scored", scored_change)):
        weights = TUNED_WEIGHTS[name]
        assert choice_value(change, weights, ahead, locked, [behind]) == ENDING_VALUE / 2
        assert choice_value(change, weights, behind, behind.add_penalty().add_penalty()
                            .add_penalty().add_penalty(), [ahead]) == -ENDING_VALUE / 2


@pytest.mark.parametrize("name, change", [("weighted", weighted_change),
                                          ("scored", scored_change)])
def test_heuristics_lock_a_game_they_lead_and_not_one_they_trail(name, change):
    ahead = Sheet.parse("red:2,3,4,5,6,7,8,9 yellow:2,3,4,5,6 closed:red")
    behind = Sheet.parse("red:2,3 green:12,11,10 closed:red")
    dice = Dice.parse("6,6,1,1,1,1")           # white sum 12 locks yellow
    game = Game(2, [ahead, behind], active=1)
    assert HeuristicPlayer(change, TUNED_WEIGHTS[name], game, 0).first_action(
        ahead, dice, False) == "yellow"
    trailer = Sheet.parse("red:2,3 yellow:2,3,4,5,6 closed:red")
    leader = Sheet.parse("red:2,3,4,5,6,7,8,9,10,11,12 green:12,11,10,9,8,7 closed:red")
    game = Game(2, [trailer, leader], active=1)
    assert HeuristicPlayer(change, TUNED_WEIGHTS[name], game, 0).first_action(
        trailer, dice, False) != "yellow"


def test_strategy_names_and_weights():
    weighted, scored = parse_strategies("weighted,scored", 2)
    assert weighted.weights == TUNED_WEIGHTS["weighted"]
    assert scored.weights == TUNED_WEIGHTS["scored"]
    assert str(weighted) == "weighted" and len(weighted.weights) == WEIGHT_COUNT
    assert Strategy("scored", weights=UNIT).weights == UNIT
    with pytest.raises(StrategyError, match="takes no argument"):
        parse_strategies("weighted:3", 1)
    with pytest.raises(StrategyError, match="8 finite weights"):
        Strategy("weighted", weights=(1.0, 2.0))
    with pytest.raises(StrategyError, match="8 finite weights"):
        Strategy("scored", weights=(math.inf,) * 8)
    with pytest.raises(StrategyError, match="takes no weights"):
        Strategy("greedy", weights=UNIT)
    with pytest.raises(StrategyError, match="weighted_change or scored_change"):
        HeuristicPlayer(sum_ways, UNIT, Game(2), 0)
    with pytest.raises(GameError, match="seat"):
        HeuristicPlayer(scored_change, UNIT, Game(2), 2)


@pytest.mark.parametrize("text, players, lock_after", [
    ("weighted,scored", 2, 5), ("scored,cautious:2", 2, 4), ("greedy,weighted,scored", 3, 5),
    ("weighted,random,max-score,scored", 4, 5)])
def test_kernel_games_equal_python_games(qwixx_table_dir, text, players, lock_after):
    from qwixx_stats.tables.solitaire import ExpectedValues
    strategies = parse_strategies(text, players)
    values = ExpectedValues.load(qwixx_table_dir, lock_after=lock_after)
    fast = simulate(strategies, 12, 41, values=values, lock_after=lock_after)
    slow = simulate_twin(strategies, 12, 41, values=values, lock_after=lock_after)
    assert (fast.scores == slow.scores).all()
    assert (fast.turns == slow.turns).all()
    assert (fast.endings == slow.endings).all()


@settings(max_examples=5, deadline=None)
@given(st.integers(0, 2 ** 64 - 1),
       st.lists(st.floats(-20, 20, allow_nan=False), min_size=8, max_size=8),
       st.sampled_from(["weighted", "scored"]))
def test_kernel_equals_python_for_any_weights(seed, weights, name):
    strategies = [Strategy(name, weights=tuple(weights)), parse_strategies("cautious:1", 1)[0]]
    fast = simulate(strategies, 4, seed)
    slow = simulate_twin(strategies, 4, seed)
    assert (fast.scores == slow.scores).all() and (fast.turns == slow.turns).all()


@pytest.mark.parametrize("late", [False, True])
def test_win_against_the_heuristics_in_the_kernel_equals_python(qwixx_race2, late):
    # with a separate table for games with a closed row (here a made-up one: any table will
    # do to compare the kernel with its twin), and without
    late_table = (np.stack([0.9 * qwixx_race2.mean, 0.81 * qwixx_race2.second]) if late
                  else None)
    race = RaceTable(np.stack([qwixx_race2.mean, qwixx_race2.second]), 2, correlation=0.3,
                     late=late_table)
    strategies = parse_strategies("win,scored", 2)
    fast = simulate(strategies, 10, 3, race=race)
    slow = simulate_twin(strategies, 10, 3, race=race)
    assert (fast.scores == slow.scores).all() and (fast.turns == slow.turns).all()


def test_correlated_race_chance(qwixx_race2):
    me, other = Outlook(60.0, 100.0), Outlook(50.0, 36.0)
    for rho in (0.0, 0.3, 0.6):
        spread = math.sqrt(100.0 + 36.0 - 2 * rho * 10 * 6)
        assert win_chance(me, [other], rho) == pytest.approx(
            0.5 * math.erfc(-10 / spread / math.sqrt(2)), rel=1e-12)
    # a shared game length makes a lead safer
    assert win_chance(me, [other], 0.6) > win_chance(me, [other], 0.0)
    # several opponents: equal players still share the chance; rho = 0 is the old model
    equal = win_chance(Outlook(50, 100), [Outlook(50, 100), Outlook(50, 100)], 0.5)
    assert equal == pytest.approx(1 / 3, abs=1e-6)
    three = [Outlook(50, 60), Outlook(52, 90)]
    assert win_chance(Outlook(55, 80), three, 0.5) > win_chance(Outlook(55, 80), three, 0.0)
    with pytest.raises(TableError, match="correlation"):
        RaceTable(np.stack([qwixx_race2.mean, qwixx_race2.second]), 2, correlation=1.0)
