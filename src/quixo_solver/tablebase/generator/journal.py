"""The build's journal: one JSON line per unit solved, appended to BUILD-JOURNAL.jsonl in the
tables' folder, so that what each step cost (time, peak memory, disk) is known after the
build, however many runs, stops and resumes it took.

A line: {"size", "mover", "opponent", "entries", "threads", "seconds", "cpu_seconds",
"resumed", "peak_memory_bytes", "bytes", "finished"}. `seconds` is the unit's solving time
(wall), summed over the runs that worked on it (the time kept by its checkpoints, plus the
last run's); work lost after a checkpoint by a kill is not in it. `cpu_seconds` is the
process's CPU time over the same spans (every thread's: for a unit solved alone, its
core-seconds, which other work on the machine barely changes). `peak_memory_bytes` is the process's peak resident
memory while the unit ran (Linux: VmHWM, reset as the unit starts; elsewhere null): exact for a
unit solved alone, shared by units solved side by side (the small ones). `bytes` is the size
of the unit's files. The journal is a record, not an input: the build never reads it, and a
lost or damaged journal changes no table.
"""
from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from typing import Any

from ..format import files
from .. import pairs
from .checkpoint import Spent

JOURNAL_NAME = "BUILD-JOURNAL.jsonl"
_STATUS = Path("/proc/self/status")
_CLEAR_REFS = Path("/proc/self/clear_refs")


def reset_peak_memory() -> None:
    """Start the process's peak resident memory afresh (Linux; elsewhere nothing)."""
    try:
        _CLEAR_REFS.write_text("5")
    except OSError:
        pass


def peak_memory_bytes() -> int | None:
    """The process's peak resident memory since the last reset (None where unknown)."""
    try:
        found = re.search(r"^VmHWM:\s*(\d+) kB", _STATUS.read_text(), re.MULTILINE)
    except OSError:
        return None
    return int(found.group(1)) * 1024 if found else None


def record(directory: Path, unit: pairs.Unit, *, threads: int, spent: Spent, resumed: bool,
           peak_memory: int | None) -> None:
    """Append the line of a unit just written to `directory`'s journal."""
    line: dict[str, Any] = {
        "size": unit.size, "mover": unit.mover_count, "opponent": unit.opponent_count,
        "entries": unit.entries, "threads": threads,
        "seconds": round(spent.wall, 3), "cpu_seconds": round(spent.cpu, 3),
        "resumed": resumed, "peak_memory_bytes": peak_memory,
        "bytes": sum((directory / files.table_name(unit.size, *cls)).stat().st_size
                     for cls in unit.classes),
        "finished": finished_now()}
    append(directory / JOURNAL_NAME, line)


def finished_now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def append(path: Path, line: dict[str, Any]) -> None:
    """Append one JSON line to a journal (one write of one line, so that builds sharing a
    folder never interleave their lines)."""
    data = (json.dumps(line, separators=(",", ":")) + "\n").encode()
    descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(descriptor, data)
    finally:
        os.close(descriptor)


def read(directory: Path) -> list[dict[str, Any]]:
    """The journal's lines (a line that does not parse, e.g. cut by a power loss, is left
    out); the last line of a unit wins (a unit rebuilt after damage)."""
    return read_lines(Path(directory) / JOURNAL_NAME, ("size", "mover", "opponent"))


def read_lines(path: Path, key: tuple[str, ...]) -> list[dict[str, Any]]:
    """A journal's lines, the last one of each `key` (its fields' values) kept."""
    try:
        text = path.read_text()
    except FileNotFoundError:
        return []
    lines: dict[tuple[Any, ...], dict[str, Any]] = {}
    for raw in text.splitlines():
        try:
            line = json.loads(raw)
            lines[tuple(line[name] for name in key)] = line
        except (ValueError, KeyError, TypeError):
            continue
    return list(lines.values())
