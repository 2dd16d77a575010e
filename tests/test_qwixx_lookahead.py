"""The `lookahead` strategy: its learned value's features, its ratings and games in the kernel
against the Python twin, the choices its method promises, its weights file, and learning."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qwixx_stats import Dice, ExpectedValues, Game, Sheet
from qwixx_stats.advisor import Advisor
from qwixx_stats.errors import GameError, SimulationError, StrategyError, TableError
from qwixx_stats.strategies.lookahead import (LEARNED_SIZE, OWN_PAIR_WEIGHTS, PENALTY_WEIGHTS,
                                              SURE_CHANCE, THEIR_PAIR_WEIGHTS, LearnedValue,
                                              LookaheadPlayer, first_best, learned_chance,
                                              learned_features, learned_for, rate_first_twin,
                                              rate_lookahead,
                                              rate_second_twin, train, train_twin)
from qwixx_stats.tables.race import RaceTable, win_chance
from qwixx_stats.strategies import _simulate
from qwixx_stats.strategies.kernel_view import kernel_race
from qwixx_stats.strategies.registry import STRATEGY_CODES
from qwixx_stats.strategies.simulate import parse_strategies, simulate, simulate_twin
from qwixx_stats.rules.stream import SplitMix64
from qwixx_stats.strategies.simple import CautiousPlayer, GreedyPlayer


@pytest.fixture(scope="module")
def learned():
    return LearnedValue.load()


@pytest.fixture(scope="module")
def qwixx_race3(qwixx_table_dir):
    return RaceTable.load(qwixx_table_dir, players=3)


@st.composite
def tables(draw, players=2):
    """(sheets, active, dice): a table reached by `turns` turns of greedy and cautious play."""
    stream = SplitMix64.for_game(draw(st.integers(0, 2 ** 64 - 1)), 0)
    game = Game(players)
    seated = [GreedyPlayer() if seat % 2 else CautiousPlayer(2) for seat in range(players)]
    for _ in range(draw(st.integers(0, 40))):
        game.play_turn_with(stream.roll(), seated)
        if game.is_over():
            break
    if game.is_over():
        game.history.pop()
        game = Game(players, active=draw(st.integers(0, players - 1)))
    return game.sheets, game.active, stream.roll()


def test_learned_value_file_is_the_shipped_one_and_untrained_is_the_race_model(
        qwixx_race2, learned):
    assert learned.weights.shape == (LEARNED_SIZE,) == (_simulate.LEARNED_WEIGHT_COUNT,)
    assert SURE_CHANCE == _simulate.LEARNED_SURE_CHANCE
    plain = LearnedValue.untrained()
    mine, theirs = Sheet.parse("red:2,3,4 green:12,11"), Sheet.parse("yellow:3,4,5,6")
    chance = win_chance(qwixx_race2.outlook(mine), [qwixx_race2.outlook(theirs)],
                        qwixx_race2.correlation)
    assert learned_chance(plain, qwixx_race2, mine, theirs, True) == pytest.approx(chance,
                                                                                   rel=1e-12)


def test_features_of_the_empty_table(qwixx_race2):
    index, race_logit = learned_features(qwixx_race2, Sheet(), Sheet(), True)
    assert index == [1, 1, 1, 1] + [OWN_PAIR_WEIGHTS, THEIR_PAIR_WEIGHTS] * 6 + [
        PENALTY_WEIGHTS + 1]
    assert race_logit == 0.0                         # equal sheets: an even race
    assert len(index) == _simulate.LEARNED_FEATURE_COUNT
    # a closed row's code: 56 + its marks (the lock included), the closed flag set
    mine = Sheet.parse("red:2,3,4,5,6,12 penalties:2 closed:red")
    theirs = Sheet.parse("blue:12 penalties:1 closed:red")
    index, _ = learned_features(qwixx_race2, mine, theirs, False)
    assert index[0] == 1 + (63 * 69 + 56) * 2 + 1           # red: closed with 7 marks; 0 marks
    assert index[-1] == PENALTY_WEIGHTS + ((2 * 4 + 1) * 2 + 1) * 2 + 0


@settings(max_examples=25, deadline=None)
@given(tables())
def test_kernel_ratings_equal_the_python_twin(qwixx_race2, learned, table):
    sheets, active, dice = table
    for seat in (0, 1):
        kernel = rate_lookahead(qwixx_race2, learned, sheets, seat, dice, active)
        python = rate_first_twin(qwixx_race2, learned, sheets, seat, active, dice)
        assert [r.option for r in kernel] == [p[0] for p in python]
        assert [r.win_chance for r in kernel] == pytest.approx([p[1] for p in python],
                                                               rel=1e-9, abs=1e-12)
        assert [r.expected_score for r in kernel] == pytest.approx([p[2] for p in python],
                                                                   rel=1e-9)
    for marked in (False, True):
        kernel = rate_lookahead(qwixx_race2, learned, sheets, active, dice, active, marked)
        python = rate_second_twin(qwixx_race2, learned, sheets, active, dice, marked)
        assert [r.option[1] for r in kernel] == [p[0] for p in python]
        assert [r.win_chance for r in kernel] == pytest.approx([p[1] for p in python],
                                                               rel=1e-9, abs=1e-12)


@settings(max_examples=10, deadline=None)
@given(tables(players=3))
def test_three_player_ratings_read_the_race_model(qwixx_race3, table):
    sheets, active, dice = table
    kernel = rate_lookahead(qwixx_race3, None, sheets, 1, dice, active)
    python = rate_first_twin(qwixx_race3, None, sheets, 1, active, dice)
    assert [r.win_chance for r in kernel] == pytest.approx([p[1] for p in python],
                                                           rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("text", ["lookahead,scored", "weighted,lookahead",
                                  "lookahead,lookahead", "lookahead,win"])
def test_kernel_games_equal_python_games(qwixx_race2, learned, text):
    strategies = parse_strategies(text, 2)
    kernel = simulate(strategies, 8, 41, race=qwixx_race2, learned=learned)
    python = simulate_twin(strategies, 8, 41, race=qwixx_race2, learned=learned)
    assert np.array_equal(kernel.scores, python.scores)
    assert np.array_equal(kernel.turns, python.turns)


def test_three_player_kernel_games_equal_python_games(qwixx_race3):
    strategies = parse_strategies("win,lookahead,greedy", 3)
    kernel = simulate(strategies, 6, 5, race=qwixx_race3)
    python = simulate_twin(strategies, 6, 5, race=qwixx_race3)
    assert np.array_equal(kernel.scores, python.scores)


def test_ends_a_game_it_leads_and_never_locks_into_a_loss(qwixx_race2, learned):
    dice = Dice.parse("6,6,1,1,1,1")                 # white sum 12: yellow's lock
    ahead = Sheet.parse("red:2,3,4,5,6,7,8,9,10 yellow:2,3,4,5,6 closed:red")
    behind = Sheet.parse("red:2,3 green:12,11,10 closed:red")
    rated = rate_lookahead(qwixx_race2, learned, [behind, ahead], 1, dice, 0)
    chosen = rated[first_best([(r.option, r.win_chance, r.expected_score) for r in rated])]
    assert chosen.option == ("yellow", None) and chosen.win_chance == 1.0
    leader = Sheet.parse("red:2,3,4,5,6,7,8 yellow:2,3,4,5,6 closed:red")
    trailer = Sheet.parse("red:2,3,4,5,6,7,8,9,10,11,12 green:12,11,10,9,8,7 closed:red")
    rated = rate_lookahead(qwixx_race2, learned, [trailer, leader], 1, dice, 0)
    chosen = rated[first_best([(r.option, r.win_chance, r.expected_score) for r in rated])]
    assert chosen.option != ("yellow", None) and chosen.win_chance > 0.0


def test_weights_file_round_trip_and_refusals(tmp_path, learned):
    path = tmp_path / "value.qlv"
    learned.save(path)
    assert np.array_equal(LearnedValue.load(path).weights, learned.weights)
    data = bytearray(path.read_bytes())
    data[100] ^= 1
    path.write_bytes(bytes(data))
    with pytest.raises(TableError, match="checksum|crc|damaged|corrupt"):
        LearnedValue.load(path)
    with pytest.raises(TableError, match="float64"):
        LearnedValue(np.zeros(5))
    with pytest.raises(TableError, match="finite"):
        LearnedValue(np.full(LEARNED_SIZE, np.nan))
    with pytest.raises(TableError, match="lock rule"):
        LearnedValue(learned.weights, lock_after=4)


def test_strategy_checks(qwixx_race2, qwixx_race3, learned):
    with pytest.raises(SimulationError, match="lock after"):
        simulate(parse_strategies("lookahead,win", 2), 2, 1, lock_after=4,
                 learned=learned)
    with pytest.raises(SimulationError, match="LearnedValue"):
        simulate(parse_strategies("lookahead,win", 2), 2, 1, race=qwixx_race2,
                 learned=np.zeros(LEARNED_SIZE))
    with pytest.raises(SimulationError, match="lookahead players only"):
        simulate(parse_strategies("win,win", 2), 2, 1, race=qwixx_race2, learned=learned)
    with pytest.raises(StrategyError, match="at least 2 players"):
        simulate(parse_strategies("lookahead", 1), 2, 1)
    with pytest.raises(GameError, match="table of two"):
        LookaheadPlayer(qwixx_race3, learned, Game(3), 0)
    with pytest.raises(GameError, match="action 2"):
        rate_lookahead(qwixx_race2, learned, [Sheet(), Sheet()], 1, "1,2,3,4,5,6", 0, True)
    with pytest.raises(GameError, match="roller"):
        Advisor(qwixx_race2, ExpectedValues(np.zeros_like(qwixx_race2.mean)),
                "lookahead").passive([Sheet(), Sheet()], 1, "1,2,3,4,5,6")
    codes = np.array([STRATEGY_CODES["lookahead"], STRATEGY_CODES["win"]], dtype=np.intc)
    with pytest.raises(ValueError, match="learned weights are"):
        _simulate.Lineup(codes, np.zeros(2, dtype=np.intc), np.zeros((1, 4)),
                         kernel_race(qwixx_race2), None, np.zeros(5))


def test_without_a_learned_value_it_reads_the_race_model(qwixx_race2):
    # under the variant (no learned value for it), or given none, at two players
    table = [Sheet.parse("red:2,3,4 green:12,11"), Sheet.parse("yellow:3,4,5,6")]
    rated = rate_lookahead(qwixx_race2, None, table, 0, "3,4,6,1,2,5", 0)
    python = rate_first_twin(qwixx_race2, None, table, 0, 0, "3,4,6,1,2,5")
    assert [r.win_chance for r in rated] == pytest.approx([p[1] for p in python], rel=1e-9)
    strategies = parse_strategies("lookahead,cautious:2", 2)
    kernel = simulate(strategies, 4, 9, race=qwixx_race2, learned=None, lock_after=5)
    assert kernel.games == 4
    assert learned_for(2, 4) is None and learned_for(3, 5) is None
    assert learned_for(2, 5) is not None


def test_learning_equals_the_python_twin_and_resumes(qwixx_race2, learned):
    kernel, python = LearnedValue.load(), LearnedValue.load()
    train(kernel, qwixx_race2, 3, 2, 77, 0.01, 0.001)
    train_twin(python, qwixx_race2, 3, 2, 77, 0.01, 0.001)
    assert np.allclose(kernel.weights, python.weights, rtol=0, atol=1e-12)
    assert not np.array_equal(kernel.weights, learned.weights)     # it learned something
    # two blocks of games learn exactly what one does (an interrupted run resumes)
    split = LearnedValue.load()
    train(split, qwixx_race2, 3, 1, 77, 0.01, 0.001)
    train(split, qwixx_race2, 4, 1, 77, 0.01, 0.001)
    assert np.array_equal(split.weights, kernel.weights)
    frozen = LearnedValue.load()
    train(frozen, qwixx_race2, 0, 3, 77, 0.0, 0.0)
    assert np.array_equal(frozen.weights, learned.weights)          # rate 0: nothing moves


def test_advisor_ranks_by_the_lookahead_chance(qwixx_race2, qwixx_values, learned):
    advisor = Advisor(qwixx_race2, qwixx_values, "lookahead")
    sheets = [Sheet.parse("red:2,3,4 green:12,11 penalties:1"), Sheet.parse("yellow:3,4,5,6")]
    for advice, rated in [
            (advisor.active(sheets, 0, "3,4,6,1,2,5"),
             rate_lookahead(qwixx_race2, learned, sheets, 0, "3,4,6,1,2,5", 0)),
            (advisor.passive(sheets, 1, "3,4,6,1,2,5", 0),
             rate_lookahead(qwixx_race2, learned, sheets, 1, "3,4,6,1,2,5", 0)),
            (advisor.second(sheets, 0, "3,4,6,1,2,5", False),
             rate_lookahead(qwixx_race2, learned, sheets, 0, "3,4,6,1,2,5", 0, False))]:
        assert len(advice) == len(rated)
        assert {a.option for a in advice} == {r.option for r in rated}
        chances = [a.win_chance for a in advice]
        assert chances == sorted(chances, reverse=True)
        by_option = {r.option: r for r in rated}
        for item in advice:
            assert item.win_chance == by_option[item.option].win_chance
            assert item.expected_score == qwixx_values.value(by_option[item.option].sheet)
    # the sheet after a choice: a penalty only for the active player who marks nothing
    none = {r.option: r.sheet for r in rate_lookahead(qwixx_race2, learned, sheets, 0,
                                                       "3,4,6,1,2,5", 0)}[(None, None)]
    assert none.penalties == 2
    with pytest.raises(GameError, match="judges by"):
        Advisor(qwixx_race2, qwixx_values, "oracle")
    with pytest.raises(GameError, match="lookahead only"):
        Advisor(qwixx_race2, qwixx_values, "win", learned)
