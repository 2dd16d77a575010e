"""Table files: bad numbers and folders refused before anything is built, damaged files never
give a value (the probe and the search check each block first), old formats refused, a full
disk named, builds that share a folder."""
import errno
import json
import os
import re
import shutil
import subprocess
import sys
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quixo_solver import Board, BoardSizeError, MissingTableError, PositionError, Solver, Tablebase
from quixo_solver.frontends.cli import main
from quixo_solver.limits import LimitError
from quixo_solver.search import _search
from quixo_solver.tablebase import CorruptTableError, TablebaseError, build, verify
from quixo_solver.tablebase.format import files
from quixo_solver.tablebase import pairs

from .refusals import assert_one_line

TWO_BLANKS_5 = "XOXOO/XOXXX/OXO.X/OXOXO/OXXO. X"  # a class outside the <= 1 blank tables
RUN = [sys.executable, "-m", "quixo_solver"]


@pytest.mark.parametrize("call, error", [
    (lambda: Tablebase(42), TablebaseError),
    (lambda: Tablebase().probe("a string"), PositionError),
], ids=["Tablebase 42", "probe a string"])
def test_bad_tablebase_arguments_raise_the_named_error(call, error):
    with pytest.raises(error) as raised:
        call()
    assert_one_line(raised.value)


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



# -- damaged tables: never a value from unchecked data ---------------------------------------
def _copy_tables(tables, tmp_path, size, max_blanks=None):
    folder = tmp_path / f"tables{size}"
    folder.mkdir()
    for unit in pairs.units(size, max_blanks):
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
    for report in (verify(tmp_path, 3), verify(tmp_path, 3, sample=100)):
        assert not report.ok
        assert {(c.mover_count, c.opponent_count) for c in report.classes
                if c.damaged and name in c.damaged} >= {(5, 4)}
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
    # the first file that failed: small units are written side by side, so either of the
    # first two pairs' (the first one's classes, or the other of the 9-cube level's)
    assert "No space left on device" in captured.err
    assert re.search(r"quixo3x3-0[89]-0[01]\.qtb\)$", captured.err.strip())
    assert captured.err.count("\n") == 1
    assert not list(tmp_path.glob("*.partial*")) and not list(tmp_path.glob("*.qtb"))


def test_two_builds_into_one_folder_share_the_work(tmp_path):
    command = RUN + ["tablebase", "build", "--size", "4", "--jobs", "1", "--json",
                     "--dir", str(tmp_path)]
    first = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    second = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    outputs = [process.communicate(timeout=300) for process in (first, second)]
    assert first.returncode == second.returncode == 0, outputs
    solved = [json.loads(out)["solved"] for out, _ in outputs]
    assert sum(solved) == len(pairs.units(4))
    assert verify(tmp_path, 4).ok
