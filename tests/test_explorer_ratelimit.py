"""The rate limiter's table of buckets: a burst then the rate, the refusal's wait, at most
`max_clients` buckets (a full one forgotten first, else the least recently seen), the
buckets shared with a forked process, and a lock that a dead process held freed."""
from __future__ import annotations

import os

import pytest

from explorer.ratelimit import RateLimiter, TooManyRequests
from explorer.shared import SharedLock


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_burst_then_the_rate_then_a_wait():
    clock = Clock()
    limiter = RateLimiter(rate=2, burst=3, clock=clock)
    assert [limiter.take("a") for _ in range(4)] == [0, 0, 0, 1]
    assert limiter.take("b") == 0                     # another client has its own bucket
    clock.now += 0.5                                  # one token back
    assert limiter.take("a") == 0 and limiter.take("a") == 1
    assert limiter.take("a", tokens=3) == 2           # 3 tokens: 1.5 s at 2 a second
    with pytest.raises(TooManyRequests) as refused:
        limiter.check("a")
    assert refused.value.retry_after == 1 and "2 requests a second" in str(refused.value)
    assert limiter.refused == 4
    assert RateLimiter(rate=0, burst=1, clock=clock).take("a", 100) == 0   # no limit


def test_the_table_keeps_at_most_max_clients_the_full_ones_forgotten_first():
    clock = Clock()
    limiter = RateLimiter(rate=1, burst=2, clock=clock, max_clients=8)
    for client in range(8):
        limiter.take(f"old {client}")
    assert limiter.clients() == 8
    clock.now += 2.0                                  # every bucket full again
    assert limiter.clients() == 0
    for client in range(20):
        assert limiter.take(f"new {client}") == 0     # each takes a full bucket's place
    assert limiter.clients() == 8


def test_a_crowded_table_forgets_the_least_recently_seen():
    clock = Clock()
    limiter = RateLimiter(rate=0.001, burst=2, clock=clock, max_clients=8)
    for client in range(8):
        clock.now += 1
        limiter.take(f"client {client}", tokens=2)   # empty, and slow to refill
    assert limiter.take("client 7") == 1000           # still remembered: refused
    clock.now += 1
    assert limiter.take("newcomer") == 0              # the table is full: someone goes
    assert limiter.clients() == 8
    assert limiter.take("client 0") == 0              # the least recently seen went
    assert limiter.take("client 7") > 0


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_process_shares_the_buckets():
    limiter = RateLimiter(rate=0.001, burst=5)
    pid = os.fork()
    if pid == 0:                                      # the child takes 4 of the 5 tokens
        os._exit(0 if limiter.take("client", tokens=4) == 0 else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert limiter.take("client") == 0 and limiter.take("client") > 0
    assert limiter.refused == 1


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_lock_that_a_dead_process_held_is_freed():
    lock = SharedLock()
    assert not lock.free_if_abandoned()                # nobody holds it
    pid = os.fork()
    if pid == 0:                                      # the child dies holding it
        lock.__enter__()
        os._exit(0)
    os.waitpid(pid, 0)
    assert lock.free_if_abandoned()
    with lock:                                        # usable again
        pass
