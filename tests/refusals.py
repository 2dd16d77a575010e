"""How the tests check a refusal: bad input must raise the *named* error, with a message of
one short line; anything else (another exception, a traceback's worth of text) fails."""
from __future__ import annotations

from typing import Any, Callable

MESSAGE_LIMIT = 300


def returns_or_refuses(call: Callable[[], Any], *errors: type[BaseException]) -> Any:
    """`call()`'s value, or the error it raised if that is one of `errors` with a one-line
    message of fewer than MESSAGE_LIMIT characters (any other exception propagates)."""
    try:
        return call()
    except errors as error:
        assert_one_line(error)
        return error


def assert_one_line(error: BaseException) -> None:
    message = str(error)
    assert message and "\n" not in message and len(message) < MESSAGE_LIMIT, repr(message)
