"""Engine matches (quixo_solver.tournament): settings, openings, the draw rules, clocks and
losses on time, the records file (resume, settings check) and workers that do not change a
game."""
import json
import random
import re
from collections import Counter
from pathlib import Path

import pytest

from quixo_solver import Board, SearchResult, Tablebase
from quixo_solver.variants import parse_board
from quixo_solver.tournament.clock import TimeControl
from quixo_solver.errors import ClockError, MatchError
from quixo_solver.tournament.game import opening, play_game, start_board
from quixo_solver.tournament.records import read_records
from quixo_solver.tournament.run import run_match
from quixo_solver.tournament.settings import EngineSetting, MatchSettings
from quixo_solver.tournament.summary import summary_path
from quixo_solver.teams import TeamBoard

DEPTH_2 = EngineSetting(depth=2, hash=4, tables=False)
DEPTH_1 = EngineSetting(depth=1, hash=4, tables=False)
TEAM_DEPTH_1 = EngineSetting(depth=1, hash=4)     # four players: tables on (3x3 must)


def without_timing(record):
    return {key: value for key, value in record.items() if key not in ("seconds", "clocks")}


def replay(record):
    """The boards of a recorded game from the empty board: (boards, final board)."""
    board = start_board_of(record)
    boards = [str(board)]
    for move in record["opening_moves"] + record["moves"]:
        board.push(move)
        boards.append(str(board))
    return boards, board


def start_board_of(record):
    size, players = record["match"]["size"], record["match"]["players"]
    return TeamBoard(size=size) if players == 4 else Board(size=size)


# -- engine settings ------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("time=1", EngineSetting(time=1.0)),
    ("depth=6, hash=16 tables=off", EngineSetting(depth=6, hash=16.0, tables=False)),
    ("clock=10m+5s", EngineSetting(clock=TimeControl(600, 5))),
    ("clock=10s+0.1s,depth=4,TABLES=ON", EngineSetting(depth=4, clock=TimeControl(10, 0.1))),
    ("time=0.1,depth=3", EngineSetting(time=0.1, depth=3)),
    ("nodes=5000", EngineSetting(nodes=5000)),
    ("cmd=quixo engine --no-tablebase,time=0.1",
     EngineSetting(time=0.1, cmd="quixo engine --no-tablebase")),
    ("depth=3 cmd=python legacy.py --tree 'a b' hash=16",
     EngineSetting(depth=3, hash=16, cmd="python legacy.py --tree 'a b'")),
    ("cmd=quixo engine", EngineSetting(time=1.0, cmd="quixo engine")),
    ("depth=2,traps=off", EngineSetting(depth=2, traps=False)),
])
def test_engine_settings_are_read(text, expected):
    setting = EngineSetting.parse(text)
    assert setting == expected
    assert EngineSetting.parse(str(setting)) == setting


@pytest.mark.parametrize("text, error, fragment", [
    ("", MatchError, "needs time=SECONDS, depth=PLIES, nodes=N or clock="),
    ("nodes=0", MatchError, "nodes= must be a whole number from 1"),
    ("cmd=,time=1", MatchError, "cmd= needs a program"),
    ("cmd=prog,tables=on", MatchError, "tables= is for this package's engine"),
    ("cmd=prog 'open,time=1", MatchError, "cannot be read: No closing quotation"),
    ("cmd=prog,hash=0.5", MatchError, "whole MiB"),
    ("cmd=a,cmd=b", MatchError, "cmd= is given twice"),
    ("hash=16", MatchError, "needs time="),
    ("time=1,clock=10s", MatchError, "not both"),
    ("speed=3", MatchError, "unknown engine setting 'speed=3'"),
    ("time", MatchError, "unknown engine setting"),
    ("time=abc", MatchError, "time= must be a number"),
    ("time=-1", MatchError, "positive"),
    ("time=inf", MatchError, "finite"),
    ("depth=0", MatchError, "depth= must be a whole number of plies from 1"),
    ("depth=2.5", MatchError, "whole number"),
    ("tables=maybe,time=1", MatchError, "on or off"),
    ("time=1,time=2", MatchError, "given twice"),
    ("hash=0,time=1", MatchError, "hash="),
    ("weights=/no/such/weights.json,time=1", MatchError, "/no/such/weights.json"),
    ("cmd=quixo engine,weights=w.json", MatchError, "quixo engine --weights FILE"),
    ("clock=10x", ClockError, "'10x'"),
    ("traps=no,time=1", MatchError, "traps= must be on or off"),
    ("cmd=quixo engine,traps=off", MatchError, "own option (Traps)"),
])
def test_bad_engine_settings_name_the_problem(text, error, fragment):
    with pytest.raises(error) as raised:
        EngineSetting.parse(text)
    assert isinstance(raised.value, ValueError) and fragment in str(raised.value)


@pytest.mark.parametrize("kwargs, fragment", [
    ({"players": 3}, "2 or 4 players"),
    ({"size": 6}, "size"),
    ({"opening_plies": 41}, "opening plies"),
    ({"opening_plies": 4, "max_plies": 4}, "more than the opening's 4 plies"),
    ({"players": 4, "size": 3, "engine_b": DEPTH_1}, "tables=off applies to games with tables"),
])
def test_bad_match_settings_name_the_problem(kwargs, fragment):
    arguments = {"engine_a": EngineSetting(depth=1), "engine_b": EngineSetting(depth=1),
                 **kwargs}
    with pytest.raises(ValueError, match=fragment):
        MatchSettings(**arguments)


# -- openings -------------------------------------------------------------------------------

@pytest.mark.parametrize("size, players", [(3, 2), (4, 2), (5, 2), (4, 4), (5, 4)])
def test_openings_are_seeded_legal_and_never_over(size, players):
    settings = MatchSettings(TEAM_DEPTH_1, TEAM_DEPTH_1, size=size, players=players,
                             opening_plies=5)
    openings = [opening(settings, pair) for pair in range(20)]
    assert openings == [opening(settings, pair) for pair in range(20)]
    assert len({tuple(moves) for moves in openings}) > 10
    other_seed = MatchSettings(TEAM_DEPTH_1, TEAM_DEPTH_1, size=size, players=players,
                               opening_plies=5, seed=2)
    assert [opening(other_seed, pair) for pair in range(20)] != openings
    for moves in openings:
        board = start_board(settings)
        assert len(moves) == 5
        for move in moves:
            assert not board.is_game_over()
            board.push(move)                # raises if the move were illegal
        assert not board.is_game_over()


def test_no_opening_plies_is_the_empty_board():
    settings = MatchSettings(DEPTH_1, DEPTH_1, size=4, opening_plies=0)
    assert opening(settings, 7) == []


# -- games ----------------------------------------------------------------------------------

def test_each_opening_is_played_once_with_each_colour():
    settings = MatchSettings(DEPTH_2, DEPTH_1, size=4, seed=3)
    solvers = {"A": build(DEPTH_2, settings), "B": build(DEPTH_1, settings)}
    first, second = (play_game(settings, 5, game, solvers) for game in (0, 1))
    assert first["opening_moves"] == second["opening_moves"] == opening(settings, 5)
    assert (first["x"], second["x"]) == ("A", "B")
    for record in (first, second):
        boards, board = replay(record)
        assert record["opening"] == boards[len(record["opening_moves"])]
        assert record["plies"] == len(boards) - 1
        check_result(record, boards, board)


def check_result(record, boards, board):
    """The result, the reason and engine A's score agree with the replayed game."""
    if record["reason"] == "line":
        assert board.is_game_over()
        assert record["result"] == board.result()
    elif record["reason"] == "repetition":
        counts = Counter(boards)
        assert counts[boards[-1]] == 3 and max(Counter(boards[:-1]).values()) <= 2
        assert not board.is_game_over()
    elif record["reason"] == "move limit":
        assert record["plies"] == record["match"]["max_plies"]
    if record["reason"] != "line" and record["reason"] != "time":
        assert record["result"] == "1/2-1/2" and record["score_a"] == 0.5
    winner_team = {"1-0": "X", "0-1": "O"}.get(record["result"])
    if winner_team is not None:
        x_engine = record["x"]
        winning = x_engine if winner_team == "X" else ("B" if x_engine == "A" else "A")
        assert record["winner"] == winning
        assert record["score_a"] == (1.0 if winning == "A" else 0.0)


def test_the_third_repetition_of_a_position_is_a_draw():
    # depth-limited engines, which know nothing of repetitions, shuffle on 5x5
    settings = MatchSettings(DEPTH_2, DEPTH_2, size=5, seed=1)
    solvers = {"A": build(DEPTH_2, settings), "B": build(DEPTH_2, settings)}
    records = [play_game(settings, pair, game, solvers) for pair in range(4) for game in (0, 1)]
    assert any(record["reason"] == "repetition" for record in records)
    for record in records:
        check_result(record, *replay(record))


def test_a_game_that_reaches_the_ply_limit_is_a_draw():
    settings = MatchSettings(DEPTH_1, DEPTH_1, size=5, opening_plies=2, max_plies=5)
    solvers = {"A": build(DEPTH_1, settings), "B": build(DEPTH_1, settings)}
    record = play_game(settings, 0, 0, solvers)
    assert (record["reason"], record["result"], record["plies"]) == ("move limit",
                                                                     "1/2-1/2", 5)
    assert len(record["moves"]) == 3


class ScriptedSolver:
    """Plays a seeded random move that does not end the game, and lets `seconds` pass on the
    test's clock per move."""

    def __init__(self, now, seconds):
        self.now, self.seconds, self.asked = now, seconds, []
        self.random = random.Random(1)

    def prepare(self, size):
        pass

    def solve(self, board, depth=None, time=None, nodes=None, *, clock=None, increment=0.0):
        self.asked.append((clock, increment, time))
        self.now.advance(self.seconds)
        moves = [move for move in board.legal_moves if not ends(board, move)]
        return SearchResult("unknown", None, self.random.choice(moves))


def ends(board, move):
    child = board.copy()
    child.push(move)
    return child.is_game_over()


class FakeTime:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now

    def advance(self, seconds):
        self.now += seconds


def test_an_engine_that_runs_out_of_time_loses_on_time():
    now = FakeTime()
    slow = EngineSetting(clock=TimeControl(1.0, 0.1))     # engine A: 0.3 s a move
    fast = EngineSetting(time=0.01)                       # engine B: no clock
    settings = MatchSettings(slow, fast, size=5, opening_plies=0)
    for game, loser_team in ((0, "X"), (1, "O")):
        solvers = {"A": ScriptedSolver(now, 0.3), "B": ScriptedSolver(now, 0.0)}
        record = play_game(settings, 0, game, solvers, now=now)
        assert (record["reason"], record["winner"], record["loser"]) == ("time", "B", "A")
        assert record["result"] == ("0-1" if loser_team == "X" else "1-0")
        assert record["score_a"] == 0.0 and record["flagged"] == loser_team
        assert record["clocks"] == {loser_team: 0.0}
        # A is asked with its clock (1, 0.8, 0.6 ... after the increments), B with its time
        clocks = [asked[0] for asked in solvers["A"].asked]
        assert clocks[:3] == pytest.approx([1.0, 0.8, 0.6])
        assert {asked[2] for asked in solvers["B"].asked} == {0.01}
        assert record["plies"] == len(record["moves"]) and len(clocks) == 5


def test_four_players_each_have_a_clock():
    now = FakeTime()
    setting = EngineSetting(clock=TimeControl(2.0))
    settings = MatchSettings(setting, setting, size=4, players=4, opening_plies=0)
    solvers = {"A": ScriptedSolver(now, 0.25), "B": ScriptedSolver(now, 0.25)}
    record = play_game(settings, 0, 0, solvers, now=now)
    # every player moves on their own clock: 2 s / 0.25 s = 8 moves each, and X1 flags first
    assert record["reason"] == "time" and record["flagged"] == "X1"
    assert record["plies"] == 4 * 7 + 0
    assert record["clocks"] == pytest.approx({"X1": 0.0, "O1": 0.25, "X2": 0.25, "O2": 0.25})


# -- running matches: records, resume, workers -----------------------------------------------

def test_a_match_gives_identical_records_on_one_and_on_two_workers(tmp_path):
    settings = MatchSettings(DEPTH_2, DEPTH_1, size=4, seed=5)
    one = run_match(settings, 3, tmp_path / "one.jsonl", jobs=1, progress=False)
    two = run_match(settings, 3, tmp_path / "two.jsonl", jobs=2, progress=False)
    assert one.played == two.played == 6
    assert [without_timing(r) for r in one.records] == [without_timing(r) for r in two.records]
    lines = [json.loads(line) for line in (tmp_path / "two.jsonl").read_text().splitlines()]
    assert [without_timing(r) for r in lines] == [without_timing(r) for r in one.records]
    assert one.statistics == two.statistics
    assert sorted(p.name for p in tmp_path.iterdir()) == ["one.jsonl", "two.jsonl"]


def test_a_match_resumes_where_it_stopped(tmp_path):
    settings = MatchSettings(DEPTH_2, DEPTH_1, size=4, seed=9)
    path = tmp_path / "games.jsonl"
    first = run_match(settings, 2, path, jobs=1, progress=False)
    assert first.played == 4 and len(read_records(path, settings)) == 4
    again = run_match(settings, 2, path, jobs=1, progress=False)
    assert again.played == 0 and again.statistics == first.statistics
    more = run_match(settings, 3, path, jobs=1, progress=False)
    assert more.played == 2 and more.statistics["pairs"] == 3
    fresh = run_match(settings, 3, tmp_path / "fresh.jsonl", jobs=1, progress=False)
    assert [without_timing(r) for r in more.records] == [without_timing(r)
                                                          for r in fresh.records]


def test_a_half_played_pair_is_left_out_until_its_twin_is_played(tmp_path):
    settings = MatchSettings(DEPTH_2, DEPTH_1, size=4, seed=9)
    path = tmp_path / "games.jsonl"
    stopped = run_match(settings, 3, path, jobs=1, stop_after=1e-9, progress=False)
    assert stopped.played == 0 and not path.exists()
    full = run_match(settings, 2, path, jobs=1, progress=False)
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:3]) + "\n")        # as if stopped after three games
    half = read_records(path, settings)
    assert sorted(half) == [(0, 0), (0, 1), (1, 0)]
    resumed = run_match(settings, 2, path, jobs=1, progress=False)
    assert resumed.played == 1 and resumed.statistics == full.statistics
    from quixo_solver.tournament.match_stats import summarize
    partial = summarize(list(half.values()))
    assert (partial["pairs"], partial["games"], partial["incomplete_pairs"]) == (1, 2, 1)


def test_a_records_file_of_another_match_is_refused(tmp_path):
    path = tmp_path / "games.jsonl"
    run_match(MatchSettings(DEPTH_2, DEPTH_1, size=4), 1, path, jobs=1, progress=False)
    other = MatchSettings(DEPTH_2, DEPTH_2, size=4)
    with pytest.raises(MatchError, match="another match .*engine_b 'depth=1,hash=4,"
                                         "tables=off' there, 'depth=2,hash=4,tables=off' here"):
        run_match(other, 1, path, jobs=1, progress=False)
    path.write_text(path.read_text() + "not json\n")
    with pytest.raises(MatchError, match="line 3 is not a game record"):
        read_records(path, MatchSettings(DEPTH_2, DEPTH_1, size=4))


def test_four_player_matches_swap_the_teams(tmp_path):
    setting = EngineSetting(depth=1, hash=4)
    settings = MatchSettings(EngineSetting(depth=2, hash=4), setting, size=4, players=4)
    run = run_match(settings, 2, tmp_path / "teams.jsonl", jobs=1, progress=False)
    assert [(r["pair"], r["game"], r["x"]) for r in run.records] == [
        (0, 0, "A"), (0, 1, "B"), (1, 0, "A"), (1, 1, "B")]
    for record in run.records:
        boards, board = replay(record)
        assert isinstance(parse_board(record["opening"]), TeamBoard)
        check_result(record, boards, board)


def test_the_summary_goes_next_to_the_records():
    assert summary_path("out/games.jsonl").as_posix() == "out/games.summary.json"
    assert summary_path("games").as_posix() == "games.summary.json"


def build(setting, settings):
    from quixo_solver.tournament.players import build_solver
    return build_solver(setting, settings, None)


# -- openings from a file, and adjudication by the tables ---------------------------------

def positions_with_blanks(size, blanks, count, seed):
    """Unfinished positions with exactly `blanks` blank cubes, from seeded random games."""
    generator = random.Random(seed)
    found = []
    while len(found) < count:
        board = Board(size=size)
        while not board.is_game_over():
            empty = size * size - bin(board.x_cubes | board.o_cubes).count("1")
            if empty == blanks:
                found.append(str(board))
                break
            board.push(generator.choice(list(board.legal_moves)))
    return found


def test_games_start_from_the_openings_given_cycling_through_them():
    openings = positions_with_blanks(4, 6, 2, seed=1)
    settings = MatchSettings(DEPTH_1, DEPTH_2, size=4, opening_plies=1, openings=openings)
    solvers = {"A": build(DEPTH_1, settings), "B": build(DEPTH_2, settings)}
    for pair in range(3):
        record = play_game(settings, pair, 0, solvers)
        assert record["start"] == openings[pair % 2] and len(record["opening_moves"]) == 1
        board = Board(record["start"])
        for move in record["opening_moves"]:
            board.push(move)
        assert str(board) == record["opening"]
    assert "openings" in settings.identity()
    assert "openings" not in MatchSettings(DEPTH_1, DEPTH_2, size=4).identity()


@pytest.mark.parametrize("openings, fragment", [
    (["XX/.. X"], "opening 'XX/.. X'"),
    (["...../...../...../...../..... X"], "is not a position of the 4x4 two-player game"),
    (["XXXX/O.../O.../O... O"], "the game is over there"),
])
def test_bad_openings_are_refused(openings, fragment):
    with pytest.raises(MatchError, match=re.escape(fragment)):
        MatchSettings(DEPTH_1, DEPTH_1, size=4, openings=openings)


def test_an_adjudicated_game_ends_as_soon_as_its_position_is_in_the_tables(tables, tmp_path):
    # the 4x4 tables up to 4 blanks: games from 8 blanks are played until the tables hold them
    few_blanks = tmp_path / "tables"
    few_blanks.mkdir()
    for table in Path(tables).glob("quixo4x4-*.qtb"):
        mover, opponent = map(int, table.stem.split("-")[1:])
        if 16 - mover - opponent <= 4:
            (few_blanks / table.name).symlink_to(table)
    openings = positions_with_blanks(4, 8, 6, seed=2)
    settings = MatchSettings(DEPTH_1, DEPTH_2, size=4, opening_plies=0, openings=openings,
                             adjudicate=True)
    run = run_match(settings, 6, tmp_path / "games.jsonl", jobs=1, tables=few_blanks,
                    progress=False)
    adjudicated = [record for record in run.records if record["reason"] == "tables"]
    assert adjudicated and run.statistics["reasons"]["tables"] == len(adjudicated)
    with Tablebase(tables) as tablebase:
        for record in run.records:
            board = Board(record["start"])
            positions = [board.copy(stack=False)]
            for move in record["moves"]:
                board.push(move)
                positions.append(board.copy(stack=False))
            blanks = [16 - bin(b.x_cubes | b.o_cubes).count("1") for b in positions]
            assert min(blanks[:-1]) >= 5          # never in the tables before the end
            if record["reason"] != "tables":
                assert record["adjudication"] is None and record["reason"] == "line"
                continue
            assert blanks[-1] <= 4 and not board.is_game_over()
            found = tablebase.probe(board)
            assert record["adjudication"] == {"position": str(board), "value": found.value,
                                              "plies": found.plies}
            mover_engine = record["x"] if board.turn == "X" else (
                "B" if record["x"] == "A" else "A")
            expected_a = 0.5 if found.wdl == 0 else float(
                (mover_engine == "A") == (found.wdl > 0))
            assert record["score_a"] == expected_a
            assert record["result"] == {0.5: "1/2-1/2", 1.0: "1-0", 0.0: "0-1"}[
                expected_a if record["x"] == "A" else 1 - expected_a]


def test_adjudication_needs_tables_of_the_board_size(tmp_path):
    settings = MatchSettings(DEPTH_1, DEPTH_1, size=4, adjudicate=True)
    with pytest.raises(MatchError, match="no 4x4 tables to adjudicate by"):
        run_match(settings, 1, tmp_path / "games.jsonl", jobs=1, tables=tmp_path,
                  progress=False)
    with pytest.raises(MatchError, match="no tables to adjudicate by"):
        MatchSettings(TEAM_DEPTH_1, TEAM_DEPTH_1, players=4, adjudicate=True)
    assert settings.identity()["adjudicate"] is True
    assert "adjudicate" not in MatchSettings(DEPTH_1, DEPTH_1, size=4).identity()


def test_a_program_is_told_the_games_start_position(tmp_path):
    import shlex
    import sys

    program = shlex.join([sys.executable, "-m", "quixo_solver", "engine", "--no-tablebase",
                          "--hash", "4"])
    openings = positions_with_blanks(4, 7, 2, seed=5)
    external = EngineSetting.parse(f"cmd={program},depth=2,hash=4")
    through_pipes = run_match(MatchSettings(external, DEPTH_1, size=4, openings=openings,
                                            opening_plies=1), 2, tmp_path / "pipes.jsonl",
                              jobs=1, progress=False)
    in_process = run_match(MatchSettings(DEPTH_2, DEPTH_1, size=4, openings=openings,
                                         opening_plies=1), 2, tmp_path / "process.jsonl",
                           jobs=1, progress=False)
    assert [(r["start"], r["moves"], r["result"]) for r in through_pipes.records] == [
        (r["start"], r["moves"], r["result"]) for r in in_process.records]
