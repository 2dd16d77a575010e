"""What both command lines and both packages' errors need: echoing a user's input in a message
without quoting 131 KB of it, and leaving quietly when the reader of stdout has gone."""
from __future__ import annotations

import os
import sys

SHOWN = 60      # characters of a user's input quoted in a message


def cut(text: str, limit: int = SHOWN) -> str:
    """`text` cut to about `limit` characters (`...` marks a cut)."""
    return text if len(text) <= limit else text[:limit] + "..."


def clip(value: object, limit: int = SHOWN) -> str:
    """`repr(value)` cut to about `limit` characters, for messages that echo input."""
    try:
        text = repr(value)
    except Exception:                     # a huge int (Python refuses its repr), a bad __repr__
        text = f"<{type(value).__name__}>"
    return cut(text, limit)


def cut_path(path: object, limit: int = 2 * SHOWN) -> str:
    """A path for a message: whole up to `limit` characters, else its start and its end (the
    end names the file)."""
    text = str(path)
    if len(text) <= limit:
        return text
    return text[:limit // 3] + "..." + text[-(limit - limit // 3):]


def silence_stdout() -> None:
    """After a broken pipe (`quixo ... | head -1`): point stdout at /dev/null, so that Python's
    own flush at exit does not fail again; the command then exits 0 with no message, as the
    standard tools do."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, sys.stdout.fileno())
        finally:
            os.close(devnull)
    except (OSError, ValueError, AttributeError):   # stdout is not a real file (tests)
        pass
