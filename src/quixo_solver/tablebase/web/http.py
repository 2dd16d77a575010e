"""The one HTTP client side of the tables on the web: a download from a mirror (download.py)
and the remote tablebase (remote.py) check their URL, name themselves, and retry what is safe
to retry here, the same way.

A transient fault is worth another attempt: a connection cut, reset or refused (the network
may be coming back), a silent server past the timeout where the caller retries that, and the
statuses of TRANSIENT_STATUS (408, 425, 429 and the 5xx of an overloaded or restarting
server). The pause before the next attempt is the server's Retry-After (seconds or an HTTP
date), else an exponential backoff with jitter; a Retry-After longer than the caller accepts
ends the attempts at once, and the caller says so in its own error. Both callers only read,
so every request may be repeated.
"""
from __future__ import annotations

import email.utils
import random
import threading
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from solverkit.messages import cut
from solverkit.version import __version__

USER_AGENT = f"quixo-solver/{__version__}"
TRANSIENT_STATUS = frozenset({408, 425, 429, 500, 502, 503, 504})
MAX_BACKOFF = 60.0          # the longest pause between two attempts, in seconds

Answer = TypeVar("Answer")


def http_url(url: object, what: str, refuse: Callable[[str], Exception]) -> \
        urllib.parse.SplitResult:
    """`url` split, once checked: http:// or https:// with a host, a port from 1 to 65535 if
    any, no query and no fragment; else `refuse(message)` is raised, naming `what` ("a
    mirror") in its message."""
    if not isinstance(url, str):
        raise refuse(f"{what} is an http:// or https:// URL, not {url!r}")
    parts = urllib.parse.urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or \
            parts.fragment:
        raise refuse(f"{what} is an http:// or https:// URL with a host and no query, such "
                     f"as http://127.0.0.1:8000, not {cut(url)!r}")
    try:
        parts.port
    except ValueError:
        raise refuse(f"the port of {cut(url)!r} is not a number from 1 to 65535") from None
    return parts


def retry_after(value: str | None) -> float | None:
    """Seconds a Retry-After header asks for (a number or an HTTP date), None if none."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


class Transient(Exception):
    """A fault worth another attempt after a pause (`retry_after`: the server's, if any)."""

    def __init__(self, reason: str, retry_after: float | None = None) -> None:
        super().__init__(reason)
        self.retry_after = retry_after


class Stopped(Exception):
    """The attempts were stopped from outside (`Retries.run`'s `stopping`) during a pause."""


@dataclass(frozen=True)
class Retries:
    """How often a request is tried (`attempts`, the first included), the first backoff in
    seconds (doubled each time, up to MAX_BACKOFF, with jitter), and the longest Retry-After
    waited for."""
    attempts: int = 5
    backoff: float = 1.0
    max_retry_after: float = 300.0

    def pause(self, number: int, fault: Transient) -> float | None:
        """Seconds to wait after failed attempt `number` (0 first); None when the server asks
        for longer than `max_retry_after`."""
        if fault.retry_after is not None:
            return fault.retry_after if fault.retry_after <= self.max_retry_after else None
        return float(min(MAX_BACKOFF, self.backoff * 2.0 ** number) * random.uniform(0.5, 1.0))

    def run(self, attempt: Callable[[], Answer],
            give_up: Callable[[Transient, bool], Exception],
            stopping: threading.Event | None = None) -> Answer:
        """`attempt()`'s answer, tried again after each Transient it raises. After the last
        attempt, or at once when the server asks to wait too long, `give_up(fault,
        waited_too_long)` is raised. A set `stopping` ends a pause with Stopped."""
        for number in range(self.attempts):
            try:
                return attempt()
            except Transient as fault:
                if number + 1 == self.attempts:
                    raise give_up(fault, False) from None
                pause = self.pause(number, fault)
                if pause is None:
                    raise give_up(fault, True) from None
                if stopping is None:
                    time.sleep(pause)
                elif stopping.wait(pause):
                    raise Stopped() from None
        raise AssertionError("attempts must be at least 1")
