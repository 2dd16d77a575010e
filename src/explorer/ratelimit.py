"""Per-client rate limits: a token bucket for each client address.

A client may make `burst` requests at once, then `rate` a second: each request takes a token
(a batch of probes takes more, see app.py), the bucket refills at `rate` tokens a second up
to `burst`. A request that finds too few tokens is refused with the seconds to wait until
there are enough (the API answers 429 with that Retry-After). A rate of 0 turns the limit
off.

The buckets of clients that have been away long enough to be full again are forgotten, so
the table stays small whatever the number of clients; past `MAX_CLIENTS` buckets the least
recently seen go first.
"""
from __future__ import annotations

import math
import time
from typing import Callable

MAX_CLIENTS = 100_000


class TooManyRequests(Exception):
    """A request over its client's limit: come back after `retry_after` seconds."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class RateLimiter:
    """Token buckets of `burst` tokens refilled at `rate` a second, one per client."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic,
                 max_clients: int = MAX_CLIENTS) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.max_clients = max_clients
        self._buckets: dict[str, tuple[float, float]] = {}    # client: (tokens, when)
        self.refused = 0

    @property
    def enabled(self) -> bool:
        return self.rate > 0

    def __len__(self) -> int:
        return len(self._buckets)

    def take(self, client: str, tokens: int = 1) -> int:
        """Take `tokens` from the client's bucket: 0 when they were there (the request goes
        on), else the whole seconds to wait until they would be (nothing is taken)."""
        if not self.enabled:
            return 0
        now = self.clock()
        held, then = self._buckets.pop(client, (float(self.burst), now))
        held = min(float(self.burst), held + (now - then) * self.rate)
        wanted = min(tokens, self.burst)         # a request bigger than a burst waits for one
        if held < wanted:
            self._buckets[client] = (held, now)
            self.refused += 1
            return max(1, math.ceil((wanted - held) / self.rate))
        self._buckets[client] = (held - wanted, now)      # last in the dict: seen last
        if len(self._buckets) > self.max_clients:
            self._forget(now)
        return 0

    def check(self, client: str, tokens: int = 1) -> None:
        """`take`, raising TooManyRequests when the tokens are not there."""
        wait = self.take(client, tokens)
        if wait:
            raise TooManyRequests(self.message(wait), wait)

    def message(self, wait: int) -> str:
        return (f"too many requests: this server answers a client at most {self.rate:g} "
                f"requests a second (bursts of {self.burst}); try again in {wait} s")

    def _forget(self, now: float) -> None:
        """Drop the buckets that are full again, then the least recently seen down to nine
        tenths of the limit (so that the next clients do not walk the table again)."""
        refill = self.burst / self.rate
        for client, (_, then) in list(self._buckets.items()):
            if now - then >= refill:
                del self._buckets[client]
        while len(self._buckets) > self.max_clients * 9 // 10:
            del self._buckets[next(iter(self._buckets))]
