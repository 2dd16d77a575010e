"""Command-line argument types shared by the `qwixx` commands (cli.py, track.py)."""
from __future__ import annotations

import argparse
from typing import Callable

from .errors import cut


def whole_number(name: str, low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number low..high, refused with a message giving the bounds."""
    def convert(text: str) -> int:
        stripped = text.strip().replace("_", "")
        digits = stripped[1:] if stripped[:1] in "+-" else stripped
        if not (digits.isascii() and digits.isdigit()):
            raise argparse.ArgumentTypeError(f"must be a whole number {low:,}..{high:,}, "
                                             f"not {cut(repr(text))}")
        value = int(stripped) if len(digits) <= 30 else (high + 1 if stripped[0] != "-"
                                                            else low - 1)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be {low:,}..{high:,}, not "
                                             f"{cut(text.strip())}")
        return value
    convert.__name__ = name
    return convert
