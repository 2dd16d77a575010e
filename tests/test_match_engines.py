"""Matches against programs that speak the engine protocol (quixo match cmd=, engine_process):
`quixo engine` plays as the in-process solver does, programs that crash, hang or play an
illegal move lose that game and the match goes on, a program that cannot start stops the match
before it begins, and a sequential test (--sprt) stops the match once it decides."""
import json
import os
import shlex
import sys
import time

import pytest

from quixo_solver.frontends.cli import main
from quixo_solver.tournament.clock import GameClock, TimeControl
from quixo_solver.tournament.engine_process import EngineFailure, EngineProcess
from quixo_solver.errors import MatchError
from quixo_solver.tournament.external_engine import TIME_MARGIN, go_command, position_command
from quixo_solver.tournament.run import run_match
from quixo_solver.tournament.settings import EngineSetting, MatchSettings
from quixo_solver.tournament.match_stats import Sprt

QUIXO_ENGINE = shlex.join([sys.executable, "-m", "quixo_solver", "engine", "--no-tablebase",
                           "--hash", "4"])

FAKE_ENGINE = '''
import sys, time
from quixo_solver.frontends.engine_protocol import parse_position

behaviour, after = sys.argv[1], int(sys.argv[2])
if behaviour == "die-at-start":
    print("cannot start", file=sys.stderr)
    sys.exit(4)
board, goes = None, 0
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        print("id name fake " + behaviour, flush=True)
        print("option name Hash type spin default 1 min 1 max 64", flush=True)
        print("uciok", flush=True)
    elif words[0] == "isready":
        print("readyok", flush=True)
    elif words[0] == "position":
        board = parse_position(words[1:])
    elif words[0] == "go":
        goes += 1
        if goes >= after:
            if behaviour == "crash":
                print("boom: the fake engine crashed", file=sys.stderr, flush=True)
                sys.exit(3)
            if behaviour == "hang":
                time.sleep(3600)
            if behaviour == "illegal":
                print("bestmove b2b1", flush=True)   # b2 is not on the border
                continue
            if behaviour == "garbage":
                print("bestmove", flush=True)
                continue
            if behaviour == "silent-exit":
                sys.exit(0)
        print("bestmove " + str(next(iter(board.legal_moves))), flush=True)
    elif words[0] == "quit":
        break
'''


@pytest.fixture
def fake(tmp_path):
    """cmd= text of the fake engine with a behaviour: fake("crash", 2) crashes at its 2nd go."""
    path = tmp_path / "fake_engine.py"
    path.write_text(FAKE_ENGINE)

    def command(behaviour="play", after=1):
        return shlex.join([sys.executable, str(path), behaviour, str(after)])
    return command


DEPTH_1 = EngineSetting(depth=1, hash=4, tables=False)
DEPTH_2 = EngineSetting(depth=2, hash=4, tables=False)


def moves_of(run):
    return [(r["pair"], r["game"], r["moves"], r["result"], r["reason"]) for r in run.records]


# -- quixo engine plays as the solver does ----------------------------------------------------

def test_quixo_engine_through_the_protocol_plays_the_solvers_games(tmp_path):
    external = EngineSetting.parse(f"cmd={QUIXO_ENGINE},depth=2,hash=4")
    through_pipes = run_match(MatchSettings(external, DEPTH_1, size=4, seed=3), 2,
                              tmp_path / "pipes.jsonl", jobs=1, progress=False)
    in_process = run_match(MatchSettings(DEPTH_2, DEPTH_1, size=4, seed=3), 2,
                           tmp_path / "process.jsonl", jobs=1, progress=False)
    assert moves_of(through_pipes) == moves_of(in_process)
    assert through_pipes.program_names["A"].startswith("quixo-solver ")
    assert all(record["detail"] is None for record in through_pipes.records)


def test_a_program_plays_on_a_clock_and_with_nodes(tmp_path):
    setting = EngineSetting.parse(f"cmd={QUIXO_ENGINE},clock=5s+0.1s")
    nodes = EngineSetting.parse(f"cmd={QUIXO_ENGINE},nodes=2000,hash=4")
    run = run_match(MatchSettings(setting, nodes, size=4, seed=2, max_plies=30), 1,
                    tmp_path / "clock.jsonl", jobs=1, progress=False)
    assert run.played == 2
    for record in run.records:
        assert record["reason"] in ("line", "repetition", "move limit")
        clock_player = "X" if record["x"] == "A" else "O"
        assert 0 < record["clocks"][clock_player] <= 5.0 + 0.1 * 30


def test_the_commands_a_match_sends():
    settings = MatchSettings(DEPTH_1, DEPTH_1, size=4, players=2)
    assert position_command(settings, []) == "position startpos size 4 players 2"
    assert position_command(settings, ["a1d1", "d4a4"]) == \
        "position startpos size 4 players 2 moves a1d1 d4a4"
    now = [0.0]
    clocks = GameClock({"X": TimeControl(10, 0.5), "O": TimeControl(3)}, lambda: now[0])
    clocks.start("X")
    now[0] = 1.25
    setting = EngineSetting.parse("cmd=prog,clock=10s+0.5s,depth=7,nodes=99")
    assert go_command(setting, clocks) == ("go xtime 8750 xinc 500 otime 3000 oinc 0 depth 7 "
                                           "nodes 99")
    assert go_command(EngineSetting.parse("cmd=prog,time=0.25"), clocks) == "go movetime 250"


# -- programs that fail lose their games; the match goes on ---------------------------------

@pytest.mark.parametrize("behaviour, after, reason, detail", [
    ("crash", 2, "crash", "exited with status 3; its stderr: boom: the fake engine crashed"),
    ("silent-exit", 1, "crash", "exited with status 0"),
    ("illegal", 1, "illegal move", "played 'b2b1' in"),
    ("garbage", 1, "illegal move", "played ''"),
])
def test_a_failing_program_loses_each_game_and_the_match_goes_on(tmp_path, fake, behaviour,
                                                                  after, reason, detail):
    failing = EngineSetting.parse(f"cmd={fake(behaviour, after)},time=5")
    run = run_match(MatchSettings(DEPTH_1, failing, size=4, seed=1), 2,
                    tmp_path / "games.jsonl", jobs=1, progress=False)
    assert run.played == 4 and len(run.records) == 4
    for record in run.records:
        assert record["reason"] == reason and detail in record["detail"]
        assert (record["winner"], record["loser"], record["score_a"]) == ("A", "B", 1.0)
        assert record["result"] == ("1-0" if record["x"] == "A" else "0-1")
        fake_moves = record["moves"][1::2] if record["x"] == "A" else record["moves"][0::2]
        assert len(fake_moves) == after - 1          # it failed at its `after`-th move
    stats = run.statistics
    assert stats["wins"] == 4 and stats["reasons"][reason] == 4
    assert stats["forfeits"]["B"][reason] == 4 and stats["forfeits"]["A"][reason] == 0
    assert run.program_names == {"B": f"fake {behaviour}"}


def test_a_program_that_hangs_past_its_time_per_move_loses_on_time(tmp_path, fake):
    hanging = EngineSetting.parse(f"cmd={fake('hang', 2)},time=0.2")
    started = time.monotonic()
    run = run_match(MatchSettings(hanging, DEPTH_1, size=4, seed=1), 1,
                    tmp_path / "games.jsonl", jobs=1, progress=False)
    seconds = time.monotonic() - started
    assert [r["reason"] for r in run.records] == ["time", "time"]
    for record in run.records:
        assert record["loser"] == "A" and "no bestmove in time (killed)" in record["detail"]
        assert record["seconds"] >= 0.2 + TIME_MARGIN
    assert seconds < 2 * (0.2 + TIME_MARGIN) + 30     # no longer than the margin each


def test_a_program_that_hangs_on_a_clock_loses_on_time_when_it_runs_out(tmp_path, fake):
    hanging = EngineSetting.parse(f"cmd={fake('hang', 1)},clock=1.5s")
    run = run_match(MatchSettings(hanging, DEPTH_1, size=4, seed=1), 1,
                    tmp_path / "games.jsonl", jobs=1, progress=False)
    for record in run.records:
        assert record["reason"] == "time" and record["loser"] == "A"
        player = "X" if record["x"] == "A" else "O"
        assert record["flagged"] == player and record["clocks"] == {player: 0.0}
        assert 1.5 <= record["seconds"] < 10


def test_failures_in_worker_processes_are_recorded_too(tmp_path, fake):
    crashing = EngineSetting.parse(f"cmd={fake('crash', 3)},depth=1")
    run = run_match(MatchSettings(crashing, DEPTH_1, size=4, seed=4), 2,
                    tmp_path / "games.jsonl", jobs=2, progress=False)
    assert run.played == 4
    assert {r["reason"] for r in run.records} <= {"crash", "line", "repetition"}
    assert any(r["reason"] == "crash" and r["loser"] == "A" for r in run.records)


@pytest.mark.parametrize("behaviour, fragment", [
    ("die-at-start", "exited with status 4; its stderr: cannot start"),
    ("missing", "cannot run"),
])
def test_a_program_that_cannot_start_stops_the_match_before_it_begins(tmp_path, fake,
                                                                      behaviour, fragment):
    command = fake(behaviour) if behaviour != "missing" else "no-such-program-here --x"
    broken = EngineSetting.parse(f"cmd={command},depth=1")
    with pytest.raises(MatchError, match=fragment):
        run_match(MatchSettings(DEPTH_1, broken, size=4), 1, tmp_path / "g.jsonl", jobs=1,
                  progress=False)
    assert not (tmp_path / "g.jsonl").exists()


def test_engine_process_reports_crashes_and_timeouts(fake):
    process = EngineProcess(shlex.split(fake("hang", 2)), "fake")
    process.start()
    assert process.name == "fake hang" and process.has_option("hash")
    answer = process.play("position startpos size 3", "go depth 1", 10)
    assert answer.move == "a1c1" and answer.seconds < 10
    with pytest.raises(EngineFailure) as failure:
        process.play("position startpos size 3", "go depth 1", 0.3)
    assert failure.value.reason == "time" and not process.alive
    process.start()                                 # again after a failure
    process.close()
    crashing = EngineProcess(shlex.split(fake("crash", 1)), "fake")
    crashing.start()
    with pytest.raises(EngineFailure) as failure:
        crashing.play("position startpos size 3", "go depth 1", 10)
    assert failure.value.reason == "crash" and "status 3" in str(failure.value)
    with pytest.raises(EngineFailure, match="not running"):
        crashing.send("isready")


# -- the sequential test stops the match ----------------------------------------------------

def test_the_match_stops_when_the_test_decides_and_stays_stopped(tmp_path, fake):
    # B forfeits every game by an illegal move: A scores 2/2 in every pair, and
    # SPRT(0, 100) accepts H1 after 10 such pairs (the LLR is 2.88 after 9, 3.20 after 10)
    illegal = EngineSetting.parse(f"cmd={fake('illegal', 1)},time=5")
    settings = MatchSettings(DEPTH_1, illegal, size=4, seed=1)
    sprt = Sprt(0, 100)
    path = tmp_path / "games.jsonl"
    first = run_match(settings, 6, path, jobs=1, progress=False, sprt=sprt)
    assert first.played == 12 and first.statistics["sprt"]["result"] == "continue"
    resumed = run_match(settings, 100, path, jobs=1, progress=False, sprt=sprt)
    assert resumed.played == 8 and resumed.statistics["pairs"] == 10
    report = resumed.statistics["sprt"]
    assert report["result"] == "H1 accepted"
    assert report["llr"] == pytest.approx(sprt.llr([0, 0, 0, 0, 10]), abs=1e-4)
    assert report["llr"] >= report["upper_bound"] > sprt.llr([0, 0, 0, 0, 9])
    again = run_match(settings, 100, path, jobs=1, progress=False, sprt=sprt)
    assert again.played == 0 and len(path.read_text().splitlines()) == 20
    rejected = run_match(MatchSettings(illegal, DEPTH_1, size=4, seed=1), 100,
                         tmp_path / "h0.jsonl", jobs=2, progress=False, sprt=sprt)
    assert rejected.statistics["sprt"]["result"] == "H0 accepted"
    assert rejected.statistics["pentanomial"][0] == rejected.statistics["pairs"]
    assert rejected.statistics["pairs"] <= 11      # decided at 10 pairs, in order or not


# -- the command line -------------------------------------------------------------------------

def quixo_on_path(monkeypatch):
    """`cmd=quixo engine` as the brief writes it: the `quixo` script next to this Python (an
    installed package has one), else this Python running the package."""
    folder = os.path.dirname(sys.executable)
    if os.path.exists(os.path.join(folder, "quixo")):
        monkeypatch.setenv("PATH", folder + os.pathsep + os.environ.get("PATH", ""))
        return "quixo engine"
    return f"{sys.executable} -m quixo_solver engine"


def test_quixo_match_plays_quixo_engine_against_a_depth(capsys, tmp_path, monkeypatch):
    program = quixo_on_path(monkeypatch)
    records = tmp_path / "games.jsonl"
    status = main(["match", "--engine-a", f"cmd={program}", "--engine-b", "depth=2",
                   "--size", "3", "--pairs", "1", "--jobs", "1", "--dir", str(tmp_path / "t"),
                   "--records", str(records), "--json"])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    payload = json.loads(captured.out)
    assert payload["engines"]["A"]["setting"] == f"cmd={program},time=1,hash=64"
    assert payload["engines"]["A"]["program_name"].startswith("quixo-solver")
    assert payload["games"] == 2 and payload["reasons"]["crash"] == 0


def test_quixo_match_prints_fastchess_lines_and_stops_on_sprt(capsys, tmp_path, fake):
    records = tmp_path / "games.jsonl"
    argv = ["match", "--engine-a", "depth=1,tables=off", "--engine-b",
            f"cmd={fake('illegal', 1)},time=5", "--size", "4", "--pairs", "50", "--jobs", "1",
            "--records", str(records), "--sprt", "elo0=0,elo1=100,alpha=0.05,beta=0.05"]
    status = main(argv)
    out = capsys.readouterr().out
    assert status == 0
    assert "Results of A vs B (depth=1,hash=64,tables=off - cmd=" in out
    assert "Elo: inf, nElo: n/a" in out
    assert "LOS: 100.00 %, DrawRatio: 0.00 %, PairsRatio: inf" in out
    assert "Games: 20, Wins: 20, Losses: 0, Draws: 0, Points: 20.0 (100.00 %)" in out
    assert "Ptnml(0-2): [0, 0, 0, 0, 10], WL/DD Ratio: inf" in out
    assert "LLR: 3.20 (108.7%) (-2.94, 2.94) [0.00, 100.00]" in out
    assert "SPRT (normalized Elo, pentanomial): H1 accepted" in out
    assert "engine B forfeited: crash 0, illegal move 20, time 0" in out
    summary = json.loads(records.with_suffix(".summary.json").read_text())
    assert summary["sprt"]["result"] == "H1 accepted" and summary["games"] == 20


@pytest.mark.parametrize("argv, fragment", [
    (["--engine-a", "cmd=", "--engine-b", "depth=1"], "cmd= needs a program"),
    (["--engine-a", "cmd=prog,tables=off", "--engine-b", "depth=1"], "tables= is for"),
    (["--engine-a", "depth=1", "--engine-b", "depth=1", "--sprt", "elo0=0"], "needs elo1="),
    (["--engine-a", "depth=1", "--engine-b", "depth=1", "--sprt", "elo0=5,elo1=1"],
     "less than its elo1"),
    (["--engine-a", "cmd=no-such-program-here,depth=1", "--engine-b", "depth=1,tables=off",
      "--size", "4"], "cannot run no-such-program-here"),
])
def test_bad_programs_and_tests_exit_2_with_one_line(capsys, tmp_path, argv, fragment):
    status = main(["match", *argv, "--records", str(tmp_path / "g.jsonl")])
    err = capsys.readouterr().err
    assert status == 2 and fragment in err and err.count("\n") == 1
