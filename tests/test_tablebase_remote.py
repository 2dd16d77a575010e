"""RemoteTablebase against a real `quixo serve` on loopback: its answers are the local tables'
(every position of 3x3, samples of 4x4 and 5x5), in few requests, with one-line errors when
the server cannot be reached, does not answer in time or refuses for the rate."""
from __future__ import annotations

import itertools
import json
import random
import socket
import subprocess
import sys
import threading

import pytest

from quixo_solver import Board
from quixo_solver.rules._backend import rules
from quixo_solver.rules.notation import format_position
from quixo_solver.tablebase import (BaseTablebase, MissingTableError, RemoteTablebase,
                                    Tablebase)
from quixo_solver.tablebase.errors import (RemoteError, RemoteRateLimited, RemoteTimeout,
                                           RemoteUnreachable)

from .explorer_server import free_port, running_server
from .extras import require

require("starlette", "uvicorn")


@pytest.fixture(scope="module")
def server(tables):
    """A `quixo serve` of the 3x3 and 4x4 games and the 5x5 classes with <= 1 blank."""
    with running_server(tables, "--rate-limit", "0", "--access-log", "off") as url:
        yield url


@pytest.fixture
def remote(server):
    with RemoteTablebase(server) as tablebase:
        yield tablebase


def every_position(size: int) -> list[tuple[int, int]]:
    """(mover, opponent) of every arrangement of cubes on the board, finished games too."""
    cells = size * size
    found = []
    for owners in itertools.product((0, 1, 2), repeat=cells):
        mover = sum(1 << cell for cell, owner in enumerate(owners) if owner == 1)
        opponent = sum(1 << cell for cell, owner in enumerate(owners) if owner == 2)
        found.append((mover, opponent))
    return found


def sampled_positions(size: int, count: int, seed: int,
                      classes: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """`count` random positions: a class of `classes` chosen uniformly, then a uniformly
    random arrangement of its cubes."""
    rng = random.Random(seed)
    found = []
    for _ in range(count):
        mover_count, opponent_count = rng.choice(classes)
        cells = rng.sample(range(size * size), mover_count + opponent_count)
        found.append((sum(1 << cell for cell in cells[:mover_count]),
                      sum(1 << cell for cell in cells[mover_count:])))
    return found


def board_of(size: int, mover: int, opponent: int) -> Board:
    return Board.from_masks(size, mover, opponent)


def assert_same_answers(local: BaseTablebase, remote: RemoteTablebase, size: int,
                        positions: list[tuple[int, int]], lines: int) -> None:
    """The value codes of every position, and of the first `lines` unfinished ones their
    moves' results and the line of best play, the same from both."""
    assert remote.codes_of(size, positions) == local.codes_of(size, positions)
    unfinished = [position for position in positions
                  if not rules.position_status(size, *position)]
    for mover, opponent in unfinished[:lines]:
        board = board_of(size, mover, opponent)
        assert remote.probe(board) == local.probe(board)
        assert remote.probe_moves(board) == local.probe_moves(board)
        assert remote.best_line(board) == local.best_line(board)
        assert remote.best_line(board, 3) == local.best_line(board, 3)


def test_every_3x3_position_as_the_local_tables(tables, remote):
    positions = every_position(3)
    assert len(positions) == 3 ** 9
    with Tablebase(tables) as local:
        assert remote.codes_of(3, positions) == local.codes_of(3, positions)
        # the listing of the tables, then batches of at most 1,024 positions
        assert remote.requests == 1 + -(-len(positions) // 1024)
        assert_same_answers(local, remote, 3, positions, lines=300)


def test_a_sample_of_4x4_positions_as_the_local_tables(tables, remote):
    classes = [(a, b) for a in range(17) for b in range(17 - a)]
    positions = sampled_positions(4, 5000, seed=4, classes=classes)
    with Tablebase(tables) as local:
        assert_same_answers(local, remote, 4, positions, lines=100)


def test_a_sample_of_5x5_positions_as_the_local_tables(tables, remote):
    classes = [(a, b) for a in range(26) for b in range(26 - a) if a + b >= 24]
    positions = sampled_positions(5, 3000, seed=5, classes=classes)
    with Tablebase(tables) as local:
        assert_same_answers(local, remote, 5, positions, lines=50)
        assert remote.has_table(5, 12, 12) and not remote.has_table(5, 10, 10)
        assert remote.has_size(5) == local.has_size(5)


def test_answers_come_from_the_cache_when_asked_again(tables, remote):
    positions = sampled_positions(4, 2000, seed=44, classes=[(5, 5), (6, 5), (4, 6)])
    first = remote.codes_of(4, positions)
    sent = remote.requests
    assert remote.codes_of(4, positions) == first
    assert remote.requests == sent


def test_a_class_the_server_has_not_built_is_a_missing_table(remote):
    board = Board.from_masks(5, 1, 2)      # 22 blanks: not built
    with pytest.raises(MissingTableError, match="serves no table for class"):
        remote.probe(board)
    assert remote.get(board) is None


def test_a_server_that_cannot_be_reached_is_one_line():
    with RemoteTablebase(f"http://127.0.0.1:{free_port()}", timeout=5) as remote:
        with pytest.raises(RemoteUnreachable, match="cannot reach the remote tablebase"):
            remote.probe(Board(size=3))


def test_a_server_that_does_not_answer_times_out():
    """A listening socket that accepts and never answers."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    held: list[socket.socket] = []
    accepting = threading.Thread(target=lambda: held.append(listener.accept()[0]),
                                 daemon=True)
    accepting.start()
    try:
        url = f"http://127.0.0.1:{listener.getsockname()[1]}"
        with RemoteTablebase(url, timeout=0.5) as remote:
            with pytest.raises(RemoteTimeout, match="did not answer within 0.5 s"):
                remote.probe(Board(size=3))
    finally:
        for connection in held:
            connection.close()
        listener.close()


def test_a_429_is_one_line_with_its_retry_after(tables):
    with running_server(tables, "--rate-limit", "0.01", "--burst", "1",
                        "--access-log", "off") as url:
        with RemoteTablebase(url) as remote:
            with pytest.raises((RemoteRateLimited, RemoteError)) as refused:
                for _ in range(5):
                    remote.probe_moves(Board(size=3))
                    remote._cache.clear()
    assert isinstance(refused.value, RemoteRateLimited)
    assert "429 Too Many Requests" in str(refused.value)
    assert refused.value.retry_after is not None and refused.value.retry_after >= 1


def test_the_command_line_probes_a_remote_server_as_the_local_tables(tables, server):
    position = format_position(4, 0b1011, 0b110000, "X")
    answers = []
    for where in (["--dir", str(tables)], ["--remote", server]):
        run = subprocess.run([sys.executable, "-m", "quixo_solver", "tablebase", "probe",
                              position, "--json", *where], capture_output=True, text=True,
                             timeout=120)
        assert run.returncode == 0, run.stderr
        answers.append(json.loads(run.stdout))
    assert answers[0] == answers[1]
    assert answers[0]["source"] == "tablebase" and answers[0]["pv"]


@pytest.mark.parametrize("command", ["solve", "analyze"])
def test_solve_and_analyze_answer_from_a_remote_server_as_from_the_local_tables(
        tables, server, command):
    """`--remote URL` in place of `--dir`: the same exact answer, every move's value and the
    line (only the seconds may differ)."""
    answers = []
    for where in (["--dir", str(tables)], ["--remote", server]):
        run = subprocess.run([sys.executable, "-m", "quixo_solver", command,
                              "XX../O.O./..../.... X", "--json", *where], capture_output=True,
                             text=True, timeout=120)
        assert run.returncode == 0, run.stderr
        answer = json.loads(run.stdout)
        answer.pop("seconds", None)
        answers.append(answer)
    assert answers[0] == answers[1]
    if command == "solve":
        assert answers[0]["source"] == "tablebase" and answers[0]["plies"] == 11
    else:
        assert len(answers[0]["moves"]) == len(list(Board("XX../O.O./..../.... X").legal_moves))
