"""The qwixx command line: SPEC JSON shapes and clear errors with exit status 2."""
import json
import subprocess
import sys

import pytest

from qwixx_stats.cli import main


@pytest.fixture
def run(capsys, qwixx_table_dir, monkeypatch):
    monkeypatch.setenv("QWIXX_TABLE_DIR", str(qwixx_table_dir))

    def invoke(*argv):
        status = main(list(argv))
        captured = capsys.readouterr()
        return status, captured.out, captured.err
    return invoke


def test_probabilities_json(run):
    status, out, _ = run("probabilities", "--json")
    payload = json.loads(out)
    assert status == 0
    assert payload["white_sum"]["2"] == "1/36" and payload["white_sum"]["7"] == "1/6"
    assert payload["passive"] == payload["white_sum"]
    assert payload["active_colour"]["12"] == "11/216"
    assert payload["lock_passive"] == "1/36" and payload["lock_active"] == "2/27"


def test_probabilities_text(run):
    status, out, _ = run("probabilities")
    assert status == 0 and "white sum" in out and "1/36" in out


def test_value_json_default_and_sheet(run):
    status, out, _ = run("value", "--json")
    payload = json.loads(out)
    assert status == 0 and round(payload["expected_score"], 4) == 115.4831
    assert payload["sheet"] == "red: yellow: green: blue: penalties:0 closed:"
    status, out, _ = run("value", "--sheet", "red:2,3 penalties:1", "--json")
    assert status == 0 and json.loads(out)["sheet"] == "red:2,3 yellow: green: blue: penalties:1 closed:"


def test_advise_lists_every_option_best_first(run):
    status, out, _ = run("advise", "--sheet", "red:2,3 penalties:1", "--dice", "3,4,6,1,2,5",
                         "--json")
    payload = json.loads(out)
    values = [o["expected_score"] for o in payload["options"]]
    assert status == 0 and payload["active"] is True
    assert values == sorted(values, reverse=True)
    assert payload["options"][0]["colour"] == {"row": "yellow", "number": 4}
    assert sum(o["penalty"] for o in payload["options"]) == 1
    status, out, _ = run("advise", "--sheet", "red:2,3", "--dice", "3,4,6,1,2,5", "--passive",
                         "--json")
    payload = json.loads(out)
    assert status == 0 and payload["active"] is False
    assert {o["white"] for o in payload["options"]} == {None, "red", "yellow", "green", "blue"}


def test_simulate_json(run):
    status, out, _ = run("simulate", "--players", "2", "--strategy", "optimal,cautious:2",
                         "--games", "500", "--seed", "3", "--json")
    payload = json.loads(out)
    assert status == 0 and payload["games"] == 500 and payload["seed"] == 3
    assert [p["strategy"] for p in payload["players"]] == ["optimal", "cautious:2"]
    assert sum(p["win_rate"] for p in payload["players"]) == pytest.approx(1.0)


@pytest.mark.parametrize("argv, fragment", [
    (["value", "--sheet", "red:5,3"], "not in row order"),
    (["value", "--sheet", "red:2,3,12 closed:red"], "locking needs 5"),
    (["value", "--sheet", "pink:2"], "unknown sheet token"),
    (["advise", "--sheet", "red:2", "--dice", "1,2,3"], "expected six numbers"),
    (["advise", "--sheet", "red:2", "--dice", "1,2,3,4,5,9"], "every die shows 1..6"),
    (["advise", "--sheet", "penalties:4", "--dice", "1,2,3,4,5,6"], "game is over"),
    (["simulate", "--strategy", "clever"], "unknown strategy"),
    (["simulate", "--players", "3", "--strategy", "greedy,random"], "2 strategies"),
    (["simulate", "--games", "0", "--strategy", "greedy"], "--games"),
])
def test_bad_input_exits_2_with_a_message(run, argv, fragment):
    status, out, err = run(*argv)
    assert status == 2 and out == ""
    assert fragment in err and "Traceback" not in err


def test_console_script_module_entry(qwixx_table_dir):
    result = subprocess.run([sys.executable, "-m", "qwixx_stats", "value", "--json",
                             "--dir", str(qwixx_table_dir)], capture_output=True, text=True)
    assert result.returncode == 0
    assert round(json.loads(result.stdout)["expected_score"], 4) == 115.4831
