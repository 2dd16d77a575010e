"""Win, draw and loss counts of the built classes, read from the table headers."""
from __future__ import annotations

from pathlib import Path

from . import files, plan


def class_counts(directory, size: int) -> list[dict]:
    directory = Path(directory)
    result = []
    for unit in plan.units(size):
        for a, b in unit.classes:
            path = directory / files.table_name(size, a, b)
            if path.exists():
                header = files.read_header(path)
                result.append({"mover": a, "opponent": b, "win": header.wins,
                               "draw": header.draws, "loss": header.losses})
    return sorted(result, key=lambda row: (-(row["mover"] + row["opponent"]), -row["mover"]))
