"""`quixo serve`: the explorer on uvicorn.

It binds to loopback unless told otherwise, and says so loudly when it is told otherwise: the
server has no authentication, and anyone who reaches it can use its cores. It serves in one
process per core by default (`--processes`, processes.py). Before it serves, it
builds the whole 3x3 and 4x4 games' tables where they are missing (seconds, once), so that
every answer on those boards is exact, as `quixo solve` does on first use.
"""
from __future__ import annotations

import argparse
import gc
import ipaddress
import sys
import threading
import webbrowser
from typing import TextIO

from typing import Any, Callable

from starlette.types import ASGIApp

from quixo_solver import tablebase as tb
from quixo_solver.tablebase import Tablebase
from solverkit.commandline import CommandFailed, error_line

from .processes import SharedState, Supervisor, listening_sockets
from .served_tables import check_all_tables
from .settings import Settings

SMALL_BOARDS = (3, 4)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def url_of(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return f"http://{shown}:{port}/"


def host_warning(host: str) -> str | None:
    """What the server says when it listens beyond this machine."""
    if is_loopback(host):
        return None
    return (f"quixo serve: warning: listening on {host}, not on loopback: the explorer has no "
            "authentication, so anyone who can reach this address can use it and its cores")


def build_small_tables(settings: Settings) -> None:
    """Build the 3x3 and 4x4 tables that are missing or damaged, saying so on stderr; a
    folder that cannot take them is reported, and the server goes on (those boards are then
    searched)."""
    for size in SMALL_BOARDS:
        try:
            report = tb.build(settings.directory, size)
        except (tb.TablebaseError, OSError) as error:
            print(f"quixo serve: warning: the {size}x{size} tables cannot be built: "
                  f"{error_line(error)}", file=sys.stderr)
            continue
        if report.solved:
            print(f"quixo serve: built the {size}x{size} tables in {settings.directory} "
                  f"({report.seconds:.1f} s)", file=sys.stderr)


def open_access_log(target: str | None) -> TextIO | None:
    """The stream of the access log: "-" stderr, None or "off" none, else a file appended
    to (OSError if it cannot be opened)."""
    if target is None or target == "off":
        return None
    if target == "-":
        return sys.stderr
    return open(target, "a", encoding="utf-8", buffering=1)


def serve(settings: Settings, quixo_parser: argparse.ArgumentParser, host: str = "127.0.0.1",
          port: int = 8000, open_browser: bool = False, access_log: str | None = "-") -> None:
    """Run the explorer until interrupted, in `settings.processes` processes (`quixo_parser`:
    see app.create_app; `access_log`: see open_access_log)."""
    import uvicorn

    from .app import create_app

    warning = host_warning(host)
    if warning:
        print(warning, file=sys.stderr)
    log_stream = open_access_log(access_log)
    if settings.build_small_tables:
        build_small_tables(settings)
    url = url_of("127.0.0.1" if host in ("0.0.0.0", "::") else host, port)

    def configured(app: ASGIApp) -> uvicorn.Config:
        return uvicorn.Config(app, host=host, port=port, log_level="warning",
                              access_log=False, lifespan="on", timeout_graceful_shutdown=2)

    def announce() -> None:
        processes = "" if settings.processes == 1 else f"{settings.processes} processes; "
        print(f"quixo serve: the explorer is at {url} ({processes}Ctrl-C stops it)",
              file=sys.stderr)
        if open_browser:
            threading.Timer(1.0, webbrowser.open, (url,)).start()

    if settings.processes == 1:
        app = create_app(settings, quixo_parser, log_stream)
        announce()
        config = configured(app)
        # What start-up made (modules, pages, the app) lives as long as the server: out of
        # the collector's way, its full collections stay short (measured with
        # explorer_load.py: with them, the slowest 1% of answers waited for one: with the
        # collector off, p99 went from 209 ms to 79 ms)
        gc.freeze()
        uvicorn.Server(config).run()
        return
    serve_in_processes(settings, host, port, announce, lambda state: uvicorn.Server(
        configured(create_app(settings, quixo_parser, log_stream, state))))


def serve_in_processes(settings: Settings, host: str, port: int, announce: Callable[[], None],
                       server_of: Callable[[SharedState], Any]) -> None:
    """Bind host:port, open (and check, if asked) the tables, then serve in
    `settings.processes` forked processes, each running `server_of(state).run(sockets=...)`
    on its socket, until a signal (processes.py)."""
    try:
        sockets = listening_sockets(host, port, settings.processes)
    except OSError as error:
        raise OSError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    # every table opened (and with --check-tables, checked) here: the children share the
    # tables' indexes (most of a server's heap) and the blocks found intact
    tablebase = Tablebase(settings.directory)
    state = SharedState.of(settings, settings.processes, tablebase)
    if settings.check_tables:
        print(f"quixo serve: checking the tables in {settings.directory} before the "
              f"{settings.processes} processes start", file=sys.stderr)
    done = threading.Event()
    check_all_tables(tablebase, threading.Event(), done, check=settings.check_tables)
    state.tables_checked = settings.check_tables and done.is_set()

    def child(state: SharedState) -> None:
        server = server_of(state)
        # gc.freeze: see serve
        gc.freeze()
        server.run(sockets=[sockets[state.index % len(sockets)]])
    try:
        failed = Supervisor(settings.processes, state, child, announce).run()
    finally:
        for listening in sockets:
            listening.close()
    if failed:
        raise CommandFailed()
