"""The bounds of the numbers a user passes in (depths, threads, table sizes), checked before
any kernel or allocation sees them, so that a bad number is a clear ``ValueError`` and never
an overflow, a hang or a MemoryError. The command line uses the same checks."""
from __future__ import annotations

import math
import os

from solverkit.messages import clip

from .errors import DepthError, LimitError, QuixoError

MAX_PERFT_DEPTH = 64       # far beyond any feasible count: a 64-bit counter cannot overflow
MAX_THREADS = 1024         # 0 means every core


def whole_number(name: str, value: object, low: int, high: int,
                 error: type[QuixoError] = LimitError) -> int:
    """``value`` if it is an int (not a bool) in low..high, else ``error`` naming the bound."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise error(f"{name} must be a whole number, not {clip(value)}")
    if not low <= value <= high:
        raise error(f"{name} must be {low} .. {high}, not {clip(value)}")
    return value


def check_threads(threads: object, name: str = "threads") -> int:
    """The number of threads to run on: 0 (the default) is every core."""
    threads = whole_number(name, threads, 0, MAX_THREADS)
    return threads if threads > 0 else (os.cpu_count() or 1)


def check_perft_depth(depth: object) -> int:
    return whole_number("depth", depth, 0, MAX_PERFT_DEPTH, DepthError)


def check_seconds(name: str, value: object) -> float:
    """A positive, finite number of seconds."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise LimitError(f"{name} must be a number of seconds, not {clip(value)}")
    if not 0 < value < math.inf:
        raise LimitError(f"{name} must be a positive, finite number of seconds, not {value!r}")
    return float(value)


def check_positive(name: str, value: object, largest: float) -> float:
    """A positive number no larger than `largest`."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise LimitError(f"{name} must be a number, not {clip(value)}")
    if not 0 < value <= largest:
        raise LimitError(f"{name} must be a positive number up to {largest:g}, not {value!r}")
    return float(value)


def available_memory() -> int:
    """Bytes of memory the machine can give now (MemAvailable on Linux)."""
    try:
        with open("/proc/meminfo") as handle:
            for line in handle:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")


def check_table_mib(tt_mib: object, name: str = "tt_mib") -> float:
    """A transposition table size in MiB: positive, and no more than the memory available."""
    if isinstance(tt_mib, bool) or not isinstance(tt_mib, (int, float)):
        raise LimitError(f"{name} must be a number of MiB, not {clip(tt_mib)}")
    if not 0 < tt_mib < math.inf:
        raise LimitError(f"{name} must be a positive, finite number of MiB, not {tt_mib!r}")
    free_mib = available_memory() / 2**20
    if tt_mib > free_mib:
        raise LimitError(f"a {tt_mib:g} MiB transposition table does not fit: this machine "
                         f"has {free_mib:,.0f} MiB of memory available")
    return float(tt_mib)
