"""The independent verifier: every built class is re-derived from its children's values
(see _verify.pyx) and each mismatch is reported.

Whole, a class is decoded into memory with its mirror and the class after a blank (six bytes
an entry: 20 GiB for the largest 5x5 pair). Sampled (``sample=N``), N entries of each class,
drawn uniformly at random (seeded) and checked against their children read from the
compressed files: a few MiB of memory whatever the class, and minutes for the whole game."""
from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from . import _verify
from .format._index import class_size
from .format._orbit_index import entry_count
from ..rules.geometry import check_size
from ..limits import check_threads, whole_number
from solverkit.progress import Progress
from .format import files
from . import pairs
from .errors import BlankRangeError, CorruptTableError, MissingTableError, OldFormatError


@dataclass
class ClassCheck:
    mover_count: int
    opponent_count: int
    positions: int               # raw positions of the class
    mismatches: int              # entries; every entry counts when its file (or an input) is damaged
    examples: list[int]          # indices of the first mismatching entries
    damaged: str | None = None   # why the class could not be read
    sampled: int | None = None   # with a sample: the entries checked (else every one was)


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


def _existing(directory: Path, size: int, cls: tuple[int, int]) -> Path:
    path = directory / files.table_name(size, *cls)
    if not path.exists():
        raise MissingTableError(f"cannot verify: the table of class {cls} is missing ({path})")
    return path


def _values(directory: Path, size: int, cls: tuple[int, int], threads: int) -> np.ndarray:
    return files.load_values(_existing(directory, size, cls), (size, *cls), threads)


def built_units(directory: Path, size: int) -> list[pairs.Unit]:
    return [unit for unit in pairs.units(size)
            if all((directory / files.table_name(size, *cls)).exists() for cls in unit.classes)]


def verify(directory: str | os.PathLike[str], size: int, *, jobs: int = 0,
           progress: bool | None = None, min_blanks: int = 0,
           max_blanks: int | None = None, sample: int | None = None,
           seed: int = 0) -> VerifyReport:
    """Verify every class of ``size`` built in ``directory`` with min_blanks..max_blanks blank
    cubes (every built class by default); MissingTableError if the folder holds none of them.
    A damaged file fails its class (and the classes that read it). The blank range lets a big
    folder be verified a few hours at a time: a class is checked against its children's files
    whether or not they are in the range. With ``sample``, each class is checked on that many
    entries (holes are drawn again), drawn with ``seed``: every entry of a class smaller than
    that."""
    directory = files.folder_to_read(directory)
    size = check_size(size)
    threads = check_threads(jobs, "jobs")
    cells = size * size
    if max_blanks is None:
        max_blanks = cells
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in (min_blanks, max_blanks)) \
            or not 0 <= min_blanks <= max_blanks <= cells:
        raise BlankRangeError(f"the blanks to verify must satisfy 0 <= {min_blanks!r} <= "
                              f"{max_blanks!r} <= {cells}")
    if sample is not None:
        sample = whole_number("sample", sample, 1, MAX_SAMPLE)
    seed = whole_number("seed", seed, 0, 2**63 - 1)
    units = [unit for unit in built_units(directory, size)
             if min_blanks <= cells - unit.cubes <= max_blanks]
    if not units:
        raise MissingTableError(f"no table of the {size}x{size} board with {min_blanks} to "
                                f"{max_blanks} blanks in {directory}")
    report = VerifyReport(size)
    bar = Progress(sum(unit.entries for unit in units), f"verify {size}x{size}",
                   enabled=progress)
    try:
        for unit in units:
            checks = (_check_pair(directory, size, unit, threads) if sample is None else
                      (_sample_class(directory, size, cls, sample, seed, threads)
                       for cls in unit.classes))
            for check in checks:
                report.classes.append(check)
                a, b = check.mover_count, check.opponent_count
                bar.advance(entry_count(size, a, b), f"class ({a}, {b})")
    finally:
        bar.close()
    return report


# the most entries a class is sampled on (a sample this large costs more than the whole check)
MAX_SAMPLE = 10**10
# A sample is drawn as runs of this many consecutive entries (one segment of the files), whose
# starts are uniform over the class: the entries of a run reach their children in the same few
# blocks of the child classes, which are then decoded once for the run, not once an entry
# (about 20 times less decoding than entries drawn one by one).
SAMPLE_RUN = 512


def _sample_class(directory: Path, size: int, cls: tuple[int, int], sample: int, seed: int,
                  threads: int) -> ClassCheck:
    """Check `sample` random entries of one class (not holes: they are drawn again; every
    entry when the class has no more), its files read where the entries need them."""
    a, b = cls
    entries = entry_count(size, a, b)
    try:
        own, mirror = (_table(directory, size, c) for c in ((a, b), (b, a)))
        after_blank = _table(directory, size, (b, a + 1)) if a + b < size * size else None
    except OldFormatError:
        raise
    except CorruptTableError as error:
        return _damaged(size, cls, error)
    # a stream of its own for each class, so that a class's sample does not depend on the range
    generator = np.random.default_rng([seed, size, a, b])
    runs = -(-entries // SAMPLE_RUN)
    wanted = -(-sample // SAMPLE_RUN)
    if wanted * 2 >= runs:    # (holes, never half of a class, then cannot leave too few)
        starts = np.arange(runs, dtype=np.uint64)
    else:
        starts = np.sort(generator.choice(runs, size=wanted, replace=False)).astype(np.uint64)
    checked = bad = 0
    examples: list[int] = []
    done = 0
    while True:
        indices = (starts[done:, None] * SAMPLE_RUN + np.arange(SAMPLE_RUN, dtype=np.uint64))
        indices = indices[indices < entries]
        found, mismatches, unreadable, first = _verify.verify_sample(
            size, a, b, own, mirror, after_blank, indices, threads)
        if unreadable:
            return _damaged(size, cls, _first_damage(own, mirror, after_blank, threads,
                                                     unreadable))
        checked, bad = checked + found, bad + mismatches
        examples += first[:10 - len(examples)]
        done = len(starts)
        if checked >= sample or done == runs:
            break
        # the holes drawn: as many runs more, from those not drawn yet
        left = np.setdiff1d(np.arange(runs, dtype=np.uint64), starts)
        more = -(-(sample - checked) // SAMPLE_RUN)
        extra = generator.choice(left, size=min(more, len(left)), replace=False)
        starts = np.concatenate([starts, np.sort(extra).astype(np.uint64)])
    return ClassCheck(a, b, class_size(size, a, b), bad, examples, sampled=checked)


def _first_damage(own: files.CompressedTable, mirror: files.CompressedTable,
                  after_blank: files.CompressedTable | None, threads: int,
                  unreadable: int) -> CorruptTableError:
    """The error naming the damaged file, once the sample met a block it could not read: the
    three files are checked whole, so that the class is reported as the whole check reports
    it (and a rebuild knows which file to redo)."""
    for table in (own, mirror, after_blank):
        if table is None:
            continue
        try:
            table.check_all(threads)
        except CorruptTableError as error:
            return error
    # every checksum matched, so a block decoded to something other than a segment
    return CorruptTableError(f"{own.path}, {mirror.path} or the class after a blank: "
                             f"{unreadable} sampled entries read a block that does not decode")


def _table(directory: Path, size: int, cls: tuple[int, int]) -> files.CompressedTable:
    return files.open_table(_existing(directory, size, cls), (size, *cls))


def _check_pair(directory: Path, size: int, unit: pairs.Unit,
                threads: int) -> Iterator[ClassCheck]:
    """Check the classes of `unit`: a class and its mirror read each other's values, so each of
    the pair's files is decoded once for both (4 decodes a pair, not 6), and each class's
    after-blank child is decoded only while that class is checked (the memory stays one class,
    its mirror and one child). One check per class, in unit.classes order."""
    a, b = unit.mover_count, unit.opponent_count
    try:
        own = _values(directory, size, (a, b), threads)
        mirror = own if a == b else _values(directory, size, (b, a), threads)
    except OldFormatError:
        raise
    except CorruptTableError as error:
        for cls in unit.classes:
            yield _damaged(size, cls, error)
        return
    yield _check_class(directory, size, a, b, own, mirror, threads)
    if a != b:
        yield _check_class(directory, size, b, a, mirror, own, threads)


def _damaged(size: int, cls: tuple[int, int], error: CorruptTableError) -> ClassCheck:
    """A class that could not be read: every entry counts as a mismatch."""
    return ClassCheck(cls[0], cls[1], class_size(size, *cls), entry_count(size, *cls), [],
                      damaged=str(error))


def _check_class(directory: Path, size: int, a: int, b: int, own: np.ndarray,
                 mirror: np.ndarray, threads: int) -> ClassCheck:
    try:
        after_blank = (_values(directory, size, (b, a + 1), threads) if a + b < size * size
                       else np.zeros(0, dtype=np.uint16))
    except OldFormatError:
        raise
    except CorruptTableError as error:
        return _damaged(size, (a, b), error)
    bad, examples = _verify.verify_class(size, a, b, own, mirror, after_blank, threads)
    return ClassCheck(a, b, class_size(size, a, b), bad, examples)
