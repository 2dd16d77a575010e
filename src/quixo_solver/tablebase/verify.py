"""The independent verifier: every built class is re-derived from its children's values
(see _verify.pyx) and each mismatch is reported."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .. import _verify
from ..progress import Progress
from . import files, plan
from .probe import MissingTableError


@dataclass
class ClassCheck:
    mover_count: int
    opponent_count: int
    positions: int
    mismatches: int
    examples: list[int]          # indices of the first mismatching positions


@dataclass
class VerifyReport:
    size: int
    classes: list[ClassCheck] = field(default_factory=list)

    @property
    def mismatches(self) -> int:
        return sum(check.mismatches for check in self.classes)

    @property
    def ok(self) -> bool:
        return self.mismatches == 0


def _values(directory: Path, size: int, cls: tuple[int, int]) -> np.ndarray:
    path = directory / files.table_name(size, *cls)
    if not path.exists():
        raise MissingTableError(f"cannot verify: the table of class {cls} is missing ({path})")
    return files.load_values(path)


def built_units(directory: Path, size: int) -> list[plan.Unit]:
    return [unit for unit in plan.units(size)
            if all((directory / files.table_name(size, *cls)).exists() for cls in unit.classes)]


def verify(directory, size: int, *, jobs: int = 0, progress: bool | None = None) -> VerifyReport:
    """Verify every class of ``size`` built in ``directory``."""
    directory = Path(directory)
    threads = jobs if jobs > 0 else (os.cpu_count() or 1)
    units = built_units(directory, size)
    report = VerifyReport(size)
    bar = Progress(sum(unit.positions for unit in units), f"verify {size}x{size}",
                   enabled=progress)
    try:
        for unit in units:
            for a, b in unit.classes:
                own = _values(directory, size, (a, b))
                mirror = own if a == b else _values(directory, size, (b, a))
                cells = size * size
                after_blank = (_values(directory, size, (b, a + 1)) if a + b < cells
                               else np.zeros(0, dtype=np.uint16))
                bad, examples = _verify.verify_class(size, a, b, own, mirror, after_blank,
                                                     threads)
                report.classes.append(ClassCheck(a, b, own.size, bad, examples))
                bar.advance(own.size, f"class ({a}, {b})")
    finally:
        bar.close()
    return report
