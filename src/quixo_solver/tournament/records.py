"""The records file of a match: one JSON line per game (the opening, the moves in SPEC
notation, the result, the reason, and the match's settings), sorted by pair and game, rewritten
atomically after every game. A match that runs again with the same records file reads the
games recorded there (after checking that the file is of the same match) and plays only those
missing.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from solverkit.arrayfile import write_atomically
from solverkit.messages import cut_path

from .settings import MatchSettings
from ..errors import MatchError


def read_records(path: Path, settings: MatchSettings) -> dict[tuple[int, int], dict[str, Any]]:
    """The games already recorded in `path` (none if it does not exist), keyed by (pair,
    game); MatchError if the file is not a records file of this very match."""
    if not path.exists():
        return {}
    identity = settings.identity()
    records: dict[tuple[int, int], dict[str, Any]] = {}
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                key = (int(record["pair"]), int(record["game"]))
                theirs = record["match"]
            except (ValueError, KeyError, TypeError):
                raise MatchError(f"{cut_path(path)} line {number} is not a game record of "
                                 "quixo match") from None
            if theirs != identity:
                raise MatchError(f"{cut_path(path)} holds games of another match "
                                 f"({_differences(theirs, identity)}): give another records "
                                 "file, or the same settings to resume it")
            records[key] = record
    return records


def _differences(theirs: object, ours: dict[str, Any]) -> str:
    if not isinstance(theirs, dict):
        return "no settings"
    return "; ".join(f"{key} {theirs.get(key)!r} there, {value!r} here"
                     for key, value in ours.items() if theirs.get(key) != value)


def write_records(path: Path, records: dict[tuple[int, int], dict[str, Any]]) -> None:
    """Every record, one JSON line each, sorted by pair and game, written atomically."""
    lines = [json.dumps(records[key]) + "\n" for key in sorted(records)]
    write_atomically(path, ["".join(lines).encode("utf-8")])
