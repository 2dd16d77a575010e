"""A real `quixo serve` for the explorer's tests: a subprocess on a free loopback port, stopped
by its process id."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from .child_signals import RESTORE_SIGINT


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def running_server(tables: Path, *options: str, qwixx_dir: Path | None = None,
                   log: Path | None = None) -> Iterator[str]:
    """The base URL of a `quixo serve --dir tables OPTIONS` that answers, until the block
    ends."""
    with server_process(tables, *options, qwixx_dir=qwixx_dir, log=log) as (_, url):
        yield url


@contextmanager
def server_process(tables: Path, *options: str, qwixx_dir: Path | None = None,
                   log: Path | None = None) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """The process and the base URL of a `quixo serve --dir tables OPTIONS` that answers,
    stopped (SIGINT, as Ctrl-C) when the block ends."""
    port = free_port()
    command = [sys.executable, "-m", "quixo_solver", "serve", "--dir", str(tables),
               "--port", str(port), *options]
    if qwixx_dir is not None:
        command += ["--qwixx-dir", str(qwixx_dir)]
    output = open(log, "w") if log else subprocess.DEVNULL
    process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"},
                               preexec_fn=RESTORE_SIGINT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120      # the 3x3 and 4x4 tables may be built first
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"quixo serve exited with status {process.returncode}"
                                   + (f"; see {log}" if log else ""))
            try:
                with urllib.request.urlopen(f"{url}/api/v1/status", timeout=2) as answer:
                    json.load(answer)
                break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                if time.monotonic() > deadline:
                    raise RuntimeError("quixo serve did not answer within 120 s") from None
                time.sleep(0.1)
        yield process, url
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if log:
            output.close()   # type: ignore[union-attr]


def get(url: str, timeout: float = 30) -> tuple[int, dict[str, str], bytes]:
    """(status, headers, body) of a GET, whatever the status."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


class Answer:
    """A response as the tests read it."""

    def __init__(self, status: int, headers: dict[str, str], content: bytes) -> None:
        self.status_code = status
        self.headers = {name.lower(): value for name, value in headers.items()}
        self.content = content

    @property
    def text(self) -> str:
        return self.content.decode()

    def json(self) -> object:
        return json.loads(self.content)


class Client:
    """GET (and other methods) on a running server, with the path sent as it is given: no
    dot segment is removed, no character re-encoded."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.host, self.port = url.split("//")[1].split(":")

    def request(self, method: str, path: str, headers: dict[str, str] | None = None,
                timeout: float = 60) -> Answer:
        import http.client

        connection = http.client.HTTPConnection(self.host, int(self.port), timeout=timeout)
        try:
            connection.putrequest(method, path, skip_accept_encoding=True)
            for name, value in (headers or {}).items():
                connection.putheader(name, value)
            connection.endheaders()
            response = connection.getresponse()
            return Answer(response.status, dict(response.getheaders()), response.read())
        finally:
            connection.close()

    def get(self, path: str, headers: dict[str, str] | None = None,
            timeout: float = 60) -> Answer:
        return self.request("GET", path, headers, timeout)

    def post(self, path: str) -> Answer:
        return self.request("POST", path)
