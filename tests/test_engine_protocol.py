"""`quixo engine` (quixo_solver.frontends.engine_protocol): the SPEC's engine protocol, in
process (EngineSession with its search thread) and as a program on pipes: scripted
conversations, the answers' shapes, the game's history, clocks, `stop` during `go infinite`,
`quit`, and one `info string error` line for every command the engine cannot read."""
import queue
import random
import re
import subprocess
import sys
import time

import pytest

from quixo_solver import Board, Solver, Tablebase
from quixo_solver.frontends.engine_protocol import (EngineSession, GoRequest, ProtocolError,
                                                    parse_go, parse_position)
from quixo_solver.search import DEPTH_LIMIT
from quixo_solver.tablebase.traps import trap_move
from quixo_solver.teams import TeamBoard

INFO = re.compile(r"info depth (\d+) score (win \d+|loss \d+|draw|cp -?\d+) nodes (\d+) "
                  r"nps (\d+) time (\d+)( pv( \S+)+)?$")
WON_IN_ONE = "X..../X..../X..../X..../..... X"      # a1a5 completes the a-file


class Engine:
    """An EngineSession whose output lines go to a queue, read with deadlines."""

    def __init__(self, **options):
        self.lines = queue.Queue()
        self.session = EngineSession(self.lines.put, **options)

    def send(self, *commands):
        for command in commands:
            assert self.session.handle(command) is True

    def read(self, timeout=30.0):
        return self.lines.get(timeout=timeout)

    def until(self, prefix, timeout=30.0):
        """The lines up to and including the first that starts with `prefix`."""
        seen = []
        deadline = time.monotonic() + timeout
        while True:
            seen.append(self.lines.get(timeout=max(0.01, deadline - time.monotonic())))
            if seen[-1].startswith(prefix):
                return seen

    def silent(self, seconds=0.3):
        try:
            line = self.lines.get(timeout=seconds)
        except queue.Empty:
            return True
        raise AssertionError(f"unexpected output {line!r}")

    def close(self):
        self.session.finish()


@pytest.fixture
def engine():
    engine = Engine(hash_mib=16)
    yield engine
    engine.close()


# -- the conversation ---------------------------------------------------------------------

def test_uci_names_the_engine_and_its_hash_option(engine):
    engine.send("uci")
    lines = engine.until("uciok")
    assert lines[0].startswith("id name quixo-solver ")
    assert lines[1].startswith("id author ")
    option = [line for line in lines if line.startswith("option ")]
    assert len(option) == 2
    found = re.fullmatch(r"option name Hash type spin default 16 min 1 max (\d+)", option[0])
    assert found and int(found.group(1)) >= 16
    assert option[1] == "option name Traps type check default false"     # no tables
    assert lines[-1] == "uciok"
    engine.send("isready")
    assert engine.read() == "readyok"


def test_a_scripted_game_answers_info_lines_then_the_solvers_move(engine):
    engine.send("uci", "isready", "ucinewgame", "position startpos size 4 moves a1d1 a1d1",
                "go depth 4")
    lines = engine.until("bestmove")
    assert lines[:6] == [line for line in lines[:6]]   # (read past uci's answer)
    infos = [line for line in lines if line.startswith("info depth")]
    depths = [int(INFO.match(line).group(1)) for line in infos]
    assert depths == [1, 2, 3, 4]
    board = Board(size=4)
    board.push("a1d1")
    board.push("a1d1")
    expected = Solver(tt_mib=16).solve(board, depth=4)
    assert lines[-1] == f"bestmove {expected.best_move}"
    last = INFO.match(infos[-1])
    assert int(last.group(3)) == expected.nodes
    assert infos[-1].split(" pv ")[1].split()[0] == str(expected.best_move)
    assert infos[-1].split(" pv ")[1].split() == [str(m) for m in expected.principal_variation]


def test_the_moves_are_the_games_history(engine):
    # a1e1 played back and forth: the position is the start one, but with its history the
    # search may answer differently; the engine searches exactly the board with its stack
    moves = ["a1e1", "a5e5", "e1a1", "e5a5"]
    engine.send(f"position startpos moves {' '.join(moves)}", "go depth 3")
    lines = engine.until("bestmove")
    board = Board()
    for move in moves:
        board.push(move)
    assert len(board.game_positions()) == 4
    assert lines[-1] == f"bestmove {Solver(tt_mib=16).solve(board, depth=3).best_move}"


def test_a_position_string_with_moves(engine):
    engine.send("position XX..O/...../...../...../..... X moves a2a1", "go depth 2")
    lines = engine.until("bestmove")
    board = Board("XX..O/...../...../...../..... X")
    board.push("a2a1")
    assert lines[-1] == f"bestmove {Solver(tt_mib=16).solve(board, depth=2).best_move}"


def test_a_proven_win_is_scored_win_in_plies(engine):
    engine.send(f"position {WON_IN_ONE}", "go depth 5")
    lines = engine.until("bestmove")
    assert lines[-1] == "bestmove a1a5"
    assert "score win 1" in lines[-2] and lines[-2].endswith("pv a1a5")


def test_a_tables_answer_is_one_info_line_at_depth_0(tables):
    engine = Engine(tablebase=Tablebase(tables), hash_mib=4)
    try:
        engine.send("position startpos size 4", "go depth 3")
        lines = engine.until("bestmove")
        with Tablebase(tables) as tablebase:
            plies = tablebase.probe_plies(Board(size=4))
            best = tablebase.best_move(Board(size=4))
        assert len(lines) == 2
        assert lines[0].startswith(f"info depth 0 score win {plies} nodes 0 ")
        assert lines[1] == f"bestmove {best}"
        engine.send("position ..../..../..../.... X", "go movetime 100")
        assert engine.until("bestmove")[0].startswith("info depth 0 score win 21")
    finally:
        engine.close()


def test_four_players_use_their_own_clocks_and_pass(engine):
    engine.send("position startpos size 4 players 4 moves a1d1+", "go x1time 5000 o1time 5000 "
                "x2time 5000 o2time 5000 x1inc 100 o1inc 100 x2inc 100 o2inc 100")
    lines = engine.until("bestmove")
    board = TeamBoard(size=4)
    board.push("a1d1+")
    assert board.is_legal(lines[-1].split()[1])
    engine.send("go xtime 1000")
    assert engine.read().startswith("info string error go: xtime is not a clock of the "
                                    "four-player game")
    # X1 has no cube to take (the border holds X2's and O's cubes, no line): it must pass
    engine.send("position xOx/O.O/xOx X1", "go depth 2")
    assert engine.until("bestmove")[-1] == "bestmove pass"
    engine.send("position xOx/O.O/xOx X1 moves pass", "go depth 1")
    assert engine.until("bestmove")[-1].startswith("bestmove ")


def test_clocks_and_movetime_bound_the_answer(engine):
    engine.send("position startpos", "isready")
    assert engine.read() == "readyok"
    started = time.monotonic()
    engine.send("go xtime 2000 otime 2000 xinc 0 oinc 0")
    engine.until("bestmove")
    assert time.monotonic() - started < 2.0
    started = time.monotonic()
    engine.send("go movetime 200")
    engine.until("bestmove")
    assert time.monotonic() - started < 1.5
    started = time.monotonic()
    engine.send("go xtime -50 otime 1000")       # a clock that has run out: at once
    engine.until("bestmove")
    assert time.monotonic() - started < 1.0


def test_go_infinite_waits_for_stop_even_once_proven(engine):
    engine.send(f"position {WON_IN_ONE}", "go infinite")
    assert "score win 1" in engine.read()
    assert engine.silent(0.5)                     # proven, but infinite: no bestmove yet
    engine.send("isready")
    assert engine.read() == "readyok"             # answered while it waits
    engine.send("stop")
    assert engine.read() == "bestmove a1a5"


def test_stop_ends_an_infinite_search_at_once(engine):
    engine.send("position startpos", "go infinite")
    first = engine.read()
    assert INFO.match(first)
    engine.send("isready")
    assert "readyok" in engine.until("readyok")[-1]
    engine.send("go depth 2")                     # refused: the search has no limits
    assert any(line.startswith("info string error go while a search without limits runs")
               for line in engine.until("info string error"))
    stopped = time.monotonic()
    engine.send("stop")
    lines = engine.until("bestmove", timeout=5)
    assert time.monotonic() - stopped < 2.0
    assert Board().is_legal(lines[-1].split()[1])
    engine.send("position startpos", "go depth 1")   # idle again
    assert engine.until("bestmove")[-1].startswith("bestmove ")


def test_stop_ends_a_long_movetime_search(engine):
    engine.send("position startpos", "go movetime 600000")
    engine.read()
    stopped = time.monotonic()
    engine.send("stop")
    engine.until("bestmove", timeout=5)
    assert time.monotonic() - stopped < 2.0


def test_commands_sent_at_once_wait_for_a_search_with_limits(engine):
    engine.send("position startpos size 4", "go depth 3", "position startpos size 3",
                "go depth 2")
    first = engine.until("bestmove")
    second = engine.until("bestmove")
    assert Board(size=4).is_legal(first[-1].split()[1])
    assert Board(size=3).is_legal(second[-1].split()[1])
    assert not any("error" in line for line in first + second)


def test_quit_stops_the_search_and_ends():
    engine = Engine(hash_mib=4)
    engine.send("position startpos", "go infinite")
    engine.read()
    assert engine.session.handle("quit") is False
    assert engine.until("bestmove")[-1].startswith("bestmove ")


def test_the_traps_option_picks_the_trap_move_or_the_first_best_move(tables):
    # a 4x4 position where the best move that sets the most traps is not the tables' first
    with Tablebase(tables) as tablebase:
        position = next(board for board in walk_positions(4, seed=3)
                        if trap_move(tablebase, board) != tablebase.best_move(board))
        trap, first = trap_move(tablebase, position), tablebase.best_move(position)
    engine = Engine(tablebase=Tablebase(tables), hash_mib=4)
    try:
        engine.send("uci")
        assert "option name Traps type check default true" in engine.until("uciok")
        answers = []
        for value in ("true", "false", "TRUE"):
            engine.send(f"setoption name traps value {value}", f"position {position}",
                        "go depth 1")
            answers.append(engine.until("bestmove")[-1])
        assert answers == [f"bestmove {trap}", f"bestmove {first}", f"bestmove {trap}"]
    finally:
        engine.close()


def walk_positions(size, seed):
    """Unfinished positions of seeded random games (without their history)."""
    generator = random.Random(seed)
    while True:
        board = Board(size=size)
        while not board.is_game_over():
            yield board.copy(stack=False)
            board.push(generator.choice(list(board.legal_moves)))


def test_setoption_hash_makes_a_table_of_that_size(engine):
    engine.send("position startpos size 3")
    assert engine.session._solvers["two-player"].tt_mib == 16
    engine.send("setoption name Hash value 8", "position startpos size 3", "go depth 1")
    engine.until("bestmove")
    assert engine.session._solvers["two-player"].tt_mib == 8
    engine.send("setoption name hash value 8")    # option names ignore case
    assert engine.silent(0.1)


def test_ucinewgame_forgets_the_position(engine):
    engine.send("position startpos", "ucinewgame", "go depth 1")
    assert engine.read().startswith("info string error go needs a position first")


@pytest.mark.parametrize("command, fragment", [
    ("foo", "unknown command 'foo'"),
    ("uci please", "uci takes nothing after it"),
    ("position", "position needs startpos or a position"),
    ("position startpos size 6", "size"),
    ("position startpos size", "size needs a number"),
    ("position startpos players 3", "2 or 4 players"),
    ("position startpos colour white", "takes size N and players 2|4"),
    ("position startpos size 4 size 5", "size is given twice"),
    ("position startpos moves a1a1", "move 1 (a1a1)"),
    ("position startpos moves a1e1 zz", "move 2 (zz)"),
    ("position XX..O/..... X", "position"),
    ("position XX..O/...../...../...../..... X extra", "board and the player to move"),
    ("position XXXXX/...../...../...../..... O moves a2a1", "after the end of the game"),
    ("setoption name Foo value 1", "unknown option 'Foo'"),
    ("setoption name Hash value big", "Hash takes a whole number of MiB"),
    ("setoption name Hash value 0", "Hash must be 1 .."),
    ("setoption Hash 16", "setoption needs: setoption name"),
    ("setoption name Traps value maybe", "Traps takes true or false, not 'maybe'"),
    ("setoption name Traps", "Traps takes true or false"),
])
def test_a_command_it_cannot_read_gets_one_error_line_and_the_engine_goes_on(engine, command,
                                                                              fragment):
    engine.send(command)
    line = engine.read()
    assert line.startswith("info string error ") and fragment in line, line
    assert "\n" not in line and len(line) < 400
    assert engine.silent(0.05)
    engine.send("isready")
    assert engine.read() == "readyok"


@pytest.mark.parametrize("command, fragment", [
    ("go depth 0", "depth must be from 1 to"),
    (f"go depth {DEPTH_LIMIT + 1}", "depth must be from 1 to"),
    ("go depth x", "depth must be a whole number"),
    ("go movetime 0", "movetime must be from 1"),
    ("go movetime -5", "movetime must be a whole number"),
    ("go nodes 0", "nodes must be from 1"),
    ("go nodes 99999999999999999999999", "nodes must be a whole number"),
    ("go xtime", "xtime needs a number"),
    ("go depth 2 depth 3", "depth is given twice"),
    ("go x1time 100", "x1time is not a clock of the two-player game"),
    ("go wtime 100", "unknown limit 'wtime'"),
    ("go infinite depth 3", "infinite takes no other limit"),
])
def test_a_go_it_cannot_read_is_refused_and_no_search_starts(engine, command, fragment):
    engine.send("position startpos", command)
    line = engine.read()
    assert line.startswith("info string error go") and fragment in line, line
    assert engine.silent(0.1)
    engine.send("go depth 1")                     # the position is still there
    assert engine.until("bestmove")[-1].startswith("bestmove ")


def test_go_without_a_position_or_in_a_finished_game_is_refused(engine):
    engine.send("go depth 1")
    assert "go needs a position first" in engine.read()
    engine.send("position XXXXX/OO.../...../...../..... O", "go depth 1")
    assert "the game is over (1-0)" in engine.read()
    engine.send("position startpos moves a1a1", "go depth 1")   # a refused position
    assert "move 1 (a1a1)" in engine.read()
    assert "go needs a position first" in engine.read()         # is no position at all
    assert engine.silent(0.1)


# -- reading the commands -------------------------------------------------------------------

def test_parse_position_keeps_the_history():
    board = parse_position("startpos size 3 moves a1c1 a3a1".split())
    assert board.size == 3 and [str(m) for m in board.move_stack] == ["a1c1", "a3a1"]
    assert isinstance(parse_position("startpos players 4".split()), TeamBoard)
    assert str(parse_position("xx..o/...../...../...../..... x".split())) == \
        "XX..O/...../...../...../..... X"
    with pytest.raises(ProtocolError):
        parse_position([])


def test_parse_go_reads_the_movers_clock():
    board = Board()
    assert parse_go("xtime 1000 otime 2000 xinc 10 oinc 20".split(), board) == GoRequest(
        clock=1.0, increment=0.01)
    board.push("a1e1")
    assert parse_go("xtime 1000 otime 2000 xinc 10 oinc 20".split(), board) == GoRequest(
        clock=2.0, increment=0.02)
    request = parse_go("movetime 500 otime 300".split(), board)
    assert request.solve_arguments() == {"depth": None, "nodes": None,
                                         "time": pytest.approx(0.27)}
    assert parse_go([], board).solve_arguments() == {"depth": DEPTH_LIMIT}
    assert parse_go(["infinite"], board).unbounded
    assert parse_go("depth 3 nodes 1000".split(), board).solve_arguments() == {
        "depth": 3, "nodes": 1000}


# -- the program ----------------------------------------------------------------------------

ENGINE = [sys.executable, "-m", "quixo_solver", "engine", "--no-tablebase", "--hash", "8"]


def test_quixo_engine_on_pipes_answers_a_script_and_ends_at_quit():
    script = "\n".join(["uci", "isready", "bogus", "position startpos size 4", "go depth 2",
                        "position startpos moves a1e1", "go nodes 500", "quit", ""])
    done = subprocess.run(ENGINE, input=script, capture_output=True, text=True, timeout=120)
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and done.stderr == ""
    assert lines[0].startswith("id name quixo-solver") and "uciok" in lines
    assert lines[lines.index("uciok") + 1] == "readyok"
    assert lines[lines.index("readyok") + 1].startswith("info string error unknown command "
                                                        "'bogus'")
    bestmoves = [line for line in lines if line.startswith("bestmove ")]
    assert len(bestmoves) == 2
    assert all(INFO.match(line) for line in lines if line.startswith("info depth"))


def test_quixo_engine_ends_at_the_end_of_its_input_after_answering():
    done = subprocess.run(ENGINE, input="position startpos size 3\ngo depth 2\n",
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.splitlines()[-1].startswith("bestmove ")


def test_quixo_engine_stops_an_infinite_search_on_stop():
    with subprocess.Popen(ENGINE, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                          bufsize=1) as process:
        process.stdin.write("position startpos\ngo infinite\n")
        process.stdin.flush()
        assert process.stdout.readline().startswith("info depth 1 ")
        time.sleep(0.3)
        process.stdin.write("stop\n")
        process.stdin.flush()
        while True:
            line = process.stdout.readline()
            assert line, "the engine ended without a bestmove"
            if line.startswith("bestmove "):
                break
        process.stdin.write("quit\n")
        process.stdin.flush()
        assert process.wait(30) == 0


def test_quixo_engine_refuses_a_bad_hash_on_its_command_line():
    done = subprocess.run([*ENGINE[:-1], "0.5"], input="", capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2 and "whole number of MiB" in done.stderr
    assert done.stderr.count("\n") == 1


def test_quixo_engine_reads_bytes_that_are_not_utf8_as_an_unknown_command():
    done = subprocess.run(ENGINE, input=b"\xff\xfe bad\nisready\nquit\n", capture_output=True,
                          timeout=60)
    lines = done.stdout.decode().splitlines()
    assert done.returncode == 0
    assert lines[0].startswith("info string error unknown command") and lines[1] == "readyok"
