"""pytest-benchmark: Qwixx simulation (Cython kernel vs the pure-Python rules) and advice.

    pytest benchmarks/suite/test_bench_qwixx.py --benchmark-enable
"""
import pytest

from qwixx_stats import Dice, ExpectedValues, Sheet
from qwixx_stats.strategies.simulate import parse_strategies, simulate, simulate_twin


@pytest.fixture(scope="module")
def values(tmp_path_factory):
    return ExpectedValues.load(tmp_path_factory.mktemp("qwixx"))


@pytest.mark.parametrize("engine", ["cython", "python"])
def test_simulate_100_games_four_players(benchmark, values, engine):
    strategies = parse_strategies("max-score,greedy,cautious:2,random", 4)
    run = simulate if engine == "cython" else simulate_twin
    benchmark.group = "simulate 100 games"
    result = benchmark(run, strategies, 100, 1, values=values)
    assert result.games == 100


def test_advise_one_roll(benchmark, values):
    sheet, dice = Sheet.parse("red:2,3,5 green:12,10 penalties:1"), Dice.parse("3,4,6,1,2,5")
    options = benchmark(values.active_options, sheet, dice)
    assert options


def test_win_decision_one_roll(benchmark, values, tmp_path_factory):
    """What `qwixx track` computes for the active player: every plan rated (Python)."""
    from qwixx_stats.tables.race import RaceTable
    from qwixx_stats.advisor import Advisor
    advisor = Advisor(RaceTable.load(tmp_path_factory.mktemp("race"), players=2), values)
    sheets = [Sheet.parse("red:2,3,5 green:12,10 penalties:1"), Sheet.parse("yellow:3,4,5")]
    advice = benchmark(advisor.active, sheets, 0, Dice.parse("3,4,6,1,2,5"))
    assert advice
