"""The Cython simulator plays exactly the games of the pure-Python rules and players."""
import importlib

import numpy as np
import pytest

from qwixx_stats import Dice, Sheet
from qwixx_stats.simulate import (StrategyError, parse_strategies, simulate, simulate_python)
from qwixx_stats.strategies import CautiousPlayer, GreedyPlayer, SplitMix64


@pytest.mark.parametrize("players, text", [
    (1, "greedy"), (1, "random"), (1, "cautious:0"), (1, "optimal"),
    (2, "optimal,greedy"), (3, "cautious:2,random,greedy"), (4, "optimal,greedy,cautious:1,random"),
    (5, "random"),
])
def test_cython_games_equal_python_games(qwixx_values, players, text):
    strategies = parse_strategies(text, players)
    fast = simulate(strategies, 40, 2026, values=qwixx_values)
    slow = simulate_python(strategies, 40, 2026, values=qwixx_values)
    assert (fast.scores == slow.scores).all()
    assert (fast.turns == slow.turns).all()


def test_reproducible_and_independent_of_batches(qwixx_values, monkeypatch):
    strategies = parse_strategies("optimal,random", 2)
    once = simulate(strategies, 1000, 9, values=qwixx_values)
    again = simulate(strategies, 1000, 9, values=qwixx_values)
    assert (once.scores == again.scores).all()
    module = importlib.import_module("qwixx_stats.simulate")
    monkeypatch.setattr(module, "BATCH", 77)
    batched = simulate(strategies, 1000, 9, values=qwixx_values)
    assert (once.scores == batched.scores).all()
    other = simulate(strategies, 1000, 10, values=qwixx_values)
    assert not (once.scores == other.scores).all()


def test_optimal_single_player_scores_its_expectation(qwixx_values):
    result = simulate(parse_strategies("optimal", 1), 20000, 1, values=qwixx_values)
    mean = result.scores.mean()
    spread = result.scores.std() / np.sqrt(result.games)
    assert abs(mean - 115.4831) < 4 * spread       # 4 standard errors (about 0.8 points)


def test_summary_win_rates_split_ties():
    from qwixx_stats.simulate import SimulationResult
    result = SimulationResult(parse_strategies("greedy", 3), 0,
                              np.array([[10, 10, 5], [1, 2, 3]]), np.array([20, 30]), 1.0)
    summary = result.summary()
    assert [p["win_rate"] for p in summary["players"]] == [0.25, 0.25, 0.5]
    assert summary["mean_turns"] == 25.0


def test_strategy_parsing():
    assert [str(s) for s in parse_strategies("cautious", 2)] == ["cautious:1"] * 2
    # 'optimal' is the former name of max-score, kept as an alias
    assert [str(s) for s in parse_strategies("optimal,cautious:3", 2)] == ["max-score", "cautious:3"]
    assert [str(s) for s in parse_strategies("win,max-score", 2)] == ["win", "max-score"]
    for text, players, fragment in [("bogus", 2, "unknown strategy"), ("greedy,greedy", 3, "2 strategies"),
                                    ("cautious:x", 1, "whole number"), ("cautious:11", 1, "0 <= K"),
                                    ("greedy:2", 1, "no argument"), ("greedy", 9, "players")]:
        with pytest.raises(StrategyError, match=fragment):
            parse_strategies(text, players)


def test_greedy_and_cautious_choices():
    sheet, dice = Sheet.parse("red:2 yellow:2,3"), Dice.parse("4,5,1,1,1,1")
    # white sum 9 skips 6 boxes in red, 4 in yellow, 3 in green and in blue
    assert GreedyPlayer().first_action(sheet, dice, active=False) == "yellow"   # 3 points
    assert CautiousPlayer(2).first_action(sheet, dice, active=False) is None
    assert CautiousPlayer(3).first_action(sheet, dice, active=False) == "green"
    # the active cautious player takes a penalty rather than skip too much
    sheet = Sheet.parse("red:2 yellow:2,3 green:12 blue:12")
    assert CautiousPlayer(0).first_action(sheet, dice, active=True) is None
    assert CautiousPlayer(0).second_action(sheet, dice, False) is None
    assert CautiousPlayer(1).second_action(sheet, dice, False) == ("yellow", 5)


def test_random_stream_matches_the_kernel_definition():
    stream = SplitMix64(0)
    assert stream.next() == 0xE220A8397B1DCDAF      # SplitMix64's first output from seed 0
    rolls = [SplitMix64.for_game(5, 0).roll() for _ in range(2)]
    assert rolls[0] == rolls[1] and all(1 <= d <= 6 for d in rolls[0])


def test_seats_rotate_game_by_game(qwixx_values):
    """Game n seats entry e at (e + n) mod players: with fixed seats and the list turned, the
    same game (same seed and number) gives each strategy the same score."""
    strategies = parse_strategies("greedy,cautious:2,max-score", 3)
    rotated = simulate(strategies, 6, 31, values=qwixx_values)
    for game in range(6):
        shift = game % 3
        seated = [None] * 3
        for entry in range(3):
            seated[(entry + shift) % 3] = strategies[entry]
        fixed = simulate(seated, game + 1, 31, values=qwixx_values, rotate=False)
        by_seat = fixed.scores[game]
        assert [int(by_seat[(entry + shift) % 3]) for entry in range(3)] == list(
            rotated.scores[game])
    summary = rotated.summary()
    assert summary["rotate_seats"] and summary["seats_balanced"]
    assert not simulate(strategies, 4, 31, values=qwixx_values).summary()["seats_balanced"]


def test_endings_turns_and_interval(qwixx_values):
    result = simulate(parse_strategies("greedy,cautious:0", 2), 2000, 4)
    summary = result.summary()
    endings = summary["endings"]
    assert endings["locks"] + endings["penalties"] == 2000
    assert endings["penalties"] > 0 and endings["locks"] > 0   # cautious:0 takes penalties
    ended_by_penalty = (result.endings == 2)
    worst = result.scores.min(axis=1)
    assert (worst[ended_by_penalty] <= 10).mean() > 0.5       # four penalties cost 20
    for player in summary["players"]:
        low, high = player["win_rate_ci95"]
        assert low < player["win_rate"] < high
        assert high - low == pytest.approx(2 * 1.96 * np.sqrt(
            player["win_rate"] * (1 - player["win_rate"]) / 2000), rel=0.05)


def test_lock_after_four_changes_the_games_and_is_checked(qwixx_values, qwixx_values_lock4):
    strategies = parse_strategies("max-score,greedy", 2)
    five = simulate(strategies, 300, 8, values=qwixx_values)
    four = simulate(strategies, 300, 8, values=qwixx_values_lock4, lock_after=4)
    assert four.summary()["lock_after"] == 4
    assert four.turns.mean() < five.turns.mean()        # rows lock sooner
    assert (four.scores == simulate_python(strategies, 300, 8, values=qwixx_values_lock4,
                                           lock_after=4).scores).all()
    from qwixx_stats.errors import SheetError, SimulationError
    with pytest.raises(SimulationError, match="lock after 5"):
        simulate(strategies, 3, 8, values=qwixx_values, lock_after=4)
    with pytest.raises(SheetError, match="5 .*or 4"):
        simulate(strategies, 3, 8, lock_after=3)
