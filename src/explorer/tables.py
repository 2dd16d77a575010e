"""`/tables/`: the server's tables folder as a mirror (SPEC "Tables on the web"), so that
`quixo tablebase download http://HOST:PORT/tables` copies it.

- `/tables/MANIFEST.json` is the manifest of the folder as it is now: the table files are
  listed on every request, and a file is hashed only when it is new or has changed (its
  size, modification or change time or inode differ from when it was hashed). The folder's
  own MANIFEST.json, written by `quixo tablebase manifest`, is taken for the files neither
  modified nor changed since it was written, so a big folder is not hashed again at
  start-up. A file whose header does
  not check out is left out (and logged).
- `/tables/<name>` is a table file, with Range requests (206, 416), ETag and Last-Modified.
  Only a table file's name (quixoNxN-AA-BB.qtb: no folder, no dots) reaches a file, only in
  the folder, and only if the file's header checks out: nothing else of the machine can be
  asked for. (A link in the folder is followed: a folder of links to the tables of another
  folder is a mirror too.)
- The tables shipped with the package (SPEC "Tables in the install") are served and listed
  as well, for the classes the folder lacks: a class in both is the folder's.
"""
from __future__ import annotations

import logging
import os
import threading
from pathlib import Path

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from quixo_solver.tablebase import TablebaseError
from quixo_solver.tablebase.web import manifest
from quixo_solver.tablebase.web.manifest import ManifestEntry
from solverkit.commandline import error_line
from solverkit.messages import cut
from solverkit.version import __version__

log = logging.getLogger("explorer")
FileKey = tuple[int, int, int, int, int]  # size, modified, changed (ns), inode, device


def file_key(path: Path) -> FileKey | None:
    try:
        found = path.stat()
    except OSError:
        return None
    return (found.st_size, found.st_mtime_ns, found.st_ctime_ns, found.st_ino, found.st_dev)


class TableFolder:
    """The manifest and the files of one tables folder, for the routes under `/tables/`."""

    def __init__(self, directory: Path, shipped: Path | None = None) -> None:
        self.directory = Path(directory)
        self.shipped = shipped
        self.hashed: dict[str, tuple[FileKey, ManifestEntry]] = {}      # by path
        self.reported: set[tuple[str, FileKey | None]] = set()
        self.lock = threading.Lock()
        self.seeded = False

    def routes(self) -> list[BaseRoute]:
        return [Route("/tables/" + manifest.MANIFEST_NAME, self.manifest_response),
                Route("/tables/{name}", self.file_response)]

    def seed(self) -> None:
        """Take the entries of the folder's own MANIFEST.json for the files of the length it
        says, neither modified nor changed (renamed, copied in) since it was written."""
        self.seeded = True
        path = self.directory / manifest.MANIFEST_NAME
        stamp = file_key(path)
        if stamp is None:
            return
        try:
            written = manifest.read_manifest(path)
        except TablebaseError as error:
            log.warning("tables: %s is not used: %s", path, error)
            return
        for entry in written.files:
            key = file_key(self.directory / entry.name)
            if key is not None and key[0] == entry.bytes and max(key[1], key[2]) <= stamp[1]:
                self.hashed[str(self.directory / entry.name)] = (key, entry)

    def known(self, path: Path) -> ManifestEntry | None:
        found = self.hashed.get(str(path))
        return found[1] if found is not None and found[0] == file_key(path) else None

    def damaged(self, path: Path, error: TablebaseError) -> None:
        report = (path.name, file_key(path))
        if report not in self.reported:
            self.reported.add(report)
            log.warning("tables: %s is left out of the manifest: %s", path.name, error)

    def manifest_bytes(self) -> bytes:
        """The manifest of the folder and the shipped tables now (see the module);
        TablebaseError if there is no folder and nothing is shipped."""
        with self.lock:
            if not self.seeded:
                self.seed()
            keys = {}
            entries: dict[str, ManifestEntry] = {}
            folders = [self.shipped] if self.shipped is not None and self.shipped.is_dir() else []
            if self.directory.is_dir() or not folders:  # (no folder, nothing shipped: its error)
                folders.append(self.directory)           # the folder's own last: it wins
            for folder in folders:
                current = manifest.folder_manifest(  # (a shipped file the folder has: not)
                    folder, jobs=1, known=self.known, damaged=self.damaged,
                    keep=lambda path: self.path_of(path.name) == path)
                for entry in current.files:
                    key = file_key(folder / entry.name)
                    if key is not None:
                        keys[str(folder / entry.name)] = (key, entry)
                        entries[entry.name] = entry
            self.hashed = keys
            return manifest.Manifest(__version__, tuple(
                entries[name] for name in sorted(entries))).to_bytes()

    async def manifest_response(self, request: Request) -> Response:
        try:
            body = await run_in_threadpool(self.manifest_bytes)
        except (TablebaseError, OSError) as error:     # the server's folder: its fault
            return JSONResponse({"error": error_line(error)}, 503)
        return Response(body, headers={"Cache-Control": "no-cache"},
                        media_type="application/json")

    def is_table(self, name: str) -> bool:
        """Whether `name` is a table file of the folder whose header checks out (a link the
        server's keeper put in the folder is followed: what it names must be a table)."""
        table_class = manifest.class_of_name(name)
        path = self.path_of(name)
        if table_class is None or path is None:
            return False
        try:
            manifest.header_counts(path, table_class)
        except TablebaseError:
            return False
        return True

    def path_of(self, name: str) -> Path | None:
        """The file of a name: the folder's, else the shipped one (None: neither has it)."""
        for folder in (self.directory, self.shipped):
            if folder is not None and os.path.isfile(folder / name):
                return folder / name
        return None

    async def file_response(self, request: Request) -> Response:
        name = request.path_params["name"]
        if not await run_in_threadpool(self.is_table, name):
            return JSONResponse({"error": f"no table file {cut(name)!r} here (the files are "
                                          "listed in /tables/MANIFEST.json)"}, 404)
        path = self.path_of(name)
        assert path is not None                     # (is_table found it)
        return FileResponse(path, media_type="application/octet-stream",
                            headers={"Cache-Control": "no-cache"})
