"""`quixo tablebase sample`: every label is what a probe of the tables says, the positions
are uniform over the SPEC positions of the blank counts (chi-square tests at a fixed seed),
and the same seed gives the same file."""
from __future__ import annotations

import json
from collections import Counter
from math import comb

import numpy as np
import pytest

from quixo_solver import Board, LimitError, MissingTableError, Tablebase
from quixo_solver.frontends.cli import main
from quixo_solver.tablebase import sample

from .refusals import assert_one_line

FIELDS = {"position", "mover", "opponent", "turn", "blanks", "value", "plies", "size",
          "blank_counts", "seed", "rule"}


def write(capsys, tmp_path, folder, *argv):
    out = tmp_path / "sample.npz"
    status = main(["tablebase", "sample", "--dir", str(folder), "--out", str(out), *argv,
                   "--json"])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    with np.load(out) as stored:                # (each look-up of an .npz decompresses)
        return json.loads(captured.out), {name: stored[name] for name in stored.files}


@pytest.mark.parametrize("size, blanks, wanted, count", [
    (3, "0-9", list(range(10)), 3000), (4, "5,0,2,4-5", [0, 2, 4, 5], 2000)])
def test_every_label_is_the_probe_of_its_position(small_tables, tmp_path, capsys, size,
                                                  blanks, wanted, count):
    payload, drawn = write(capsys, tmp_path, small_tables, "--size", str(size), "--blanks",
                           blanks, "--count", str(count), "--seed", "7")
    assert set(drawn) == FIELDS and int(drawn["size"]) == size
    assert payload["count"] == count == drawn["position"].size
    assert payload["win"] + payload["draw"] + payload["loss"] == count
    assert drawn["blank_counts"].tolist() == wanted
    with Tablebase(small_tables) as tablebase:
        for i in range(count):
            board = Board(str(drawn["position"][i]))
            assert board == Board.from_masks(size, int(drawn["mover"][i]),
                                             int(drawn["opponent"][i]), str(drawn["turn"][i]))
            assert str(board) == drawn["position"][i]
            found = tablebase.probe(board)
            assert found.wdl == drawn["value"][i]
            assert (-1 if found.plies is None else found.plies) == drawn["plies"][i]
            assert size * size - bin(board.mover_cubes | board.opponent_cubes).count("1") \
                == drawn["blanks"][i] and drawn["blanks"][i] in wanted


def chi_square(observed: Counter, expected: dict) -> float:
    return sum((observed.get(key, 0) - want) ** 2 / want for key, want in expected.items())


def test_blank_counts_are_weighted_by_their_positions(small_tables):
    count = 30_000
    with Tablebase(small_tables) as tablebase:
        drawn = sample.draw(tablebase, 3, count, range(10), seed=11)
    expected = {k: count * comb(9, k) * 2 ** (9 - k) / 3 ** 9 for k in range(10)}
    # 9 degrees of freedom: 40 is beyond the 0.99999 quantile (37.3)
    assert chi_square(Counter(drawn.blanks.tolist()), expected) < 40
    assert abs(int((drawn.turn == "X").sum()) - count / 2) < 5 * (count / 4) ** 0.5


def test_every_position_of_a_blank_count_is_equally_likely(small_tables):
    count = 28_800                           # 7 blanks on 3x3: 144 boards, 2 players to move
    with Tablebase(small_tables) as tablebase:
        drawn = sample.draw(tablebase, 3, count, [7], seed=3)
    seen = Counter(drawn.positions().tolist())
    assert len(seen) == 288
    # 287 degrees of freedom: 420 is beyond the 0.99999 quantile (about 400)
    assert chi_square(seen, {position: 100 for position in seen}) < 420


def test_the_same_seed_gives_the_same_sample(small_tables, tmp_path, capsys):
    first = write(capsys, tmp_path, small_tables, "--size", "3", "--blanks", "2-6",
                  "--count", "500", "--seed", "5")[1]
    second = write(capsys, tmp_path, small_tables, "--size", "3", "--blanks", "2-6",
                   "--count", "500", "--seed", "5")[1]
    assert all(np.array_equal(first[name], second[name]) for name in FIELDS)
    other = write(capsys, tmp_path, small_tables, "--size", "3", "--blanks", "2-6",
                  "--count", "500", "--seed", "6")[1]
    assert not np.array_equal(first["position"], other["position"])


@pytest.mark.parametrize("argv, message", [
    (["--size", "4", "--blanks", "6"], "no table for class (0, 10) of the 4x4 board"),
    (["--size", "3", "--blanks", "10"], "a blank count of the 3x3 board is 0..9, not 10"),
    (["--size", "3", "--blanks", "5-3"], "a range of blank counts goes up"),
    (["--size", "3", "--blanks", "x"], "expected a number of blank cubes"),
    (["--size", "3", "--blanks", "1", "--count", "0"], "expected a number of positions"),
])
def test_bad_requests_are_refused_in_one_line(small_tables, tmp_path, capsys, argv,
                                              message):
    out = tmp_path / "sample.npz"
    arguments = ["tablebase", "sample", "--dir", str(small_tables), "--out", str(out),
                 "--seed", "1"]
    if "--count" not in argv:
        arguments += ["--count", "10"]
    assert main(arguments + argv) == 2
    captured = capsys.readouterr()
    assert message in captured.err and len(captured.err.strip().splitlines()) == 1
    assert not out.exists()


def test_the_library_refuses_bad_numbers(small_tables):
    with Tablebase(small_tables) as tablebase:
        for call, error in [(lambda: sample.draw(tablebase, 3, 0, [1], 1), LimitError),
                            (lambda: sample.draw(tablebase, 3, 10, [], 1), LimitError),
                            (lambda: sample.draw(tablebase, 3, 10, [1], -1), LimitError),
                            (lambda: sample.draw(tablebase, 3, True, [1], 1), LimitError),
                            (lambda: sample.draw(tablebase, 5, 10, [20], 1),
                             MissingTableError)]:
            with pytest.raises(error) as raised:
                call()
            assert_one_line(raised.value)
