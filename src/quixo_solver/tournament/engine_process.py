"""Playing a separate program that speaks the engine protocol (the SPEC's "Engine protocol";
`quixo engine` is one such program): start it, greet it (`uci` ... `uciok`, `isready` ...
`readyok`), set its options, and for each move send `position` and `go` and wait for its
`bestmove` no longer than the move may take.

A program that exits, or closes its output, has crashed; one that does not answer in time is
killed (it cannot be trusted to listen to `stop` any more) and has lost on time. Either way
`EngineFailure` says which (`reason`: "crash" or "time") with what is known (its exit status,
the last lines of its stderr); the next game starts it again. Whether its move is legal is the
caller's business: here it is only text.

A reader thread per program turns its output into lines on a queue, so that every wait has a
deadline; another keeps the last lines of its stderr. The program runs in a session of its own,
so that a Ctrl-C typed at the match's terminal reaches the match, which ends the programs, and
not the programs first (they would look as if they had crashed).
"""
from __future__ import annotations

import collections
import os
import queue
import shlex
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field
from typing import IO, Sequence

from solverkit.messages import cut

from ..errors import MatchError

STARTUP_SECONDS = 60.0        # uci -> uciok and isready -> readyok (no clock runs then)
QUIT_SECONDS = 2.0            # after quit, before the program is killed
STDERR_LINES = 5              # of a failed program's stderr, in the failure's message
REASONS = ("crash", "time")


class EngineFailure(MatchError):
    """A program that crashed (`reason` "crash") or did not answer in time ("time")."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


@dataclass
class EngineAnswer:
    """What a program said for one `go`: its `bestmove` (text, not checked), the `info`
    lines before it, and the seconds from `go` to `bestmove`."""

    move: str
    info: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def errors(self) -> list[str]:
        """The program's `info string error ...` lines (commands it could not read)."""
        return [line for line in self.info if line.startswith("info string error")]


class EngineProcess:
    """One program speaking the protocol. `command`: the program and its arguments (a list,
    or text split as a shell would). `start()` runs and greets it; `play()` asks for a move;
    `close()` ends it."""

    def __init__(self, command: Sequence[str] | str, label: str = "engine") -> None:
        words = shlex.split(command) if isinstance(command, str) else list(command)
        if not words:
            raise MatchError(f"{label}: an empty command")
        self.command = words
        self.label = label
        self.name: str | None = None                  # from `id name`
        self.options: dict[str, str] = {}             # option name -> its `option` line
        self._process: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)

    # -- life --
    @property
    def alive(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def start(self, timeout: float = STARTUP_SECONDS) -> None:
        """Run the program and greet it: `uci` until `uciok` (reading `id name` and the
        `option` lines), then `isready` until `readyok`."""
        self.close()
        self._lines = queue.Queue()                  # fresh: a killed program's reader
        self._stderr = collections.deque(maxlen=STDERR_LINES)   # may still be ending
        try:
            self._process = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, text=True, encoding="utf-8", errors="replace",
                bufsize=1, start_new_session=True)
        except OSError as error:
            raise EngineFailure("crash", f"{self.label}: cannot run "
                                f"{cut(shlex.join(self.command))}: "
                                f"{error.strerror or error}") from None
        assert self._process.stdout is not None and self._process.stderr is not None
        for target, stream in ((self._read_output, self._process.stdout),
                               (self._read_stderr, self._process.stderr)):
            threading.Thread(target=target, args=(stream,), daemon=True,
                             name=f"{self.label}-reader").start()
        deadline = time.monotonic() + timeout
        self.send("uci")
        self.name, self.options = None, {}
        while True:
            line = self._next_line(deadline, "uciok")
            if line == "uciok":
                break
            if line.startswith("id name "):
                self.name = line[len("id name "):].strip()
            elif line.startswith("option name "):
                self.options[_option_name(line)] = line
        self.ready(deadline - time.monotonic())

    def ready(self, timeout: float = STARTUP_SECONDS) -> None:
        """`isready`, and wait for `readyok`."""
        deadline = time.monotonic() + timeout
        self.send("isready")
        while self._next_line(deadline, "readyok") != "readyok":
            pass

    def set_option(self, name: str, value: object) -> None:
        self.send(f"setoption name {name} value {value}")

    def has_option(self, name: str) -> bool:
        return name.lower() in (known.lower() for known in self.options)

    def new_game(self, timeout: float = STARTUP_SECONDS) -> None:
        """`ucinewgame`, then `isready` ... `readyok`."""
        self.send("ucinewgame")
        self.ready(timeout)

    def close(self) -> None:
        """`quit`, and kill the program if it has not ended within QUIT_SECONDS."""
        process, self._process = self._process, None
        if process is None:
            return
        if process.poll() is None:
            try:
                assert process.stdin is not None
                process.stdin.write("quit\n")
                process.stdin.flush()
            except (OSError, ValueError):
                pass
            try:
                process.wait(QUIT_SECONDS)
            except subprocess.TimeoutExpired:
                _kill(process)
        _close_pipes(process)

    def kill(self) -> None:
        """End the program at once (it hangs, or its game was abandoned)."""
        process, self._process = self._process, None
        if process is not None:
            _kill(process)
            _close_pipes(process)

    # -- moves --
    def play(self, position: str, go: str, seconds: float) -> EngineAnswer:
        """Send `position` and `go` (whole command lines) and wait for `bestmove` for at most
        `seconds` from the `go`: EngineFailure "time" (the program is killed) past that,
        "crash" when it ends first."""
        self._discard_pending()
        self.send(position)
        started = time.monotonic()
        self.send(go)
        deadline = started + seconds
        info: list[str] = []
        while True:
            try:
                line = self._next_line(deadline, "bestmove")
            except EngineFailure as failure:
                if failure.reason == "time":
                    said = f"; it said: {cut(info[-1], 120)}" if info else ""
                    raise EngineFailure("time", f"{failure}{said}") from None
                raise
            words = line.split()
            if words and words[0] == "bestmove":
                move = words[1] if len(words) > 1 else ""
                return EngineAnswer(move, info, time.monotonic() - started)
            if words and words[0] == "info":
                info.append(line)

    def send(self, line: str) -> None:
        """Write a command line; EngineFailure "crash" if the program is gone."""
        process = self._process
        if process is None or process.stdin is None:
            raise EngineFailure("crash", f"{self.label} is not running")
        try:
            process.stdin.write(line + "\n")
            process.stdin.flush()
        except (OSError, ValueError):
            raise self._crashed() from None

    # -- reading --
    def _next_line(self, deadline: float, waiting_for: str) -> str:
        """The next line of output before `deadline` (time.monotonic); EngineFailure "time"
        (after killing the program) or "crash"."""
        while True:
            left = deadline - time.monotonic()
            try:
                line = self._lines.get(timeout=max(left, 0.0)) if left > 0 \
                    else self._lines.get_nowait()
            except queue.Empty:
                self.kill()
                raise EngineFailure("time", f"{self.label} sent no {waiting_for} in time "
                                    "(killed)") from None
            if line is None:
                raise self._crashed()
            line = line.strip()
            if line:
                return line

    def _discard_pending(self) -> None:
        """Forget lines left over from an earlier move (late `info` lines); a crash that
        already happened stays visible."""
        while True:
            try:
                line = self._lines.get_nowait()
            except queue.Empty:
                return
            if line is None:
                self._lines.put(None)
                return

    def _crashed(self) -> EngineFailure:
        process = self._process
        status = None
        if process is not None:
            try:
                status = process.wait(QUIT_SECONDS)
            except subprocess.TimeoutExpired:     # closed its output but runs on
                _kill(process)
                status = process.poll()
            _close_pipes(process)
            self._process = None
        time.sleep(0.05)                          # the stderr reader's last lines
        ending = ("closed its output" if status is None else
                  f"exited with status {status}" if status >= 0 else
                  f"was killed by signal {-status}")
        said = " | ".join(cut(line, 150) for line in self._stderr)
        return EngineFailure("crash", f"{self.label} {ending}"
                             + (f"; its stderr: {said}" if said else ""))

    def _read_output(self, stream: IO[str]) -> None:
        lines = self._lines                     # this program's queue, even after a restart
        try:
            for line in stream:
                lines.put(line)
        except (OSError, ValueError):
            pass
        finally:
            stream.close()
        lines.put(None)

    def _read_stderr(self, stream: IO[str]) -> None:
        kept = self._stderr
        try:
            for line in stream:
                if line.strip():
                    kept.append(line.rstrip())
        except (OSError, ValueError):
            pass
        finally:
            stream.close()


def _option_name(line: str) -> str:
    """The name of an `option name NAME type ...` line (names may hold spaces)."""
    words = line.split()[2:]
    if "type" in words:
        words = words[:words.index("type")]
    return " ".join(words)


def _kill(process: subprocess.Popen[str]) -> None:
    """Kill the program and whatever it started (its session's process group, where there
    are such things)."""
    try:
        if hasattr(os, "killpg"):
            os.killpg(process.pid, signal.SIGKILL)
        else:                                   # pragma: no cover - Windows
            process.kill()
    except OSError:
        pass
    try:
        process.wait(QUIT_SECONDS)
    except subprocess.TimeoutExpired:
        pass


def _close_pipes(process: subprocess.Popen[str]) -> None:
    """Close our end of the program's input. Its output pipes belong to the reader threads,
    which close them at their end (closing them here could wait on a blocked read)."""
    if process.stdin is not None:
        try:
            process.stdin.close()
        except (OSError, ValueError):
            pass


def describe_command(command: Sequence[str] | str) -> str:
    """A command as one line of text (for messages)."""
    return cut(command if isinstance(command, str) else shlex.join(command), 100)


__all__ = ["EngineAnswer", "EngineFailure", "EngineProcess", "REASONS", "STARTUP_SECONDS",
           "describe_command"]
