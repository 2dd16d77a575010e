"""benchmarks/quixo/engines/legacy_engine.py, the protocol in front of an old tree of the
package, run here over the installed tree (it uses only the public API both share): a scripted
conversation, refusals, and a short match against `quixo engine` that plays the in-process
solvers' games."""
import shlex
import subprocess
import sys
from pathlib import Path

import quixo_solver
from quixo_solver.tournament.run import run_match
from quixo_solver.tournament.settings import EngineSetting, MatchSettings

ADAPTER = (Path(__file__).resolve().parent.parent / "benchmarks" / "quixo" / "engines"
           / "legacy_engine.py")
TREE = str(Path(quixo_solver.__file__).resolve().parent.parent)
LEGACY = [sys.executable, str(ADAPTER), "--tree", TREE, "--hash", "4"]


def test_the_adapter_answers_a_scripted_conversation():
    script = "\n".join(["uci", "isready", "position startpos size 4 moves a1d1", "go depth 3",
                        "position X..../X..../X..../X..../..... X", "go movetime 200",
                        "position startpos players 4 size 4", "go depth 1",
                        "go x1time 1000 x2time 1000 o1time 1000 o2time 1000",
                        "position startpos size 3", "go infinite", "stop", "bogus",
                        "setoption name Hash value 8", "position startpos moves a1a1", "quit",
                        ""])
    done = subprocess.run(LEGACY, input=script, capture_output=True, text=True, timeout=120)
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and done.stderr == ""
    assert lines[0].startswith("id name quixo-solver legacy") and TREE in lines[0]
    assert lines[lines.index("uciok") + 1] == "readyok"
    bestmoves = [line.split()[1] for line in lines if line.startswith("bestmove")]
    board = quixo_solver.Board(size=4)
    board.push("a1d1")
    assert bestmoves[0] == str(quixo_solver.Solver(tt_mib=4).solve(board, depth=3).best_move)
    assert bestmoves[1] == "a1a5" and len(bestmoves) == 5
    errors = [line for line in lines if line.startswith("info string error")]
    assert len(errors) == 2 and "unknown command 'bogus'" in errors[0]
    assert "move 1 (a1a1)" in errors[1]
    assert any(line.startswith("info depth ") and " score win 1 " in line for line in lines)


def test_a_match_of_quixo_engine_against_the_adapter_over_the_same_tree(tmp_path):
    # the same package on both sides at a fixed depth, and the adapter pushes the moves on
    # the board as quixo engine does: every game is the in-process solvers' game
    new = shlex.join([sys.executable, "-m", "quixo_solver", "engine", "--no-tablebase",
                      "--hash", "4"])
    settings = MatchSettings(EngineSetting.parse(f"cmd={new},depth=2,hash=4"),
                             EngineSetting.parse(f"cmd={shlex.join(LEGACY)},depth=2,hash=4"),
                             size=4, seed=5, max_plies=40)
    run = run_match(settings, 2, tmp_path / "games.jsonl", jobs=1, progress=False)
    assert run.played == 4
    assert run.program_names["B"].startswith("quixo-solver legacy")
    assert {record["reason"] for record in run.records} <= {"line", "repetition",
                                                            "move limit"}
    depth_2 = EngineSetting(depth=2, hash=4, tables=False)
    in_process = run_match(MatchSettings(depth_2, depth_2, size=4, seed=5, max_plies=40), 2,
                           tmp_path / "solver.jsonl", jobs=1, progress=False)
    assert [(r["moves"], r["result"], r["reason"]) for r in run.records] == [
        (r["moves"], r["result"], r["reason"]) for r in in_process.records]
