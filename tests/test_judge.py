"""Judging moves by the tables (quixo_solver.tournament.judge, `quixo judge`): a perfect engine
makes no error; a random mover's errors, perfect moves, plies lost and counts by blanks are
exactly what an independent count finds (the tables' pure-Python oracle on 3x3: its own rules
and retrograde rounds); recorded games of `quixo match` and of SPEC moves; the JSON fields and
the refusals of the command line."""
import json
import random
import shlex
import sys

import pytest

from quixo_solver import Board, Tablebase
from quixo_solver.rules import _rules_twin
from quixo_solver.frontends.cli import main
from quixo_solver.tournament.judge import (JudgeError, engine_setting, go_limits, judge_games,
                                           judge_move, judge_positions, read_games, read_positions)
from quixo_solver.tournament.run import run_match
from quixo_solver.tournament.settings import EngineSetting, MatchSettings
from quixo_solver.tablebase import values
from quixo_solver.tablebase.generator._retro_twin import solve_classes

QUIXO_ENGINE = [sys.executable, "-m", "quixo_solver", "engine", "--hash", "4"]

# A program speaking the engine protocol that plays a random legal move, drawn from a
# generator seeded by the position (so the test can draw the same move).
RANDOM_ENGINE = '''
import random, sys
from quixo_solver.variants import parse_board
board = None
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        print("id name random mover", flush=True)
        print("uciok", flush=True)
    elif words[0] == "isready":
        print("readyok", flush=True)
    elif words[0] == "position":
        board = parse_board(" ".join(words[1:3]))
    elif words[0] == "go":
        moves = sorted(str(move) for move in board.legal_moves)
        print("bestmove " + random.Random(str(board)).choice(moves), flush=True)
    elif words[0] == "quit":
        break
'''


def random_choice(board):
    """The random engine's move in `board`."""
    return random.Random(str(board)).choice(sorted(str(move) for move in board.legal_moves))


@pytest.fixture(scope="module")
def oracle():
    """Value codes of every 3x3 position, by the oracle (independent of the tables)."""
    return solve_classes(3, fewest_cubes=0)


@pytest.fixture
def random_engine(tmp_path):
    path = tmp_path / "random_engine.py"
    path.write_text(RANDOM_ENGINE)
    return "cmd=" + shlex.join([sys.executable, str(path)])


def positions_of_random_games(size, count, seed):
    """Unfinished positions met in seeded random games, each once."""
    generator = random.Random(seed)
    found = {}
    while len(found) < count:
        board = Board(size=size)
        while not board.is_game_over() and len(found) < count:
            found.setdefault(str(board), board.copy(stack=False))
            board.push(generator.choice(list(board.legal_moves)))
    return list(found.values())


def expected_by_oracle(oracle, moves):
    """What the judge must say of (board, move) pairs, counted from the oracle's values:
    {"judged", "errors", "perfect", "plies_lost", "by_blanks"}."""
    errors = perfect = 0
    lost = []
    by_blanks = {}
    for board, move in moves:
        source, target = move_squares(board, move)
        mover, opponent = board.mover_cubes, board.opponent_cubes
        child = _rules_twin.play_move(3, mover, opponent, source, target)
        before, after = oracle[(mover, opponent)], oracle[child]
        wdl_before, plies_before = values.wdl_of(before), values.plies_of(before)
        wdl_after = -values.wdl_of(after)
        plies_after = None if values.plies_of(after) is None else values.plies_of(after) + 1
        error = wdl_after < wdl_before
        exact = not error and plies_after == plies_before
        errors += error
        perfect += exact
        if not error and plies_before is not None:
            lost.append(abs(plies_after - plies_before))
        blanks = str(9 - bin(mover | opponent).count("1"))
        row = by_blanks.setdefault(blanks, [0, 0])
        row[0] += 1
        row[1] += error
    return {"judged": len(moves), "errors": errors, "perfect": perfect,
            "plies_lost": round(sum(lost) / len(lost), 4) if lost else None,
            "by_blanks": {b: by_blanks[b] for b in sorted(by_blanks, key=int)}}


def move_squares(board, move):
    return board.move_type.from_text(str(move)).squares(board.size)


def summary(row):
    return {"judged": row["judged"], "errors": row["errors"], "perfect": row["perfect"],
            "plies_lost": row["plies_lost_mean"],
            "by_blanks": {b: [r["judged"], r["errors"]] for b, r in row["by_blanks"].items()}}


# -- single moves ---------------------------------------------------------------------------

def test_a_move_is_judged_against_the_value_of_its_position(tables):
    with Tablebase(tables) as tablebase:
        board = Board("X.O/.X./O.. X")          # X wins at once (b1c1)
        verdicts = {str(move): judge_move(tablebase, board, move)
                    for move in board.legal_moves}
        best = tablebase.probe(board)
        assert (best.value, best.plies) == ("win", 1)
        winning = [v for v in verdicts.values() if v.perfect]
        assert winning and all(v.after.value == "win" and v.after.plies == 1 for v in winning)
        for verdict in verdicts.values():
            assert verdict.error == (verdict.after.value != "win")
            assert verdict.blanks == 5
            if not verdict.error:
                assert verdict.plies_lost == verdict.after.plies - 1
        # outside the tables (a 5x5 position with many blanks): not judged
        assert judge_move(tablebase, Board(), "a1e1") is None


# -- engines on positions -------------------------------------------------------------------

def test_the_tables_play_a_perfect_engine(tables):
    boards = positions_of_random_games(3, 40, seed=1) + positions_of_random_games(4, 40, 2)
    with Tablebase(tables) as tablebase:
        tallies = judge_positions(boards, ["depth=1,hash=4", "cmd=" + shlex.join(
            QUIXO_ENGINE + ["--dir", str(tables)]) + ",depth=1"], tablebase, progress=False)
    for tally in tallies:
        row = tally.to_json()
        assert (row["moves"], row["judged"], row["errors"], row["perfect"]) == (80, 80, 0, 80)
        assert row["error_rate"] == 0 and row["perfect_rate"] == 1 and row["worst"] == []


def test_a_random_movers_errors_are_counted_exactly(tables, oracle, random_engine):
    boards = positions_of_random_games(3, 120, seed=7)
    expected = expected_by_oracle(oracle, [(board, random_choice(board)) for board in boards])
    assert 0 < expected["errors"] < expected["judged"]      # a set that can tell
    with Tablebase(tables) as tablebase:
        tally, = judge_positions(boards, [random_engine], tablebase, progress=False)
    row = tally.to_json(worst=1000)
    assert row["moves"] == 120 and summary(row) == expected
    assert row["error_rate"] == round(expected["errors"] / 120, 6)
    assert len(row["worst"]) == 120 - expected["perfect"]
    by_value = row["by_value"]
    assert sum(r["judged"] for r in by_value.values()) == 120
    assert sum(r["errors"] for r in by_value.values()) == expected["errors"]
    assert by_value.get("loss", {"errors": 0})["errors"] == 0     # nothing is worse than a loss
    drops = [values_rank(w["value_before"]) - values_rank(w["value_after"])
             for w in row["worst"]]
    assert drops == sorted(drops, reverse=True) and drops[0] > 0


def values_rank(value):
    return {"win": 1, "draw": 0, "loss": -1}[value]


def test_positions_outside_the_tables_count_as_moves_but_are_not_played(tables):
    boards = [Board("X.O/.X./O.. X"), Board()]          # 3x3, and the empty 5x5 board
    with Tablebase(tables) as tablebase:
        tally, = judge_positions(boards, ["depth=1,tables=off"], tablebase, progress=False)
    assert (tally.moves, len(tally.verdicts)) == (2, 1)


def test_go_gives_the_limits_of_a_setting_without_its_own():
    assert go_limits("movetime 250") == {"time": 0.25}
    assert go_limits("go depth 3 nodes 500") == {"depth": 3, "nodes": 500}
    assert engine_setting("tables=off", "depth 2") == EngineSetting(depth=2, tables=False)
    assert engine_setting("time=2", "depth 2").depth is None     # its own limit wins
    assert engine_setting("cmd=prog", "movetime 50").time == 0.05
    for go, fragment in [("movetime", "pairs"), ("xtime 100", "unknown limit"),
                         ("depth 0", "from 1"), ("depth 2 depth 3", "twice")]:
        with pytest.raises(JudgeError, match=fragment):
            go_limits(go)
    with pytest.raises(JudgeError, match="clock= plays a game"):
        engine_setting("clock=10s")


# -- recorded games -------------------------------------------------------------------------

def test_the_moves_of_random_games_are_counted_exactly(tables, oracle, tmp_path):
    generator = random.Random(11)
    lines, moves_of = [], {"X": [], "O": []}
    for _ in range(12):
        board = Board(size=3)
        moves = []
        while not board.is_game_over():
            move = generator.choice(list(board.legal_moves))
            moves_of[board.turn].append((board.copy(stack=False), move))
            moves.append(str(move))
            board.push(move)
        lines.append(json.dumps({"start": str(Board(size=3)), "moves": moves,
                                 "engines": {"X": "first", "O": "second"}}))
    path = tmp_path / "games.jsonl"
    path.write_text("\n".join(lines) + "\n")
    with Tablebase(tables) as tablebase:
        found = judge_games(read_games(path), tablebase)
    assert found.games == 12 and found.adjudicated == 0
    rows = {tally.engine: tally.to_json() for tally in found.tallies}
    assert list(rows) == ["first", "second"]
    for name, side in (("first", "X"), ("second", "O")):
        assert summary(rows[name]) == expected_by_oracle(oracle, moves_of[side])


def test_match_records_are_judged_move_by_move_without_their_openings(tables, tmp_path):
    settings = MatchSettings(EngineSetting(depth=1, hash=4, tables=False),
                             EngineSetting(depth=3, hash=4, tables=False), size=4, seed=2)
    run = run_match(settings, 2, tmp_path / "games.jsonl", jobs=1, progress=False)
    with Tablebase(tables) as tablebase:
        found = judge_games(read_games(tmp_path / "games.jsonl"), tablebase)
        rows = {tally.engine: tally.to_json() for tally in found.tallies}
        assert set(rows) == {str(settings.engine_a), str(settings.engine_b)}
        assert sum(row["moves"] for row in rows.values()) == sum(
            len(record["moves"]) for record in run.records)
        # the same verdicts, replayed here move by move
        errors = {name: 0 for name in rows}
        for record in run.records:
            board = Board(size=4)
            for move in record["opening_moves"]:
                board.push(move)
            names = {"A": str(settings.engine_a), "B": str(settings.engine_b)}
            turn = {"X": names[record["x"]], "O": names["B" if record["x"] == "A" else "A"]}
            for move in record["moves"]:
                before = tablebase.probe(board).wdl
                engine = turn[board.turn]
                board.push(move)
                after = -board.status() if board.is_game_over() else -tablebase.probe(board).wdl
                errors[engine] += after < before
    assert {name: row["errors"] for name, row in rows.items()} == errors


def test_a_game_of_quixo_play_names_the_human_and_the_engine(tables, tmp_path):
    path = tmp_path / "play.jsonl"
    path.write_text(json.dumps({"start": ".../.../... X", "human": "O",
                                "moves": ["a1c1", "a3a1"], "result": "*"}) + "\n")
    with Tablebase(tables) as tablebase:
        found = judge_games(read_games(path), tablebase)
    assert [(t.engine, t.moves) for t in found.tallies] == [("engine", 1), ("human", 1)]


# -- the command line -----------------------------------------------------------------------

def run_cli(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_the_json_has_the_specs_fields(tables, tmp_path, capsys):
    path = tmp_path / "positions.txt"
    path.write_text("# two positions\nX.O/.X./O.. X\n\n.XO/.X./O.. O  # another\n")
    status, out, err = run_cli(capsys, "judge", "--positions", str(path), "--engine",
                               "depth=1", "--engine", "depth=1,tables=off", "--dir",
                               str(tables), "--json")
    assert status == 0 and err == ""
    payload = json.loads(out)
    assert list(payload)[:1] == ["engines"] and payload["positions"] == 2
    for row, name in zip(payload["engines"], ["depth=1", "depth=1,tables=off"]):
        assert list(row)[:10] == ["engine", "moves", "judged", "errors", "perfect",
                                  "error_rate", "plies_lost_mean", "by_blanks", "worst",
                                  "perfect_rate"]
        assert row["engine"] == name and row["moves"] == row["judged"] == 2
        for counts in row["by_blanks"].values():
            assert list(counts)[:2] == ["judged", "errors"]
    status, out, _ = run_cli(capsys, "judge", "--positions", str(path), "--engine", "depth=1",
                             "--dir", str(tables))
    assert status == 0 and out.splitlines()[0].split()[:4] == ["engine", "moves", "judged",
                                                               "errors"]


def test_games_through_the_command_line(tables, tmp_path, capsys):
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps({"start": "X.O/.X./O.. X", "moves": ["b3a3"],
                                "adjudication": None}) + "\n")
    status, out, _ = run_cli(capsys, "judge", "--games", str(path), "--dir", str(tables),
                             "--json")
    payload = json.loads(out)
    assert status == 0 and payload["games"] == 1 and payload["adjudicated"] == 0
    assert payload["engines"][0]["engine"] == "X" and payload["engines"][0]["judged"] == 1


@pytest.mark.parametrize("content, extra, fragment", [
    (None, [], "No such file"),
    ("XX/.. X\n", [], "line 1"),
    ("XXX/OO./... O\n", [], "the game is over"),
    ("Xx......./ X1\n", [], "line 1"),
    ("# nothing\n", [], "holds no position"),
    ("X.O/.X./O.. X\n", ["--engine", "speed=9"], "unknown engine setting"),
    ("X.O/.X./O.. X\n", ["--engine", "depth=1", "--go", "wtime 5"], "unknown limit"),
    ("X.O/.X./O.. X\n", ["--engine", "cmd=/no/such/program"], "/no/such/program"),
    ("X.O/.X./O.. X\n", ["--engine", "depth=1", "--dir", "EMPTY"], "no 3x3 tables"),
    ("X.O/.X./O.. X\n", [], "needs at least one --engine"),
])
def test_bad_positions_files_and_engines_are_refused(tables, tmp_path, capsys, content,
                                                     extra, fragment):
    path = tmp_path / "positions.txt"
    if content is not None:
        path.write_text(content)
    (tmp_path / "EMPTY").mkdir()
    extra = [str(tmp_path / "EMPTY") if word == "EMPTY" else word for word in extra]
    if "--engine" not in extra and "needs" not in fragment:
        extra = ["--engine", "depth=1"] + extra
    if "--dir" not in extra:
        extra += ["--dir", str(tables)]
    status, out, err = run_cli(capsys, "judge", "--positions", str(path), *extra)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and fragment in err, err


@pytest.mark.parametrize("content, extra, fragment", [
    ("not json\n", [], "line 1 is not a JSON object"),
    ("\n\n", [], "holds no game"),
    ('{"moves": []}\n', [], "game 1 is not a game record"),
    ('{"start": ".../.../... X", "moves": ["a1a1"]}\n', [], "game 1 move 1 (a1a1)"),
    ('{"start": ".../.../... X", "moves": ["a1c1"]}\n', ["--engine", "depth=1"],
     "--engine is for --positions"),
])
def test_bad_games_files_are_refused(tables, tmp_path, capsys, content, extra, fragment):
    path = tmp_path / "games.jsonl"
    path.write_text(content)
    status, out, err = run_cli(capsys, "judge", "--games", str(path), "--dir", str(tables),
                               *extra)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and fragment in err, err
