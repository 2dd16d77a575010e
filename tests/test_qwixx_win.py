"""The `win` strategy: its paced table against the plain Bellman equations, its race estimate,
the choices its method promises, and the kernel's games equal to the Python player's."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qwixx_stats import Dice, Game, Sheet
from qwixx_stats.tables._solitaire_twin import paced_bellman
from qwixx_stats.errors import GameError, SimulationError, StrategyError, TableError
from qwixx_stats.tables.race import (CONTINUATION, NODES, WEIGHTS, Outlook, RaceTable, race_name,
                                     win_chance)
from qwixx_stats.strategies.simulate import parse_strategies, simulate, simulate_twin
from qwixx_stats.advisor import Advisor
from qwixx_stats.strategies.winning import WinPlayer, best, rate_active, rate_passive, rate_second

from .test_qwixx_solitaire import late_sheets


@settings(max_examples=4, deadline=None)
@given(late_sheets())
def test_paced_table_satisfies_its_bellman_equations(qwixx_race2, sheet):
    race = qwixx_race2

    def mean_of(after):
        return race.outlook(after).mean - after.score()

    def second_of(after):
        outlook = race.outlook(after)
        mean = outlook.mean - after.score()
        return outlook.variance + mean * mean

    mean, second = paced_bellman(sheet, 0.5, CONTINUATION, mean_of, second_of)
    assert mean_of(sheet) == pytest.approx(mean, abs=1e-9)
    assert second_of(sheet) == pytest.approx(second, rel=1e-9, abs=1e-7)


def test_paced_model_with_every_turn_active_and_no_end_is_the_single_player_table(qwixx_values):
    from qwixx_stats.tables import _solitaire
    from qwixx_stats.tables.solitaire import solve_order
    packed, starts = solve_order()
    mean = np.zeros_like(qwixx_values.future)
    second = np.zeros_like(qwixx_values.future)
    _solitaire.solve(mean, packed, starts, active_share=1.0, continuation=1.0, second=second)
    assert np.array_equal(mean, qwixx_values.future)      # bit for bit
    assert (second >= mean * mean - 1e-6).all()           # a variance is never negative


def test_race_outlook_of_the_empty_sheet(qwixx_race2):
    outlook = qwixx_race2.outlook(Sheet())
    # a player active every other turn in a game that may stop any turn scores less than
    # alone (115.48), with a wide spread
    assert 30 < outlook.mean < 115.48
    assert 20 < math.sqrt(outlook.variance) < 60
    finished = Sheet.parse("red:2 penalties:4")
    assert qwixx_race2.outlook(finished) == Outlook(-19.0, 0.0)


def test_win_chance_against_one_and_several():
    # the independent model (correlation 0); the correlated one: test_qwixx_heuristics.py
    me, other = Outlook(60.0, 100.0), Outlook(50.0, 44.0)
    assert win_chance(me, [other], 0.0) == pytest.approx(0.5 * math.erfc(-10 / 12 / math.sqrt(2)))
    assert win_chance(Outlook(50, 0), [Outlook(50, 0)], 0.0) == 0.5
    assert win_chance(Outlook(51, 0), [Outlook(50, 0), Outlook(49, 0)], 0.0) == 1.0
    # several opponents by quadrature: equal players share the chance
    three = win_chance(Outlook(50, 100), [Outlook(50, 100), Outlook(50, 100)], 0.0)
    assert three == pytest.approx(1 / 3, abs=1e-6)
    # against independent opponents, below the chance of beating each one
    chance = win_chance(Outlook(55, 80), [Outlook(50, 60), Outlook(52, 90)], 0.0)
    assert chance < min(win_chance(Outlook(55, 80), [Outlook(50, 60)], 0.0),
                        win_chance(Outlook(55, 80), [Outlook(52, 90)], 0.0))
    assert len(NODES) == len(WEIGHTS) and sum(WEIGHTS) == pytest.approx(1.0)


def test_ends_a_game_it_leads_and_never_locks_into_a_loss(qwixx_race2):
    # red is closed; the player can lock yellow with the white sum 12 (5 marks before it)
    leader = Sheet.parse("red:2,3,4,5,6,7,8 yellow:2,3,4,5,6 closed:red")
    trailer = Sheet.parse("red:2,3,4,5,6,7,8,9,10,11,12 green:12,11,10,9,8,7 closed:red")
    dice = Dice.parse("6,6,1,1,1,1")
    assert leader.score() + 13 < trailer.score()   # yellow's lock: 6th mark and the lock
    ahead = Sheet.parse("red:2,3,4,5,6,7,8,9,10 yellow:2,3,4,5,6 closed:red")
    behind = Sheet.parse("red:2,3 green:12,11,10 closed:red")
    choice = best(rate_passive(qwixx_race2, [ahead, behind], 0, dice))
    assert choice.option == ("yellow", None) and choice.win_chance == 1.0
    choice = best(rate_passive(qwixx_race2, [leader, trailer], 0, dice))
    assert choice.option != ("yellow", None)      # locking would end the game behind
    assert choice.win_chance > 0.0


def test_takes_the_fourth_penalty_to_end_a_game_it_leads(qwixx_race2):
    ahead = Sheet.parse("red:2,3,4,5,6,7,8,9 yellow:2,3,4,5,6,7 penalties:3")
    behind = Sheet.parse("red:2,3,4 green:12,11,10,9")
    dice = Dice.parse("1,1,1,2,3,4")           # white sum 2: red and yellow are past it
    rated = rate_active(qwixx_race2, [ahead, behind], 0, dice)
    choice = best(rated)
    assert choice.option == (None, None) and choice.win_chance == 1.0
    assert len(rated) > 1                      # it had marks to make instead
    # behind, it marks rather than end the game with a loss
    low = Sheet.parse("red:2,3 penalties:3")
    assert best(rate_active(qwixx_race2, [low, behind], 0, dice)).option != (None, None)


def test_second_action_and_tie_order(qwixx_race2):
    sheets = [Sheet.parse("red:2,3"), Sheet.parse("blue:12,11")]
    rated = rate_second(qwixx_race2, sheets, 0, Dice.parse("2,2,2,2,2,2"), marked_first=True)
    assert rated[0].option == (None, None)
    assert [r.option[1] for r in rated[1:]] == [("red", 4), ("yellow", 4), ("green", 4),
                                                ("blue", 4)]      # a repeated sum once
    with pytest.raises(GameError, match="seat"):
        rate_second(qwixx_race2, sheets, 2, Dice.parse("2,2,2,2,2,2"), True)
    with pytest.raises(GameError, match="one sheet per player"):
        rate_active(qwixx_race2, sheets[:1], 0, "1,2,3,4,5,6")


def test_advisor_ranks_by_chance_and_reports_the_expected_score(qwixx_race2, qwixx_values):
    advisor = Advisor(qwixx_race2, qwixx_values)
    sheets = [Sheet.parse("red:2,3,4 green:12,11"), Sheet.parse("yellow:3,4,5,6")]
    advice = advisor.active(sheets, 0, "3,4,6,1,2,5")
    chances = [a.win_chance for a in advice]
    assert chances == sorted(chances, reverse=True)
    assert len(advice) == len(rate_active(qwixx_race2, sheets, 0, "3,4,6,1,2,5"))
    for item in advice:
        first, second = item.option
        after = sheets[0]
        if first:
            after = after.mark(first, 7)
        if second:
            after = after.mark(*second)
        if not first and not second:
            after = after.add_penalty()
        assert item.expected_score == qwixx_values.value(after)
    assert [a.option for a in advisor.passive(sheets, 1, "3,4,6,1,2,5")][0] in (
        (None, None), ("red", None), ("yellow", None), ("green", None), ("blue", None))


@pytest.mark.parametrize("text, lock_after", [
    ("win,max-score", 5), ("cautious:2,win", 5), ("win,greedy", 4), ("win,win", 5)])
def test_kernel_games_equal_python_games(qwixx_table_dir, qwixx_race2, text, lock_after):
    from qwixx_stats.tables.solitaire import ExpectedValues
    strategies = parse_strategies(text, 2)
    values = ExpectedValues.load(qwixx_table_dir, lock_after=lock_after)
    race = (qwixx_race2 if lock_after == 5
            else RaceTable.load(qwixx_table_dir, players=2, lock_after=4))
    fast = simulate(strategies, 12, 77, values=values, race=race, lock_after=lock_after)
    slow = simulate_twin(strategies, 12, 77, values=values, race=race, lock_after=lock_after)
    assert (fast.scores == slow.scores).all()
    assert (fast.turns == slow.turns).all()
    assert (fast.endings == slow.endings).all()


@settings(max_examples=3, deadline=None)
@given(st.integers(0, 2 ** 64 - 1), st.sampled_from(["win,cautious:1,greedy", "random,win,win"]))
def test_three_player_kernel_games_equal_python_games(qwixx_table_dir, seed, text):
    strategies = parse_strategies(text, 3)
    race = RaceTable.load(qwixx_table_dir, players=3)
    fast = simulate(strategies, 3, seed, race=race)
    slow = simulate_twin(strategies, 3, seed, race=race)
    assert (fast.scores == slow.scores).all() and (fast.turns == slow.turns).all()


def test_win_beats_the_single_player_optimum(qwixx_race2, qwixx_values):
    result = simulate(parse_strategies("win,max-score", 2), 4000, 5, values=qwixx_values,
                      race=qwixx_race2)
    low, high = result.summary()["players"][0]["win_rate_ci95"]
    assert low > 0.6            # measured about 0.8 (benchmarks/qwixx/qwixx_win.py)


def test_win_player_checks_its_table(qwixx_race2):
    with pytest.raises(GameError, match="players"):
        WinPlayer(qwixx_race2, Game(3), 0)
    with pytest.raises(GameError, match="Game"):
        WinPlayer(qwixx_race2, "game", 0)
    with pytest.raises(StrategyError, match="at least 2 players"):
        simulate(parse_strategies("win", 1), 1, 0)
    with pytest.raises(SimulationError, match="race table is for 2 players"):
        simulate(parse_strategies("win", 3), 3, 0, race=qwixx_race2)


def test_race_table_files_name_players_and_lock_rule(tmp_path, qwixx_table_dir):
    assert race_name(2) != race_name(2, 4) != race_name(3)
    source = qwixx_table_dir / race_name(2)
    (tmp_path / race_name(2, 4)).write_bytes(source.read_bytes())
    with pytest.raises(TableError, match="magic|not a"):
        RaceTable.load(tmp_path, players=2, lock_after=4, build=False)
    damaged = bytearray(source.read_bytes())
    damaged[1000] ^= 1
    (tmp_path / race_name(2)).write_bytes(bytes(damaged))
    with pytest.raises(TableError, match="checksum|crc|damaged|corrupt"):
        RaceTable.load(tmp_path, players=2, build=False)
    with pytest.raises(TableError, match="2..8 players"):
        RaceTable.load(tmp_path, players=1)


@pytest.mark.parametrize("sheets, seat, active, dice, option", [
    (["red:2,3,4 green:12,11", "yellow:3,4,5,6"], 0, 0, "3,4,6,1,2,5", ("green", ("green", 6))),
    (["red:2,3,4 green:12,11", "yellow:3,4,5,6"], 0, 0, "3,4,6,1,2,5", (None, None)),
    (["red:2,3,4 penalties:2", "yellow:3,4,5,6,7,8"], 0, 1, "6,6,1,1,1,1", ("green", None)),
    # the planned action 2 in yellow is no longer legal once the other player locks yellow
    (["yellow:2,3,4,5,6 blue:12,11,10,9,8 closed:red",
      "red:2,3,4,5,6,7,8,9,10,11,12 yellow:2,3,4,5,6,7 closed:red"], 0, 0, "6,6,1,2,1,1",
     (None, ("yellow", 8))),
])
def test_rollouts_kernel_equals_python_twin(qwixx_race2, sheets, seat, active, dice, option):
    from qwixx_stats.strategies.rollouts import rollout_chance, rollout_shares, rollout_shares_twin
    table = [Sheet.parse(text) for text in sheets]
    estimate = rollout_chance(qwixx_race2, table, seat, dice, active, option, 24, seed=9)
    shares = rollout_shares_twin(qwixx_race2, table, seat, dice, active, option, 24, seed=9)
    kernel = rollout_shares(qwixx_race2, table, seat, dice, active, option, 24, seed=9)
    assert list(kernel) == pytest.approx(shares, abs=1e-12)         # game by game
    assert estimate.chance == pytest.approx(sum(shares) / 24, abs=1e-12)
    assert estimate.standard_error == pytest.approx(np.std(shares, ddof=1) / np.sqrt(24))
    assert estimate.rollouts == 24


@pytest.mark.parametrize("strategies", [["lookahead", "qwixxer-ga"],
                                        ["qwixxer-ga", "lookahead"], ["win", "qwixxer-ga"]])
@pytest.mark.parametrize("seat,active,option", [(0, 0, ("red", ("yellow", 7))),
                                                (1, 0, ("blue", None)), (0, 1, (None, None))])
def test_rollouts_by_other_strategies_equal_python_twin(qwixx_race2, strategies, seat, active,
                                                         option):
    from qwixx_stats.strategies.lookahead import LearnedValue
    from qwixx_stats.strategies.rollouts import rollout_chance, rollout_shares_twin
    table = [Sheet.parse("red:2,3,4 yellow:2 blue:12,11"), Sheet.parse("red:2 green:12,10")]
    learned = LearnedValue.load() if "lookahead" in strategies else None
    arguments = dict(race=qwixx_race2, sheets=table, seat=seat, dice="3,4,6,3,2,5",
                     active=active, option=option, rollouts=12, seed=4, strategies=strategies,
                     learned=learned)
    estimate = rollout_chance(**arguments)
    shares = rollout_shares_twin(**arguments)
    assert estimate.chance == pytest.approx(sum(shares) / 12, abs=1e-12)
    assert estimate.standard_error == pytest.approx(np.std(shares, ddof=1) / np.sqrt(12))


def test_rollouts_by_the_strategies_asked_differ(qwixx_race2):
    """Who plays on is not ignored: the same rolls give another chance when the opponent plays
    qwixxer-ga instead of win."""
    from qwixx_stats.strategies.rollouts import rollout_chance
    table = [Sheet.parse("red:2,3,4 yellow:2 blue:12,11"), Sheet.parse("red:2 green:12,10")]
    chances = {rollout_chance(qwixx_race2, table, 0, "3,4,6,3,2,5", 0, ("red", None), 400, 1,
                              strategies=["win", opponent]).chance
               for opponent in ("win", "qwixxer-ga")}
    assert len(chances) == 2


def test_rollouts_check_their_arguments(qwixx_race2):
    from qwixx_stats.strategies.rollouts import rollout_chance
    sheets = [Sheet.parse("red:2,3"), Sheet()]
    for kwargs, fragment in [
            (dict(option=("red", None), rollouts=0), "rollouts"),
            (dict(option=("red", ("red", 9))), "only the active player"),
            (dict(option=("red", None), active=3), "active"),
            (dict(option=("red", None), seed=-1), "seed"),
            (dict(option=("red", None), dice="1,1,1,1,1,1"), "white sum 2"),
            (dict(option=("red", None), strategies=["win"]), "one per seat"),
            (dict(option=("red", None), strategies=["win", "scored"]), "one per seat"),
            (dict(option=("red", None), strategies="win"), "one per seat"),
            (dict(option=("red", None), learned=object()), "lookahead players only"),
            (dict(option=("red", None), strategies=["lookahead", "win"], learned=object()),
             "LearnedValue")]:
        arguments = dict(race=qwixx_race2, sheets=sheets, seat=0, dice="3,4,6,1,2,5",
                         active=1, rollouts=10)
        arguments.update(kwargs)
        with pytest.raises(GameError, match=fragment):
            rollout_chance(**arguments)
