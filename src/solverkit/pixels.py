"""Small RGB pictures drawn with numpy alone: the `rgb_array` frames of both games' game-AI
environments (a frame a step must cost little, and no drawing library is a dependency).

A picture is a (height, width, 3) uint8 array; every function paints onto it in place, shapes
given by their bounding square (top, left, side) in pixels.

>>> picture = canvas(8, 8, (255, 255, 255))
>>> fill_disc(picture, 0, 0, 8, (0, 0, 0))
>>> picture.shape, picture.dtype.name, picture[4, 4].tolist(), picture[0, 0].tolist()
((8, 8, 3), 'uint8', [0, 0, 0], [255, 255, 255])
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np
import numpy.typing as npt

Colour = tuple[int, int, int]
Picture = npt.NDArray[np.uint8]
Mask = npt.NDArray[np.bool_]


def colour(hex_text: str) -> Colour:
    """`#c8a26a` as (200, 162, 106)."""
    value = int(hex_text.lstrip("#"), 16)
    return (value >> 16 & 255, value >> 8 & 255, value & 255)


def canvas(height: int, width: int, background: Colour) -> Picture:
    picture = np.empty((height, width, 3), dtype=np.uint8)
    picture[:, :] = background
    return picture


def fill_rectangle(picture: Picture, top: int, left: int, height: int, width: int,
                   paint: Colour) -> None:
    picture[top:top + height, left:left + width] = paint


def paint_mask(picture: Picture, top: int, left: int, mask: Mask, paint: Colour) -> None:
    """Paint the pixels of a square `mask` placed with its corner at (top, left)."""
    side = mask.shape[0]
    picture[top:top + side, left:left + side][mask] = paint


@lru_cache(maxsize=None)
def _distances(side: int) -> npt.NDArray[np.float64]:
    """Each pixel's distance from the centre of a square of `side` pixels."""
    centre = (side - 1) / 2
    rows, columns = np.ogrid[:side, :side]
    return np.asarray(np.hypot(rows - centre, columns - centre))


def disc_mask(side: int, inner: float = 0.0) -> Mask:
    """The disc that fills a square of `side` pixels; with `inner` (a share of the radius,
    0 .. 1) a ring, its hole that share of the radius."""
    radius = side / 2
    distance = _distances(side)
    return np.asarray((distance <= radius - 0.5) & (distance >= inner * radius))


def cross_mask(side: int, thickness: float) -> Mask:
    """The two diagonals of a square of `side` pixels, each `thickness` pixels wide."""
    rows, columns = np.ogrid[:side, :side]
    half = thickness / 2
    diagonal = np.abs(rows - columns) <= half
    anti_diagonal = np.abs(rows + columns - (side - 1)) <= half
    return np.asarray(diagonal | anti_diagonal)


def fill_disc(picture: Picture, top: int, left: int, side: int, paint: Colour,
              inner: float = 0.0) -> None:
    paint_mask(picture, top, left, disc_mask(side, inner), paint)
