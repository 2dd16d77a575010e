"""The tables the server serves: `GET /api/v1/tables`, their manifest (SPEC "Tables on the
web"), and the check of all of them at start-up (`quixo serve --check-tables`).

The listing is the manifest of `/tables/MANIFEST.json` (tables.py: every table file whose
header checks out, with its SHA-256): a file is hashed once, when it is new or has changed,
and the folder's own MANIFEST.json (`quixo tablebase manifest`) is taken for the files not
changed since it was written, so a big folder written with its manifest is listed at once
(without it, the first listing hashes every file: minutes on the whole 5x5 game). The listing
is kept until the folder changes (a table added while the server runs).

`check_all_tables` reads every block of every table once (the shipped ones too) and checks it
against its checksum, on a thread while the server serves: a damaged table is reported at once
rather than when a user first meets it, and every probe after it is as fast as on a table in
use for hours (the first probe of a block otherwise checks it first, and maps its pages:
measured with benchmarks/explorer/tablebase_service_load.py, most of a fresh server's time on
random positions).
"""
from __future__ import annotations

import json
import logging
import threading
import time
from typing import Any

from quixo_solver.tablebase import Tablebase, TablebaseError
from quixo_solver.tablebase.web import manifest
from solverkit.version import __version__

from .tables import TableFolder

log = logging.getLogger("explorer")


class ServedTables:
    """The listing of one folder, kept until the folder changes."""

    def __init__(self, folder: TableFolder) -> None:
        self.folder = folder
        self._lock = threading.Lock()
        self._seen: tuple[int, int] | None = None
        self._listing: dict[str, Any] = {}

    def listing(self) -> dict[str, Any]:
        """{"manifest": 1, "written_by": VERSION, "files": [...]} of the folder now."""
        try:
            status = self.folder.directory.stat()
            seen = (status.st_mtime_ns, status.st_ino)
        except OSError:
            seen = None
        with self._lock:
            if seen is None or seen != self._seen:
                try:
                    self._listing = json.loads(self.folder.manifest_bytes())
                except (TablebaseError, OSError):       # no folder: nothing served
                    self._listing = {"manifest": manifest.MANIFEST_VERSION,
                                     "written_by": __version__, "files": []}
                self._seen = seen
            return self._listing


def check_all_tables(tablebase: Tablebase, stop: threading.Event,
                     done: threading.Event, check: bool = True) -> None:
    """Check every block of every table of the tablebase's folder (smallest first), until
    done (then `done` is set) or `stop` is set; what it finds goes to the log. Without
    `check`, each table is only opened (its index made once: the server's processes, forked
    after, share it)."""
    started = time.perf_counter()
    checked = damaged = 0
    found = []
    shipped = [tablebase.shipped] if tablebase.shipped and tablebase.shipped.is_dir() else []
    for folder in [tablebase.directory, *shipped]:     # (a class in both: the folder's)
        try:
            found += [(path.stat().st_size, table_class)
                      for path, table_class in manifest.table_files(folder)
                      if tablebase.path(*table_class) == path]
        except (TablebaseError, OSError) as error:
            log.error("no tables in %s: %s", folder, error)
    for length, table_class in sorted(found):
        if stop.is_set():
            return
        try:
            table = tablebase.table(*table_class)
            if check:
                table.check_all()
            checked += length
        except (TablebaseError, OSError) as error:
            damaged += 1
            log.error("damaged table: %s", error)
    done.set()
    if check:
        log.warning("checked the tables in %s: %.1f GB in %.1f s%s", tablebase.directory,
                    checked / 1e9, time.perf_counter() - started,
                    f", {damaged} damaged" if damaged else "")
