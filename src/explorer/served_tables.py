"""The tables the server serves: `GET /api/v1/tables`, a manifest of them (SPEC "Tables on
the web"), and the check of all of them at start-up (`quixo serve --check-tables`).

The listing is made from the table files' checked headers (name, bytes, format, size, mover,
opponent and the class counts), not from their contents: it lists a big folder in
milliseconds and never reads a file whole, so it carries no SHA-256 (the mirror's
`/tables/MANIFEST.json`, tables.py, hashes the files, which takes minutes on a big folder:
a remote tablebase asks this listing, and a download that one). It is
made again when the folder changes (a table added while the server runs); a file whose header
does not check out is left out.

`check_all_tables` reads every block of every table once and checks it against its checksum,
on a thread while the server serves: a damaged table is reported at once rather than when a
user first meets it, and every probe after it is as fast as on a table in use for hours (the
first probe of a block otherwise checks it first, and maps its pages: measured with
benchmarks/tablebase_service_load.py, most of a fresh server's time on random positions).
"""
from __future__ import annotations

import logging
import threading
import time
from pathlib import Path
from typing import Any

from quixo_solver.tablebase import Tablebase, TablebaseError, manifest
from solverkit.version import __version__

log = logging.getLogger("explorer")


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
                self._listing = {"manifest": manifest.MANIFEST_VERSION, "written_by": __version__,
                                 "files": table_entries(self.directory)}
                self._seen = seen
            return self._listing


def table_entries(directory: Path) -> list[dict[str, Any]]:
    """The entry of every table file of the folder with a sound header, sorted by name (the
    manifest's fields but its SHA-256)."""
    try:
        found = manifest.table_files(directory)
    except (TablebaseError, OSError):
        return []
    entries = []
    for path, (size, mover, opponent) in found:
        try:
            version, header, length = manifest.header_counts(path, (size, mover, opponent))
        except (TablebaseError, OSError) as error:
            log.warning("not listed: %s", error)
            continue
        entries.append({"name": path.name, "bytes": length, "format": version,
                        "size": size, "mover": mover, "opponent": opponent,
                        "win": header.wins, "draw": header.draws, "loss": header.losses})
    return entries


def check_all_tables(tablebase: Tablebase, stop: threading.Event,
                     done: threading.Event, check: bool = True) -> None:
    """Check every block of every table of the tablebase's folder (smallest first), until
    done (then `done` is set) or `stop` is set; what it finds goes to the log. Without
    `check`, each table is only opened (its index made once: the server's processes, forked
    after, share it)."""
    started = time.perf_counter()
    checked = damaged = 0
    for entry in sorted(table_entries(tablebase.directory), key=lambda row: row["bytes"]):
        if stop.is_set():
            return
        try:
            table = tablebase.table(entry["size"], entry["mover"], entry["opponent"])
            if check:
                table.check_all()
            checked += entry["bytes"]
        except (TablebaseError, OSError) as error:
            damaged += 1
            log.error("damaged table: %s", error)
    done.set()
    if check:
        log.warning("checked the tables in %s: %.1f GB in %.1f s%s", tablebase.directory,
                    checked / 1e9, time.perf_counter() - started,
                    f", {damaged} damaged" if damaged else "")
