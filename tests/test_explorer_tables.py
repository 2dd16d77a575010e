"""`quixo serve --dir DIR` is a mirror (SPEC "Tables on the web"): `/tables/MANIFEST.json` is
the folder's manifest as it is now, `/tables/<name>` its files with Range requests, and no
request reaches anything else, whatever its dots, slashes and encodings; `quixo tablebase
download` copies the folder from it."""
from __future__ import annotations

import json
import os
import shutil

import pytest

from quixo_solver.frontends.cli import main
from quixo_solver.tablebase.web import manifest

from .explorer_server import Client, running_server
from .extras import require

require("starlette", "uvicorn")

SMALL = "quixo3x3-04-04.qtb"
BIG = "quixo4x4-05-06.qtb"


@pytest.fixture(scope="module")
def served(tables, tmp_path_factory):
    """A copy of the test tables (3x3, 4x4, 5x5 <= 1 blank) and things that are not tables."""
    folder = tmp_path_factory.mktemp("served")
    for path in tables.iterdir():
        if path.is_file():
            shutil.copy(path, folder / path.name)
    (folder / "notes.txt").write_text("not a table")
    (folder / (SMALL + ".download")).write_bytes((folder / SMALL).read_bytes())
    outside = tmp_path_factory.mktemp("outside") / "secret.txt"
    outside.write_text("secret")
    os.symlink(outside, folder / "quixo3x3-09-00.qtb.lnk")
    os.symlink(outside, folder / "quixo5x5-03-00.qtb")     # a table's name, not a table
    return folder


@pytest.fixture(scope="module")
def client(served):
    with running_server(served, "--searches", "1") as url:
        yield Client(url)


def test_the_manifest_is_the_folders(client, served):
    answer = client.get("/tables/MANIFEST.json")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/json")
    served_manifest = manifest.parse_manifest(answer.content)
    assert served_manifest.to_json() == manifest.folder_manifest(
        served, damaged=lambda path, error: None).to_json()
    names = [entry.name for entry in served_manifest.files]
    assert SMALL in names and BIG in names and "quixo5x5-03-00.qtb" not in names
    assert {entry.size for entry in served_manifest.files} == {3, 4, 5}


def test_files_are_served_whole_and_by_range(client, served):
    data = (served / BIG).read_bytes()
    whole = client.get(f"/tables/{BIG}")
    assert whole.status_code == 200 and whole.content == data
    assert whole.headers["accept-ranges"] == "bytes"
    part = client.get(f"/tables/{BIG}", {"Range": "bytes=1000-1999"})
    assert part.status_code == 206 and part.content == data[1000:2000]
    assert part.headers["content-range"] == f"bytes 1000-1999/{len(data)}"
    tail = client.get(f"/tables/{BIG}", {"Range": "bytes=90000-"})
    assert tail.status_code == 206 and tail.content == data[90000:]
    beyond = client.get(f"/tables/{BIG}", {"Range": f"bytes={len(data)}-"})
    assert beyond.status_code == 416
    head = client.request("HEAD", f"/tables/{BIG}")
    assert head.status_code == 200 and head.content == b""
    assert head.headers["content-length"] == str(len(data))


@pytest.mark.parametrize("path", [
    "/tables/../pyproject.toml",
    "/tables/..%2Fpyproject.toml",
    "/tables/%2e%2e/%2e%2e/etc/passwd",
    "/tables/..%2f..%2f..%2fetc%2fpasswd",
    "/tables//etc/passwd",
    "/tables/%2Fetc%2Fpasswd",
    "/tables/notes.txt",
    "/tables/.lock-3-00-00",
    f"/tables/{SMALL}.download",
    f"/tables/{SMALL}%00",
    "/tables/quixo3x3-09-00.qtb.lnk",
    "/tables/quixo5x5-03-00.qtb",
    "/tables/quixo6x6-00-00.qtb",
    "/tables/QUIXO3X3-04-04.QTB",
    "/tables/",
    "/tables",
])
def test_nothing_but_a_table_is_served(client, path):
    answer = client.get(path)
    assert answer.status_code == 404, path
    assert b"secret" not in answer.content and b"[project]" not in answer.content
    assert b"root:" not in answer.content and b"not a table" not in answer.content
    assert "error" in json.loads(answer.content)


def test_the_manifest_follows_the_folder(client, served):
    spare = served / "quixo3x3-00-00.qtb"
    kept = spare.read_bytes()
    spare.unlink()
    names = [e.name for e in manifest.parse_manifest(client.get("/tables/MANIFEST.json")
                                                     .content).files]
    assert "quixo3x3-00-00.qtb" not in names
    spare.write_bytes(kept)
    names = [e.name for e in manifest.parse_manifest(client.get("/tables/MANIFEST.json")
                                                     .content).files]
    assert "quixo3x3-00-00.qtb" in names


def test_quixo_tablebase_download_copies_the_served_folder(client, served, tmp_path, capsys):
    status = main(["tablebase", "download", f"{client.url}/tables", "--dir", str(tmp_path),
                   "--size", "4", "--max-blanks", "6", "--json"])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    copied = sorted(path.name for path in tmp_path.iterdir())
    expected = sorted(p.name for p, (size, a, b) in manifest.table_files(served)
                      if size == 4 and 16 - a - b <= 6)
    assert copied == expected and len(expected) == 98
    assert json.loads(captured.out)["fetched"] == len(expected)
    for name in copied:
        assert (tmp_path / name).read_bytes() == (served / name).read_bytes()


def test_a_folder_manifest_is_reused_for_the_files_not_newer(small_tables, tmp_path):
    """The folder's MANIFEST.json spares hashing the files it covers (a big folder is not
    hashed again at start-up); a file changed since is hashed again."""
    from explorer.tables import TableFolder

    for path, _ in manifest.table_files(small_tables):
        shutil.copy(path, tmp_path / path.name)
    true = manifest.folder_manifest(tmp_path)
    planted = manifest.Manifest("test", tuple(
        manifest.ManifestEntry(**dict(entry.to_json(), sha256="0" * 64))
        if entry.name == SMALL else entry for entry in true.files))
    manifest.write_manifest(tmp_path, planted)
    folder = TableFolder(tmp_path)
    first = manifest.parse_manifest(folder.manifest_bytes())
    assert first.files == planted.files          # taken as written: nothing was hashed
    stamp = (tmp_path / "MANIFEST.json").stat().st_mtime_ns
    os.utime(tmp_path / SMALL, ns=(stamp + 10**9, stamp + 10**9))
    second = manifest.parse_manifest(folder.manifest_bytes())
    assert second.files == true.files


def test_the_shipped_tables_are_listed_and_served_where_the_folder_lacks_them(small_tables,
                                                                              tmp_path):
    """SPEC "Tables in the install": the server lists and serves the shipped classes too; a
    class in both is the folder's (here damaged: neither listed nor served); with no folder
    at all, the shipped tables alone."""
    from explorer.tables import TableFolder

    names = [path.name for path, _ in manifest.table_files(small_tables)]
    shipped, mine = tmp_path / "shipped", tmp_path / "mine"
    shipped.mkdir()
    mine.mkdir()
    for number, name in enumerate(names):
        shutil.copy(small_tables / name, (shipped if number % 2 else mine) / name)
    both = names[1]                                   # shipped, and a damaged copy of mine
    (mine / both).write_bytes(b"XX" + (shipped / both).read_bytes()[2:])
    folder = TableFolder(mine, shipped)
    listed = manifest.parse_manifest(folder.manifest_bytes())
    assert [entry.name for entry in listed.files] == sorted(set(names) - {both})
    assert folder.path_of(names[2]) == mine / names[2] and folder.is_table(names[2])
    assert folder.path_of(names[3]) == shipped / names[3] and folder.is_table(names[3])
    assert folder.path_of(both) == mine / both and not folder.is_table(both)
    assert folder.path_of("quixo5x5-00-00.qtb") is None
    alone = TableFolder(tmp_path / "none", shipped)
    assert [entry.name for entry in manifest.parse_manifest(alone.manifest_bytes()).files] == \
        sorted(path.name for path in shipped.iterdir())
