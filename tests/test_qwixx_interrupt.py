"""Ctrl-C: the qwixx command line and its kernels stop promptly, with exit status 130 and one
line saying what was kept."""
import json
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from qwixx_stats.track.savefile import load_game

from .child_signals import RESTORE_SIGINT

# POSIX only: Windows has no SIGINT to send to a child process (the Windows wheels skip these)
posix_only = pytest.mark.skipif(sys.platform == "win32", reason="no SIGINT to send on Windows")


def interrupt_after(argv, delay: float, ready: str = "") -> tuple:
    """Start `argv`, wait for the line `ready` (if given) and `delay` seconds, send SIGINT;
    returns the child, the seconds it took to end after the signal, its stdout and stderr."""
    child = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             preexec_fn=RESTORE_SIGINT)
    before = child.stdout.readline() if ready else ""
    assert before == ready, child.communicate()
    time.sleep(delay)
    assert child.poll() is None, child.communicate()
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=30)
    return child, time.monotonic() - sent, before + out, err


@posix_only
def test_ctrl_c_stops_simulate_with_status_130():
    child, waited, out, err = interrupt_after(
        [sys.executable, "-m", "qwixx_stats", "simulate", "--games", "100000000",
         "--strategy", "greedy", "--players", "2"], 1.5)
    assert child.returncode == 130 and waited < 3
    assert out == "" and err == "qwixx: interrupted\n"


KERNEL = textwrap.dedent("""
    import sys
    import numpy as np
    from qwixx_stats.strategies import _simulate
    from qwixx_stats.tables.solitaire import solve_table
    print("started", flush=True)
    try:
        if sys.argv[1] == "simulate":       # one call of about 15 s, no Python in between
            games = 3_000_000
            lineup = _simulate.Lineup(np.array([1, 1], dtype=np.int32),
                                      np.zeros(2, dtype=np.int32), np.zeros((1, 4)))
            _simulate.simulate(lineup, 0, 1, np.zeros((games, 2), dtype=np.int32),
                               np.zeros(games, dtype=np.int32), np.zeros(games, dtype=np.int32))
        else:                               # the whole solve, without a progress callback
            solve_table()
    except KeyboardInterrupt:
        print("interrupted", flush=True)
        sys.exit(130)
""")


@posix_only
@pytest.mark.parametrize("kernel", ["simulate", "solve"])
def test_ctrl_c_stops_a_kernel_call_promptly(kernel):
    child, waited, out, err = interrupt_after([sys.executable, "-c", KERNEL, kernel], 1.0,
                                              ready="started\n")
    assert out == "started\ninterrupted\n", err
    assert child.returncode == 130 and waited < 3


def test_ctrl_c_in_the_tracker_says_where_the_game_is(tmp_path):
    """The tracker waits for input; Ctrl-C there ends it with 130 and names the save file that
    holds the completed turns."""
    save = tmp_path / "game.json"
    child = subprocess.Popen([sys.executable, "-m", "qwixx_stats", "track", "--players", "2",
                              "--save", str(save)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             preexec_fn=RESTORE_SIGINT)
    child.stdin.write("3,4,6,1,2,5\nr -\n-\n")          # one whole turn, then nothing
    child.stdin.flush()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if save.exists() and json.loads(save.read_text())["turns"]:
            break
        time.sleep(0.05)
    time.sleep(0.3)                                       # the tracker asks for the dice
    assert child.poll() is None
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=30)
    assert child.returncode == 130, err
    assert err.splitlines() == [f"qwixx: interrupted; the completed turns are saved in {save} "
                                f"(go on with --resume {save})"]
    assert "Traceback" not in out
    assert len(load_game(save)[0].history) == 1
