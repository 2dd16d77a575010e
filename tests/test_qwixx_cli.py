"""The qwixx command line: SPEC JSON shapes; bad input answered by one `qwixx: error:` line
and exit status 2 (the frame of solverkit.commandline); a reader that goes away; the table
folder checked before any solving."""
import json
import os
import subprocess
import sys
import time

import pytest

from qwixx_stats.tables import solitaire
from qwixx_stats.cli import main
from solverkit.commandline import MESSAGE_LIMIT

DICE = "3,4,6,1,2,5"
LINE_MAX = len("qwixx: error: ") + MESSAGE_LIMIT + len("...\n")    # one error line at most


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
    # 'optimal' still names the single-player optimum, reported as max-score
    status, out, _ = run("simulate", "--players", "2", "--strategy", "optimal,cautious:2",
                         "--games", "500", "--seed", "3", "--json")
    payload = json.loads(out)
    assert status == 0 and payload["games"] == 500 and payload["seed"] == 3
    assert [p["strategy"] for p in payload["players"]] == ["max-score", "cautious:2"]
    assert sum(p["win_rate"] for p in payload["players"]) == pytest.approx(1.0)
    assert payload["rotate_seats"] and payload["seats_balanced"] and payload["lock_after"] == 5
    assert sum(payload["endings"].values()) == 500
    for player in payload["players"]:
        low, high = player["win_rate_ci95"]
        assert 0 <= low < player["win_rate"] < high <= 1


def test_simulate_rounds_games_up_to_whole_rotations(run):
    status, out, err = run("simulate", "--players", "3", "--strategy", "greedy", "--games",
                           "10", "--json")
    assert status == 0 and json.loads(out)["games"] == 12 and "multiple of 3" in err
    status, out, _ = run("simulate", "--players", "3", "--strategy", "greedy", "--games",
                         "10", "--fixed-seats", "--json")
    assert json.loads(out)["games"] == 10 and not json.loads(out)["rotate_seats"]


def test_simulate_text_reports_interval_and_endings(run):
    status, out, _ = run("simulate", "--strategy", "win,cautious:2", "--games", "200")
    assert status == 0 and "95% interval" in out and "fourth penalty" in out
    assert "rotated" in out and "win" in out


def test_help_names_max_score_and_the_alias(run):
    status, out, _ = run("simulate", "--help")
    assert status == 0 and "max-score" in out and "optimal" in out and "win" in out


def test_lock_after_four_everywhere(run):
    _, out, _ = run("value", "--lock-after", "4", "--json")
    four = json.loads(out)
    _, out, _ = run("value", "--json")
    assert four["lock_after"] == 4 and four["expected_score"] > json.loads(out)["expected_score"]
    status, out, _ = run("value", "--lock-after", "4", "--sheet", "red:2,3,4,5,12 closed:red",
                         "--json")
    assert status == 0 and json.loads(out)["expected_score"] > 21
    status, out, _ = run("advise", "--lock-after", "4", "--sheet", "red:2,3,4,5",
                         "--dice", "6,6,1,1,1,1", "--json")
    assert status == 0 and any(o["white"] == "red" for o in json.loads(out)["options"])
    status, out, _ = run("simulate", "--lock-after", "4", "--strategy", "greedy",
                         "--games", "100", "--json")
    assert status == 0 and json.loads(out)["lock_after"] == 4
    status, out, _ = run("probabilities", "--lock-after", "4", "--json")
    assert status == 0 and json.loads(out)["lock_after"] == 4
    status, _, err = run("value", "--lock-after", "3")
    assert status == 2 and "--lock-after" in err


def test_advise_against_opponents_ranks_by_chance_of_winning(run):
    status, out, _ = run("advise", "--sheet", "red:2,3,4 green:12,11", "--dice", "3,4,6,1,2,5",
                         "--opponents", "yellow:3,4,5,6", "--rollouts", "400", "--json")
    payload = json.loads(out)
    assert status == 0 and payload["rollouts"] == 400
    measured = [o["measured_win_chance"] for o in payload["options"]]
    assert measured == sorted(measured, reverse=True)
    for option in payload["options"]:
        assert 0 <= option["win_chance"] <= 1 and 0 < option["standard_error"] < 0.03
        assert option["expected_score"] > option["race_expected_score"] > 0
    assert sum(o["penalty"] for o in payload["options"]) == 1
    status, out, _ = run("advise", "--sheet", "red:2,3,4", "--dice", "3,4,6,1,2,5",
                         "--opponents", "yellow:3,4,5,6;blue:12", "--passive", "--roller", "2",
                         "--rollouts", "0", "--json")
    payload = json.loads(out)
    chances = [o["win_chance"] for o in payload["options"]]
    assert status == 0 and chances == sorted(chances, reverse=True) and payload["roller"] == 2
    assert "measured_win_chance" not in payload["options"][0]
    status, _, err = run("advise", "--sheet", "red:2", "--dice", "3,4,6,1,2,5",
                         "--opponents", "yellow:3,4;red:5,3")
    assert status == 2 and "not in row order" in err
    status, _, err = run("advise", "--sheet", "red:2", "--dice", "3,4,6,1,2,5",
                         "--opponents", "yellow:3,4", "--roller", "1")
    assert status == 2 and "--roller" in err


def test_advise_judged_by_lookahead(run, qwixx_table_dir):
    from qwixx_stats import Sheet
    from qwixx_stats.strategies.lookahead import LearnedValue, rate_lookahead
    from qwixx_stats.tables.race import RaceTable

    sheets = [Sheet.parse("red:2,3,4 green:12,11"), Sheet.parse("yellow:3,4,5,6")]
    status, out, _ = run("advise", "--sheet", str(sheets[0]), "--dice", DICE, "--opponents",
                         str(sheets[1]), "--rollouts", "0", "--judge", "lookahead", "--json")
    assert status == 0
    rated = rate_lookahead(RaceTable.load(qwixx_table_dir, players=2), LearnedValue.load(),
                           sheets, 0, DICE, 0)
    chances = [o["win_chance"] for o in json.loads(out)["options"]]
    assert chances == sorted((r.win_chance for r in rated), reverse=True)
    status, out, _ = run("advise", "--sheet", "red:2,3,4", "--dice", DICE, "--opponents",
                         "yellow:3,4,5,6;blue:12", "--passive", "--roller", "2", "--rollouts",
                         "0", "--judge", "lookahead")
    assert status == 0 and "the `lookahead` strategy" in out
    status, _, err = run("advise", "--sheet", "red:2", "--dice", DICE, "--opponents", "blue:12",
                         "--judge", "oracle")
    assert status == 2 and "--judge" in err


def test_track_takes_the_judge(qwixx_table_dir):
    from qwixx_stats.cli import build_parser, load_advisor

    for argv, judge in [([], "win"), (["--judge", "lookahead"], "lookahead")]:
        args = build_parser().parse_args(["track", "--players", "2", "--me", "1", "--dir",
                                          str(qwixx_table_dir), *argv])
        advisor = load_advisor(args)(2, 5)
        assert advisor.strategy == judge and (advisor.learned is None) == (judge == "win")


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


# -- bad input: exit 2, one line on stderr, nothing on stdout -----------------------------------
@pytest.fixture
def run_without_tables(capsys, monkeypatch, tmp_path, qwixx_no_solving):
    """main() in-process with an empty table folder; returns (status, stdout, stderr)."""
    monkeypatch.setenv("QWIXX_TABLE_DIR", str(tmp_path / "tables"))

    def invoke(*argv):
        status = main(list(argv))
        captured = capsys.readouterr()
        return status, captured.out, captured.err
    return invoke


LONG = "x" * 10_000
CLI_CASES = [
    (["simulate", "--games", str(10 ** 12), "--strategy", "greedy"],
     "--games: expected a number of games from 1 to 1,000,000,000"),
    (["simulate", "--games", "abc"], "--games: expected a number of games, a whole number"),
    (["simulate", "--games", "1e3"], "--games: expected a number of games, a whole number"),
    (["simulate", "--games", "0"],
     "--games: expected a number of games from 1 to 1,000,000,000, not 0"),
    (["simulate", "--games", "-5"], "--games"),
    (["simulate", "--games", LONG], "--games"),
    (["simulate", "--games", "9" * 5000],
     "--games: expected a number of games from 1 to 1,000,000,000"),
    (["simulate", "--players", "9", "--strategy", "greedy"],
     "--players: expected a number of players from 1 to 8"),
    (["simulate", "--players", "0", "--strategy", "greedy"],
     "--players: expected a number of players from 1 to 8"),
    (["simulate", "--players", "two"],
     "--players: expected a number of players, a whole number 1..8"),
    (["simulate", "--seed", "-1", "--strategy", "greedy"], "--seed: expected a seed from 0 to 18,446"),
    (["simulate", "--seed", str(2 ** 64), "--strategy", "greedy"],
     "--seed: expected a seed from 0 to 18,446"),
    (["advise", "--sheet", "red:2", "--dice", DICE, "--rollouts", "-1"],
     "--rollouts: expected a number of rollouts from 0 to 10,000,000"),
    (["simulate", "--strategy", LONG], "unknown strategy"),
    (["simulate", "--strategy", "greedy," * 5000], "more than 8 strategies"),
    (["no-such-command"], "invalid choice"),
    ([LONG], "invalid choice"),
    ([], "required: command"),
    (["advise", "--sheet", "red:2"], "required: --dice"),
    (["probabilities", "--bogus", LONG], "unrecognized arguments"),
    (["value", "--sheet", LONG], "has no ':'"),
    (["value", "--sheet", "red:" + ",".join(["2"] * 5000)], "at most 11 numbers"),
    (["advise", "--sheet", "red:2", "--dice", "1," * 5000], "expected six numbers"),
    (["advise", "--sheet", "red:2", "--dice", "1,2,3,4,5,\u0666"], "expected six numbers"),
    (["value", "--dir", ""], "--dir"),
    (["value", "--dir", "/" + "d" * 5000], "too long a path"),
]


@pytest.mark.parametrize("argv, fragment", CLI_CASES,
                         ids=[" ".join(a)[:40] or "(none)" for a, _ in CLI_CASES])
def test_command_line_bad_input(run_without_tables, argv, fragment):
    status, out, err = run_without_tables(*argv)
    assert status == 2 and out == ""
    assert err.startswith("qwixx: error: ") and err.count("\n") == 1 and err.endswith("\n")
    assert fragment in err
    assert len(err) < LINE_MAX and "Traceback" not in err


def test_help_returns_zero(run_without_tables):
    status, out, err = run_without_tables("--help")
    assert status == 0 and "probabilities" in out and err == ""


def test_module_entry_bad_argument_one_line():
    result = subprocess.run([sys.executable, "-m", "qwixx_stats", "simulate", "--games",
                             str(10 ** 12)], capture_output=True, text=True)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        "qwixx: error: argument --games: expected a number of games from 1 to 1,000,000,000, "
        "not 1000000000000 (see --help)"]


def test_an_internal_error_is_one_line_with_status_1(run_without_tables, monkeypatch):
    """A bug (an exception that is not a refusal of the input) is named in one line, with exit
    status 1 and no traceback."""
    import qwixx_stats.rules.probabilities

    def broken():
        raise KeyError("a bug")
    monkeypatch.setattr(qwixx_stats.rules.probabilities, "tables_text", broken)
    status, out, err = run_without_tables("probabilities")
    assert status == 1 and out == ""
    assert err == "qwixx: error: internal error: KeyError: 'a bug'\n"


# -- a reader that goes away: exit 0, nothing on stderr -----------------------------------------
@pytest.mark.parametrize("argv", [
    ["probabilities"],
    ["probabilities", "--json"],
    ["advise", "--sheet", "red:2,3", "--dice", DICE],
], ids=["probabilities", "probabilities-json", "advise"])
def test_closed_pipe_exits_quietly(argv, qwixx_zero_table):
    child = subprocess.Popen([sys.executable, "-m", "qwixx_stats", *argv],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             env=dict(os.environ, QWIXX_TABLE_DIR=str(qwixx_zero_table)))
    child.stdout.close()                 # no reader left: the first write gets EPIPE
    _, err = child.communicate(timeout=60)   # reads stderr to the end and closes it
    assert child.returncode == 0
    assert err == b""


def test_closed_pipe_in_a_shell_pipeline(qwixx_zero_table):
    script = (f"{sys.executable} -m qwixx_stats advise --sheet red:2,3 --dice {DICE} "
              "| head -c 0; echo \"status=${PIPESTATUS[0]}\"")
    result = subprocess.run(["bash", "-c", script], capture_output=True, text=True,
                            env=dict(os.environ, QWIXX_TABLE_DIR=str(qwixx_zero_table)))
    assert result.stdout == "status=0\n" and result.stderr == ""


# -- the table folder -----------------------------------------------------------------------
@pytest.mark.skipif(sys.platform == "win32",
                    reason="POSIX only: a symbolic link needs a privilege on Windows")
@pytest.mark.parametrize("how", ["--dir", "QWIXX_TABLE_DIR"])
def test_tilde_table_folder_on_the_command_line(how, run_without_tables, monkeypatch,
                                                tmp_path, qwixx_zero_table):
    home = tmp_path / "home"
    (home / "t").mkdir(parents=True)
    (home / "t" / solitaire.TABLE_NAME).symlink_to(qwixx_zero_table / solitaire.TABLE_NAME)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(tmp_path)
    if how == "--dir":
        status, out, err = run_without_tables("value", "--dir", "~/t", "--json")
    else:
        monkeypatch.setenv("QWIXX_TABLE_DIR", "~/t")
        status, out, err = run_without_tables("value", "--json")
    assert status == 0 and err == ""
    assert json.loads(out)["expected_score"] == 0.0      # the table of zeros was read
    assert not (tmp_path / "~").exists()


@pytest.mark.parametrize("argv", [
    ["value"],
    ["advise", "--sheet", "red:2", "--dice", DICE],
    ["simulate", "--strategy", "optimal", "--games", "10"],
])
@pytest.mark.parametrize("where, fragment", [
    ("file", "exists and is not a folder"),
    ("file/sub", "cannot create the table folder"),
])
def test_unusable_table_folder_fails_at_once(run_without_tables, tmp_path, argv, where,
                                             fragment):
    (tmp_path / "file").write_text("not a folder")
    started = time.monotonic()
    status, out, err = run_without_tables(*argv, "--dir", str(tmp_path / where))
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and fragment in err and f"/{where}" in err
    assert time.monotonic() - started < 5
