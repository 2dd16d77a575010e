"""The evaluation's weights as data: the kernel's evaluate equals its pure-Python twin for any
weights, weights files round-trip and bad ones are refused by name, and a solver searches with
the weights it is given."""
import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quixo_solver import Board, Solver
from quixo_solver.frontends.engine_protocol import EngineSession
from quixo_solver.tournament.players import build_solver
from quixo_solver.tournament.settings import EngineSetting, MatchSettings
from quixo_solver.search import _search
from quixo_solver.search import _search_twin as search_twin
from quixo_solver.search.weights import (DEFAULTS, KERNEL_WEIGHTS, LIMITS, RULEBOOK, Weights,
                                         WeightSet, WeightsError, features, weight_set)
from quixo_solver.search._search_state import WEIGHT_COUNT
from quixo_solver.teams import TeamBoard
from quixo_solver.teams.solve import TeamSolver

from .refusals import assert_one_line

line = st.integers(-LIMITS["line"], LIMITS["line"])
ends = st.integers(-LIMITS["ends"], LIMITS["ends"])
some_weights = st.builds(Weights, st.tuples(line, line, line, line), st.tuples(line, line, line, line),
                         ends, ends, st.integers(-LIMITS["cube"], LIMITS["cube"]),
                         st.integers(-LIMITS["tempo"], LIMITS["tempo"]))


@st.composite
def cubes(draw):
    size = draw(st.sampled_from((3, 4, 5)))
    cells = draw(st.lists(st.sampled_from((0, 1, 2)), min_size=size * size, max_size=size * size))
    mine = sum(1 << sq for sq, c in enumerate(cells) if c == 1)
    theirs = sum(1 << sq for sq, c in enumerate(cells) if c == 2)
    return size, mine, theirs


def test_the_kernel_and_python_agree_on_the_number_of_weights():
    assert KERNEL_WEIGHTS == WEIGHT_COUNT == len(Weights().kernel())


@settings(max_examples=300)
@given(position=cubes(), weights=some_weights)
def test_the_kernel_evaluates_as_its_twin(position, weights):
    size, mine, theirs = position
    searcher = _search.Searcher(size, 1)
    searcher.set_weights(weights.kernel())
    assert searcher.get_weights() == weights.kernel()
    assert searcher.evaluate(mine, theirs) == search_twin.evaluate(size, weights, mine, theirs)


def test_the_default_weights_are_the_rulebooks():
    # lines of 1..4 cubes 1, 4, 16, 64; both ends of a rank or file 6; a cube more 3
    assert Weights() == Weights((1, 4, 16, 64), (1, 4, 16, 64), 6, 6, 3, 0)
    board = Board("XX.../...../...../...../O...O X")
    # X: rank 5 of 2 (4), file b of 1 (1); file a and the anti-diagonal hold both sides'
    # cubes. O: rank 1 of 2 (4), file e and the a1 diagonal of 1 (1 + 1), both ends of rank 1
    # (6). As many cubes each.
    assert search_twin.evaluate(5, Weights(), board.mover_cubes, board.opponent_cubes) == (
        4 + 1 - (4 + 1 + 1) - 6 + 3 * 0)
    assert list(features(5, board.mover_cubes, board.opponent_cubes)) == [
        1, 1, 0, 0, -2, -1, 0, 0, 0, -1, 0, 1]


def test_a_weights_file_round_trips(tmp_path):
    weights = WeightSet({4: Weights((2, 5, 20, 80), (1, 6, 15, 70), 4, 5, 2, 1), 5: Weights()})
    path = tmp_path / "w.json"
    weights.save(path)
    assert WeightSet.load(path) == weights
    assert weight_set(str(path)).for_size(4) == weights.sizes[4]
    assert weight_set(None) is DEFAULTS and weight_set(Weights()).for_size(3) == Weights()


@pytest.mark.parametrize("content, fragment", [
    ("not json", "cannot read"),
    (json.dumps({"format": "other", "sizes": {}}), "not a weights file"),
    (json.dumps({"format": "quixo-weights", "version": 9, "sizes": {}}), "version 9"),
    (json.dumps({"format": "quixo-weights", "version": 1, "sizes": {"6": {}}}), "sizes are"),
    (json.dumps({"format": "quixo-weights", "version": 1, "sizes": {"5": {"bishop": 3}}}),
     "unknown weights"),
    (json.dumps({"format": "quixo-weights", "version": 1, "sizes": {"5": {"cube": 1000}}}),
     "cube must be within"),
    (json.dumps({"format": "quixo-weights", "version": 1,
                 "sizes": {"5": {"own_line": [1, 2, 3]}}}), "own_line must be 4"),
    (json.dumps({"format": "quixo-weights", "version": 1,
                 "sizes": {"5": {"own_line": [1, 2, 3, 4.5]}}}), "whole numbers"),
])
def test_bad_weights_files_are_refused_by_name(tmp_path, content, fragment):
    path = tmp_path / "w.json"
    path.write_text(content)
    with pytest.raises(WeightsError, match=fragment) as raised:
        WeightSet.load(path)
    assert_one_line(raised.value)
    with pytest.raises(WeightsError, match="no weights file"):
        WeightSet.load(tmp_path / "missing.json")
    with pytest.raises(WeightsError):
        Solver(weights=42)


def test_solvers_search_with_their_weights():
    greedy = Weights((0, 0, 0, 0), (0, 0, 0, 0), 0, 0, 100, 0)     # cubes only
    for solver, size in ((Solver(tt_mib=1, weights=greedy), 5),
                         (TeamSolver(tt_mib=1, weights=greedy), 5)):
        assert solver.searcher(size).get_weights() == greedy.kernel()
    # with cubes only, taking a blank is worth a cube: every first move scores the same
    result = Solver(tt_mib=1, weights=greedy).solve(Board(), depth=1)
    assert result.score == 100
    assert Solver(tt_mib=1).solve(Board(), depth=1).score != 100
    assert TeamSolver(tt_mib=1, weights=greedy).solve(TeamBoard(), depth=1).score == 100



def test_the_default_weights_are_tuned_for_two_players_and_the_rulebooks_for_four():
    assert Solver(tt_mib=1).weights is DEFAULTS
    assert TeamSolver(tt_mib=1).weights == RULEBOOK
    assert RULEBOOK.for_size(5) == Weights() != DEFAULTS.for_size(5)


def test_a_weights_file_reaches_the_solver_from_match_engine_and_cli(tmp_path):
    greedy = Weights((0, 0, 0, 0), (0, 0, 0, 0), 0, 0, 100, 0)
    path = tmp_path / "greedy.json"
    WeightSet({size: greedy for size in (3, 4, 5)}).save(path)
    setting = EngineSetting.parse(f"depth=1,weights={path}")
    assert setting.weights == str(path) and f"weights={path}" in str(setting)
    solver = build_solver(setting, MatchSettings(setting, EngineSetting.parse("depth=1")), None)
    assert solver.searcher(5).get_weights() == greedy.kernel()
    session = EngineSession(lambda line: None, None, 16, WeightSet.load(path))
    assert session._ready_solver(Board()).searcher(5).get_weights() == greedy.kernel()
    # the command line searches the same tree as a solver given these weights, not the default
    empty = "...../...../...../...../..... X"
    out = subprocess.run([sys.executable, "-m", "quixo_solver", "solve", empty, "--depth", "2",
                          "--no-tablebase", "--weights", str(path), "--json"],
                         capture_output=True, text=True, check=True).stdout
    greedy_result = Solver(tt_mib=1, weights=greedy).solve(Board(empty), depth=2)
    default_result = Solver(tt_mib=1).solve(Board(empty), depth=2)
    assert (greedy_result.best_move, greedy_result.nodes) != (default_result.best_move,
                                                              default_result.nodes)
    answer = json.loads(out)
    assert (answer["best_move"], answer["nodes"]) == (str(greedy_result.best_move),
                                                      greedy_result.nodes)


# -- tuning (Texel) ---------------------------------------------------------------------------
def test_the_fit_recovers_the_weights_that_made_the_labels():
    import numpy as np

    from quixo_solver.search.tuning import feature_matrix, tune

    rng = np.random.default_rng(5)
    truth = Weights((2, 9, 20, 64), (3, 8, 25, 64), 10, 7, 5, 12)
    scale = 40.0                       # evaluation units per unit of log-odds
    positions = []
    for _ in range(6000):
        cells = rng.choice(3, size=25, p=(0.3, 0.35, 0.35))
        positions.append((sum(1 << sq for sq in range(25) if cells[sq] == 1),
                          sum(1 << sq for sq in range(25) if cells[sq] == 2)))
    z = feature_matrix(5, positions) @ truth.vector() / scale
    labels = list((rng.random(len(positions)) < 1 / (1 + np.exp(-z))).astype(float))
    fit = tune(5, positions, labels)
    found, wanted = fit.weights.vector() / fit.scale, truth.vector() / scale   # log-odds
    assert np.all(np.abs(found - wanted) <= 0.25 * np.abs(wanted) + 0.1), (found, wanted)
    assert fit.loss_after <= fit.loss_before


def test_tuning_refuses_bad_labels():
    from quixo_solver.search.tuning import tune

    with pytest.raises(ValueError, match="as many labels"):
        tune(5, [(1, 2)], [])
    with pytest.raises(ValueError, match="from 0"):
        tune(5, [(1, 2)], [2.0])
