"""HTTP caching of the answers that never change.

An exact answer (the tables', a finished game's, the rules') is the same for every request of
the same position, so it carries an ETag (a hash of its body) and a long `Cache-Control`:
browsers, proxies and other servers may keep it for EXACT_MAX_AGE and then revalidate it (a
request with If-None-Match is answered 304 without a body). It is kept encoded, with its
compressed body made once. An answer that depends on a search's limits is `no-store`, and one
that may change (the list of tables, a table not built yet) is `no-cache`.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from .public import GZIP_MIN_BYTES, accepts_gzip, compressed

EXACT_MAX_AGE = 30 * 24 * 3600
EXACT_CACHE = f"public, max-age={EXACT_MAX_AGE}"
NO_STORE = "no-store"
NO_CACHE = "no-cache"


@dataclass
class Encoded:
    """A JSON answer's body, its ETag and (made when first asked for) its gzip form."""

    body: bytes
    etag: str
    _gzipped: bytes | None = field(default=None, repr=False)

    @classmethod
    def of(cls, answer: dict[str, Any], compress: bool = False) -> "Encoded":
        """The answer encoded; `compress`: its gzip form made now too (on the thread that
        makes the answer, not on the event loop)."""
        body = json.dumps(answer).encode()
        encoded = cls(body, f'"{hashlib.sha256(body).hexdigest()[:24]}"')
        if compress and len(body) >= GZIP_MIN_BYTES:
            encoded.gzipped()
        return encoded

    def gzipped(self) -> bytes:
        if self._gzipped is None:
            self._gzipped = compressed(self.body)
        return self._gzipped


def etag_matches(header: str | None, etag: str) -> bool:
    """Whether an If-None-Match header names `etag` (weakly, as RFC 9110 compares for it)."""
    if not header:
        return False
    return any(tag.strip() in ("*", etag, "W/" + etag) for tag in header.split(","))


def cached_response(request: Request, answer: Encoded,
                    cache_control: str = EXACT_CACHE) -> Response:
    """The answer with its ETag and `cache_control`: 304 when the client has it, gzip when
    it takes it."""
    headers = {"ETag": answer.etag, "Cache-Control": cache_control,
               "Vary": "Accept-Encoding"}
    if etag_matches(request.headers.get("if-none-match"), answer.etag):
        return Response(status_code=304, headers=headers)
    body = answer.body
    if len(body) >= GZIP_MIN_BYTES and accepts_gzip(request.scope):
        body = answer.gzipped()
        headers["Content-Encoding"] = "gzip"
    return Response(body, 200, headers, media_type="application/json")
