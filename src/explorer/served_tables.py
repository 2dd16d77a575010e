"""`GET /api/v1/tables`: what the server serves, as a manifest (SPEC "Tables on the web").

The listing is made from the table files' checked headers (name, bytes, format, size, mover,
opponent and the class counts), not from their contents: it lists a big folder in
milliseconds and never reads a file whole, so it carries no SHA-256. (Where the folder's
manifest with its checksums is at hand, `listing` is the one place to take it instead.) It is
made again when the folder changes (a table added while the server runs); a file whose header
does not check out is left out.
"""
from __future__ import annotations

import logging
import os
import re
import threading
from pathlib import Path
from typing import Any

from quixo_solver.tablebase import TablebaseError, files
from solverkit.version import __version__

log = logging.getLogger("explorer")
TABLE_NAME = re.compile(r"quixo([345])x\1-(\d\d)-(\d\d)\.qtb")
MANIFEST_VERSION = 1


class ServedTables:
    """The listing of one folder, kept until the folder changes."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self._lock = threading.Lock()
        self._seen: tuple[int, int] | None = None
        self._listing: dict[str, Any] = {}

    def listing(self) -> dict[str, Any]:
        """{"manifest": 1, "written_by": VERSION, "files": [...]} of the folder now."""
        try:
            status = self.directory.stat()
            seen = (status.st_mtime_ns, status.st_ino)
        except OSError:
            seen = None
        with self._lock:
            if seen is None or seen != self._seen:
                self._listing = {"manifest": MANIFEST_VERSION, "written_by": __version__,
                                 "files": table_entries(self.directory)}
                self._seen = seen
            return self._listing


def table_entries(directory: Path) -> list[dict[str, Any]]:
    """The entry of every table file of the folder with a sound header, sorted by name."""
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return []
    entries = []
    for name in names:
        found = TABLE_NAME.fullmatch(name)
        if found is None:
            continue
        size, mover, opponent = map(int, found.groups())
        if mover + opponent > size * size:
            continue
        path = directory / name
        try:
            header = files.read_header(path, (size, mover, opponent))
        except (TablebaseError, OSError) as error:
            log.warning("not listed: %s", error)
            continue
        entries.append({"name": name, "bytes": header.file_bytes, "format": files.VERSION,
                        "size": size, "mover": mover, "opponent": opponent,
                        "win": header.wins, "draw": header.draws, "loss": header.losses})
    return entries
