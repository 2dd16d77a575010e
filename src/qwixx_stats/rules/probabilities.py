"""Exact dice probabilities for one Qwixx row, by enumeration of the dice that matter.

For a row's number n (2..12; the tables are the same for every row, since turning each die d
into 7-d maps a descending row onto an ascending one):
- white_sum[n]:     the white dice add up to n (= passive[n], what a non-active player can mark)
- active_colour[n]: a white die plus the row's die make n (action 2)
- active_any[n]:    either of the above (the active player can mark n in this row)
- lock_passive / lock_active: the same for the row's last number, for a player allowed to lock
- usable_sums_active: expected number of distinct numbers the active player can mark in the
  row this roll (white sum and the two white+colour sums), all boxes open
`exact_tables()` gives `Fraction`s; `float_tables()` the same tables as numpy float arrays
indexed by n (entries 0 and 1 unused), from a vectorised enumeration.
"""
from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

NUMBERS = range(2, 13)
LAST_NUMBER = 12           # red/yellow; green/blue lock on 2, with the same chances
FACES = range(1, 7)


def exact_tables() -> dict[str, Any]:
    """All tables as exact fractions (enumerating white, white, colour: 216 rolls)."""
    white = {n: Fraction(0) for n in NUMBERS}
    colour = {n: Fraction(0) for n in NUMBERS}
    either = {n: Fraction(0) for n in NUMBERS}
    usable = Fraction(0)
    weight = Fraction(1, 216)
    for w1, w2, c in itertools.product(FACES, repeat=3):
        colour_sums = {w1 + c, w2 + c}
        for n in colour_sums:
            colour[n] += weight
        for n in colour_sums | {w1 + w2}:
            either[n] += weight
        white[w1 + w2] += weight
        usable += weight * len(colour_sums | {w1 + w2})
    return {
        "white_sum": white,
        "passive": dict(white),
        "active_colour": colour,
        "active_any": either,
        "lock_active": either[LAST_NUMBER],
        "lock_passive": white[LAST_NUMBER],
        "usable_sums_active": usable,
    }


def float_tables() -> dict[str, npt.NDArray[np.float64] | float]:
    """The same tables as floats: arrays of length 13 indexed by the number."""
    w1, w2, c = np.meshgrid(np.arange(1, 7), np.arange(1, 7), np.arange(1, 7), indexing="ij")
    white_sum, first, second = (w1 + w2).ravel(), (w1 + c).ravel(), (w2 + c).ravel()
    numbers = np.arange(13)[:, None]
    hits_white = white_sum[None, :] == numbers
    hits_colour = (first[None, :] == numbers) | (second[None, :] == numbers)
    hits_any = hits_white | hits_colour
    white = hits_white.mean(axis=1)
    return {
        "white_sum": white,
        "passive": white.copy(),
        "active_colour": hits_colour.mean(axis=1),
        "active_any": hits_any.mean(axis=1),
        "lock_active": float(hits_any.mean(axis=1)[LAST_NUMBER]),
        "lock_passive": float(white[LAST_NUMBER]),
        "usable_sums_active": float(hits_any.sum(axis=0).mean()),
    }


def fraction_text(value: Fraction) -> str:
    """SPEC form: "p/q", "1" or "0"."""
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def tables_json() -> dict[str, dict[str, str] | str]:
    tables = exact_tables()
    out: dict[str, dict[str, str] | str] = {}
    for key, value in tables.items():
        if isinstance(value, dict):
            out[key] = {str(n): fraction_text(p) for n, p in value.items()}
        else:
            out[key] = fraction_text(value)
    return out


def tables_text() -> str:
    tables = exact_tables()
    lines = ["number      " + "".join(f"{n:>8}" for n in NUMBERS)]
    for key, label in (("white_sum", "white sum"), ("active_colour", "white+col"),
                       ("active_any", "active any")):
        lines.append(f"{label:<12}" + "".join(f"{fraction_text(tables[key][n]):>8}"
                                               for n in NUMBERS))
        lines.append(f"{'':<12}" + "".join(f"{float(tables[key][n]):>8.4f}" for n in NUMBERS))
    lines.append("")
    lines.append("A non-active player can mark only the white sum (passive = white sum).")
    for key, label in (("lock_passive", "lock chance, non-active player"),
                       ("lock_active", "lock chance, active player"),
                       ("usable_sums_active", "expected usable numbers per row, active")):
        value = tables[key]
        lines.append(f"{label:<42} {fraction_text(value):>8} = {float(value):.4f}")
    return "\n".join(lines)
