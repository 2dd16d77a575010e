"""`quixo tablebase download` against real HTTP servers on loopback (tests/mirror_server.py),
with faults injected: every fault ends in a correct folder after a retry, or in a one-line
refusal with nothing lost (no file under a table's name that does not check out, the files
already checked kept)."""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

from quixo_solver import LimitError
from quixo_solver.frontends.cli import main
from quixo_solver.tablebase.web import download, manifest
from quixo_solver.tablebase.web.download import DownloadError, DownloadSettings
from quixo_solver.tablebase.web.manifest import ManifestError

from .explorer_server import free_port
from .child_signals import RESTORE_SIGINT
from .mirror_server import Cut, Flip, Stall, Status, Truncate, faulty_mirror
from .refusals import assert_one_line

BIG = "quixo4x4-05-06.qtb"           # 91,437 bytes: the file the faults hit
FAST = DownloadSettings(jobs=3, timeout=0.5, attempts=4, backoff=0.01)


@pytest.fixture(scope="module")
def source(small_tables, tmp_path_factory):
    """A mirror's folder: the 3x3 classes with <= 2 blanks and the 4x4 ones with 5 (39 files,
    203 KB), with its MANIFEST.json."""
    folder = tmp_path_factory.mktemp("mirror")
    for path, (size, mover, opponent) in manifest.table_files(small_tables):
        blanks = size * size - mover - opponent
        if (size, blanks) == (4, 5) or (size == 3 and blanks <= 2):
            shutil.copy(path, folder / path.name)
    manifest.write_manifest(folder, manifest.folder_manifest(folder))
    return folder


@pytest.fixture(scope="module")
def listed(source):
    return manifest.read_manifest(source / manifest.MANIFEST_NAME)


@pytest.fixture
def mirror(source):
    with faulty_mirror(source) as server:
        yield server


def fetch(mirror, folder, settings=FAST, **options):
    return download.download(mirror.url, folder, settings=settings, show_progress=False,
                             **options)


def assert_checked(folder, listed, names=None):
    """Every table file in `folder` is one the manifest lists and checks out; no partial file
    is left behind; with `names`, exactly those tables are there."""
    entries = {entry.name: entry for entry in listed.files}
    present = sorted(path.name for path, _ in manifest.table_files(folder))
    for name in present:
        assert manifest.mismatch(folder / name, entries[name]) is None, name
    if names is not None:
        assert present == sorted(names)
    return present


def assert_complete(folder, listed):
    assert_checked(folder, listed, [entry.name for entry in listed.files])
    assert not list(folder.glob("*" + download.PARTIAL_SUFFIX))


def test_a_clean_download_then_a_second_run_keeps_everything(mirror, listed, tmp_path):
    report = fetch(mirror, tmp_path)
    assert (report.files, report.bytes) == (39, sum(e.bytes for e in listed.files))
    assert len(report.fetched) == 39 and report.kept == []
    assert_complete(tmp_path, listed)
    before = len(mirror.log)
    again = fetch(mirror, tmp_path)
    assert again.fetched == [] and len(again.kept) == 39
    assert [entry.name for entry in mirror.log[before:]] == ["MANIFEST.json"]


def test_size_and_max_blanks_select_the_classes(mirror, listed, tmp_path):
    report = fetch(mirror, tmp_path, size=3, max_blanks=1)
    wanted = [e.name for e in listed.files if e.size == 3 and e.blanks <= 1]
    assert sorted(report.fetched) == sorted(wanted) and len(wanted) == 19
    assert_checked(tmp_path, listed, wanted)


def test_the_command_line_prints_the_spec_object(mirror, listed, tmp_path, capsys):
    status = main(["tablebase", "download", mirror.url + "/", "--dir", str(tmp_path),
                   "--size", "4", "--jobs", "2", "--json"])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    payload = json.loads(captured.out)
    assert list(payload) == ["base", "files", "bytes", "fetched", "kept"]
    assert payload == {"base": mirror.url, "files": 12,
                       "bytes": sum(e.bytes for e in listed.files if e.size == 4),
                       "fetched": 12, "kept": 0}


def test_a_connection_cut_in_the_middle_resumes_with_a_range_request(mirror, listed,
                                                                      tmp_path):
    mirror.plan(BIG, Cut(30_000), Cut(20_000))
    fetch(mirror, tmp_path)
    assert_complete(tmp_path, listed)
    assert [(r.range, r.status) for r in mirror.requests(BIG)] == [
        (None, 200), ("bytes=30000-", 206), ("bytes=50000-", 206)]


def test_a_partial_file_of_an_earlier_run_is_resumed(mirror, source, listed, tmp_path):
    (tmp_path / (BIG + download.PARTIAL_SUFFIX)).write_bytes((source / BIG).read_bytes()[:4096])
    fetch(mirror, tmp_path)
    assert_complete(tmp_path, listed)
    assert [r.range for r in mirror.requests(BIG)] == ["bytes=4096-"]


def test_a_server_that_ignores_range_sends_the_whole_file_again(mirror, listed, tmp_path):
    mirror.ignore_range = True
    mirror.plan(BIG, Cut(40_000))
    fetch(mirror, tmp_path)
    assert_complete(tmp_path, listed)
    assert [(r.range, r.status) for r in mirror.requests(BIG)] == [
        (None, 200), ("bytes=40000-", 200)]


@pytest.mark.parametrize("fault", [Flip(12_345), Truncate(50_000)], ids=["flipped", "truncated"])
def test_a_damaged_copy_is_fetched_again(mirror, listed, tmp_path, fault):
    mirror.plan(BIG, fault)
    fetch(mirror, tmp_path)
    assert_complete(tmp_path, listed)
    assert len(mirror.requests(BIG)) == 2


@pytest.mark.parametrize("fault", [Flip(12_345), Truncate(50_000)], ids=["flipped", "truncated"])
def test_a_file_damaged_on_the_mirror_is_refused_and_the_rest_kept(mirror, listed, tmp_path,
                                                                   fault):
    mirror.plan(BIG, *[fault] * 10)
    with pytest.raises(ManifestError, match=f"{BIG} from .* does not match the manifest") as \
            raised:
        fetch(mirror, tmp_path)
    assert_one_line(raised.value)
    assert "38 of 39 files" in str(raised.value)
    assert_checked(tmp_path, listed, [e.name for e in listed.files if e.name != BIG])
    assert not list(tmp_path.glob("*" + download.PARTIAL_SUFFIX))
    assert len(mirror.requests(BIG)) == 2          # once more from the start, then refused


def test_404_is_refused_at_once_and_the_rest_kept(mirror, listed, tmp_path):
    mirror.plan(BIG, Status(404))
    with pytest.raises(DownloadError, match="HTTP 404") as raised:
        fetch(mirror, tmp_path)
    assert_one_line(raised.value)
    assert_checked(tmp_path, listed, [e.name for e in listed.files if e.name != BIG])
    assert len(mirror.requests(BIG)) == 1
    fetch(mirror, tmp_path)                        # the next run completes the folder
    assert_complete(tmp_path, listed)


def test_500_and_503_are_retried(mirror, listed, tmp_path):
    mirror.plan(BIG, Status(500), Cut(10_000), Status(503))
    mirror.plan("MANIFEST.json", Status(502))
    fetch(mirror, tmp_path)
    assert_complete(tmp_path, listed)
    assert [r.status for r in mirror.requests(BIG)] == [500, 200, 503, 206]


def test_retry_after_is_honoured(mirror, listed, tmp_path):
    mirror.plan(BIG, Status(503, retry_after="1"))
    fetch(mirror, tmp_path)
    assert_complete(tmp_path, listed)
    first, second = mirror.requests(BIG)
    assert second.time - first.time >= 0.95


def test_a_retry_after_beyond_the_limit_ends_the_download(mirror, listed, tmp_path):
    mirror.plan(BIG, Status(429, retry_after="3600"))
    with pytest.raises(DownloadError, match="come back in 3600 s") as raised:
        fetch(mirror, tmp_path)
    assert_one_line(raised.value)
    assert_checked(tmp_path, listed, [e.name for e in listed.files if e.name != BIG])


def test_a_fault_that_outlasts_the_attempts_is_refused(mirror, listed, tmp_path):
    mirror.plan(BIG, *[Status(503)] * 4)
    with pytest.raises(DownloadError, match="HTTP 503.*after 4 attempts.*run again") as raised:
        fetch(mirror, tmp_path)
    assert_one_line(raised.value)
    assert_checked(tmp_path, listed, [e.name for e in listed.files if e.name != BIG])


def test_a_silent_server_times_out_and_the_transfer_resumes(mirror, listed, tmp_path):
    mirror.plan(BIG, Stall(25_000, 3.0))
    started = time.monotonic()
    fetch(mirror, tmp_path)
    assert time.monotonic() - started < 2.5        # the 0.5 s timeout, not the 3 s stall
    assert_complete(tmp_path, listed)
    assert [r.range for r in mirror.requests(BIG)] == [None, "bytes=25000-"]


def lying(listed, name, **changes):
    files = [dict(e.to_json(), **changes) if e.name == name else e.to_json()
             for e in listed.files]
    return json.dumps({"manifest": 1, "written_by": "test", "files": files}).encode()


@pytest.mark.parametrize("change, reason", [
    ({"bytes": 91_438}, "the server sends 91437 bytes, the manifest says 91438"),
    ({"bytes": 91_000}, "the server sends 91437 bytes, the manifest says 91000"),
    ({"sha256": "0" * 64}, "its SHA-256 is not the manifest's"),
    ("counts", "its win/draw/loss counts are not the manifest's"),
], ids=["longer", "shorter", "sha256", "counts"])
def test_a_manifest_that_lies_is_refused_for_that_file(source, listed, tmp_path, change,
                                                       reason):
    if change == "counts":
        entry = {entry.name: entry for entry in listed.files}[BIG]
        change = {"win": entry.win - 1, "loss": entry.loss + 1}
    with faulty_mirror(source, lying(listed, BIG, **change)) as mirror:
        with pytest.raises(ManifestError, match=reason) as raised:
            fetch(mirror, tmp_path)
    assert_one_line(raised.value)
    assert_checked(tmp_path, listed, [e.name for e in listed.files if e.name != BIG])
    assert not list(tmp_path.glob("*" + download.PARTIAL_SUFFIX))


@pytest.mark.parametrize("body, reason", [
    (b"<html>not here</html>", "is not JSON"),
    (b'{"manifest": 2, "written_by": "x", "files": []}', "not a manifest of version 1"),
    (json.dumps({"manifest": 1, "written_by": "x", "files": [
        {"name": "../../etc/passwd", "bytes": 1, "sha256": "0" * 64, "format": 4, "size": 3,
         "mover": 0, "opponent": 0, "win": 1, "draw": 0, "loss": 0}]}).encode(),
     "is not the name of a table file"),
], ids=["html", "version", "traversal"])
def test_a_malformed_manifest_is_refused_before_anything_is_written(source, tmp_path, body,
                                                                   reason):
    with faulty_mirror(source, body) as mirror:
        with pytest.raises(ManifestError, match=reason) as raised:
            fetch(mirror, tmp_path)
        assert [entry.name for entry in mirror.log] == ["MANIFEST.json"]
    assert_one_line(raised.value)
    assert list(tmp_path.iterdir()) == []


def test_a_damaged_local_file_is_replaced_and_a_good_one_kept(mirror, source, listed,
                                                             tmp_path):
    shutil.copy(source / BIG, tmp_path / BIG)
    damaged = "quixo4x4-04-07.qtb"
    data = bytearray((source / damaged).read_bytes())
    data[500] ^= 1
    (tmp_path / damaged).write_bytes(bytes(data))
    report = fetch(mirror, tmp_path)
    assert BIG in report.kept and damaged in report.fetched
    assert_complete(tmp_path, listed)
    assert mirror.requests(BIG) == []


def test_an_unreachable_mirror_and_bad_urls_are_refused(tmp_path, capsys):
    closed = f"http://127.0.0.1:{free_port()}"
    settings = DownloadSettings(timeout=0.5, attempts=2, backoff=0.01)
    with pytest.raises(DownloadError, match="cannot reach") as raised:
        download.download(closed, tmp_path, settings=settings, show_progress=False)
    assert_one_line(raised.value)
    for base in ("ftp://example.org/tables", "tables", "http://example.org/t?x=1"):
        assert main(["tablebase", "download", base, "--dir", str(tmp_path)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("quixo: error: a mirror is an http:// or https:// URL")
    assert list(tmp_path.iterdir()) == []


def test_a_download_the_disk_cannot_hold_is_refused_before_it_starts(mirror, tmp_path,
                                                                    monkeypatch):
    monkeypatch.setattr(download.shutil, "disk_usage",
                        lambda path: shutil._ntuple_diskusage(10**9, 10**9 - 1000, 1000))
    with pytest.raises(DownloadError, match="the files need 0.2 MB more .* 0.0 MB free"):
        fetch(mirror, tmp_path)
    assert [entry.name for entry in mirror.log] == ["MANIFEST.json"]


FILE_SIZE_LIMIT = 60_000             # bytes: every file of the mirror fits but BIG


def run_with_file_size_limit(*argv):
    """`quixo ARGV` in a child whose files cannot grow past FILE_SIZE_LIMIT (RLIMIT_FSIZE:
    writes fail with EFBIG, as on a full disk)."""
    script = ("import resource, signal, sys\n"
              "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
              f"resource.setrlimit(resource.RLIMIT_FSIZE, ({FILE_SIZE_LIMIT}, "
              f"{FILE_SIZE_LIMIT}))\n"
              "from quixo_solver.frontends.cli import main\n"
              "sys.exit(main(sys.argv[1:]))\n")
    return subprocess.run([sys.executable, "-c", script, *argv], capture_output=True,
                          text=True, timeout=120,
                          env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE is POSIX")
def test_a_full_disk_is_refused_in_one_line_and_the_next_run_resumes(mirror, listed, tmp_path):
    done = run_with_file_size_limit("tablebase", "download", mirror.url, "--dir",
                                    str(tmp_path), "--jobs", "1")
    assert done.returncode == 2 and done.stdout == ""
    line = done.stderr.strip()
    assert "\n" not in line and line.startswith("quixo: error: cannot write ")
    assert f"{BIG}{download.PARTIAL_SUFFIX}: File too large" in line
    assert "run again to resume" in line
    fetched = assert_checked(tmp_path, listed)
    assert BIG not in fetched and len(fetched) >= 20
    partial = tmp_path / (BIG + download.PARTIAL_SUFFIX)
    assert partial.stat().st_size == FILE_SIZE_LIMIT
    fetch(mirror, tmp_path)
    assert_complete(tmp_path, listed)
    assert mirror.requests(BIG)[-1].range == f"bytes={FILE_SIZE_LIMIT}-"


@pytest.mark.skipif(sys.platform == "win32", reason="a console's Ctrl-C is no signal "
                    "another process can send on Windows")
def test_ctrl_c_keeps_what_is_checked_and_the_next_run_resumes(mirror, listed, tmp_path):
    mirror.plan(BIG, Stall(25_000, 30.0))
    partial = tmp_path / (BIG + download.PARTIAL_SUFFIX)
    child = subprocess.Popen([sys.executable, "-m", "quixo_solver", "tablebase", "download",
                              mirror.url, "--dir", str(tmp_path), "--jobs", "1"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             preexec_fn=RESTORE_SIGINT)
    try:
        deadline = time.monotonic() + 60
        while not (partial.exists() and partial.stat().st_size == 25_000):
            assert time.monotonic() < deadline and child.poll() is None
            time.sleep(0.02)
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=10)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 130 and out == ""
    assert err.strip() == ("quixo: interrupted; the files already checked are kept, run the "
                           "same command again to resume")
    assert BIG not in assert_checked(tmp_path, listed)
    fetch(mirror, tmp_path)
    assert_complete(tmp_path, listed)
    assert mirror.requests(BIG)[-1].range == "bytes=25000-"


@pytest.mark.parametrize("setting", [{"jobs": 0}, {"jobs": 65}, {"jobs": True},
                                     {"attempts": 0}, {"timeout": 0}, {"backoff": -1},
                                     {"timeout": float("nan")}])
def test_bad_settings_are_refused(setting):
    with pytest.raises(LimitError) as raised:
        DownloadSettings(**setting)
    assert_one_line(raised.value)


def test_a_progress_bar_of_bytes_on_a_terminal_and_silence_elsewhere(mirror, listed, tmp_path,
                                                                     capsys):
    fetch(mirror, tmp_path / "quiet")                       # show_progress=False
    download.download(mirror.url, tmp_path / "piped", settings=FAST)   # stderr is no terminal
    assert capsys.readouterr().err == ""
    download.download(mirror.url, tmp_path / "shown", settings=FAST, show_progress=True)
    shown = capsys.readouterr().err.split("\r")[-1]
    total = sum(e.bytes for e in listed.files) / 1e6
    assert "100.0%" in shown and "s left" in shown and f"{total:.1f} of {total:.1f} MB" in shown
