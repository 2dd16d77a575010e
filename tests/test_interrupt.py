"""Ctrl-C: every long kernel (perft, the searches, builds) stops within seconds with exit
status 130 and one line, and a build keeps its finished work."""
import signal
import subprocess
import sys
import time

import pytest

from quixo_solver.tablebase import build
from quixo_solver.tablebase.format import files

from .child_signals import RESTORE_SIGINT

# POSIX only: Windows has no SIGINT to send to a child process (the Windows wheels skip these)
posix_only = pytest.mark.skipif(sys.platform == "win32", reason="no SIGINT to send on Windows")

EMPTY_5 = "...../...../...../...../..... X"
RUN = [sys.executable, "-m", "quixo_solver"]


def _interrupt_after(argv, seconds, ready=lambda: True):
    """Start the command, wait until `ready()` (at most a minute), then `seconds` more, and
    press Ctrl-C: its exit status, how long it took to stop, its stdout and stderr."""
    process = subprocess.Popen(RUN + argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, preexec_fn=RESTORE_SIGINT)
    deadline = time.monotonic() + 60
    while not ready() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(seconds)
    assert process.poll() is None, "the command ended before it could be interrupted"
    process.send_signal(signal.SIGINT)
    started = time.monotonic()
    try:
        out, err = process.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        raise
    return process.returncode, time.monotonic() - started, out, err


@posix_only
@pytest.mark.parametrize("argv", [
    ["perft", EMPTY_5, "50"],
    ["perft", "Xx.../...../...../...../..... X1", "50"],
    ["solve", EMPTY_5, "--time", "1000", "--no-tablebase"],
], ids=["perft", "team perft", "solve"])
def test_ctrl_c_stops_long_kernels_at_once(argv):
    status, waited, out, err = _interrupt_after(argv, 2.0)
    assert status == 130 and waited < 5
    assert out == "" and err.strip() == "quixo: interrupted"


@posix_only
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
