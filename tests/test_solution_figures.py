"""The scripts that make the solution's record and the figures of its docs page
(benchmarks/quixo/tablebase/: tablebase_census.py --decode, solution_figures.py), run on the
whole 4x4 game and checked against the tables' own probes."""
import json
import subprocess
import sys
import xml.dom.minidom
from pathlib import Path

from quixo_solver import Board
from quixo_solver.tablebase import Tablebase

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks" / "quixo" / "tablebase"


def run(script, *args):
    done = subprocess.run([sys.executable, str(BENCHMARKS / script), *map(str, args)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr + done.stdout


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
    for end in ("win", "loss"):        # the game's longest is its longest class's, with its class
        rows = [row for row in census["classes"] if row[f"longest_{end}"]]
        assert game[f"longest_{end}"]["plies"] == max(row[f"longest_{end}"]["plies"]
                                                      for row in rows)
        assert any(game[f"longest_{end}"] == dict(row[f"longest_{end}"], mover=row["mover"],
                                                  opponent=row["opponent"]) for row in rows)
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
        assert {key: longest[key] for key in game["longest_win"]} == game["longest_win"]
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


def test_a_census_resumed_from_its_decoded_rows_equals_one_made_in_one_go(tables, tmp_path):
    whole, resumed = tmp_path / "whole.json", tmp_path / "resumed.json"
    rows = tmp_path / "decoded.jsonl"
    run("tablebase_census.py", "--dir", tables, "--size", 4, "--decode", "--out", whole)
    # a first run over part of the game, cut short in the middle of its last line ...
    run("tablebase_census.py", "--dir", tables, "--size", 4, "--blanks", 0, 1, 2, "--decode",
        "--decoded-rows", rows, "--out", resumed)
    lines = rows.read_text().splitlines()
    assert len(lines) == len(json.loads(resumed.read_text())["classes"])
    first = json.loads(lines[0])
    first["file"][0] += 1           # ... and one line read from another file than the folder's
    rows.write_text("\n".join([json.dumps(first), *lines[1:-1], lines[-1][:20]]))
    # the whole game then decodes what the file lacks, and the record is the same
    run("tablebase_census.py", "--dir", tables, "--size", 4, "--decode",
        "--decoded-rows", rows, "--out", resumed)
    assert resumed.read_text() == whole.read_text()
    kept = [json.loads(line) for line in rows.read_text().splitlines()[len(lines):]]
    assert len(kept) == 153 - len(lines) + 2      # the rest, the other file's and the cut one
    assert {(line["mover"], line["opponent"]) for line in kept} >= {
        (first["mover"], first["opponent"]), (json.loads(lines[-1])["mover"],
                                               json.loads(lines[-1])["opponent"])}


def quixo(*args):
    return subprocess.run([sys.executable, "-m", "quixo_solver", *map(str, args)], check=True,
                          capture_output=True, text=True, timeout=600).stdout


def test_the_whole_game_record_of_the_4x4_game(tmp_path):
    # built by its own process, so that the journal's peak memory is the build's alone
    folder, results = tmp_path / "tables", tmp_path / "results"
    quixo("tablebase", "build", "--size", 4, "--dir", folder, "--jobs", 2)
    plan_file = tmp_path / "plan.json"
    plan_file.write_text(quixo("tablebase", "plan", "--size", 4, "--throughput", 1000000,
                               "--json"))
    earlier = tmp_path / "earlier.json"
    run("tablebase_census.py", "--dir", folder, "--size", 4, "--out", earlier)
    disk_log = tmp_path / "disk.log"
    disk_log.write_text("2026-12-07T01:00:00Z 1000\n2026-12-07T01:00:20Z 5000\n"
                        "2026-12-07T01:00:40Z 3000\n")
    run("whole_game.py", "--dir", folder, "--size", 4, "--sample", 2000, "--jobs", 1,
        "--expected", earlier, "--plan", plan_file, "--out", results / "record.json",
        "--manifest-out", results / "manifest.json", "--figures", results / "figures",
        "--disk-log", disk_log)
    record = json.loads((results / "record.json").read_text())
    assert record["game"]["classes"] == 153 and "win_plies" in record["game"]
    assert set(record["steps"]) == {"verify", "manifest", "census", "figures"}
    checks = record["checks"]
    assert checks["verify"]["mismatches"] == 0 and checks["verify"]["classes"] == 153
    assert checks["earlier_records"][0]["classes"] == 153
    assert checks["earlier_records"][0]["differences"] == []
    assert checks["memory_against_plan"]["pairs"] == 81    # every 4x4 pair, each in its plan
    assert checks["memory_against_plan"]["over_plan"] == []
    assert record["disk"]["table_bytes"] == sum(
        entry["bytes"] for entry in json.loads((results / "manifest.json").read_text())["files"])
    assert record["disk"]["build_peak_bytes"] == 5000
    assert record["disk"]["build_peak_at"] == "2026-12-07T01:00:20Z"
    assert record["disk"]["plan_bytes"] == json.loads(plan_file.read_text())["disk_bytes"]
    assert (results / "figures" / "figures.md").exists()
    # a folder that lacks a class is refused, before any step runs
    (folder / "quixo4x4-08-08.qtb").unlink()
    refused = subprocess.run([sys.executable, str(BENCHMARKS / "whole_game.py"), "--dir",
                              str(folder), "--size", "4"], capture_output=True, text=True,
                             check=False)
    assert refused.returncode == 1 and "lacks 1 of the 153 classes" in refused.stderr
    disk_log.write_text("2026-12-07T01:00:00Z many\n")
    refused = subprocess.run([sys.executable, str(BENCHMARKS / "whole_game.py"), "--dir",
                              str(folder), "--size", "4", "--disk-log", str(disk_log)],
                             capture_output=True, text=True, check=False)
    assert refused.returncode == 1 and "disk.log:1: expected 'TIME BYTES'" in refused.stderr
