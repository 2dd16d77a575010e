"""Win, draw and loss counts of the built classes, read from the table headers."""
from __future__ import annotations

import os
from pathlib import Path

from ..rules.geometry import check_size
from .format import files
from . import pairs
from .errors import MissingTableError
from .probe import shipped_folder, table_path


def class_counts(directory: str | os.PathLike[str], size: int) -> list[dict[str, int]]:
    """One row per built class of ``size``; MissingTableError if the folder has none."""
    return [row for row, _ in built_classes(directory, size)]


def writers(classes: list[tuple[dict[str, int], str | None]]) -> list[str]:
    """The package versions that wrote `classes` (built_classes; "unrecorded" for files older
    than the record)."""
    return sorted({writer or "unrecorded" for _, writer in classes})


def built_headers(directory: str | os.PathLike[str],
                  size: int) -> list[tuple[tuple[int, int], Path, files.TableHeader]]:
    """((mover, opponent), path, checked header) of each built class of ``size``, in build
    order, read from the folder or, where it lacks a class, the tables shipped with the
    package (none: an empty list)."""
    shipped = shipped_folder()
    if shipped is not None and not files.folder_path(directory).exists():
        directory = files.folder_path(directory)      # (none yet: the shipped tables alone)
    else:
        directory = files.folder_to_read(directory)
    size = check_size(size)
    result = []
    for unit in pairs.units(size):
        for a, b in unit.classes:
            path = table_path(directory, size, a, b, shipped)
            if path is not None:
                result.append(((a, b), path, files.read_header(path, (size, a, b))))
    return result


def built_classes(directory: str | os.PathLike[str],
                  size: int) -> list[tuple[dict[str, int], str | None]]:
    """(counts row, the version that wrote the file) of each built class of ``size``, from
    the headers; MissingTableError if the folder has none."""
    result = [({"mover": a, "opponent": b, "win": header.wins, "draw": header.draws,
                "loss": header.losses}, header.written_by)
              for (a, b), _, header in built_headers(directory, size)]
    if not result:
        raise MissingTableError(f"no table of the {size}x{size} board in {directory}")
    return sorted(result, key=lambda item: (-(item[0]["mover"] + item[0]["opponent"]),
                                            -item[0]["mover"]))
