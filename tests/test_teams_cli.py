"""The four-player game on the command line and in `quixo play`."""
import json

import pytest

from quixo_solver.frontends.cli import main
from quixo_solver.frontends.play import run
from quixo_solver.teams import TeamBoard
from quixo_solver.teams.solve import TeamSolver, table_value


def invoke(capsys, *argv):
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_perft_json(capsys):
    status, out, _ = invoke(capsys, "perft", ".../.../... X1", "3", "--json")
    assert status == 0 and json.loads(out)["nodes"] == 47360
    status, out, _ = invoke(capsys, "perft", ".../.../... X1", "2", "--divide", "--json")
    payload = json.loads(out)
    assert len(payload["divide"]) == 40 and payload["nodes"] == 1424
    assert payload["divide"][1]["move"] == "a1c1+"


def test_solve_and_analyze_json(capsys):
    status, out, _ = invoke(capsys, "solve", "--size", "3", "--players", "4", "--json")
    payload = json.loads(out)
    assert status == 0
    assert (payload["position"], payload["value"], payload["plies"]) == (".../.../... X1", "win", 7)
    status, out, _ = invoke(capsys, "solve", "XxXx./...../...../...../..... X2", "--depth", "3",
                            "--json")
    payload = json.loads(out)
    assert (payload["value"], payload["plies"], payload["source"]) == ("win", 1, "search")
    status, out, _ = invoke(capsys, "analyze", "X.O/.x./o.. O1", "--json")
    moves = json.loads(out)["moves"]
    assert status == 0 and moves[0]["value"] == "win" and moves[0]["plies"] == 5


@pytest.mark.parametrize("position, fragment", [
    ("Xx./.../... x1", "X1, O1, X2 or O2"),
    ("Xz./.../... X1", "unknown characters"),
])
def test_bad_four_player_positions_exit_2(capsys, position, fragment):
    status, out, err = invoke(capsys, "solve", position)
    assert status == 2 and fragment in err and "Traceback" not in err


def test_play_as_a_team(monkeypatch):
    board = TeamBoard(size=3)
    typed = iter(["pass", "c3a3++", "moves", "a1c1+", "quit"])
    shown = []
    result = run(board, TeamSolver(), human="X", read=lambda prompt: next(typed),
                 write=shown.append)
    text = "\n".join(shown)
    assert result == "*"
    assert "may pass only" in text and "not a four-player move" in text
    assert "a1c1 a1c1+" in text
    assert text.count("engine plays") == 1 and board.move_stack[0].to_mate


def test_play_to_the_end_against_the_3x3_solution():
    board = TeamBoard(size=3)
    solver = TeamSolver()

    def worst(prompt):
        rows = solver.analyze(board)
        return str(rows[-1][0])
    result = run(board, solver, human="O", read=worst, write=lambda line: None)
    assert result == "1-0" and table_value(TeamBoard(size=3)) == ("win", 7)


def test_four_players_each_have_a_clock_in_play():
    from quixo_solver.tournament.clock import TimeControl

    now = [0.0]
    typed = iter([(2.0, "a1d1"), (0.0, "quit")])

    def read(prompt):
        seconds, text = next(typed)
        now[0] += seconds
        return text
    shown = []
    board = TeamBoard(size=4)
    result = run(board, TeamSolver(tt_mib=4), human="X", clock=TimeControl(1.0, 0.0),
                 read=read, write=shown.append, now=lambda: now[0])
    # X1 thought 2 s on a 1 s clock: X1 loses on time, and with X1 the team
    assert result == "0-1" and board.move_stack == []
    assert "X1 0:01.0 | O1 0:01.0 | X2 0:01.0 | O2 0:01.0" in shown
    assert "X1 loses on time: the engine wins" in shown
