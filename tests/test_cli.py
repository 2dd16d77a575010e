"""The quixo command line: JSON shapes of SPEC, and clear errors with exit status 2."""
import json
import subprocess
import sys

import pytest

from quixo_solver.cli import main

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
    try:
        status = main(argv)
    except SystemExit as exit:  # argparse's own usage errors
        status = exit.code
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

    from quixo_solver.tablebase import files

    for path in tables.glob("quixo3x3-*.qtb"):
        shutil.copy(path, tmp_path / path.name)
    damaged = tmp_path / files.table_name(3, 2, 1)
    damaged.write_bytes(damaged.read_bytes()[:-3])
    status = main(["tablebase", "probe", "XX./O../... X", "--dir", str(tmp_path)])
    err = capsys.readouterr().err
    assert status == 2 and damaged.name in err and "truncated" in err
