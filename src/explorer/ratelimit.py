"""Per-client rate limits: a token bucket for each client address, shared by the server's
processes.

A client may make `burst` requests at once, then `rate` a second: each request takes a token
(a batch of probes takes more, see app.py), the bucket refills at `rate` tokens a second up
to `burst`. A request that finds too few tokens is refused with the seconds to wait until
there are enough (the API answers 429 with that Retry-After). A rate of 0 turns the limit
off.

The buckets are a fixed table of `max_clients` places in memory shared by the processes
(shared.py), under one lock, so that a client's requests count the same whichever process
answers them. A client's bucket is kept in one of PROBES places from the one its address's
hash names (a keyed hash: nobody can aim at another's places). A bucket that is full again is
as good as none, so its place is taken by the next client that needs one; when every place a
client may use holds a bucket still refilling, the least recently seen of them is forgotten.
So the table never holds more than `max_clients` clients, whatever their number.
"""
from __future__ import annotations

import hashlib
import math
import os
import struct
import time
from typing import Callable

from .shared import SharedLock, shared_memory

MAX_CLIENTS = 100_000
PROBES = 8                                 # the places a client's bucket may take
BUCKET = struct.Struct("=Qdd")             # the client's key (0: a place never used),
#                                            tokens, when last seen (monotonic seconds)
REFUSED = struct.Struct("=Q")              # requests refused, after the buckets


class TooManyRequests(Exception):
    """A request over its client's limit: come back after `retry_after` seconds."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class RateLimiter:
    """Token buckets of `burst` tokens refilled at `rate` a second, one per client, in memory
    that the processes forked after it share."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic,
                 max_clients: int = MAX_CLIENTS) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.max_clients = max_clients
        self._memory = shared_memory(max_clients * BUCKET.size + REFUSED.size)
        self.lock = SharedLock()
        self._secret = os.urandom(16)

    @property
    def enabled(self) -> bool:
        return self.rate > 0

    @property
    def refused(self) -> int:
        """Requests refused by every process."""
        count: int = REFUSED.unpack_from(self._memory, self.max_clients * BUCKET.size)[0]
        return count

    def key(self, client: str) -> int:
        digest = hashlib.blake2b(client.encode(), digest_size=8, key=self._secret).digest()
        return int.from_bytes(digest, "little") | 1            # never 0, a free place's

    def take(self, client: str, tokens: int = 1) -> int:
        """Take `tokens` from the client's bucket: 0 when they were there (the request goes
        on), else the whole seconds to wait until they would be (nothing is taken)."""
        if not self.enabled:
            return 0
        key = self.key(client)
        wanted = min(tokens, self.burst)         # a request bigger than a burst waits for one
        with self.lock:
            now = self.clock()                   # under the lock: each bucket's times go up
            place, held, then = self._find(key, now)
            held = min(float(self.burst), held + (now - then) * self.rate)
            if held < wanted:
                BUCKET.pack_into(self._memory, place * BUCKET.size, key, held, now)
                REFUSED.pack_into(self._memory, self.max_clients * BUCKET.size,
                                  self.refused + 1)
                return max(1, math.ceil((wanted - held) / self.rate))
            BUCKET.pack_into(self._memory, place * BUCKET.size, key, held - wanted, now)
            return 0

    def _find(self, key: int, now: float) -> tuple[int, float, float]:
        """(place, tokens, when) of the client's bucket, or of a place for a new full one:
        the first that is free or full again, else the least recently seen of its places.
        (A client's bucket is never beyond a place never used: it would have taken it.)"""
        full_again = self.burst / self.rate
        home = key % self.max_clients
        free = oldest = -1
        oldest_seen = math.inf
        for step in range(min(PROBES, self.max_clients)):
            place = (home + step) % self.max_clients
            held_key, held, then = BUCKET.unpack_from(self._memory, place * BUCKET.size)
            if held_key == key:
                return place, held, then
            if held_key == 0:
                return (place if free < 0 else free), float(self.burst), now
            if now - then >= full_again:
                if free < 0:
                    free = place
            elif then < oldest_seen:
                oldest, oldest_seen = place, then
        return (free if free >= 0 else oldest), float(self.burst), now

    def clients(self) -> int:
        """The buckets held that are not full again (a walk of the whole table: for tests)."""
        full_again = self.burst / self.rate if self.enabled else 0.0
        now = self.clock()
        with self.lock:
            return sum(1 for place in range(self.max_clients)
                       if (bucket := BUCKET.unpack_from(self._memory, place * BUCKET.size))[0]
                       and now - bucket[2] < full_again)

    def check(self, client: str, tokens: int = 1) -> None:
        """`take`, raising TooManyRequests when the tokens are not there."""
        wait = self.take(client, tokens)
        if wait:
            raise TooManyRequests(self.message(wait), wait)

    def message(self, wait: int) -> str:
        return (f"too many requests: this server answers a client at most {self.rate:g} "
                f"requests a second (bursts of {self.burst}); try again in {wait} s")
