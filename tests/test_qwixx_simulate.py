"""The Cython simulator plays exactly the games of the pure-Python rules and players; its
arguments are checked."""
import importlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qwixx_stats import Dice, Game, Sheet, SimulationError, Strategy
from qwixx_stats.strategies.simulate import (BATCH, MAX_GAMES, MAX_KEPT_GAMES, StrategyError, ending,
                                             parse_strategies, simulate, simulate_twin)
from qwixx_stats.rules.stream import SplitMix64
from qwixx_stats.strategies.simple import CautiousPlayer, GreedyPlayer

from .qwixx_api import ANYTHING, assert_refuses, refusal_cases
from .refusals import returns_or_refuses

GREEDY2 = [Strategy("greedy")] * 2


@pytest.mark.parametrize("players, text", [
    (1, "greedy"), (1, "random"), (1, "cautious:0"), (1, "optimal"),
    (2, "optimal,greedy"), (3, "cautious:2,random,greedy"), (4, "optimal,greedy,cautious:1,random"),
    (5, "random"),
])
def test_cython_games_equal_python_games(qwixx_values, players, text):
    strategies = parse_strategies(text, players)
    fast = simulate(strategies, 40, 2026, values=qwixx_values)
    slow = simulate_twin(strategies, 40, 2026, values=qwixx_values)
    assert (fast.scores == slow.scores).all()
    assert (fast.turns == slow.turns).all()


def test_reproducible_and_independent_of_batches(qwixx_values, monkeypatch):
    strategies = parse_strategies("optimal,random", 2)
    once = simulate(strategies, 1000, 9, values=qwixx_values)
    again = simulate(strategies, 1000, 9, values=qwixx_values)
    assert (once.scores == again.scores).all()
    module = importlib.import_module("qwixx_stats.strategies.simulate")
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
    from qwixx_stats.strategies.simulate import SimulationResult
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
    assert (four.scores == simulate_twin(strategies, 300, 8, values=qwixx_values_lock4,
                                           lock_after=4).scores).all()
    from qwixx_stats.errors import SheetError, SimulationError
    with pytest.raises(SimulationError, match="lock after 5"):
        simulate(strategies, 3, 8, values=qwixx_values, lock_after=4)
    with pytest.raises(SheetError, match="5 .*or 4"):
        simulate(strategies, 3, 8, lock_after=3)


def test_a_game_ends_by_its_locks_or_its_penalties():
    locked = Game(2, [Sheet.parse("closed:red,blue"), Sheet.parse("closed:red,blue")])
    assert locked.is_over() and ending(locked) == "locks"
    penalised = Game(2, [Sheet.parse("penalties:4 closed:red"), Sheet()])
    assert penalised.is_over() and ending(penalised) == "penalties"


# -- arguments: the named error, in one line ------------------------------------------------
API_CASES = [
    ("Strategy.parse(None)", lambda: Strategy.parse(None), StrategyError),
    ("Strategy.parse('cautious:-1')", lambda: Strategy.parse("cautious:-1"), StrategyError),
    ("Strategy.parse('cautious:99..9')", lambda: Strategy.parse("cautious:" + "9" * 5000),
     StrategyError),
    ("Strategy('bogus')", lambda: Strategy("bogus"), StrategyError),
    ("Strategy(['greedy'])", lambda: Strategy(["greedy"]), StrategyError),
    ("Strategy('cautious', 11)", lambda: Strategy("cautious", 11), StrategyError),
    ("Strategy('greedy', 3)", lambda: Strategy("greedy", 3), StrategyError),
    ("parse_strategies(None, 2)", lambda: parse_strategies(None, 2), StrategyError),
    ("parse_strategies('greedy', 0)", lambda: parse_strategies("greedy", 0), StrategyError),
    ("parse_strategies('greedy', 9)", lambda: parse_strategies("greedy", 9), StrategyError),
    ("parse_strategies('greedy', '2')", lambda: parse_strategies("greedy", "2"), StrategyError),
    ("parse_strategies('greedy', True)", lambda: parse_strategies("greedy", True),
     StrategyError),
    ("parse_strategies(many)", lambda: parse_strategies("greedy," * 10_000, 2), StrategyError),
    ("CautiousPlayer(11)", lambda: CautiousPlayer(11), StrategyError),
    ("SplitMix64('x')", lambda: SplitMix64("x"), SimulationError),
    ("simulate(games=0)", lambda: simulate(GREEDY2, 0, 1), SimulationError),
    ("simulate(games=-5)", lambda: simulate(GREEDY2, -5, 1), SimulationError),
    ("simulate(games=2.5)", lambda: simulate(GREEDY2, 2.5, 1), SimulationError),
    ("simulate(games=10.0)", lambda: simulate(GREEDY2, 10.0, 1), SimulationError),
    ("simulate(games=True)", lambda: simulate(GREEDY2, True, 1), SimulationError),
    ("simulate(games='10')", lambda: simulate(GREEDY2, "10", 1), SimulationError),
    ("simulate(games=10**12)", lambda: simulate(GREEDY2, 10 ** 12, 1), SimulationError),
    ("simulate(games=10**12, keep_games=False)",
     lambda: simulate(GREEDY2, 10 ** 12, 1, keep_games=False), SimulationError),
    ("simulate(games over the kept bound)", lambda: simulate(GREEDY2, MAX_KEPT_GAMES + 1, 1),
     SimulationError),
    ("simulate(seed=-1)", lambda: simulate(GREEDY2, 5, -1), SimulationError),
    ("simulate(seed=2**64)", lambda: simulate(GREEDY2, 5, 2 ** 64), SimulationError),
    ("simulate(seed=1.0)", lambda: simulate(GREEDY2, 5, 1.0), SimulationError),
    ("simulate(seed=None)", lambda: simulate(GREEDY2, 5, None), SimulationError),
    ("simulate(seed=True)", lambda: simulate(GREEDY2, 5, True), SimulationError),
    ("simulate(strategies='greedy')", lambda: simulate("greedy", 5, 1), StrategyError),
    ("simulate(strategies=[])", lambda: simulate([], 5, 1), StrategyError),
    ("simulate(9 players)", lambda: simulate([Strategy("greedy")] * 9, 5, 1), StrategyError),
    ("simulate(values=5)", lambda: simulate(GREEDY2, 5, 1, values=5), SimulationError),
    ("simulate(progress=5)", lambda: simulate(GREEDY2, 5, 1, progress=5), SimulationError),
]


@refusal_cases(API_CASES)
def test_api_refuses_bad_input(call, expected):
    assert_refuses(call, expected)


def test_simulate_games_zero_is_refused_not_a_nan_mean():
    with pytest.raises(SimulationError, match=r"games must be a whole number 1\.\.1,000,000,000"):
        simulate(GREEDY2, 0, 1)


def test_simulate_bounds_are_the_documented_ones():
    assert MAX_GAMES == 10 ** 9 and MAX_KEPT_GAMES == 10 ** 7


def test_running_totals_equal_the_kept_games(monkeypatch):
    """keep_games=False (what the command line uses: memory independent of --games) reports
    the same summary as the per-game arrays, across several batches."""
    monkeypatch.setattr(importlib.import_module("qwixx_stats.strategies.simulate"), "BATCH", 333)
    strategies = parse_strategies("greedy,random,cautious:2", 3)
    kept = simulate(strategies, 2000, 11)
    totals = simulate(strategies, 2000, 11, keep_games=False)
    assert totals.scores is None and totals.turns is None and totals.games == 2000
    ours, theirs = totals.summary(), kept.summary()
    scores = kept.scores.astype(np.float64)
    for seat, (a, b) in enumerate(zip(ours["players"], theirs["players"])):
        assert a["mean"] == pytest.approx(scores[:, seat].mean())
        assert a["std"] == pytest.approx(scores[:, seat].std(ddof=1))
        assert a["min"] == b["min"] == scores[:, seat].min()
        assert a["max"] == b["max"] == scores[:, seat].max()
        assert a["win_rate"] == pytest.approx(b["win_rate"])
    assert ours["mean_turns"] == pytest.approx(kept.turns.mean())
    assert ours["endings"] == theirs["endings"] and sum(ours["endings"].values()) == 2000
    assert BATCH >= 1000                 # the real batch keeps memory small but not tiny


# -- fuzzing -----------------------------------------------------------------------------------
STRATEGY_TEXTS = ["greedy", "random", "cautious:2", "greedy,random", "bogus", "", "cautious:x",
                  "greedy,random,cautious:0"]


@settings(max_examples=120, deadline=None)
@given(st.one_of(st.integers(max_value=0), st.integers(min_value=MAX_GAMES + 1),
                 st.integers(1, 30), st.floats(), st.none(), st.booleans(), st.text(max_size=5)),
       st.one_of(st.integers(), st.integers(0, 2 ** 64 - 1), st.floats(), st.none(),
                 st.booleans()),
       st.one_of(st.integers(-2, 11), st.integers(), ANYTHING),
       st.sampled_from(STRATEGY_TEXTS))
def test_fuzz_simulate(games, seed, players, text):
    strategies = returns_or_refuses(lambda: parse_strategies(text, players), StrategyError)
    if isinstance(strategies, StrategyError):
        return
    result = returns_or_refuses(lambda: simulate(strategies, games, seed, keep_games=False),
                                SimulationError)
    good_games = type(games) is int and 1 <= games <= MAX_GAMES
    good_seed = type(seed) is int and 0 <= seed < 2 ** 64
    assert isinstance(result, SimulationError) == (not (good_games and good_seed))
    if not isinstance(result, SimulationError):
        summary = result.summary()
        assert summary["games"] == games and not any(
            np.isnan(p["mean"]) for p in summary["players"])


@settings(max_examples=150, deadline=None)
@given(st.one_of(st.text(max_size=20), ANYTHING,
                 st.sampled_from(["cautious:", "cautious:10", "cautious:11", "cautious: 3",
                                  "greedy:", "random:1"])))
def test_fuzz_strategy_parse(text):
    strategy = returns_or_refuses(lambda: Strategy.parse(text), StrategyError)
    if isinstance(strategy, Strategy):
        assert Strategy.parse(str(strategy)) == strategy
