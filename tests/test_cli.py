"""The quixo command line: JSON shapes of SPEC, and clear errors with exit status 2."""
import json
import subprocess
import sys

import pytest

from quixo_solver.frontends.cli import main

EMPTY_4 = "..../..../..../.... X"


def run(capsys, *argv):
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_perft_json(capsys):
    status, out, _ = run(capsys, "perft", EMPTY_4, "3", "--json")
    payload = json.loads(out)
    assert status == 0
    assert (payload["position"], payload["depth"], payload["nodes"]) == (EMPTY_4, 3, 28312)


def test_perft_divide_json_lists_every_move(capsys):
    status, out, _ = run(capsys, "perft", "...../...../...../...../..... X", "2", "--divide",
                         "--json")
    payload = json.loads(out)
    assert status == 0 and payload["nodes"] == 1836
    assert len(payload["divide"]) == 44
    assert sum(entry["nodes"] for entry in payload["divide"]) == 1836


def test_perft_text(capsys):
    status, out, _ = run(capsys, "perft", ".../.../... x", "2")
    assert status == 0 and "nodes: 356" in out


@pytest.mark.parametrize("argv, fragment", [
    (["perft", "...../...../...../...../..... Q", "2"], "X or O"),
    (["perft", "..../..../..../... X", "2"], "cells"),
    (["perft", EMPTY_4, "-3"], "from 0 to 64"),
    (["perft", EMPTY_4, "two"], "whole number"),
    (["perft", EMPTY_4], "required"),
    (["frobnicate"], "invalid choice"),
])
def test_bad_input_exits_2_with_a_message(capsys, argv, fragment):
    status = main(argv)
    err = capsys.readouterr().err
    assert status == 2
    assert fragment in err
    assert "Traceback" not in err


def test_the_installed_command_runs_as_a_module():
    result = subprocess.run(
        [sys.executable, "-m", "quixo_solver", "perft", "...../...../...../...../..... Z", "1"],
        capture_output=True, text=True)
    assert result.returncode == 2
    assert "player to move must be X or O" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_tablebase_folder_that_is_a_file_is_a_clear_error(tmp_path, capsys):
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("x")
    status = main(["tablebase", "build", "--size", "3", "--dir", str(not_a_folder)])
    err = capsys.readouterr().err
    assert status == 2 and str(not_a_folder) in err and "Traceback" not in err


def test_a_corrupt_table_is_named_on_the_command_line(tables, tmp_path, capsys):
    import shutil

    from quixo_solver.tablebase.format import files

    for path in tables.glob("quixo3x3-*.qtb"):
        shutil.copy(path, tmp_path / path.name)
    damaged = tmp_path / files.table_name(3, 2, 1)
    damaged.write_bytes(damaged.read_bytes()[:-3])
    status = main(["tablebase", "probe", "XX./O../... X", "--dir", str(tmp_path)])
    err = capsys.readouterr().err
    assert status == 2 and damaged.name in err and "truncated" in err


# -- clocks in `quixo play`, and `quixo match` --------------------------------------------------

class FakeTime:
    """The human's clock moves only when the test says they thought; the engine, on the same
    clock, thinks in no time at all (its real time comes from its own small clock)."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def play_with_clock(clock_text, typed, size=5):
    from quixo_solver import Board, Solver
    from quixo_solver.tournament.clock import TimeControl
    from quixo_solver.frontends.play import run

    now = FakeTime()
    answers = iter(typed)
    shown = []

    def read(prompt):
        seconds, text = next(answers)
        now.now += seconds
        return text
    board = Board(size=size)
    result = run(board, Solver(tt_mib=4), human="X", clock=TimeControl.parse(clock_text),
                 read=read, write=shown.append, now=now)
    return result, board, shown


def test_play_shows_both_clocks_and_the_humans_runs_while_they_think():
    result, board, shown = play_with_clock("1s+0.5s", [(0.3, "a1e1"), (0.2, "quit")])
    assert result == "*" and len(board.move_stack) == 2
    clocks = [line for line in shown if line.startswith("X ")]
    assert clocks == ["X 0:01.0 | O 0:01.0",
                      "X 0:01.2 | O 0:01.0",         # X thought 0.3 s and got 0.5 s
                      "X 0:01.2 | O 0:01.5"]         # the engine: no time on this clock


def test_a_human_whose_clock_runs_out_loses_on_time():
    result, board, shown = play_with_clock("10s", [(10.5, "a1e1")])
    assert result == "0-1" and board.move_stack == []    # the flag fell before the move
    assert "X loses on time: the engine wins" in shown
    assert "X 0:00.0 | O 0:10.0" in shown


def play_json(capsys, monkeypatch, stdin, *argv):
    """`quixo play --json` on 3x3 (search only) reading `stdin`: the JSON object and the
    dialogue."""
    monkeypatch.setattr("sys.stdin", stdin)
    status = main(["play", "--size", "3", "--no-tablebase", "--json", *argv])
    captured = capsys.readouterr()
    assert status == 0 and captured.out.count("\n") == 1     # one object, one line
    return json.loads(captured.out), captured.err


def typed(lines):
    import io
    return io.StringIO("".join(line + "\n" for line in lines))


def replayed(payload):
    from quixo_solver import Board
    board = Board(payload["start"])
    for move in payload["moves"]:
        board.push(move)
    return str(board)


def test_play_json_prints_one_object_and_talks_on_stderr(capsys, monkeypatch):
    payload, dialogue = play_json(capsys, monkeypatch, typed(["a1c1", "quit"]),
                                  "--time", "0.05")
    assert payload["start"] == ".../.../... X" and payload["human"] == "X"
    assert payload["moves"][0] == "a1c1" and len(payload["moves"]) == 2
    assert replayed(payload) == payload["position"]
    assert (payload["result"], payload["reason"]) == ("*", "abandoned")
    assert "X to move>" in dialogue and "engine plays" in dialogue


def test_play_json_reports_a_game_won_by_a_line(capsys, monkeypatch):
    from quixo_solver import Board
    every_move = [str(move) for move in Board(size=3).legal_moves]
    # O tries every move in turn until one is legal; 3x3 is a first-player win
    payload, dialogue = play_json(capsys, monkeypatch, typed(every_move * 40), "--time", "0.05",
                                  "--as", "o")
    assert payload["human"] == "O" and replayed(payload) == payload["position"]
    assert (payload["result"], payload["reason"]) == ("1-0", "line")
    assert Board(payload["position"]).winner() == "X" and "the engine wins" in dialogue


def test_play_json_reports_a_loss_on_time(capsys, monkeypatch):
    import io
    import time

    class SlowHuman(io.StringIO):
        def readline(self, *size):
            time.sleep(1.2)             # the human's 1 s clock runs out while they think
            return super().readline(*size)

    payload, _ = play_json(capsys, monkeypatch, SlowHuman("a1c1\n"), "--clock", "1")
    assert payload["moves"] == []
    assert (payload["result"], payload["reason"]) == ("0-1", "time")


def test_undo_gives_the_clocks_back():
    result, board, shown = play_with_clock("10s", [(4, "a1e1"), (3, "undo"), (1, "quit")])
    clocks = [line for line in shown if line.startswith("X ")]
    assert clocks == ["X 0:10.0 | O 0:10.0", "X 0:06.0 | O 0:10.0", "X 0:06.0 | O 0:10.0",
                      "X 0:10.0 | O 0:10.0"]        # after the undo
    assert board.move_stack == []


@pytest.mark.parametrize("argv, fragment", [
    (["play", "--clock", "10x"], "bad clock '10x'"),
    (["play", "--clock", "1m", "--time", "2"], "not allowed with argument"),
    (["match", "--engine-a", "weights=1,depth=1", "--engine-b", "depth=1"], "no weights file 1"),
    (["match", "--engine-a", "clock=5q", "--engine-b", "depth=1"], "bad clock '5q'"),
    (["match", "--engine-a", "depth=1"], "--engine-b"),
    (["match", "--engine-a", "depth=1", "--engine-b", "depth=1", "--opening-plies", "4",
      "--max-plies", "3"], "more than the opening's 4 plies"),
    (["match", "--engine-a", "depth=1", "--engine-b", "depth=1", "--pairs", "0"],
     "game pairs from 1"),
])
def test_bad_clocks_and_matches_exit_2_with_one_line(capsys, argv, fragment):
    status = main(argv)
    err = capsys.readouterr().err
    assert status == 2 and fragment in err
    assert "Traceback" not in err and err.count("\n") == 1


def test_match_json_and_its_files(capsys, tmp_path):
    records = tmp_path / "games.jsonl"
    argv = ["match", "--engine-a", "depth=2,tables=off", "--engine-b", "depth=1,tables=off",
            "--size", "4", "--pairs", "2", "--jobs", "1", "--records", str(records), "--json"]
    status, out, err = run(capsys, *argv)
    payload = json.loads(out)
    assert status == 0 and out.count("\n") == 1
    assert payload["wins"] + payload["draws"] + payload["losses"] == payload["games"] == 4
    assert payload["engines"]["A"]["setting"] == "depth=2,hash=64,tables=off"
    assert {"score", "score_interval_95", "elo", "elo_error_95", "losses_on_time", "reasons",
            "games_per_minute", "variance"} <= set(payload)
    summary = tmp_path / "games.summary.json"
    assert json.loads(summary.read_text()) == payload
    assert len(records.read_text().splitlines()) == 4
    status, out, err = run(capsys, *argv[:-1])          # again, as text: all already played
    assert status == 0 and "A: +" in out and "played 0 games now" in out
    status, out, err = run(capsys, "match", "--engine-a", "depth=3,tables=off", "--engine-b",
                           "depth=1,tables=off", "--size", "4", "--records", str(records))
    assert status == 2 and "another match" in err and err.count("\n") == 1
    status, out, err = run(capsys, *argv[:-1], "--summary", str(records))
    assert status == 2 and "would overwrite the records file" in err


def test_match_with_tables_builds_the_small_board_tables_once_first(capsys, tmp_path):
    folder = tmp_path / "tables"
    status, out, err = run(capsys, "match", "--engine-a", "depth=1", "--engine-b",
                           "depth=1,tables=off", "--size", "3", "--pairs", "1", "--jobs", "1",
                           "--dir", str(folder), "--records", str(tmp_path / "g.jsonl"),
                           "--json")
    assert status == 0 and "built the 3x3 tables" in err
    assert any(folder.glob("quixo3x3-*.qtb"))
    assert json.loads(out)["games"] == 2


EMPTY_5 = "...../...../...../...../..... X"
RUN = [sys.executable, "-m", "quixo_solver"]


# -- bad command lines: one line, exit status 2 ---------------------------------------------
def _run_main(capsys, argv):
    status = main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


BAD_COMMAND_LINES = [
    ["perft", EMPTY_5, "2147483648"],
    ["perft", EMPTY_5, "3", "--threads", str(2**63)],
    ["perft", EMPTY_5, "-1"],
    ["perft", "X" * 131_000 + " X", "1"],
    ["perft", EMPTY_5],
    ["solve", EMPTY_4, "--hash", "1e13"],
    ["solve", EMPTY_4, "--hash", "1e9"],
    ["solve", EMPTY_4, "--hash", "0"],
    ["solve", EMPTY_4, "--hash", "lots"],
    ["solve", EMPTY_4, "--time", "0"],
    ["solve", EMPTY_4, "--time", "inf"],
    ["solve", EMPTY_4, "--depth", "0"],
    ["solve", EMPTY_4, "--jobs", str(10**30)],
    ["solve", "Xx..o/...../...../...../..... Q1"],
    ["analyze", EMPTY_4, "--depth", "1000"],
    ["tablebase", "build", "--size", "4", "--jobs", str(10**30)],
    ["tablebase", "build", "--size", "6"],
    ["tablebase", "build", "--size", "4", "--max-blanks", "-1"],
    ["tablebase", "verify", "--size", "3", "--jobs", str(10**30)],
    ["tablebase", "verify", "--size", "3", "--min-blanks", "3", "--max-blanks", "2"],
    ["tablebase", "verify", "--size", "3", "--max-blanks", "10"],
    ["tablebase", "verify", "--size", "3", "--sample", "0"],
    ["tablebase", "verify", "--size", "3", "--sample", "2.5"],
    ["tablebase", "verify", "--size", "3", "--sample", "10", "--seed", "-1"],
    ["tablebase", "probe", "X.x../...../...../...../..... O1"],
    ["frobnicate"],
]


@pytest.mark.parametrize("argv", BAD_COMMAND_LINES, ids=lambda argv: " ".join(argv)[:40])
def test_bad_command_lines_exit_2_with_one_line(capsys, tmp_path, argv):
    status, out, err = _run_main(capsys, argv + (["--dir", str(tmp_path)]
                                                 if argv[0] == "tablebase" else []))
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("quixo"), err
    assert len(err) < 400


@pytest.mark.parametrize("command", ["stats", "verify"])
def test_stats_and_verify_refuse_folders_without_tables(capsys, tmp_path, command):
    a_file = tmp_path / "a file"
    a_file.write_text("x")
    for folder, message in ((tmp_path / "missing", "no tablebase folder"),
                            (a_file, "is not a folder"), (tmp_path, "no table of the 4x4")):
        status, out, err = _run_main(capsys, ["tablebase", command, "--size", "4",
                                              "--dir", str(folder)])
        assert (status, out) == (2, "")
        assert message in err and err.count("\n") == 1


def test_a_sampled_verify_says_it_sampled(capsys, tables):
    status, out, err = _run_main(capsys, ["tablebase", "verify", "--size", "4", "--dir",
                                          str(tables), "--min-blanks", "4", "--max-blanks",
                                          "4", "--sample", "600", "--seed", "7", "--json"])
    answer = json.loads(out)
    assert status == 0 and answer["mismatches"] == 0
    assert (answer["check"], answer["sample"], answer["seed"]) == ("sampled", 600, 7)
    # 4 blanks of 4x4: the 13 classes (0, 12) .. (12, 0), most of them sampled on 600 entries
    assert answer["classes"] == 13 and 600 * 10 < answer["entries_checked"] < answer["positions"]
    status, out, err = _run_main(capsys, ["tablebase", "verify", "--size", "4", "--dir",
                                          str(tables), "--min-blanks", "4", "--max-blanks",
                                          "4", "--sample", "600"])
    assert status == 0 and out.startswith("sampled 600 entries a class") and "0 mismatches" in out
    status, out, err = _run_main(capsys, ["tablebase", "verify", "--size", "3", "--dir",
                                          str(tables), "--json"])
    answer = json.loads(out)
    assert (answer["check"], answer["sample"], answer["entries_checked"]) == ("whole", None, None)


def test_the_installed_command_has_no_traceback_on_bad_input():
    result = subprocess.run(RUN + ["solve", EMPTY_4, "--hash", "1e30"], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 2 and result.stdout == ""
    assert "Traceback" not in result.stderr and "MiB" in result.stderr


def test_a_broken_pipe_exits_quietly():
    process = subprocess.Popen(RUN + ["perft", EMPTY_4, "1", "--divide"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.close()    # the reader goes away before the first line
    _, err = process.communicate(timeout=60)
    assert process.returncode == 0
    assert err == b""
