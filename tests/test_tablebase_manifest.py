"""`quixo tablebase manifest` (SPEC "Tables on the web"): every table file of the folder, of
every size, sorted, with its true bytes, SHA-256 and the counts `stats` gives; written
atomically; a damaged file named; and the loader refuses every malformed manifest with a
ManifestError naming the problem."""
from __future__ import annotations

import hashlib
import json
import re
import shutil
import struct
import zlib

import pytest

from quixo_solver.frontends.cli import main
from quixo_solver.tablebase.format import files, format3
from quixo_solver.tablebase.web import manifest
from quixo_solver.tablebase import stats
from quixo_solver.tablebase.web.manifest import ManifestError

from .refusals import assert_one_line

SPEC_FIELDS = ["name", "bytes", "sha256", "format", "size", "mover", "opponent", "win", "draw",
               "loss"]


@pytest.fixture
def folder(small_tables, tmp_path):
    """A copy of the small tables with things that are not tables beside them."""
    for path, _ in manifest.table_files(small_tables):
        shutil.copy(path, tmp_path / path.name)
    (tmp_path / ".lock-3-00-00").write_bytes(b"")
    (tmp_path / ("quixo3x3-00-00.qtb" + files.TEMPORARY_SUFFIX + "-1-ab")).write_bytes(b"x")
    (tmp_path / "quixo3x3-00-00.qtb.download").write_bytes(b"x")
    (tmp_path / "notes.txt").write_text("not a table")
    (tmp_path / "quixo3x3-05-05.qtb").write_bytes(b"no such class: 10 cubes on 9 cells")
    return tmp_path


def run_json(capsys, *argv):
    status = main([*argv, "--json"])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    return json.loads(captured.out)


def test_the_manifest_lists_every_table_with_its_hash_and_counts(folder, capsys):
    printed = run_json(capsys, "tablebase", "manifest", "--dir", str(folder), "--jobs", "2")
    assert list(printed) == ["manifest", "written_by", "files"] and printed["manifest"] == 1
    entries = printed["files"]
    names = [entry["name"] for entry in entries]
    on_disk = sorted(p.name for p in folder.glob("quixo*.qtb") if p.name != "quixo3x3-05-05.qtb")
    assert names == on_disk and len(names) == 142
    assert {entry["size"] for entry in entries} == {3, 4}
    for entry in entries:
        assert list(entry) == SPEC_FIELDS
        data = (folder / entry["name"]).read_bytes()
        assert entry["bytes"] == len(data)
        assert entry["sha256"] == hashlib.sha256(data).hexdigest()
        assert entry["format"] == files.VERSION
    for size in (3, 4):
        counted = {(row["mover"], row["opponent"]): (row["win"], row["draw"], row["loss"])
                   for row in stats.class_counts(folder, size)}
        listed = {(e["mover"], e["opponent"]): (e["win"], e["draw"], e["loss"])
                  for e in entries if e["size"] == size}
        assert listed == counted
    written = manifest.read_manifest(folder / manifest.MANIFEST_NAME)
    assert written.to_json() == printed
    assert not [p for p in folder.iterdir() if ".partial" in p.name and "-1-ab" not in p.name]


def test_the_manifest_text_output_says_where_it_is(folder, capsys):
    assert main(["tablebase", "manifest", "--dir", str(folder)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("142 table files, ") and str(folder / "MANIFEST.json") in out


def test_a_damaged_table_is_named_and_no_manifest_written(folder, capsys):
    path = folder / "quixo4x4-05-06.qtb"
    data = bytearray(path.read_bytes())
    data[-10] ^= 1                                     # the trailer's checksum fails
    path.write_bytes(bytes(data))
    assert main(["tablebase", "manifest", "--dir", str(folder)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "quixo4x4-05-06.qtb" in captured.err
    assert len(captured.err.strip().splitlines()) == 1
    assert not (folder / manifest.MANIFEST_NAME).exists()


def test_a_folder_that_is_missing_is_refused(tmp_path, capsys):
    assert main(["tablebase", "manifest", "--dir", str(tmp_path / "none")]) == 2
    assert "no tablebase folder" in capsys.readouterr().err


def test_an_empty_folder_has_an_empty_manifest(tmp_path, capsys):
    printed = run_json(capsys, "tablebase", "manifest", "--dir", str(tmp_path))
    assert printed["files"] == []
    assert manifest.read_manifest(tmp_path / "MANIFEST.json").files == ()


def test_a_format_3_file_is_listed_with_its_format(folder, capsys):
    name = "quixo3x3-04-04.qtb"           # rewritten in format 3 (one byte per entry)
    header = files.read_header(folder / name)
    values = files.load_values(folder / name, (3, 4, 4))
    blocks = [values[i:i + 64].astype("u1") for i in range(0, values.size, 64)]
    checksums = b"".join(zlib.crc32(b.tobytes()).to_bytes(4, "little") for b in blocks)
    head = format3.HEADER.pack(format3.MAGIC, 3, 3, 4, 4, header.entries, header.wins,
                               header.draws, header.losses, 0, header.longest_plies, 64,
                               zlib.crc32(checksums), zlib.crc32(b""), 0)
    head = head[:-4] + struct.pack("<I", zlib.crc32(head[:-4]))
    (folder / name).write_bytes(head + checksums + values.astype("u1").tobytes())
    printed = run_json(capsys, "tablebase", "manifest", "--dir", str(folder))
    entry = next(e for e in printed["files"] if e["name"] == name)
    assert (entry["format"], entry["win"], entry["draw"], entry["loss"]) == (
        3, header.wins, header.draws, header.losses)


def good_manifest():
    return {"manifest": 1, "written_by": "0.2.0", "files": [
        {"name": "quixo3x3-00-00.qtb", "bytes": 176, "sha256": "a" * 64, "format": 4,
         "size": 3, "mover": 0, "opponent": 0, "win": 1, "draw": 0, "loss": 0},
        {"name": "quixo3x3-01-00.qtb", "bytes": 176, "sha256": "b" * 64, "format": 4,
         "size": 3, "mover": 1, "opponent": 0, "win": 0, "draw": 0, "loss": 9}]}


def changed(path, value):
    raw = good_manifest()
    target = raw
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return raw


@pytest.mark.parametrize("raw, message", [
    (b"\xff\xfe", "is not UTF-8"),
    ("{", "is not JSON"),
    ("[]", "is not a JSON object"),
    (changed(["manifest"], 2), "not a manifest of version 1"),
    (changed(["manifest"], True), "not a manifest of version 1"),
    (changed(["written_by"], 7), "written_by must be a version string"),
    (changed(["files"], {}), "has no list of files"),
    (changed(["files", 0], "quixo3x3-00-00.qtb"), "file 1 is not an object"),
    (changed(["files", 0, "sha256"], KeyError), "file 1 has no sha256"),
    (changed(["files", 0, "name"], "../quixo3x3-00-00.qtb"), "is not the name of a table"),
    (changed(["files", 0, "name"], "quixo3x3-00-00.qtb/x"), "is not the name of a table"),
    (changed(["files", 0, "name"], "quixo6x6-00-00.qtb"), "is not the name of a table"),
    (changed(["files", 0, "name"], "quixo3x3-09-09.qtb"), "is not the name of a table"),
    (changed(["files", 0, "mover"], 1), "is not the file of class (1, 0)"),
    (changed(["files", 0, "size"], 4), "is not the file of class (0, 0) of the 4x4"),
    (changed(["files", 0, "size"], 6), "size must be a whole number 3..5"),
    (changed(["files", 0, "bytes"], -1), "bytes must be a whole number 1 or more"),
    (changed(["files", 0, "bytes"], 1.5), "bytes must be a whole number"),
    (changed(["files", 0, "win"], False), "win must be a whole number"),
    (changed(["files", 0, "sha256"], "A" * 64), "sha256 must be 64 lowercase hex digits"),
    (changed(["files", 0, "sha256"], "a" * 63), "sha256 must be 64 lowercase hex digits"),
    (changed(["files", 0, "format"], 5), "format must be one of 3, 4"),
    (changed(["files", 1, "loss"], 8), "win + draw + loss is 8, but the class has 9 raw"),
    (changed(["files", 1, "name"], "quixo3x3-00-00.qtb"), None),
], ids=lambda value: None if isinstance(value, (dict, str, bytes)) else str(value))
def test_a_malformed_manifest_is_refused_naming_the_problem(raw, message):
    if message is None:        # the same name twice (with the class of the first)
        raw["files"][1].update(size=3, mover=0, opponent=0, win=1, loss=0)
        message = "lists quixo3x3-00-00.qtb twice"
    with pytest.raises(ManifestError, match=re.escape(message)) as raised:
        manifest.parse_manifest(raw if isinstance(raw, (bytes, str)) else json.dumps(raw),
                                "the test's manifest")
    assert_one_line(raised.value)
    assert isinstance(raised.value, ValueError)


def test_a_good_manifest_reads_back_sorted():
    raw = good_manifest()
    raw["files"].reverse()
    read = manifest.parse_manifest(json.dumps(raw))
    assert [e.name for e in read.files] == ["quixo3x3-00-00.qtb", "quixo3x3-01-00.qtb"]
    assert manifest.parse_manifest(read.to_bytes()) == read
    assert read.select(size=3, max_blanks=8) == [read.files[1]]
    assert read.select(size=4) == []


def test_a_huge_manifest_is_refused_before_it_is_parsed():
    with pytest.raises(ManifestError, match="larger than"):
        manifest.parse_manifest(b" " * (manifest.MAX_MANIFEST_BYTES + 1))
