"""`quixo tablebase compress`: convert a folder of format-3 tables to the compressed format.

Each file is converted on its own and atomically: its values are read (every block checked),
coded, written under a temporary name and renamed over the old file, so the folder holds at
every moment complete tables of one format or the other. A conversion that is interrupted
keeps the files it finished; run again, it converts the rest (a file of the new format is
skipped). The counts of the new file must equal the old header's, or nothing is replaced.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from solverkit.arrayfile import remove_temporaries
from solverkit.progress import Progress

from ...limits import check_threads
from . import files, format3
from ..errors import CorruptTableError


@dataclass
class CompressReport:
    directory: Path
    converted: list[str] = field(default_factory=list)
    already: list[str] = field(default_factory=list)
    bytes_before: int = 0          # of the files converted now
    bytes_after: int = 0
    entries: int = 0
    seconds: float = 0.0


def table_files(directory: Path) -> list[tuple[Path, tuple[int, int, int]]]:
    """The table files of a folder with the class their name says, smallest first."""
    found = []
    for path in directory.glob("quixo*x*-*-*.qtb"):
        try:
            board, mover, opponent = path.stem[len("quixo"):].split("-")
            size = int(board.split("x")[0])
            found.append((path, (size, int(mover), int(opponent))))
        except ValueError:
            continue
    return sorted(found, key=lambda item: (item[0].stat().st_size, item[0].name))


def compress_folder(directory: str | os.PathLike[str], *, jobs: int = 0,
                    progress: bool | None = None) -> CompressReport:
    """Convert every format-3 table of `directory` (see the module's description)."""
    directory = files.folder_to_write(directory)
    threads = check_threads(jobs, "jobs")
    remove_temporaries(directory)
    report = CompressReport(directory)
    todo = []
    for path, cls in table_files(directory):
        version = files.file_version(path)
        if version == files.VERSION:
            report.already.append(path.name)
        elif version == format3.VERSION:
            todo.append((path, cls))
        else:
            raise files.OldFormatError(f"{path} has format version {version}, which cannot "
                                       "be converted: rebuild it (quixo tablebase build)")
    bar = Progress(sum(path.stat().st_size for path, _ in todo), "compress", enabled=progress)
    started = time.perf_counter()
    try:
        for path, cls in todo:
            before = path.stat().st_size
            header, values = format3.load_values(path, cls)
            figures = files.class_figures(*cls, values)
            if (figures["wins"], figures["draws"], figures["losses"]) != \
                    (header.wins, header.draws, header.losses):
                raise CorruptTableError(f"{path}: its values do not give the counts of its "
                                        "header; rebuild it")
            files.write_table(directory, *cls, values, threads)
            del values
            report.converted.append(path.name)
            report.bytes_before += before
            report.bytes_after += path.stat().st_size
            report.entries += header.entries
            bar.advance(before, path.name)
    finally:
        bar.close()
    report.seconds = time.perf_counter() - started
    return report
