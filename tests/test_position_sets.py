"""Position sets with exact answers (benchmarks/data/sets) and the scores of players on them:
engines (quixo judge --set), OpenSpiel bots and PettingZoo policies."""
import json
import numpy as np
import pytest

from quixo_solver.frontends.cli import main
from quixo_solver.rules.board import Board
from quixo_solver.search.solver import Solver
from quixo_solver.tablebase import Tablebase
from quixo_solver.tournament.position_sets import (BUNDLED_FOLDER, PositionSet,
                                                   PositionSetError, answered, score,
                                                   stage_of, stages_of, wilson)

from .extras import require

COMMITTED = BUNDLED_FOLDER / "quixo-4x4.json"


@pytest.fixture(scope="module")
def committed():
    return PositionSet.bundled("quixo-4x4")


def test_the_committed_set_is_what_its_rule_says_and_the_tables_agree(committed, tables):
    assert (committed.size, committed.players, committed.seed) == (4, 2, 1)
    counts = stages_of(committed.positions)
    assert counts == {stage: 100 for stage in counts} and len(counts) == 8
    assert "opening/near" not in counts                  # none met in 20,000 games
    assert len({row.position for row in committed.positions}) == len(committed.positions)
    solver = Solver(tablebase=Tablebase(tables))
    for row in committed.positions[::25]:
        board = Board(row.position)
        assert answered(board, row.played, solver) == row
        assert row.optimal and all(row.moves[m] == (row.value, row.plies) for m in row.optimal)


RANK = {"win": 2, "draw": 1, "loss": 0}


def test_a_perfect_player_makes_no_mistake_and_a_bad_one_is_counted(committed):
    rows = {row.position: row for row in committed.positions}
    perfect = score(committed, lambda board: min(rows[str(board)].optimal))
    assert (perfect["mistakes"], perfect["optimal"]) == (0, len(committed.positions))
    assert perfect["plies_lost_mean"] == 0.0

    def worst(board):                       # a move that leaves the least value
        row = rows[str(board)]
        return min(row.moves, key=lambda move: (RANK[row.moves[move][0]], move))
    bad = score(committed, worst)
    expected = sum(1 for row in committed.positions
                   if min(RANK[value] for value, _ in row.moves.values()) < RANK[row.value])
    assert bad["mistakes"] == expected > 0
    assert sum(stage["positions"] for stage in bad["by_stage"].values()) == 800
    low, high = bad["mistake_interval"]
    assert low <= bad["mistake_rate"] <= high


def test_wilson_intervals_are_the_known_ones():
    assert wilson(0, 0) is None
    low, high = wilson(0, 100)
    assert abs(low) < 1e-12 and abs(high - 0.0370) < 1e-4
    low, high = wilson(50, 100)
    assert abs(low - 0.4038) < 1e-4 and abs(high - 0.5962) < 1e-4


def test_stages_are_named_by_plies_played_and_plies_to_the_end(committed):
    row = committed.positions[0]
    for played, value, plies, name in ((0, "win", 21, "opening/far"),
                                       (9, "loss", 4, "middle/near"),
                                       (30, "draw", None, "late/draw")):
        assert stage_of(type(row)(row.position, played, value, plies, {})) == name


@pytest.mark.parametrize("change, message", [
    (lambda data: data.pop("seed"), "missing or wrong"),
    (lambda data: data["positions"][0]["moves"].pop(next(iter(data["positions"][0]["moves"]))),
     "legal moves"),
    (lambda data: data["positions"][0].update(value="won"), "missing or wrong"),
    (lambda data: data.update(size=5), "not of the set's game"),
])
def test_a_bad_set_is_refused_by_name(committed, tmp_path, change, message):
    data = json.loads(COMMITTED.read_text())
    data["positions"] = data["positions"][:3]
    change(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(PositionSetError, match=message):
        PositionSet.load(path)
    (tmp_path / "none.json").write_text("not json")
    with pytest.raises(PositionSetError, match="not a position set"):
        PositionSet.load(tmp_path / "none.json")


def test_the_set_round_trips(committed, tmp_path):
    committed.save(tmp_path / "again.json")
    assert PositionSet.load(tmp_path / "again.json") == committed


def test_quixo_judge_scores_an_engine_on_a_set(committed, tmp_path, tables, capsys):
    small = PositionSet(**{**committed.__dict__, "positions": committed.positions[::40]})
    small.save(tmp_path / "small.json")
    assert main(["judge", "--set", str(tmp_path / "small.json"), "--engine",
                 "depth=1,tables=off", "--engine", "depth=2,tables=on", "--dir", str(tables),
                 "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["positions"] == 20 and len(payload["engines"]) == 2
    with_tables = payload["engines"][1]
    assert (with_tables["mistakes"], with_tables["optimal"]) == (0, 20)   # it reads the tables
    assert set(payload["engines"][0]["by_stage"]) <= set(stages_of(committed.positions))
    assert main(["judge", "--set", str(tmp_path / "small.json")]) == 2
    assert "needs at least one --engine" in capsys.readouterr().err
    assert main(["judge", "--set", "quixo-9x9", "--engine", "depth=1"]) == 2
    assert "not a position set" in capsys.readouterr().err


def test_an_openspiel_bot_and_a_pettingzoo_policy_are_scored(committed, tables):
    require("pyspiel", "pettingzoo", extra="rl")
    import pyspiel
    import quixo_solver.openspiel  # noqa: F401
    from quixo_solver.openspiel import PerfectBot
    from quixo_solver.openspiel.scoring import score_bot
    from quixo_solver.pettingzoo.scoring import score_policy

    small = PositionSet(**{**committed.__dict__, "positions": committed.positions[::40]})
    game = pyspiel.load_game("python_quixo(size=4,players=2)")
    perfect = [PerfectBot(game, seat, tablebase=tables) for seat in (0, 1)]
    found = score_bot(game, perfect, small)
    assert (found["mistakes"], found["optimal"]) == (0, 20)
    random_bots = [pyspiel.make_uniform_random_bot(seat, 1) for seat in (0, 1)]
    assert score_bot(game, random_bots, small)["positions"] == 20
    with pytest.raises(ValueError, match="one bot for every player"):
        score_bot(game, random_bots[:1], small)
    first = score_policy(lambda observation, agent: int(np.argmax(observation["action_mask"])),
                         small)
    assert first["positions"] == 20 and first["mistakes"] + first["optimal"] <= 20
    with pytest.raises(Exception, match="not a position of quixo_v0"):
        from quixo_solver.pettingzoo import quixo_v0
        env = quixo_v0.env(size=4)
        env.reset(options={"position": ".../.../... X"})


def test_the_5x5_endgame_set_is_what_its_rule_says(tables):
    """Drawn from the classes of 0-4 blanks (the rebuild's tables); the rows of 0 and 1 blank,
    whose tables the tests build, are answered again here."""
    endgame = PositionSet.bundled("quixo-5x5-endgame")
    assert (endgame.size, endgame.players) == (5, 2)
    counts = stages_of(endgame.positions)
    assert counts == {f"{b} blanks/{end}": 50 for b in range(5)
                      for end in ("draw", "far", "near")}
    solver = Solver(tablebase=Tablebase(tables))
    checked = 0
    for row in endgame.positions:
        if row.position.count(".") <= 1:
            assert answered(Board(row.position), -1, solver) == row
            checked += 1
    assert checked == 300
