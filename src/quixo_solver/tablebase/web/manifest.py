"""The manifest of a folder of tables, MANIFEST.json (SPEC "Tables on the web"): every table
file of the folder, of every board size, sorted by name, with its bytes, SHA-256, format and
class counts, so that anyone who builds or downloads the tables can check theirs against it.

The class counts come from each file's header (checked: magic, version, class, length and the
header's own checksums), so a manifest of a big folder costs one SHA-256 pass over each file
and no decoding; the files are hashed side by side on threads (hashlib lets go of the GIL).
The block checksums are checked where a file is taken in (`check_file`: a download), and its
values by `quixo tablebase verify`.

A manifest read from anywhere (a file, a mirror) is checked field by field before it is used:
`parse_manifest` refuses a malformed one with a ManifestError naming the problem. In
particular a name is always the table name of its class (no folder, no dots), so a manifest
cannot make anyone write outside their folder.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solverkit.arrayfile import write_atomically
from solverkit.messages import clip, cut
from solverkit.version import __version__

from ... import limits
from ...rules.geometry import SIZES
from ..format import files, format3
from ..format._index import class_size
from ..errors import CorruptTableError, OldFormatError, TablebaseError

MANIFEST_NAME = "MANIFEST.json"
MANIFEST_VERSION = 1
FORMATS = (format3.VERSION, files.VERSION)
TABLE_NAME = re.compile(r"quixo([345])x\1-(\d\d)-(\d\d)\.qtb")
HASH_BUFFER = 1 << 22            # bytes per read while hashing (4 MiB: a few calls per file)
MAX_MANIFEST_BYTES = 1 << 24     # a manifest is a few hundred entries: 16 MiB is far beyond
FIELDS = ("name", "bytes", "sha256", "format", "size", "mover", "opponent", "win", "draw",
          "loss")
SHA256 = re.compile(r"[0-9a-f]{64}")


class ManifestError(TablebaseError):
    """A manifest that is malformed, or a file that does not match its manifest."""


@dataclass(frozen=True)
class ManifestEntry:
    """One table file as the manifest lists it (the SPEC's fields)."""
    name: str
    bytes: int
    sha256: str
    format: int
    size: int
    mover: int
    opponent: int
    win: int
    draw: int
    loss: int

    @property
    def blanks(self) -> int:
        return self.size * self.size - self.mover - self.opponent

    @property
    def table_class(self) -> tuple[int, int, int]:
        return (self.size, self.mover, self.opponent)

    def to_json(self) -> dict[str, Any]:
        return {field: getattr(self, field) for field in FIELDS}


@dataclass(frozen=True)
class Manifest:
    written_by: str
    files: tuple[ManifestEntry, ...]

    def to_json(self) -> dict[str, Any]:
        return {"manifest": MANIFEST_VERSION, "written_by": self.written_by,
                "files": [entry.to_json() for entry in self.files]}

    def to_bytes(self) -> bytes:
        """The manifest as MANIFEST.json holds it: one file a line (people read it too, and
        compare two of them line by line)."""
        lines = ",\n".join(json.dumps(entry.to_json()) for entry in self.files)
        head = json.dumps({"manifest": MANIFEST_VERSION, "written_by": self.written_by})[:-1]
        return (f'{head}, "files": [' + (f"\n{lines}\n" if lines else "") + "]}\n").encode()

    def select(self, size: int | None = None, max_blanks: int | None = None
               ) -> list[ManifestEntry]:
        """The entries of board `size` (None: every size) with at most `max_blanks` blanks."""
        return [entry for entry in self.files
                if (size is None or entry.size == size)
                and (max_blanks is None or entry.blanks <= max_blanks)]


def class_of_name(name: str) -> tuple[int, int, int] | None:
    """(size, mover, opponent) of a table file's name, None for any other name."""
    found = TABLE_NAME.fullmatch(name)
    if found is None:
        return None
    size, mover, opponent = map(int, found.groups())
    if mover + opponent > size * size or files.table_name(size, mover, opponent) != name:
        return None
    return size, mover, opponent


def table_files(directory: str | os.PathLike[str]) -> list[tuple[Path, tuple[int, int, int]]]:
    """(path, class) of every table file of the folder, sorted by name (temporary files,
    locks and anything else are not table files)."""
    folder = files.folder_to_read(directory)
    found = []
    for path in folder.iterdir():
        table_class = class_of_name(path.name)
        if table_class is not None and path.is_file():
            found.append((path, table_class))
    return sorted(found, key=lambda item: item[0].name)


def file_sha256(path: Path, buffer_bytes: int = HASH_BUFFER) -> str:
    """The SHA-256 of a file, read in large pieces into one buffer."""
    digest = hashlib.sha256()
    buffer = bytearray(buffer_bytes)
    view = memoryview(buffer)
    try:
        with open(path, "rb", buffering=0) as handle:
            while True:
                count = handle.readinto(buffer)
                if not count:
                    break
                digest.update(view[:count])
    except OSError as error:
        raise TablebaseError(f"cannot read {path}: {error.strerror}") from error
    return digest.hexdigest()


def header_counts(path: Path, table_class: tuple[int, int, int]) -> tuple[int, files.ClassCounts,
                                                                          int]:
    """(format, the checked header's counts, the length the header says) of a table file;
    CorruptTableError naming the file if its header does not check out."""
    version = files.file_version(path)
    if version == files.VERSION:
        header4 = files.read_header(path, table_class)
        return version, header4, header4.file_bytes
    if version == format3.VERSION:
        try:
            header3 = format3.read_header(path, table_class)
        except OSError as error:
            raise TablebaseError(f"cannot read table {path}: {error.strerror}") from error
        return version, header3, header3.file_bytes
    raise OldFormatError(f"{path} has format version {version}, which no manifest lists "
                         f"(formats {', '.join(map(str, FORMATS))})")


def describe_file(path: Path, table_class: tuple[int, int, int]) -> ManifestEntry:
    """The manifest entry of one table file: its header checked, its bytes hashed."""
    version, header, length = header_counts(path, table_class)
    digest = file_sha256(path)
    actual = path.stat().st_size
    if actual != length:
        raise CorruptTableError(f"{path} changed while it was hashed")
    size, mover, opponent = table_class
    return ManifestEntry(path.name, actual, digest, version, size, mover, opponent,
                         header.wins, header.draws, header.losses)


def folder_manifest(directory: str | os.PathLike[str], jobs: int = 0,
                    hashed: Callable[[int], None] | None = None,
                    known: Callable[[Path], ManifestEntry | None] | None = None,
                    damaged: Callable[[Path, TablebaseError], None] | None = None,
                    keep: Callable[[Path], bool] | None = None) -> Manifest:
    """The manifest of every table file of the folder, `jobs` files hashed at once (0: one per
    core); `hashed(bytes)` is told of each file done (a progress bar). `known(path)` may give
    an entry already made for that file (a server's cache), which is then taken as is. A file
    whose header does not check out raises its error, or with `damaged(path, error)` is told
    to it and left out (a server goes on serving the rest). `keep(path)`, if given, picks
    the files to list."""
    jobs = limits.check_threads(jobs, "jobs")
    found = [item for item in table_files(directory) if keep is None or keep(item[0])]

    def entry_of(item: tuple[Path, tuple[int, int, int]]) -> ManifestEntry | None:
        path, table_class = item
        entry = known(path) if known is not None else None
        if entry is None:
            try:
                entry = describe_file(path, table_class)
            except TablebaseError as error:
                if damaged is None:
                    raise
                damaged(path, error)
                return None
        if hashed is not None:
            hashed(entry.bytes)
        return entry

    if jobs == 1 or len(found) < 2:
        entries = [entry_of(item) for item in found]
    else:
        with ThreadPoolExecutor(min(jobs, len(found))) as pool:
            entries = list(pool.map(entry_of, found))
    return Manifest(__version__, tuple(entry for entry in entries if entry is not None))


def write_manifest(directory: str | os.PathLike[str], manifest: Manifest) -> Path:
    """DIR/MANIFEST.json, written atomically."""
    return write_atomically(files.folder_to_write(directory) / MANIFEST_NAME,
                            [manifest.to_bytes()])


# -- reading a manifest ----------------------------------------------------------------------

def _whole(value: object, what: str, low: int = 0, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (
            high is not None and value > high):
        bound = f"{low}..{high}" if high is not None else f"{low} or more"
        raise ManifestError(f"{what} must be a whole number {bound}, not {clip(value)}")
    return value


def parse_entry(raw: object, where: str) -> ManifestEntry:
    """One entry of a manifest's "files", every field checked."""
    if not isinstance(raw, dict):
        raise ManifestError(f"{where} is not an object but {clip(raw)}")
    missing = [field for field in FIELDS if field not in raw]
    if missing:
        raise ManifestError(f"{where} has no {', '.join(missing)}")
    name = raw["name"]
    if not isinstance(name, str) or class_of_name(name) is None:
        raise ManifestError(f"{where}: {clip(name)} is not the name of a table file")
    where = f"{where} ({name})"
    size = _whole(raw["size"], f"{where}: size", min(SIZES), max(SIZES))
    cells = size * size
    mover = _whole(raw["mover"], f"{where}: mover", 0, cells)
    opponent = _whole(raw["opponent"], f"{where}: opponent", 0, cells - mover)
    if class_of_name(name) != (size, mover, opponent):
        raise ManifestError(f"{where} is not the file of class ({mover}, {opponent}) of the "
                            f"{size}x{size} board")
    sha256 = raw["sha256"]
    if not isinstance(sha256, str) or SHA256.fullmatch(sha256) is None:
        raise ManifestError(f"{where}: sha256 must be 64 lowercase hex digits, not "
                            f"{clip(sha256)}")
    file_format = raw["format"]
    if file_format not in FORMATS or isinstance(file_format, bool):
        raise ManifestError(f"{where}: format must be one of "
                            f"{', '.join(map(str, FORMATS))}, not {clip(file_format)}")
    counts = [_whole(raw[field], f"{where}: {field}") for field in ("win", "draw", "loss")]
    positions = class_size(size, mover, opponent)
    if sum(counts) != positions:
        raise ManifestError(f"{where}: win + draw + loss is {sum(counts)}, but the class has "
                            f"{positions} raw positions")
    length = _whole(raw["bytes"], f"{where}: bytes", 1)
    return ManifestEntry(name, length, sha256, file_format, size, mover, opponent, *counts)


def parse_manifest(raw: bytes | str | dict[str, Any], source: str = "the manifest") -> Manifest:
    """A manifest from its JSON (bytes, text or the decoded object), checked; ManifestError
    naming the problem and `source` otherwise."""
    if isinstance(raw, (bytes, bytearray)):
        if len(raw) > MAX_MANIFEST_BYTES:
            raise ManifestError(f"{source} is larger than {MAX_MANIFEST_BYTES} bytes")
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ManifestError(f"{source} is not UTF-8 text") from None
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except (json.JSONDecodeError, RecursionError) as error:
            raise ManifestError(f"{source} is not JSON: {cut(str(error))}") from None
    if not isinstance(raw, dict):
        raise ManifestError(f"{source} is not a JSON object")
    if raw.get("manifest") != MANIFEST_VERSION or isinstance(raw.get("manifest"), bool):
        raise ManifestError(f"{source} is not a manifest of version {MANIFEST_VERSION} "
                            f"(its \"manifest\" is {clip(raw.get('manifest'))})")
    written_by = raw.get("written_by")
    if not isinstance(written_by, str) or not 0 < len(written_by) <= 100:
        raise ManifestError(f"{source}: written_by must be a version string, not "
                            f"{clip(written_by)}")
    listed = raw.get("files")
    if not isinstance(listed, list):
        raise ManifestError(f"{source} has no list of files")
    entries = tuple(parse_entry(item, f"{source}: file {number}")
                    for number, item in enumerate(listed, 1))
    names = [entry.name for entry in entries]
    if len(set(names)) != len(names):
        twice = sorted({name for name in names if names.count(name) > 1})[0]
        raise ManifestError(f"{source} lists {twice} twice")
    return Manifest(written_by, tuple(sorted(entries, key=lambda entry: entry.name)))


def read_manifest(path: str | os.PathLike[str]) -> Manifest:
    """The manifest in a file (MANIFEST.json), checked."""
    path = Path(path)
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_MANIFEST_BYTES + 1)
    except OSError as error:
        raise TablebaseError(f"cannot read the manifest {path}: {error.strerror}") from error
    return parse_manifest(raw, str(path))


# -- checking a file against its entry -------------------------------------------------------

def mismatch(path: Path, entry: ManifestEntry, *, digest: str | None = None,
             check_data: bool = True) -> str | None:
    """Why the file at `path` is not the table `entry` lists (its length, its SHA-256 (given
    as `digest` if already computed), its header, its counts, with `check_data` its block
    checksums), or None if it is."""
    try:
        actual = path.stat().st_size
    except OSError as error:
        return f"cannot read it: {error.strerror}"
    if actual != entry.bytes:
        return f"it has {actual} bytes, the manifest says {entry.bytes}"
    if (digest or file_sha256(path)) != entry.sha256:
        return "its SHA-256 is not the manifest's"
    try:
        version, header, _ = header_counts(path, entry.table_class)
        if version != entry.format:
            return f"it has format {version}, the manifest says {entry.format}"
        if (header.wins, header.draws, header.losses) != (entry.win, entry.draw, entry.loss):
            return "its win/draw/loss counts are not the manifest's"
        if check_data and version == files.VERSION:
            files.open_table(path, entry.table_class).check_all()
    except TablebaseError as error:
        return f"its own checks fail: {cut(str(error).replace(str(path), 'the file'), 120)}"
    return None
