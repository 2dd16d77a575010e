"""The bounds of the numbers a user passes in (depths, threads, table sizes), checked before
any kernel or allocation sees them, so that a bad number is a clear ``ValueError`` and never
an overflow, a hang or a MemoryError. The command line uses the same checks."""
from __future__ import annotations

import math
import os
import sys

from solverkit.messages import clip

from .errors import DepthError, LimitError, QuixoError

MAX_PERFT_DEPTH = 64       # far beyond any feasible count: a 64-bit counter cannot overflow
MAX_THREADS = 1024         # 0 means every core
MAX_SERVER_PROCESSES = 256  # quixo serve --processes


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


def check_seconds(name: str, value: object, *, zero_allowed: bool = False) -> float:
    """A positive (or with `zero_allowed`, non-negative), finite number of seconds."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise LimitError(f"{name} must be a number of seconds, not {clip(value)}")
    if not (0 <= value if zero_allowed else 0 < value) or not value < math.inf:
        kind = "non-negative" if zero_allowed else "positive"
        raise LimitError(f"{name} must be a {kind}, finite number of seconds, not {value!r}")
    return float(value)


def check_positive(name: str, value: object, largest: float) -> float:
    """A positive number no larger than `largest`."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise LimitError(f"{name} must be a number, not {clip(value)}")
    if not 0 < value <= largest:
        raise LimitError(f"{name} must be a positive number up to {largest:g}, not {value!r}")
    return float(value)


def available_memory() -> int:
    """Bytes of memory the machine can give now: MemAvailable on Linux, the available physical
    memory on Windows; where the system tells only its physical memory (macOS), that."""
    if sys.platform == "win32":
        return _windows_available_memory()
    try:
        with open("/proc/meminfo") as handle:
            for line in handle:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    for name in ("SC_AVPHYS_PAGES", "SC_PHYS_PAGES"):   # macOS has only the second
        try:
            return os.sysconf(name) * os.sysconf("SC_PAGE_SIZE")
        except (ValueError, OSError):
            continue
    raise OSError("cannot tell how much memory this machine has")


if sys.platform == "win32":
    import ctypes

    class _MemoryStatus(ctypes.Structure):
        _fields_ = [("dwLength", ctypes.c_uint32), ("dwMemoryLoad", ctypes.c_uint32),
                    ("ullTotalPhys", ctypes.c_uint64), ("ullAvailPhys", ctypes.c_uint64),
                    ("ullTotalPageFile", ctypes.c_uint64), ("ullAvailPageFile", ctypes.c_uint64),
                    ("ullTotalVirtual", ctypes.c_uint64), ("ullAvailVirtual", ctypes.c_uint64),
                    ("ullAvailExtendedVirtual", ctypes.c_uint64)]

    def _windows_available_memory() -> int:
        """GlobalMemoryStatusEx's available physical memory."""
        status = _MemoryStatus()
        status.dwLength = ctypes.sizeof(_MemoryStatus)
        if not ctypes.windll.kernel32.GlobalMemoryStatusEx(ctypes.byref(status)):
            raise ctypes.WinError()
        return int(status.ullAvailPhys)


def check_tt_mib(tt_mib: object, name: str = "tt_mib") -> float:
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
