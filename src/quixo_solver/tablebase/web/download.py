"""`quixo tablebase download`: a folder of tables fetched from a mirror (SPEC "Tables on the
web": any HTTP server that serves `BASE/MANIFEST.json` and `BASE/<name>`).

What a user can count on:
- A file takes its table's name only once it checks out: its length, its SHA-256 and its
  counts are the manifest's, and its own header and block checksums hold
  (manifest.mismatch). Until then it is `NAME.download` beside it, which no reader opens.
- An interrupted or failed transfer resumes where it stopped (a Range request), in this run
  after a pause or in the next run. A server that ignores Range sends the whole file again.
- Transient faults (a cut connection, a silent server past `timeout`, 408/425/429/5xx) are
  retried with exponential backoff, or after the server's Retry-After. A file whose bytes do
  not match is fetched once more from the start, then refused; a manifest that does not check
  out, a 404, a full disk are refused at once. A refusal is one line (DownloadError or
  ManifestError); the files already checked are kept, and the next run goes on from there.
- Files already present and matching the manifest are kept (checked, not fetched).
"""
from __future__ import annotations

import hashlib
import http.client
import os
import queue
import re
import shutil
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from io import BufferedRandom
from pathlib import Path
from typing import Callable

from solverkit.arrayfile import sync_folder
from solverkit.messages import cut, cut_path
from solverkit.progress import ByteProgress

from ... import limits
from ..format import files
from . import manifest
from ..errors import TablebaseError
from .http import (TRANSIENT_STATUS, USER_AGENT, Retries, Transient, http_url,
                   retry_after)
from .http import Stopped as StoppedAttempts
from .manifest import Manifest, ManifestEntry, ManifestError

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no lock against a second download
    fcntl = None  # type: ignore[assignment]

PARTIAL_SUFFIX = ".download"         # a file being fetched: NAME.download
READ_BYTES = 1 << 20                 # bytes per read from the connection
CONTENT_RANGE = re.compile(r"bytes (\d+)-(\d+)/(\d+|\*)")


class DownloadError(TablebaseError):
    """A download that could not finish (the server, the network or the local disk); the
    files already checked are kept."""


class LocalWriteError(DownloadError):
    """The folder cannot take a file (a full disk, a file size limit, no permission)."""


class Stopped(DownloadError):
    """A transfer stopped because the download as a whole is ending."""


@dataclass(frozen=True)
class DownloadSettings:
    """`jobs`: files fetched at once; `timeout`: seconds a connection may stay silent;
    `attempts`: tries of one file (or the manifest) through transient faults; `backoff`: the
    first pause, doubled at each attempt (up to http.MAX_BACKOFF, with jitter); `max_retry_after`:
    the longest Retry-After waited for (a longer one ends the download: run it again later).
    A bad number raises LimitError."""
    jobs: int = 4
    timeout: float = 30.0
    attempts: int = 8
    backoff: float = 1.0
    max_retry_after: float = 300.0

    def __post_init__(self) -> None:
        limits.whole_number("jobs", self.jobs, 1, 64)
        limits.whole_number("attempts", self.attempts, 1, 1000)
        for name in ("timeout", "backoff", "max_retry_after"):
            limits.check_seconds(name, getattr(self, name))


@dataclass
class DownloadReport:
    base: str
    directory: Path
    files: int                      # the files the manifest lists for the selection
    bytes: int                      # ... and their bytes
    fetched: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    seconds: float = 0.0


class BadBytes(Exception):
    """The server sent bytes that are not the manifest's file: start that file over."""


class DiskFault(Exception):
    """Writing or reading NAME.download failed (`error`): no attempt can help."""

    def __init__(self, error: OSError) -> None:
        super().__init__(str(error))
        self.error = error


def check_base(base: object) -> str:
    """The mirror's base URL without its trailing slash; DownloadError unless http(s)."""
    return urllib.parse.urlunsplit(http_url(base, "a mirror", DownloadError)).rstrip("/")


class Mirror:
    """GET requests to one mirror, each fault sorted into Transient or DownloadError."""

    def __init__(self, base: str, settings: DownloadSettings) -> None:
        self.base = check_base(base)
        self.settings = settings
        self.opener = urllib.request.build_opener()

    def url(self, name: str) -> str:
        return f"{self.base}/{urllib.parse.quote(name)}"

    def open(self, name: str, start: int = 0) -> http.client.HTTPResponse:
        headers = {"User-Agent": USER_AGENT, "Accept-Encoding": "identity"}
        if start:
            headers["Range"] = f"bytes={start}-"
        request = urllib.request.Request(self.url(name), headers=headers)
        try:
            response = self.opener.open(request, timeout=self.settings.timeout)
        except urllib.error.HTTPError as error:
            error.close()
            if error.code in TRANSIENT_STATUS:
                raise Transient(f"HTTP {error.code} {error.reason}",
                                retry_after(error.headers.get("Retry-After"))) from None
            if error.code == 416:
                raise BadBytes(f"the server's file is shorter than the {start} bytes "
                               "already fetched") from None
            raise DownloadError(f"{self.url(name)}: HTTP {error.code} {error.reason}") from None
        except urllib.error.URLError as error:
            # a refused connection, an unknown host (the network may be coming back): worth
            # a few attempts like any other fault of the network
            reason = getattr(error.reason, "strerror", None) or error.reason
            raise Transient(f"cannot reach {self.base}: {reason}") from None
        except (OSError, http.client.HTTPException) as error:
            raise Transient(f"{type(error).__name__}: {error}") from None
        assert isinstance(response, http.client.HTTPResponse)
        return response

    def attempts(self, what: str, attempt: Callable[[], object],
                 stopping: threading.Event | None = None) -> None:
        """Run `attempt()` until it returns, pausing after each Transient (backoff or the
        server's Retry-After: http.Retries); DownloadError after the last attempt."""
        settings = self.settings

        def give_up(fault: Transient, waited_too_long: bool) -> DownloadError:
            if waited_too_long:
                return DownloadError(f"{what}: the server asks to come back in "
                                     f"{fault.retry_after:.0f} s; run again later")
            return DownloadError(f"{what}: {fault} (after {settings.attempts} attempts)")

        retries = Retries(settings.attempts, settings.backoff, settings.max_retry_after)
        try:
            retries.run(attempt, give_up, stopping)
        except StoppedAttempts:
            raise Stopped(f"{what}: stopped") from None

    def fetch_manifest(self) -> Manifest:
        found: list[Manifest] = []
        source = f"{self.base}/{manifest.MANIFEST_NAME}"

        def attempt() -> None:
            try:
                with self.open(manifest.MANIFEST_NAME) as response:
                    raw = response.read(manifest.MAX_MANIFEST_BYTES + 1)
            except (OSError, http.client.HTTPException) as error:
                raise Transient(f"{type(error).__name__}: {error}") from None
            except BadBytes as error:
                raise DownloadError(f"{source}: {error}") from None
            found.append(manifest.parse_manifest(raw, source))

        self.attempts(source, attempt)
        return found[0]


class Transfer:
    """One file from the mirror into NAME.download, then under its name once it checks
    out."""

    def __init__(self, mirror: Mirror, directory: Path, entry: ManifestEntry,
                 progress: Callable[[int], None], stopping: threading.Event) -> None:
        self.mirror = mirror
        self.entry = entry
        self.final = directory / entry.name
        self.partial = directory / (entry.name + PARTIAL_SUFFIX)
        self.progress = progress
        self.stopping = stopping
        self.counted = 0           # bytes of this file told to `progress` so far
        self.digest = hashlib.sha256()

    def run(self) -> None:
        """Fetch and check the file: ManifestError if its bytes do not check out twice (or
        the manifest's own bytes fail the file's checks), DownloadError on a fault that
        outlasts the attempts, LocalWriteError if the folder cannot take it."""
        entry = self.entry
        what = f"{entry.name} from {self.mirror.base}"
        try:
            with open(self.partial, "a+b") as handle:   # appends, wherever it has read
                self.lock(handle)
                reason = self.fetch(handle, what)
                if reason is None:
                    os.replace(self.partial, self.final)
                    sync_folder(self.final.parent)
                    return
            self.partial.unlink(missing_ok=True)
        except OSError as error:
            raise LocalWriteError(f"cannot write {cut_path(self.partial)}: "
                                  f"{error.strerror or error}") from None
        self.progress(-self.counted)
        raise ManifestError(f"{what} does not match the manifest: {reason}; refused")

    def lock(self, handle: BufferedRandom) -> None:
        if fcntl is None:
            return
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise DownloadError(f"another download is fetching {self.entry.name} into "
                                f"{self.final.parent}") from None

    def fetch(self, handle: BufferedRandom, what: str) -> str | None:
        """Bring NAME.download to the manifest's file: None once it checks out, else why
        not (after a second try from the start)."""
        reason = None
        for fresh_start in (False, True):
            if fresh_start:
                self.restart(handle)
            try:
                self.mirror.attempts(what, lambda: self.attempt(handle), self.stopping)
            except BadBytes as error:
                reason = str(error)
                continue
            except DiskFault as fault:
                raise fault.error from None
            handle.flush()
            if self.digest.hexdigest() != self.entry.sha256:
                reason = "its SHA-256 is not the manifest's"
                continue
            # the manifest's own bytes: if they fail the file's checks, another copy cannot
            # help
            return manifest.mismatch(self.partial, self.entry, digest=self.entry.sha256)
        return reason

    def restart(self, handle: BufferedRandom) -> None:
        handle.truncate(0)
        self.digest = hashlib.sha256()
        self.progress(-self.counted)
        self.counted = 0

    def attempt(self, handle: BufferedRandom) -> None:
        """One request: the rest of the file after what NAME.download holds."""
        expected = self.entry.bytes
        have = handle.seek(0, os.SEEK_END)
        if have > expected:
            self.restart(handle)
            have = 0
        if have == expected:
            self.rehash(handle, have)
            return
        try:
            with self.mirror.open(self.entry.name, have) as response:
                if response.status == 206:
                    self.check_range(response.headers.get("Content-Range", ""), have)
                elif response.status == 200:
                    if have:                 # the server ignores Range: the whole file again
                        self.restart(handle)
                        have = 0
                else:
                    raise DownloadError(f"{self.mirror.url(self.entry.name)}: HTTP "
                                        f"{response.status} {response.reason}")
                length = response.headers.get("Content-Length")
                if length is not None and length.isdigit() and int(length) != expected - have:
                    raise BadBytes(f"the server sends {int(length) + have} bytes, the "
                                   f"manifest says {expected}")
                self.rehash(handle, have)
                self.copy(response, handle, have)
        except (OSError, http.client.HTTPException) as error:   # the network's, not the disk's
            raise Transient(f"the connection failed ({type(error).__name__}: "
                            f"{cut(str(error) or 'closed')})") from None

    def check_range(self, content_range: str, have: int) -> None:
        found = CONTENT_RANGE.fullmatch(content_range.strip())
        if found is None or int(found.group(1)) != have:
            raise BadBytes(f"the server answered a range request with "
                           f"{cut(content_range)!r}")
        total = found.group(3)
        if total != "*" and int(total) != self.entry.bytes:
            raise BadBytes(f"the server has {total} bytes, the manifest says "
                           f"{self.entry.bytes}")

    def rehash(self, handle: BufferedRandom, have: int) -> None:
        """The digest of the first `have` bytes already fetched (read back)."""
        self.digest = hashlib.sha256()
        buffer = bytearray(manifest.HASH_BUFFER)
        view = memoryview(buffer)
        try:
            handle.seek(0)
            left = have
            while left:
                count = handle.readinto(view[:min(left, len(buffer))])
                if not count:
                    raise OSError(0, "the partial file shrank while it was read")
                self.digest.update(view[:count])
                left -= count
        except OSError as error:
            raise DiskFault(error) from None
        if have != self.counted:
            self.progress(have - self.counted)
            self.counted = have

    def copy(self, response: http.client.HTTPResponse, handle: BufferedRandom, have: int) -> None:
        expected = self.entry.bytes
        while have < expected:
            if self.stopping.is_set():
                raise Stopped(f"{self.entry.name}: stopped")
            # what one read of the socket brings (read1): what came before a stall is kept
            chunk = response.read1(READ_BYTES)
            count = len(chunk)
            if not count:
                raise Transient(f"the connection closed after {have} of {expected} bytes")
            if have + count > expected:
                raise BadBytes(f"the server sends more than the manifest's {expected} bytes")
            try:
                handle.write(chunk)
            except OSError as error:
                raise DiskFault(error) from None
            self.digest.update(chunk)
            have += count
            self.counted += count
            self.progress(count)
        if response.read(1):
            raise BadBytes(f"the server sends more than the manifest's {expected} bytes")
        try:
            handle.flush()
            os.fsync(handle.fileno())
        except OSError as error:
            raise DiskFault(error) from None


def download(base: str, directory: str | os.PathLike[str], size: int | None = None,
             max_blanks: int | None = None, settings: DownloadSettings | None = None,
             show_progress: bool | None = None) -> DownloadReport:
    """Fetch what the mirror's manifest lists (board `size`, classes up to `max_blanks`
    blanks; None: all) into `directory` (see the module)."""
    settings = settings or DownloadSettings()
    started = time.monotonic()
    mirror = Mirror(base, settings)
    folder = files.folder_to_write(directory)
    entries = mirror.fetch_manifest().select(size, max_blanks)
    report = DownloadReport(mirror.base, folder, len(entries), sum(e.bytes for e in entries))
    check_space(folder, entries)
    bar = ByteProgress(report.bytes, enabled=show_progress)
    work: queue.SimpleQueue[ManifestEntry] = queue.SimpleQueue()
    for entry in entries:
        work.put(entry)
    stopping = threading.Event()
    failures: list[Exception] = []
    lock = threading.Lock()

    def worker() -> None:
        while not stopping.is_set():
            try:
                entry = work.get_nowait()
            except queue.Empty:
                return
            try:
                kept = take_in(mirror, folder, entry, bar, stopping)
            except Stopped:
                return
            except Exception as error:       # reported by the main thread, one line
                with lock:
                    failures.append(error)
                if isinstance(error, LocalWriteError):
                    stopping.set()           # a full disk: every other file would fail too
                continue
            with lock:
                (report.kept if kept else report.fetched).append(entry.name)

    threads = [threading.Thread(target=worker, daemon=True, name=f"download-{number}")
               for number in range(min(settings.jobs, max(len(entries), 1)))]
    for thread in threads:
        thread.start()
    try:
        for thread in threads:
            while thread.is_alive():
                thread.join(0.2)
    except BaseException:
        stopping.set()        # Ctrl-C: the threads stop at their next read; nothing half
        raise                 # written takes a table's name
    finally:
        bar.close()
    report.fetched.sort()
    report.kept.sort()
    report.seconds = time.monotonic() - started
    if failures:
        first = failures[0]
        others = f" ({len(failures) - 1} more files failed too)" if len(failures) > 1 else ""
        done = len(report.fetched) + len(report.kept)
        message = f"{first}{others}; {done} of {len(entries)} files are in {folder}, checked"
        if isinstance(first, ManifestError):
            raise ManifestError(message)
        if isinstance(first, TablebaseError):
            raise type(first)(message + "; run again to resume")
        raise DownloadError(f"internal error: {type(first).__name__}: {message}")
    return report


def take_in(mirror: Mirror, folder: Path, entry: ManifestEntry, progress: Callable[[int], None],
            stopping: threading.Event) -> bool:
    """True if the folder already holds the entry's file intact (kept), else fetch it."""
    path = folder / entry.name
    if path.is_file() and path.stat().st_size == entry.bytes and \
            manifest.mismatch(path, entry) is None:
        progress(entry.bytes)
        return True
    Transfer(mirror, folder, entry, progress, stopping).run()
    return False


def check_space(folder: Path, entries: list[ManifestEntry]) -> None:
    """Refuse a download the disk cannot hold, before any byte is fetched."""
    needed = 0
    for entry in entries:
        path = folder / entry.name
        if path.is_file() and path.stat().st_size == entry.bytes:
            continue
        partial = folder / (entry.name + PARTIAL_SUFFIX)
        have = partial.stat().st_size if partial.is_file() else 0
        needed += max(0, entry.bytes - have)
    free = shutil.disk_usage(folder).free
    if needed > free:
        raise DownloadError(f"the files need {needed / 1e6:,.1f} MB more and {folder} has "
                            f"{free / 1e6:,.1f} MB free")
