"""What the server is started with (`quixo serve` options), checked once."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from quixo_solver.errors import LimitError
from quixo_solver.limits import MAX_SERVER_PROCESSES, check_seconds, check_tt_mib, whole_number

DEFAULT_SEARCH_SECONDS = 10.0    # as `quixo solve` and `quixo analyze` without --time/--depth
MAX_SEARCH_SECONDS = 60.0
DEFAULT_QUEUE = 8                # requests that may wait for a search slot
DEFAULT_CACHE = 20_000           # exact answers kept (about 1-2 KB each)
MAX_QUERY_BYTES = 8192           # a longer query string is refused (414)
DEFAULT_RATE = 50.0              # API requests a second per client (0: no limit) ...
DEFAULT_BURST = 500              # ... after a burst of this many
BATCH_POSITIONS_PER_REQUEST = 16  # a batch probe counts as one request per 16 positions


def cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
        os.cpu_count() or 1)


def default_processes() -> int:
    """One server process per core where processes can be forked (each core then runs an
    event loop: the loop, not the tables, bounds what one process answers), else one."""
    return cores() if hasattr(os, "fork") else 1


@dataclass(frozen=True)
class Settings:
    """`directory`: the Quixo tables (one Tablebase for the whole server); `qwixx_directory`:
    the Qwixx tables (None: $QWIXX_TABLE_DIR, else the cache folder); `search_seconds`: a
    search's time when a request gives neither a time nor a depth; `max_search_seconds`: the
    most a request may ask for (a depth alone is searched for at most that long); `searches`:
    searches at once (default: one per core); `queue`: requests that may wait for one;
    `hash_mib`: each search's transposition table; `cache_entries`: exact answers kept;
    `build_small_tables`: build the 3x3 and 4x4 tables at start-up when missing;
    `rate`, `burst`: each client's API requests a second after a burst (ratelimit.py; a
    rate of 0: no limit); `check_tables`: check every table's blocks at start-up, while the
    server serves (served_tables.py)."""

    directory: Path
    qwixx_directory: Path | None = None
    search_seconds: float = DEFAULT_SEARCH_SECONDS
    max_search_seconds: float = MAX_SEARCH_SECONDS
    searches: int = field(default_factory=cores)
    queue: int = DEFAULT_QUEUE
    hash_mib: float = 64
    cache_entries: int = DEFAULT_CACHE
    build_small_tables: bool = True
    rate: float = DEFAULT_RATE
    burst: int = DEFAULT_BURST
    check_tables: bool = False
    processes: int = field(default_factory=default_processes)

    def __post_init__(self) -> None:
        check_seconds("the default search time", self.search_seconds)
        check_seconds("the longest search time", self.max_search_seconds)
        if self.search_seconds > self.max_search_seconds:
            raise LimitError(f"the default search time ({self.search_seconds:g} s) is longer "
                             f"than the longest ({self.max_search_seconds:g} s)")
        check_tt_mib(self.hash_mib, "the table size")
        if isinstance(self.rate, bool) or not isinstance(self.rate, (int, float)) or not \
                0 <= self.rate <= 1e9:
            raise LimitError(f"the rate limit must be a number of requests a second from 0 "
                             f"(no limit), not {self.rate!r}")
        for name, value, low in (("searches", self.searches, 1), ("queue", self.queue, 0),
                                 ("cache", self.cache_entries, 0), ("burst", self.burst, 1)):
            if isinstance(value, bool) or not isinstance(value, int) or not \
                    low <= value <= 100_000_000:
                raise LimitError(f"{name} must be a whole number from {low}, not {value!r}")
        whole_number("the number of processes", self.processes, 1, MAX_SERVER_PROCESSES)
        if self.processes > 1 and not hasattr(os, "fork"):
            raise LimitError("several server processes need fork(), which this system does "
                             "not have: serve with one process")
