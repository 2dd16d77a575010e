"""Robustness of qwixx_stats (tracker issue 10): bad input to the API raises a QwixxError that
names the problem; the command line answers bad input with one `qwixx: error:` line and exit
status 2, stops quietly on a closed pipe and with status 130 on Ctrl-C; the table file is
written under a temporary name of its own and its folder is checked before any solving.

None of these tests needs the solved table: where a table is read, a table of zeros (written
in a fraction of a second) stands in, and solving is made to fail the test.
"""
import importlib
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import qwixx_stats.solitaire as solitaire
from solverkit import arrayfile
from qwixx_stats import (Dice, DiceError, ExpectedValues, Game, GameError, QwixxError, Sheet,
                         SheetError, SimulationError, Strategy, StrategyError, TableError,
                         active_options, parse_strategies, simulate)
from qwixx_stats.cli import main
from qwixx_stats.simulate import BATCH, MAX_GAMES, MAX_KEPT_GAMES
from qwixx_stats.strategies import CautiousPlayer, SplitMix64

DICE = "3,4,6,1,2,5"
GREEDY2 = [Strategy("greedy")] * 2
MESSAGE_MAX = 320           # an error line: user text cut to ~60 characters


def child_env(**extra) -> dict:
    """The environment of a `python -m qwixx_stats` child: the installed package, as the
    tests import it (not src/, which holds no compiled modules in a regular install)."""
    return dict(os.environ, **extra)


def default_sigint() -> None:          # a child started from a shell job may ignore SIGINT
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture(scope="module")
def zero_table(tmp_path_factory) -> Path:
    """A folder holding a well-formed table of zeros (expected future points 0 everywhere)."""
    folder = tmp_path_factory.mktemp("zero-table")
    solitaire.write_table(folder / solitaire.TABLE_NAME,
                          np.zeros((solitaire.SHEET_STATES, solitaire.PENALTY_STATES)))
    return folder


@pytest.fixture
def no_solving(monkeypatch):
    """Fail the test at once if anything starts the minute-long table solve."""
    def refuse(*args, **kwargs):
        pytest.fail("the table solve was started")
    monkeypatch.setattr(solitaire, "solve_table", refuse)


@pytest.fixture
def run(capsys, monkeypatch, tmp_path, no_solving):
    """main() in-process with an empty table folder; returns (status, stdout, stderr)."""
    monkeypatch.setenv("QWIXX_TABLE_DIR", str(tmp_path / "tables"))

    def invoke(*argv):
        status = main(list(argv))
        captured = capsys.readouterr()
        return status, captured.out, captured.err
    return invoke


# -- (a) the API refuses bad input with a QwixxError ----------------------------------------
def game_turn(dice=DICE, first=(None, None), second=None):
    return lambda: Game(2).play_turn(dice, first, second)


API_CASES = [
    # Dice
    ("Dice.parse(None)", lambda: Dice.parse(None), DiceError),
    ("Dice.parse(5)", lambda: Dice.parse(5), DiceError),
    ("Dice.parse(5.0)", lambda: Dice.parse(5.0), DiceError),
    ("Dice.parse(bytes)", lambda: Dice.parse(b"1,2,3,4,5,6"), DiceError),
    ("Dice.parse(set)", lambda: Dice.parse({1, 2, 3, 4, 5, 6}), DiceError),
    ("Dice.parse(five)", lambda: Dice.parse("1,2,3,4,5"), DiceError),
    ("Dice.parse(seven)", lambda: Dice.parse("1,2,3,4,5,6,1"), DiceError),
    ("Dice.parse(huge)", lambda: Dice.parse("1," * 100_000), DiceError),
    ("Dice.parse(7)", lambda: Dice.parse("1,2,3,4,5,7"), DiceError),
    ("Dice.parse(other digits)", lambda: Dice.parse("1,2,3,4,5,\u0665"), DiceError),
    ("Dice.parse(bool)", lambda: Dice.parse([1, 2, 3, 4, 5, True]), DiceError),
    ("Dice.parse(float)", lambda: Dice.parse([1, 2, 3, 4, 5, 6.0]), DiceError),
    ("Dice.parse(endless)", lambda: Dice.parse(iter(int, 1)), DiceError),
    ("Dice.parse(5000 digits)", lambda: Dice.parse("9" * 5000 + ",1,1,1,1,1"), DiceError),
    # Sheet
    ("Sheet.parse(None)", lambda: Sheet.parse(None), SheetError),
    ("Sheet.parse(5)", lambda: Sheet.parse(5), SheetError),
    ("Sheet.parse(bytes)", lambda: Sheet.parse(b"red:2"), SheetError),
    ("Sheet.parse(other digits)", lambda: Sheet.parse("red:\u0663"), SheetError),
    ("Sheet.parse(sign)", lambda: Sheet.parse("red:+3"), SheetError),
    ("Sheet.parse(5000 digits)", lambda: Sheet.parse("penalties:" + "9" * 5000), SheetError),
    ("Sheet.parse(12 marks)", lambda: Sheet.parse("red:" + ",".join(["2"] * 12)), SheetError),
    ("Sheet(rows=None)", lambda: Sheet(None), SheetError),
    ("Sheet(rows=3 rows)", lambda: Sheet(((), (), ())), SheetError),
    ("Sheet(row None)", lambda: Sheet(((), None, (), ())), SheetError),
    ("Sheet(row text)", lambda: Sheet(("2,3", (), (), ())), SheetError),
    ("Sheet(penalties=True)", lambda: Sheet(penalties=True), SheetError),
    ("Sheet(penalties=1.0)", lambda: Sheet(penalties=1.0), SheetError),
    ("Sheet(closed=None)", lambda: Sheet(closed=None), SheetError),
    ("Sheet(closed='red')", lambda: Sheet(closed="red"), SheetError),
    ("legal_marks(['red'])", lambda: Sheet().legal_marks(["red"]), SheetError),
    ("legal_marks(None)", lambda: Sheet().legal_marks(None), SheetError),
    ("legal_marks('pink')", lambda: Sheet().legal_marks("pink"), SheetError),
    ("marks({})", lambda: Sheet().marks({}), SheetError),
    ("can_mark(number text)", lambda: Sheet().can_mark("red", "5"), SheetError),
    ("mark(bool)", lambda: Sheet().mark("red", True), SheetError),
    ("close(None)", lambda: Sheet().close(None), SheetError),
    ("close('red')", lambda: Sheet().close("red"), SheetError),
    # Game
    ("Game(0)", lambda: Game(0), GameError),
    ("Game(9)", lambda: Game(9), GameError),
    ("Game(10**9)", lambda: Game(10 ** 9), GameError),
    ("Game('2')", lambda: Game("2"), GameError),
    ("Game(True)", lambda: Game(True), GameError),
    ("Game(2.0)", lambda: Game(2.0), GameError),
    ("Game(sheets=[None])", lambda: Game(1, [None]), SheetError),
    ("Game(sheets=3 for 2)", lambda: Game(2, [Sheet()] * 3), GameError),
    ("Game(active=2)", lambda: Game(2, active=2), GameError),
    ("play_turn(None, ...)", game_turn(dice=None), DiceError),
    ("play_turn(5, ...)", game_turn(dice=5), DiceError),
    ("play_turn(first=None)", game_turn(first=None), GameError),
    ("play_turn(first='ab')", game_turn(first="ab"), GameError),
    ("play_turn(first=[['red'], None])", game_turn(first=[["red"], None]), SheetError),
    ("play_turn(first=[5, None])", game_turn(first=[5, None]), SheetError),
    ("play_turn(second='red')", game_turn(second="red"), GameError),
    ("play_turn(second=5)", game_turn(second=5), GameError),
    ("play_turn(second=('red', '7'))", game_turn(second=("red", "7")), SheetError),
    ("play_turn_with(None)", lambda: Game(2).play_turn_with(DICE, None), GameError),
    ("active_options(None, dice)", lambda: active_options(None, DICE), SheetError),
    ("active_options(sheet, None)", lambda: active_options(Sheet(), None), DiceError),
    # strategies and the simulator
    ("Strategy.parse(None)", lambda: Strategy.parse(None), StrategyError),
    ("Strategy.parse('cautious:-1')", lambda: Strategy.parse("cautious:-1"), StrategyError),
    ("Strategy.parse('cautious:99..9')", lambda: Strategy.parse("cautious:" + "9" * 5000),
     StrategyError),
    ("Strategy('bogus')", lambda: Strategy("bogus"), StrategyError),
    ("Strategy(['greedy'])", lambda: Strategy(["greedy"]), StrategyError),
    ("Strategy('cautious', 11)", lambda: Strategy("cautious", 11), StrategyError),
    ("Strategy('greedy', 3)", lambda: Strategy("greedy", 3), StrategyError),
    ("parse_strategies(None, 2)", lambda: parse_strategies(None, 2), StrategyError),
    ("parse_strategies('greedy', 0)", lambda: parse_strategies("greedy", 0), StrategyError),
    ("parse_strategies('greedy', 9)", lambda: parse_strategies("greedy", 9), StrategyError),
    ("parse_strategies('greedy', '2')", lambda: parse_strategies("greedy", "2"), StrategyError),
    ("parse_strategies('greedy', True)", lambda: parse_strategies("greedy", True),
     StrategyError),
    ("parse_strategies(many)", lambda: parse_strategies("greedy," * 10_000, 2), StrategyError),
    ("CautiousPlayer(11)", lambda: CautiousPlayer(11), StrategyError),
    ("SplitMix64('x')", lambda: SplitMix64("x"), SimulationError),
    ("simulate(games=0)", lambda: simulate(GREEDY2, 0, 1), SimulationError),
    ("simulate(games=-5)", lambda: simulate(GREEDY2, -5, 1), SimulationError),
    ("simulate(games=2.5)", lambda: simulate(GREEDY2, 2.5, 1), SimulationError),
    ("simulate(games=10.0)", lambda: simulate(GREEDY2, 10.0, 1), SimulationError),
    ("simulate(games=True)", lambda: simulate(GREEDY2, True, 1), SimulationError),
    ("simulate(games='10')", lambda: simulate(GREEDY2, "10", 1), SimulationError),
    ("simulate(games=10**12)", lambda: simulate(GREEDY2, 10 ** 12, 1), SimulationError),
    ("simulate(games=10**12, keep_games=False)",
     lambda: simulate(GREEDY2, 10 ** 12, 1, keep_games=False), SimulationError),
    ("simulate(games over the kept bound)", lambda: simulate(GREEDY2, MAX_KEPT_GAMES + 1, 1),
     SimulationError),
    ("simulate(seed=-1)", lambda: simulate(GREEDY2, 5, -1), SimulationError),
    ("simulate(seed=2**64)", lambda: simulate(GREEDY2, 5, 2 ** 64), SimulationError),
    ("simulate(seed=1.0)", lambda: simulate(GREEDY2, 5, 1.0), SimulationError),
    ("simulate(seed=None)", lambda: simulate(GREEDY2, 5, None), SimulationError),
    ("simulate(seed=True)", lambda: simulate(GREEDY2, 5, True), SimulationError),
    ("simulate(strategies='greedy')", lambda: simulate("greedy", 5, 1), StrategyError),
    ("simulate(strategies=[])", lambda: simulate([], 5, 1), StrategyError),
    ("simulate(9 players)", lambda: simulate([Strategy("greedy")] * 9, 5, 1), StrategyError),
    ("simulate(values=5)", lambda: simulate(GREEDY2, 5, 1, values=5), SimulationError),
    ("simulate(progress=5)", lambda: simulate(GREEDY2, 5, 1, progress=5), SimulationError),
    # the table
    ("ExpectedValues.load(5)", lambda: ExpectedValues.load(5), TableError),
    ("ExpectedValues.load('')", lambda: ExpectedValues.load(""), TableError),
    ("ExpectedValues.load(NUL)", lambda: ExpectedValues.load("a\0b"), TableError),
    ("ExpectedValues.load(~nobody)", lambda: ExpectedValues.load("~no-such-user-qwixx/t"),
     TableError),
    ("ExpectedValues(None)", lambda: ExpectedValues(None), TableError),
    ("ExpectedValues(wrong shape)", lambda: ExpectedValues(np.zeros((3, 4))), TableError),
]


@pytest.mark.parametrize("call, expected", [case[1:] for case in API_CASES],
                         ids=[case[0] for case in API_CASES])
def test_api_refuses_bad_input(call, expected, no_solving):
    assert issubclass(expected, QwixxError) and issubclass(expected, ValueError)
    with pytest.raises(expected) as caught:
        call()
    message = str(caught.value)
    assert message and len(message) < MESSAGE_MAX


def test_simulate_games_zero_is_refused_not_a_nan_mean():
    with pytest.raises(SimulationError, match=r"games must be a whole number 1\.\.1,000,000,000"):
        simulate(GREEDY2, 0, 1)


def test_a_refused_turn_leaves_the_game_as_it_was():
    game = Game(2)
    with pytest.raises(GameError):
        game.play_turn(DICE, ["red", None], "yellow")
    assert game.sheets == [Sheet(), Sheet()] and game.history == [] and game.active == 0


def test_running_totals_equal_the_kept_games(monkeypatch):
    """keep_games=False (what the command line uses: memory independent of --games) reports
    the same summary as the per-game arrays, across several batches."""
    monkeypatch.setattr(importlib.import_module("qwixx_stats.simulate"), "BATCH", 333)
    strategies = parse_strategies("greedy,random,cautious:2", 3)
    kept = simulate(strategies, 2000, 11)
    totals = simulate(strategies, 2000, 11, keep_games=False)
    assert totals.scores is None and totals.turns is None and totals.games == 2000
    ours, theirs = totals.summary(), kept.summary()
    scores = kept.scores.astype(np.float64)
    for seat, (a, b) in enumerate(zip(ours["players"], theirs["players"])):
        assert a["mean"] == pytest.approx(scores[:, seat].mean())
        assert a["std"] == pytest.approx(scores[:, seat].std(ddof=1))
        assert a["min"] == b["min"] == scores[:, seat].min()
        assert a["max"] == b["max"] == scores[:, seat].max()
        assert a["win_rate"] == pytest.approx(b["win_rate"])
    assert ours["mean_turns"] == pytest.approx(kept.turns.mean())
    assert ours["endings"] == theirs["endings"] and sum(ours["endings"].values()) == 2000
    assert BATCH >= 1000                 # the real batch keeps memory small but not tiny


# -- (b) the command line: exit 2, one line on stderr, nothing on stdout -------------------
LONG = "x" * 10_000
CLI_CASES = [
    (["simulate", "--games", str(10 ** 12), "--strategy", "greedy"], "1..1,000,000,000"),
    (["simulate", "--games", "abc"], "--games: must be a whole number"),
    (["simulate", "--games", "1e3"], "--games: must be a whole number"),
    (["simulate", "--games", "0"], "--games: must be 1..1,000,000,000, not 0"),
    (["simulate", "--games", "-5"], "--games"),
    (["simulate", "--games", LONG], "--games"),
    (["simulate", "--games", "9" * 5000], "--games: must be 1..1,000,000,000"),
    (["simulate", "--players", "9", "--strategy", "greedy"], "--players: must be 1..8"),
    (["simulate", "--players", "0", "--strategy", "greedy"], "--players: must be 1..8"),
    (["simulate", "--players", "two"], "--players: must be a whole number 1..8"),
    (["simulate", "--seed", "-1", "--strategy", "greedy"], "--seed: must be 0..18,446"),
    (["simulate", "--seed", str(2 ** 64), "--strategy", "greedy"], "--seed: must be 0..18,446"),
    (["simulate", "--strategy", LONG], "unknown strategy"),
    (["simulate", "--strategy", "greedy," * 5000], "more than 8 strategies"),
    (["no-such-command"], "invalid choice"),
    ([LONG], "invalid choice"),
    ([], "required: command"),
    (["advise", "--sheet", "red:2"], "required: --dice"),
    (["probabilities", "--bogus", LONG], "unrecognized arguments"),
    (["value", "--sheet", LONG], "has no ':'"),
    (["value", "--sheet", "red:" + "2," * 5000], "at most 11 numbers"),
    (["advise", "--sheet", "red:2", "--dice", "1," * 5000], "expected six numbers"),
    (["advise", "--sheet", "red:2", "--dice", "1,2,3,4,5,\u0666"], "expected six numbers"),
    (["value", "--dir", ""], "--dir"),
    (["value", "--dir", "/" + "d" * 5000], "too long a path"),
]


@pytest.mark.parametrize("argv, fragment", CLI_CASES,
                         ids=[" ".join(a)[:40] or "(none)" for a, _ in CLI_CASES])
def test_command_line_bad_input(run, argv, fragment):
    status, out, err = run(*argv)
    assert status == 2 and out == ""
    assert err.startswith("qwixx: error: ") and err.count("\n") == 1 and err.endswith("\n")
    assert fragment in err
    assert len(err) < MESSAGE_MAX and "Traceback" not in err


def test_help_returns_zero(run):
    status, out, err = run("--help")
    assert status == 0 and "probabilities" in out and err == ""


def test_module_entry_bad_argument_one_line():
    result = subprocess.run([sys.executable, "-m", "qwixx_stats", "simulate", "--games",
                             str(10 ** 12)], capture_output=True, text=True, env=child_env())
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        "qwixx: error: argument --games: must be 1..1,000,000,000, not 1000000000000"]


def test_simulate_bounds_are_the_documented_ones():
    assert MAX_GAMES == 10 ** 9 and MAX_KEPT_GAMES == 10 ** 7


# -- (c) fuzzing the API's text and number parameters ---------------------------------------
ANYTHING = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True),
                     st.text(max_size=30), st.binary(max_size=10),
                     st.lists(st.integers(-3, 15), max_size=8),
                     st.tuples(st.sampled_from(["red", "blue", "pink", 3]), st.integers(-2, 14)))
SHEET_TEXT = st.one_of(
    st.text(max_size=40),
    st.text(alphabet="redyellowgreenbluepenaltiesclosed:,0123456789 \t+-_\u0663", max_size=60),
    st.lists(st.tuples(st.sampled_from(["red", "yellow", "green", "blue", "penalties", "closed",
                                        "pink", ""]),
                       st.lists(st.sampled_from(["2", "5", "7", "12", "0", "4", "red", "x", ""]),
                                max_size=6)),
             max_size=6).map(lambda tokens: " ".join(f"{k}:{','.join(v)}" for k, v in tokens)))
DICE_INPUT = st.one_of(ANYTHING, st.text(alphabet="0123456789, -+", max_size=20),
                       st.lists(st.integers(-1, 8), min_size=5, max_size=7),
                       st.lists(st.integers(1, 6), min_size=6, max_size=6).map(
                           lambda v: ",".join(map(str, v))))
COLOUR = st.one_of(st.sampled_from(["red", "yellow", "green", "blue"]), ANYTHING)


def returns_or_refuses(call):
    """Run `call`; a refusal must be a QwixxError (a ValueError) - nothing else escapes."""
    try:
        return call()
    except QwixxError as error:
        assert str(error) and len(str(error)) < MESSAGE_MAX
        return None


@settings(max_examples=250, deadline=None)
@given(SHEET_TEXT)
def test_fuzz_sheet_parse(text):
    sheet = returns_or_refuses(lambda: Sheet.parse(text))
    if sheet is not None:
        assert Sheet.parse(str(sheet)) == sheet


@settings(max_examples=200, deadline=None)
@given(DICE_INPUT)
def test_fuzz_dice_parse(value):
    dice = returns_or_refuses(lambda: Dice.parse(value))
    if dice is not None:
        assert isinstance(dice, Dice) and all(1 <= d <= 6 for d in dice)


@settings(max_examples=150, deadline=None)
@given(ANYTHING, ANYTHING, st.sampled_from(["legal_marks", "marks", "mark_count", "is_locked"]))
def test_fuzz_sheet_queries(colour, number, method):
    sheet = Sheet.parse("red:2,3 green:12 penalties:1")
    returns_or_refuses(lambda: getattr(sheet, method)(colour))
    returns_or_refuses(lambda: sheet.can_mark(colour, number))
    returns_or_refuses(lambda: sheet.mark(colour, number))


@settings(max_examples=200, deadline=None)
@given(DICE_INPUT,
       st.one_of(ANYTHING, st.lists(st.one_of(st.none(), COLOUR), min_size=1, max_size=3)),
       st.one_of(st.none(), ANYTHING, st.tuples(COLOUR, st.integers(0, 14))))
def test_fuzz_play_turn(dice, first, second):
    game = Game(2)
    before = list(game.sheets)
    done = returns_or_refuses(lambda: game.play_turn(dice, first, second) or True)
    if done is None:
        assert game.sheets == before and game.history == []
    else:
        assert len(game.history) == 1


@settings(max_examples=120, deadline=None)
@given(st.one_of(st.integers(max_value=0), st.integers(min_value=MAX_GAMES + 1),
                 st.integers(1, 30), st.floats(), st.none(), st.booleans(), st.text(max_size=5)),
       st.one_of(st.integers(), st.integers(0, 2 ** 64 - 1), st.floats(), st.none(),
                 st.booleans()),
       st.one_of(st.integers(-2, 11), st.integers(), ANYTHING),
       st.sampled_from(["greedy", "random", "cautious:2", "greedy,random", "bogus", "",
                        "cautious:x", "greedy,random,cautious:0"]))
def test_fuzz_simulate(games, seed, players, text):
    strategies = returns_or_refuses(lambda: parse_strategies(text, players))
    if strategies is None:
        return
    result = returns_or_refuses(lambda: simulate(strategies, games, seed, keep_games=False))
    if result is not None:
        summary = result.summary()
        assert summary["games"] == games and not any(
            np.isnan(p["mean"]) for p in summary["players"])


@settings(max_examples=150, deadline=None)
@given(st.one_of(st.text(max_size=20), ANYTHING,
                 st.sampled_from(["cautious:", "cautious:10", "cautious:11", "cautious: 3",
                                  "greedy:", "random:1"])))
def test_fuzz_strategy_parse(text):
    strategy = returns_or_refuses(lambda: Strategy.parse(text))
    if strategy is not None:
        assert Strategy.parse(str(strategy)) == strategy


# -- (d) a reader that goes away: exit 0, nothing on stderr ---------------------------------
@pytest.mark.parametrize("argv", [
    ["probabilities"],
    ["probabilities", "--json"],
    ["advise", "--sheet", "red:2,3", "--dice", DICE],
], ids=["probabilities", "probabilities-json", "advise"])
def test_closed_pipe_exits_quietly(argv, zero_table):
    child = subprocess.Popen([sys.executable, "-m", "qwixx_stats", *argv],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             env=child_env(QWIXX_TABLE_DIR=str(zero_table)))
    child.stdout.close()                 # no reader left: the first write gets EPIPE
    _, err = child.communicate(timeout=60)   # reads stderr to the end and closes it
    assert child.returncode == 0
    assert err == b""


def test_closed_pipe_in_a_shell_pipeline(zero_table):
    script = (f"{sys.executable} -m qwixx_stats advise --sheet red:2,3 --dice {DICE} "
              "| head -c 0; echo \"status=${PIPESTATUS[0]}\"")
    result = subprocess.run(["bash", "-c", script], capture_output=True, text=True,
                            env=child_env(QWIXX_TABLE_DIR=str(zero_table)))
    assert result.stdout == "status=0\n" and result.stderr == ""


# -- (e) the table file and its folder ------------------------------------------------------
MAGIC = b"TESTARR\0"


def test_write_array_uses_a_temporary_name_of_its_own(tmp_path, monkeypatch):
    """A second writer of the same file in the middle of the first one (as two first runs of
    `qwixx value` at once): both succeed, the last rename wins, no temporary file is left."""
    path = tmp_path / "table.arr"
    first, second = np.arange(1000, dtype=np.float64), np.ones(7, dtype=np.uint16)
    real_replace = os.replace
    names = []

    def replace_after_another_writer(source, target):
        names.append(Path(source).name)
        if len(names) == 1:
            arrayfile.write_array(path, MAGIC, 1, second)
        real_replace(source, target)
    monkeypatch.setattr(arrayfile.os, "replace", replace_after_another_writer)
    arrayfile.write_array(path, MAGIC, 1, first)
    assert len(set(names)) == 2 and all(n.startswith("table.arr.partial-") for n in names)
    assert (arrayfile.read_array(path, MAGIC, 1, ValueError) == first).all()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table.arr"]


CONCURRENT_WRITER = textwrap.dedent("""
    import sys
    import numpy as np
    from solverkit.arrayfile import write_array
    value = float(sys.argv[2])
    for _ in range(40):
        write_array(sys.argv[1], b"TESTARR\\0", 1, np.full(20000, value))
""")


def test_two_processes_write_the_same_file(tmp_path):
    path = tmp_path / "shared.arr"
    writers = [subprocess.Popen([sys.executable, "-c", CONCURRENT_WRITER, str(path), str(v)],
                                stderr=subprocess.PIPE, env=child_env()) for v in (1, 2)]
    errors = [w.communicate(timeout=60)[1] for w in writers]
    assert [w.returncode for w in writers] == [0, 0], errors
    data = arrayfile.read_array(path, MAGIC, 1, ValueError)
    assert data.shape == (20000,) and data[0] in (1.0, 2.0) and (data == data[0]).all()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["shared.arr"]


FULL_DISK_WRITER = textwrap.dedent("""
    import json, os, resource, sys
    import numpy as np
    from solverkit.arrayfile import write_array
    resource.setrlimit(resource.RLIMIT_FSIZE, (100_000, resource.RLIM_INFINITY))
    try:
        write_array(sys.argv[1], b"TESTARR\\0", 1, np.zeros(100_000))
        outcome = {"raised": None}
    except OSError as error:
        outcome = {"raised": type(error).__name__, "errno": error.errno, "text": str(error),
                   "filename": error.filename}
    outcome["left"] = sorted(os.listdir(os.path.dirname(sys.argv[1])))
    print(json.dumps(outcome))
""")


@pytest.mark.skipif(sys.platform == "win32",
                    reason="POSIX only: the file size limit (resource) stands in for a full disk")
def test_a_failed_write_names_the_cause_and_the_file_and_leaves_nothing(tmp_path):
    """The file size limit stands in for a full disk: the write fails part way."""
    import errno
    path = tmp_path / "big.arr"
    result = subprocess.run([sys.executable, "-c", FULL_DISK_WRITER, str(path)],
                            capture_output=True, text=True, env=child_env())
    assert result.returncode == 0, result.stderr
    outcome = json.loads(result.stdout)
    assert outcome["raised"] is not None and outcome["errno"] == errno.EFBIG
    assert os.strerror(errno.EFBIG) in outcome["text"] and str(path) in outcome["text"]
    assert outcome["filename"] == str(path)
    assert outcome["left"] == []


def test_tilde_is_expanded(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("QWIXX_TABLE_DIR", "~/tables")
    assert solitaire.default_directory() == tmp_path / "tables"
    monkeypatch.delenv("QWIXX_TABLE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", "~/cache")
    assert solitaire.default_directory() == tmp_path / "cache" / "qwixx_stats"
    assert solitaire.table_path("~/t") == tmp_path / "t" / solitaire.TABLE_NAME


@pytest.mark.skipif(sys.platform == "win32",
                    reason="POSIX only: a symbolic link needs a privilege on Windows")
@pytest.mark.parametrize("how", ["--dir", "QWIXX_TABLE_DIR"])
def test_tilde_table_folder_on_the_command_line(how, run, monkeypatch, tmp_path, zero_table):
    home = tmp_path / "home"
    (home / "t").mkdir(parents=True)
    (home / "t" / solitaire.TABLE_NAME).symlink_to(zero_table / solitaire.TABLE_NAME)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(tmp_path)
    if how == "--dir":
        status, out, err = run("value", "--dir", "~/t", "--json")
    else:
        monkeypatch.setenv("QWIXX_TABLE_DIR", "~/t")
        status, out, err = run("value", "--json")
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
def test_unusable_table_folder_fails_at_once(run, tmp_path, argv, where, fragment):
    (tmp_path / "file").write_text("not a folder")
    started = time.monotonic()
    status, out, err = run(*argv, "--dir", str(tmp_path / where))
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and fragment in err and f"/{where}" in err
    assert time.monotonic() - started < 5


def test_unusable_table_folder_api(tmp_path, no_solving):
    (tmp_path / "file").write_text("not a folder")
    with pytest.raises(TableError, match="not a folder"):
        ExpectedValues.load(tmp_path / "file")
    with pytest.raises(TableError, match="cannot create"):
        ExpectedValues.load(tmp_path / "file" / "sub")


# -- Ctrl-C: the kernels stop promptly ------------------------------------------------------
def interrupt_after(argv, delay: float, ready: str = "") -> tuple:
    """Start `argv`, wait for the line `ready` (if given) and `delay` seconds, send SIGINT;
    returns the child, the seconds it took to end after the signal, its stdout and stderr."""
    child = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=child_env(), preexec_fn=default_sigint)
    before = child.stdout.readline() if ready else ""
    assert before == ready, child.communicate()
    time.sleep(delay)
    assert child.poll() is None, child.communicate()
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=30)
    return child, time.monotonic() - sent, before + out, err


@pytest.mark.skipif(sys.platform == "win32",
                    reason="POSIX only: Windows has no SIGINT to send to a child process")
def test_ctrl_c_stops_simulate_with_status_130():
    child, waited, out, err = interrupt_after(
        [sys.executable, "-m", "qwixx_stats", "simulate", "--games", "100000000",
         "--strategy", "greedy", "--players", "2"], 1.5)
    assert child.returncode == 130 and waited < 3
    assert out == "" and err == "qwixx: interrupted\n"


KERNEL = textwrap.dedent("""
    import sys
    import numpy as np
    from qwixx_stats import _simulate
    from qwixx_stats.solitaire import solve_table
    print("started", flush=True)
    try:
        if sys.argv[1] == "simulate":       # one call of about 15 s, no Python in between
            games = 3_000_000
            _simulate.simulate(np.array([1, 1], dtype=np.int32), np.zeros(2, dtype=np.int32),
                               0, games, 1, np.zeros((1, 4)),
                               np.zeros((games, 2), dtype=np.int32),
                               np.zeros(games, dtype=np.int32), np.zeros(games, dtype=np.int32))
        else:                               # the whole solve, without a progress callback
            solve_table()
    except KeyboardInterrupt:
        print("interrupted", flush=True)
        sys.exit(130)
""")


@pytest.mark.skipif(sys.platform == "win32",
                    reason="POSIX only: Windows has no SIGINT to send to a child process")
@pytest.mark.parametrize("kernel", ["simulate", "solve"])
def test_ctrl_c_stops_a_kernel_call_promptly(kernel):
    child, waited, out, err = interrupt_after([sys.executable, "-c", KERNEL, kernel], 1.0,
                                              ready="started\n")
    assert out == "started\ninterrupted\n", err
    assert child.returncode == 130 and waited < 3
