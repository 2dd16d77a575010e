"""The scripts that make the solution's record and the figures of its docs page
(benchmarks/tablebase_census.py --decode, benchmarks/solution_figures.py), run on the whole
4x4 game and checked against the tables' own probes."""
import json
import subprocess
import sys
import xml.dom.minidom
from pathlib import Path

from quixo_solver import Board
from quixo_solver.tablebase import Tablebase

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def run(script, *args):
    subprocess.run([sys.executable, str(BENCHMARKS / script), *map(str, args)], check=True,
                   capture_output=True, text=True, timeout=600)


def test_the_census_and_the_figures_of_the_4x4_game_agree_with_the_tables(tables, tmp_path):
    census_file, out = tmp_path / "census.json", tmp_path / "figures"
    run("tablebase_census.py", "--dir", tables, "--size", 4, "--decode", "--out", census_file)
    run("solution_figures.py", "--dir", tables, "--census", census_file, "--out-dir", out)
    census = json.loads(census_file.read_text())
    game = census["game"]
    assert game["classes"] == 153 and game["positions"] == 3 ** 16
    assert game["win"] + game["draw"] + game["loss"] == game["positions"]
    assert sum(n for _, n in game["win_plies"]) == game["win"]
    assert sum(n for _, n in game["loss_plies"]) == game["loss"]
    figures = json.loads((out / "figures.json").read_text())
    with Tablebase(tables) as tablebase:
        for row in census["classes"]:          # each example is what its row says
            for end in ("win", "loss"):
                longest = row[f"longest_{end}"]
                if longest:
                    found = tablebase.probe(Board(longest["example"]))
                    assert (found.value, found.plies) == (end, longest["plies"])
        empty = Board(size=4)
        assert figures["empty_board"]["value"] == "win in 21"      # 4x4: a first-player win
        assert len(figures["empty_board"]["moves"]) == empty.legal_moves.count()
        # the line of best play: legal, as long as the table says, won by the side to move
        longest = figures["longest_win"]
        board = Board(longest["example"])
        first = board.turn
        assert tablebase.probe(board).plies == longest["plies"] == len(longest["line"])
        for move in longest["line"]:
            assert tablebase.probe(board).plies is not None
            board.push(move)
        assert board.is_game_over() and board.winner() == first
    for picture in ("plies.svg", "classes.svg"):
        xml.dom.minidom.parse(str(out / picture))
    page = (out / "figures.md").read_text()
    assert "win in 21" in page and f"| all | 153 | {3 ** 16:,} |" in page
