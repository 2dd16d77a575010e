"""The frame both command lines (`quixo`, `qwixx`) run their commands in, and the argparse types
they share.

The contract a user sees, the same for both programs:
- exit status 0 on success, also when the reader of stdout went away (`quixo ... | head -1`);
- 2 on bad input or a file problem: exactly one line `PROG: error: MESSAGE` on stderr (the
  message with its newlines folded and its length bounded, the user's text in it cut), and
  nothing on stdout;
- 1 when a command reports a failure it has already printed (a verifier that found a
  mismatch), or on an internal error (a bug: one line naming it, never a traceback);
- 130 on Ctrl-C, with one line saying what was kept.

`error_line(error)` is the message of that line, for any other front end (the web server
answers bad input with the same text).
"""
from __future__ import annotations

import argparse
import math
import os
import re
import sys
from typing import Callable, NoReturn, Sequence, TypeVar

from .messages import SHOWN, cut, cut_path, silence_stdout

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130
MESSAGE_LIMIT = 300      # characters of an error line (the user's text in it is cut to SHOWN)

T = TypeVar("T")


class UsageError(ValueError):
    """Bad command-line arguments, as argparse reports them."""


class CommandFailed(Exception):
    """A command that has printed its own report and must exit with status 1 (a verifier that
    found mismatches)."""


class OneLineParser(argparse.ArgumentParser):
    """argparse that reports a usage error as one line (the usage is in --help): it raises
    UsageError, which the frame prints as `PROG: error: ...` with exit status 2."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(usage_message(message))


def usage_message(message: str) -> str:
    """The line of a usage error as OneLineParser says it, for a front end that reads the same
    options without the parser (the web API, whose errors are the command line's)."""
    # argparse quotes the user's text ('...'): cut long quotes, and the list of unrecognised
    # arguments, to about SHOWN characters
    message = re.sub(r"'([^']{%d})[^']+'" % SHOWN, r"'\1...'", message)
    lead = "unrecognized arguments: "
    if message.startswith(lead):
        message = cut(message, len(lead) + SHOWN)
    return f"{message} (see --help)"


def error_line(error: BaseException | str) -> str:
    """The one-line message of a user's error: newlines folded, length bounded, and an
    OSError as its reason with the file it names."""
    if isinstance(error, OSError):
        where = f" ({cut_path(os.fsdecode(error.filename))})" if error.filename else ""
        text = f"{error.strerror or error}{where}"
    else:
        text = str(error)
    return cut(" ".join(text.split()), MESSAGE_LIMIT)


def run_command(prog: str, parser: argparse.ArgumentParser, argv: Sequence[str] | None,
                user_errors: tuple[type[BaseException], ...],
                interrupted: Callable[[argparse.Namespace], str] = lambda args: "interrupted"
                ) -> int:
    """Parse `argv` and run the command's `handler(args)` in the frame of the module's
    docstring. `user_errors`: the exceptions that mean bad input (ValueError subclasses);
    `interrupted(args)`: the line printed on Ctrl-C."""
    args = None
    bad_input: tuple[type[BaseException], ...] = (UsageError, *user_errors)
    try:
        try:
            args = parser.parse_args(argv)
        except SystemExit as exit_:             # --help or --version: already printed
            return exit_.code if isinstance(exit_.code, int) else EXIT_OK
        args.handler(args)
        sys.stdout.flush()                      # a closed pipe shows up here, not at exit
    except BrokenPipeError:                     # the reader went away
        silence_stdout()
        return EXIT_OK
    except bad_input as error:
        return _fail(prog, error)
    except OSError as error:                    # a folder that is a file, a full disk ...
        return _fail(prog, error)
    except MemoryError:
        return _fail(prog, "not enough memory for this command")
    except CommandFailed:
        return EXIT_FAILED
    except KeyboardInterrupt:
        what = "interrupted" if args is None else interrupted(args)
        print(f"{prog}: {what}", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception as error:                  # a bug: one line, no traceback
        return _fail(prog, f"internal error: {type(error).__name__}: {error}", EXIT_FAILED)
    return EXIT_OK


def _fail(prog: str, error: BaseException | str, status: int = EXIT_BAD_INPUT) -> int:
    print(f"{prog}: error: {error_line(error)}", file=sys.stderr)
    return status


# -- argparse types -------------------------------------------------------------------------------

def whole_number_argument(what: str, low: int, high: int) -> Callable[[str], int]:
    """An argparse type: `what`, a whole number low..high (digits with an optional sign and
    `_` separators), refused with a message that gives the bounds."""
    def convert(text: str) -> int:
        stripped = text.strip().replace("_", "")
        digits = stripped[1:] if stripped[:1] in ("+", "-") else stripped
        if not (digits.isascii() and digits.isdigit()):
            raise argparse.ArgumentTypeError(f"expected {what}, a whole number {low:,}..{high:,}"
                                             f", not {cut(repr(text))}")
        # more than 30 digits is out of range whatever the bounds: no huge int is made
        value = int(stripped) if len(digits) <= 30 else (high + 1 if stripped[0] != "-"
                                                            else low - 1)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"expected {what} from {low:,} to {high:,}, not "
                                             f"{cut(text.strip())}")
        return value
    convert.__name__ = what
    return convert


def choice_argument(choices: Sequence[T], convert: Callable[[str], T]) -> Callable[[str], T]:
    """An argparse type: `convert(text)`, one of `choices`. It says what argparse's own
    `choices=` says (Python 3.11's words, `invalid choice: 7 (choose from 5, 4)`), but in
    words of its own, which do not change with the Python version: a front end that reads the
    option without the parser (the web API) repeats them exactly."""
    def parse(text: str) -> T:
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"invalid {convert.__name__} value: {text!r}") \
                from None
        if value not in choices:
            raise argparse.ArgumentTypeError(f"invalid choice: {value!r} (choose from "
                                             f"{', '.join(map(repr, choices))})")
        return value
    parse.__name__ = convert.__name__
    return parse


def number(what: str, check: Callable[[float], float]) -> Callable[[str], float]:
    """An argparse type: a finite number, then `check(value)`, whose ValueError (a package's
    error naming the bound) becomes the usage message."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise ValueError(f"expected {what}, not {cut(repr(text))}") from None
        if not math.isfinite(value):
            raise ValueError(f"expected {what}, a finite number, not {cut(repr(text))}")
        return check(value)
    return parsed(what, parse)


DURATION = re.compile(r"(?:(\d+(?:\.\d*)?)h)?(?:(\d+(?:\.\d*)?)m)?(?:(\d+(?:\.\d*)?)s)?")


def parse_duration(text: str) -> float:
    """Seconds of a duration: with units, as a job scheduler's wall time is written (`2h30m`,
    `90m`, `1.5h`, `45s`, `1h5m30s`), or a plain number of minutes; ValueError naming the
    forms otherwise."""
    written = text.strip().lower()
    found = DURATION.fullmatch(written)
    if re.fullmatch(r"\d+(?:\.\d*)?", written):
        found = DURATION.fullmatch(written + "m")
    if not written or found is None or not any(found.groups()):
        raise ValueError(f"expected a duration such as 2h30m, 90m, 45s or a number of minutes, "
                         f"not {cut(repr(text))}")
    hours, minutes, seconds = (float(part) if part else 0.0 for part in found.groups())
    total = 3600 * hours + 60 * minutes + seconds
    if not 0 < total < math.inf:
        raise ValueError(f"expected a positive duration, not {cut(repr(text))}")
    return total



def parsed(what: str, parse: Callable[[str], T]) -> Callable[[str], T]:
    """An argparse type from a parser of the package (a time control, a sheet ...), whose
    ValueError becomes the usage message."""
    def convert(text: str) -> T:
        try:
            return parse(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
    convert.__name__ = what
    return convert
