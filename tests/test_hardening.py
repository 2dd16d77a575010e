"""Bad input, damaged files, full disks, Ctrl-C and broken pipes (issue 10): a ValueError
subclass or one line on stderr with exit status 2, never a traceback, a hang or a wrong
answer."""
import errno
import math
import os
import shutil
import signal
import subprocess
import sys
import time
import zlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quixo_solver import (Board, BoardSizeError, DepthError, MissingTableError, PositionError,
                          QuixoError, Solver, Tablebase, perft, perft_divide)
from quixo_solver.cli import main
from quixo_solver.limits import LimitError
from quixo_solver.search import _search
from quixo_solver.tablebase import CorruptTableError, TablebaseError, build, files, plan, verify
from quixo_solver.teams import TeamBoard
from quixo_solver.teams import perft as team_perft
from quixo_solver.teams.solve import TeamSolver

EMPTY_5 = "...../...../...../...../..... X"
EMPTY_4 = "..../..../..../.... X"
TWO_BLANKS_5 = "XOXOO/XOXXX/OXO.X/OXOXO/OXXO. X"  # a class outside the <= 1 blank tables
RUN = [sys.executable, "-m", "quixo_solver"]
HUGE_MIB = 1e13


# -- the API: one table of bad inputs ---------------------------------------------------------
BAD_CALLS = {
    "perft depth 10**30": (lambda: perft(Board(), 10**30), DepthError),
    "perft depth 2**31": (lambda: perft(Board(), 2**31), DepthError),
    "perft threads '2'": (lambda: perft(Board(), 1, threads="2"), LimitError),
    "perft threads -1": (lambda: perft(Board(), 1, threads=-1), LimitError),
    "perft threads 1.5": (lambda: perft(Board(), 1, threads=1.5), LimitError),
    "perft threads 2**63": (lambda: perft(Board(), 1, threads=2**63), LimitError),
    "perft of a string": (lambda: perft("a string", 1), PositionError),
    "perft_divide depth -1": (lambda: perft_divide(Board(), -1), DepthError),
    "transform '1'": (lambda: Board().transform("1"), QuixoError),
    "transform None": (lambda: Board().transform(None), QuixoError),
    "transform 2**64": (lambda: Board().transform(2**64), QuixoError),
    "transform 1.5": (lambda: Board().transform(1.5), QuixoError),
    "transform 8": (lambda: Board().transform(8), QuixoError),
    "team transform '1'": (lambda: TeamBoard().transform("1"), QuixoError),
    "solve time '5'": (lambda: Solver().solve(Board(size=4), time="5"), LimitError),
    "solve time nan": (lambda: Solver().solve(Board(size=4), time=math.nan), LimitError),
    "solve time inf": (lambda: Solver().solve(Board(size=4), time=math.inf), LimitError),
    "solve depth 10**30": (lambda: Solver().solve(Board(), depth=10**30), DepthError),
    "solve nodes 0": (lambda: Solver().solve(Board(), nodes=0), LimitError),
    "Solver tt_mib '64'": (lambda: Solver(tt_mib="64"), LimitError),
    "Solver tt_mib None": (lambda: Solver(tt_mib=None), LimitError),
    "Solver tt_mib 1e13": (lambda: Solver(tt_mib=1e13), LimitError),
    "Solver tt_mib 1e30": (lambda: Solver(tt_mib=1e30), LimitError),
    "Solver tt_mib inf": (lambda: Solver(tt_mib=math.inf), LimitError),
    "Solver tt_mib nan": (lambda: Solver(tt_mib=math.nan), LimitError),
    "Solver tt_mib 0": (lambda: Solver(tt_mib=0), LimitError),
    "TeamSolver tt_mib 1e30": (lambda: TeamSolver(tt_mib=1e30), LimitError),
    "Solver tablebase 42": (lambda: Solver(tablebase=42), QuixoError),
    "solve a string": (lambda: Solver().solve("a string"), PositionError),
    "analyze a string": (lambda: Solver().analyze("a string"), PositionError),
    "analyze depth 0": (lambda: Solver().analyze(Board(size=4), depth=0), DepthError),
    "team solve a Board": (lambda: TeamSolver().solve(Board(size=3)), PositionError),
    "Tablebase 42": (lambda: Tablebase(42), TablebaseError),
    "probe a string": (lambda: Tablebase().probe("a string"), PositionError),
    "team perft '2'": (lambda: team_perft(TeamBoard(size=3), "2"), DepthError),
    "team perft None": (lambda: team_perft(TeamBoard(size=3), None), DepthError),
    "team perft 1.5": (lambda: team_perft(TeamBoard(size=3), 1.5), DepthError),
    "team perft threads -2": (lambda: team_perft(TeamBoard(size=3), 1, threads=-2),
                              LimitError),
}


@pytest.mark.parametrize("name", sorted(BAD_CALLS))
def test_bad_api_input_raises_a_named_value_error(name):
    call, expected = BAD_CALLS[name]
    with pytest.raises(expected) as raised:
        call()
    assert isinstance(raised.value, ValueError)
    assert len(str(raised.value)) < 300


@pytest.mark.parametrize("max_blanks, jobs, error", [
    ("1", 0, LimitError), (1.5, 0, LimitError), (-1, 0, LimitError), (26, 0, LimitError),
    (None, "2", LimitError), (None, -1, LimitError), (None, 10**30, LimitError),
])
def test_build_refuses_bad_numbers_before_building(tmp_path, max_blanks, jobs, error):
    with pytest.raises(error):
        build(tmp_path, 4, max_blanks, jobs=jobs)
    assert not list(tmp_path.glob("*.qtb"))


def test_build_and_verify_refuse_bad_sizes_and_folders(tmp_path):
    with pytest.raises(BoardSizeError):
        build(tmp_path, 6)
    with pytest.raises(TablebaseError):
        build(42, 3)
    a_file = tmp_path / "file"
    a_file.write_text("x")
    with pytest.raises(TablebaseError, match="not a folder"):
        build(a_file, 3)
    with pytest.raises(TablebaseError, match="no tablebase folder"):
        verify(tmp_path / "missing", 3)
    with pytest.raises(MissingTableError, match="no table of the 3x3 board"):
        verify(tmp_path, 3)


# -- the API under random input ---------------------------------------------------------------
ALLOWED = (ValueError, KeyError, OSError)
numbers = st.one_of(st.none(), st.booleans(), st.integers(min_value=-2**70, max_value=2**70),
                    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8))
texts = st.one_of(st.text(max_size=40), st.text(alphabet="XOxo./ 12", max_size=40),
                  st.none(), st.integers())


def _allowed(call):
    try:
        call()
    except ALLOWED:
        pass


@settings(max_examples=300)
@given(text=texts, number=numbers)
def test_fuzz_positions_moves_and_symmetries(text, number):
    _allowed(lambda: Board(text))
    _allowed(lambda: TeamBoard(text))
    _allowed(lambda: Board().push(text))
    _allowed(lambda: TeamBoard(size=3).push(text))
    _allowed(lambda: Board(size=number))
    _allowed(lambda: Board().transform(number))
    _allowed(lambda: TeamBoard(size=3).transform(number))


# Valid large depths would run for ever: the fuzz draws depths only from what must be refused
# or is cheap.
cheap_or_bad_depths = st.one_of(numbers.filter(lambda n: not (isinstance(n, int)
                                                              and not isinstance(n, bool)
                                                              and 3 <= n <= 64)))


@settings(max_examples=200)
@given(depth=cheap_or_bad_depths, threads=numbers)
def test_fuzz_perft_arguments(depth, threads):
    _allowed(lambda: perft(Board(size=3), depth, threads=threads))
    _allowed(lambda: perft(TeamBoard(size=3), depth, threads=threads))
    _allowed(lambda: perft_divide(Board(size=3), depth, threads=threads))


@settings(max_examples=150)
@given(depth=numbers, seconds=numbers, mib=numbers, text=texts)
def test_fuzz_solver_arguments(depth, seconds, mib, text):
    # a node limit keeps every accepted search short
    _allowed(lambda: Solver(tt_mib=mib))
    _allowed(lambda: Solver(tt_mib=1).solve(Board(size=5), depth=depth, time=seconds,
                                            nodes=2000))
    _allowed(lambda: Solver(tt_mib=1).solve(text))
    _allowed(lambda: TeamSolver(tt_mib=mib))


# -- damaged tables: never a value from unchecked data ---------------------------------------
def _copy_tables(tables, tmp_path, size, max_blanks=None):
    folder = tmp_path / f"tables{size}"
    folder.mkdir()
    for unit in plan.units(size, max_blanks):
        for cls in unit.classes:
            shutil.copy2(tables / files.table_name(size, *cls), folder)
    return folder


def _damage_keeping_size_and_time(path, offsets):
    status = path.stat()
    data = bytearray(path.read_bytes())
    for offset in offsets:
        data[offset] ^= 0x04
    path.write_bytes(bytes(data))
    os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns))


def _data_offsets(path, every_block=False):
    """A byte of the first block of a table file's values (of every block)."""
    table = files.open_table(path)
    starts = table.offsets[:-1] if every_block else table.offsets[:1]
    return [table.header.data_offset + int(start) for start in starts]


def test_a_flipped_byte_is_caught_by_the_probe_whatever_the_file_time(tables, tmp_path):
    folder = _copy_tables(tables, tmp_path, 4)
    board = Board(size=4)
    with Tablebase(folder) as tablebase:
        assert tablebase.probe_plies(board) == 21   # read once, checked, before the damage
    path = folder / files.table_name(4, 0, 0)
    _damage_keeping_size_and_time(path, _data_offsets(path))
    with Tablebase(folder) as tablebase:
        with pytest.raises(CorruptTableError, match="does not match its checksum"):
            tablebase.probe(board)
    assert main(["tablebase", "probe", str(board), "--dir", str(folder)]) == 2


def test_the_search_refuses_a_damaged_block(tables, tmp_path):
    folder = _copy_tables(tables, tmp_path, 5, max_blanks=1)
    board = Board(TWO_BLANKS_5)
    assert Solver(tablebase=folder).solve(board, depth=2).nodes > 100   # probes below the root
    for path in folder.glob("quixo5x5-*.qtb"):
        _damage_keeping_size_and_time(path, _data_offsets(path, every_block=True))
    with pytest.raises(CorruptTableError, match="does not match its checksum"):
        Solver(tablebase=folder).solve(board, depth=2)


def test_build_rebuilds_a_damaged_file_and_verify_reports_it(tmp_path):
    build(tmp_path, 3)
    name = files.table_name(3, 5, 4)
    original = (tmp_path / name).read_bytes()
    _damage_keeping_size_and_time(tmp_path / name, _data_offsets(tmp_path / name))
    report = verify(tmp_path, 3)
    assert not report.ok
    assert any(c.damaged and name in c.damaged for c in report.classes)
    rebuilt = build(tmp_path, 3)
    assert [unit.classes for unit in rebuilt.solved] == [((5, 4), (4, 5))]
    assert (tmp_path / name).read_bytes() == original
    assert verify(tmp_path, 3).ok


def test_a_table_under_another_class_name_is_refused(tables, tmp_path):
    shutil.copy(tables / files.table_name(3, 5, 4), tmp_path / files.table_name(3, 4, 5))
    with pytest.raises(CorruptTableError, match="not the table its name says"):
        Tablebase(tmp_path).probe(Board("XOX/OXO/XOO X"))


def test_an_old_format_file_is_refused_with_a_rebuild_message(tables, tmp_path):
    path = tmp_path / files.table_name(3, 9, 0)
    data = bytearray((tables / path.name).read_bytes())
    for old, advice in ((1, "rebuild"), (2, "rebuild"), (3, "quixo tablebase compress")):
        data[8:10] = old.to_bytes(2, "little")
        path.write_bytes(bytes(data))
        with pytest.raises(CorruptTableError, match=f"version {old}.*{advice}"):
            files.open_table(path)


@settings(max_examples=100)
@given(data=st.binary(max_size=3000))
def test_the_search_block_check_is_zlib_crc32(data):
    assert _search.block_crc32(data) == zlib.crc32(data)


def test_a_full_disk_names_the_cause_and_the_file_and_leaves_nothing(tmp_path, monkeypatch,
                                                                     capsys):
    def full_disk(descriptor):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(files.os, "fsync", full_disk)
    assert main(["tablebase", "build", "--size", "3", "--dir", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "No space left on device" in captured.err and "quixo3x3-09-00.qtb" in captured.err
    assert captured.err.count("\n") == 1
    assert not list(tmp_path.glob("*.partial*")) and not list(tmp_path.glob("*.qtb"))


def test_two_builds_into_one_folder_share_the_work(tmp_path):
    command = RUN + ["tablebase", "build", "--size", "4", "--jobs", "1", "--json",
                     "--dir", str(tmp_path)]
    first = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    second = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    outputs = [process.communicate(timeout=300) for process in (first, second)]
    assert first.returncode == second.returncode == 0, outputs
    import json
    solved = [json.loads(out)["solved"] for out, _ in outputs]
    assert sum(solved) == len(plan.units(4))
    assert verify(tmp_path, 4).ok


# -- the command line ------------------------------------------------------------------------
def _run_main(capsys, argv):
    try:
        status = main(argv)
    except SystemExit as exit:   # argparse's refusals
        status = exit.code
    captured = capsys.readouterr()
    return status, captured.out, captured.err


BAD_COMMAND_LINES = [
    ["perft", EMPTY_5, "2147483648"],
    ["perft", EMPTY_5, "3", "--threads", str(2**63)],
    ["perft", EMPTY_5, "-1"],
    ["perft", "X" * 131_000 + " X", "1"],
    ["perft", EMPTY_5],
    ["solve", EMPTY_4, "--hash", "1e13"],
    ["solve", EMPTY_4, "--hash", "1e9"],
    ["solve", EMPTY_4, "--hash", "0"],
    ["solve", EMPTY_4, "--hash", "lots"],
    ["solve", EMPTY_4, "--time", "0"],
    ["solve", EMPTY_4, "--time", "inf"],
    ["solve", EMPTY_4, "--depth", "0"],
    ["solve", EMPTY_4, "--jobs", str(10**30)],
    ["solve", "Xx..o/...../...../...../..... Q1"],
    ["analyze", EMPTY_4, "--depth", "1000"],
    ["tablebase", "build", "--size", "4", "--jobs", str(10**30)],
    ["tablebase", "build", "--size", "6"],
    ["tablebase", "build", "--size", "4", "--max-blanks", "-1"],
    ["tablebase", "verify", "--size", "3", "--jobs", str(10**30)],
    ["tablebase", "probe", "X.x../...../...../...../..... O1"],
    ["frobnicate"],
]


@pytest.mark.parametrize("argv", BAD_COMMAND_LINES, ids=lambda argv: " ".join(argv)[:40])
def test_bad_command_lines_exit_2_with_one_line(capsys, tmp_path, argv):
    status, out, err = _run_main(capsys, argv + (["--dir", str(tmp_path)]
                                                 if argv[0] == "tablebase" else []))
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("quixo"), err
    assert len(err) < 400


@pytest.mark.parametrize("command", ["stats", "verify"])
def test_stats_and_verify_refuse_folders_without_tables(capsys, tmp_path, command):
    a_file = tmp_path / "a file"
    a_file.write_text("x")
    for folder, message in ((tmp_path / "missing", "no tablebase folder"),
                            (a_file, "is not a folder"), (tmp_path, "no table of the 4x4")):
        status, out, err = _run_main(capsys, ["tablebase", command, "--size", "4",
                                              "--dir", str(folder)])
        assert (status, out) == (2, "")
        assert message in err and err.count("\n") == 1


def test_the_installed_command_has_no_traceback_on_bad_input():
    result = subprocess.run(RUN + ["solve", EMPTY_4, "--hash", "1e30"], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 2 and result.stdout == ""
    assert "Traceback" not in result.stderr and "MiB" in result.stderr


def test_a_broken_pipe_exits_quietly():
    process = subprocess.Popen(RUN + ["perft", EMPTY_4, "1", "--divide"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.close()    # the reader goes away before the first line
    _, err = process.communicate(timeout=60)
    assert process.returncode == 0
    assert err == b""


# -- Ctrl-C ----------------------------------------------------------------------------------
def _interrupt_after(argv, seconds, ready=lambda: True):
    """Start the command, wait until `ready()` (at most a minute), then `seconds` more, and
    press Ctrl-C: its exit status, how long it took to stop, its stdout and stderr."""
    process = subprocess.Popen(RUN + argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    deadline = time.monotonic() + 60
    while not ready() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(seconds)
    assert process.poll() is None, "the command ended before it could be interrupted"
    process.send_signal(signal.SIGINT)
    started = time.monotonic()
    out, err = process.communicate(timeout=20)
    return process.returncode, time.monotonic() - started, out, err


@pytest.mark.parametrize("argv", [
    ["perft", EMPTY_5, "50"],
    ["perft", "Xx.../...../...../...../..... X1", "50"],
    ["solve", EMPTY_5, "--time", "1000", "--no-tablebase"],
], ids=["perft", "team perft", "solve"])
def test_ctrl_c_stops_long_kernels_at_once(argv):
    status, waited, out, err = _interrupt_after(argv, 2.0)
    assert status == 130 and waited < 5
    assert out == "" and err.strip() == "quixo: interrupted"


def test_ctrl_c_during_a_build_keeps_finished_work(tmp_path):
    status, waited, _, err = _interrupt_after(
        ["tablebase", "build", "--size", "4", "--jobs", "1", "--dir", str(tmp_path)], 0.2,
        ready=lambda: any(tmp_path.glob("*.qtb")))
    assert status == 130 and waited < 5
    assert "run the same command again to resume" in err
    assert not list(tmp_path.glob("*.partial*"))
    kept = set(tmp_path.glob("*.qtb"))
    assert kept and all(files.is_intact(p, (4, *map(int, p.stem.split("-")[1:]))) for p in kept)
    assert build(tmp_path, 4).skipped


# -- perft counts sequences of exactly d moves ---------------------------------------------------
def _ends_the_game(board, move):
    child = board.copy(stack=False)
    child.push(move)
    return child.is_game_over()


def test_perft_counts_only_sequences_of_exactly_the_depth():
    assert perft(Board("O.X/.../OXO X"), 3) == 1789
    assert perft(Board(size=3), 6) == 20919432


def test_perft_dividing_a_position_where_moves_end_the_game():
    board = Board("XX./O../O.. X")
    ending = [move for move in board.legal_moves if _ends_the_game(board, move)]
    assert len(ending) == 3
    assert all(perft_divide(board, 1)[move] == 1 for move in ending)
    divide = perft_divide(board, 3)
    assert all(divide[move] == 0 for move in ending)
    assert sum(divide.values()) == perft(board, 3) == 2130
