"""What an agent observes of a Quixo board, and the picture a screen shows of it.

Observations are planes of 0 and 1, shape (N, N, planes), row 0 the board's top rank and
column 0 file a, as the board is drawn; each plane is seen from one seat:

- two players: the seat's own cubes, the opponent's, the blanks (3 planes);
- four players, by team and dot: the seat's own team's cubes whose dot points at the seat,
  those pointing at its team-mate, then the other team's pointing at the next player to move
  after the seat, those pointing at the player before it, and the blanks (5 planes).

>>> from quixo_solver import Board
>>> board = Board(size=3)
>>> board.push("a1c1")
>>> planes(board, "X")[:, :, 0].tolist()      # X's own cubes: c1, in the bottom row
[[0, 0, 0], [0, 0, 0], [0, 0, 1]]
>>> planes(board, "O")[:, :, 1].tolist()      # the same cube is the opponent's for O
[[0, 0, 0], [0, 0, 0], [0, 0, 1]]
>>> image(board).shape
(104, 104, 3)
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np
import numpy.typing as npt

from solverkit import pixels

from ..errors import PositionError
from ..rules.baseboard import BaseBoard
from ..rules.board import Board
from ..teams.board import TeamBoard
from .episodes import seats

Planes = npt.NDArray[np.int8]

CELL = 32             # pixels of a cell of the picture, its tile 2 pixels in from each side
MARGIN = 4
BOARD = pixels.colour("#c8a26a")         # the colours of the SVG drawing (rules/render.py)
TILE = pixels.colour("#f4ead5")
X_COLOUR = pixels.colour("#b22222")
O_COLOUR = pixels.colour("#1f4e9c")
DOT = pixels.colour("#2b2b2b")
TEAM_COLOURS = {"X": X_COLOUR, "O": O_COLOUR}


def plane_count(players: int) -> int:
    """3 planes for two players, 5 for four (see the module's docstring)."""
    return len(seats(players)) + 1


@lru_cache(maxsize=None)
def _squares(size: int) -> npt.NDArray[np.int64]:
    """The square number of each cell as drawn: row 0 is the top rank, column 0 file a."""
    return np.arange(size * size, dtype=np.int64).reshape(size, size)[::-1].copy()


def _masks_by_plane(board: BaseBoard, seat: str) -> list[int]:
    """The cube masks of the planes before the blanks', seen from `seat`."""
    order = seats(board.players)
    if seat not in order:
        raise PositionError(f"{seat!r} is no seat of a {board.players}-player game: the seats "
                            f"are {', '.join(order)}")
    if isinstance(board, Board):
        own, other = board.x_cubes, board.o_cubes
        return [own, other] if seat == "X" else [other, own]
    if isinstance(board, TeamBoard):
        player = order.index(seat)
        # own, team-mate (two seats on), next player, the player before
        return [board.cubes[(player + step) % 4] for step in (0, 2, 1, 3)]
    raise PositionError(f"expected a Board or a TeamBoard, not {type(board).__name__}")


def planes(board: BaseBoard, seat: str) -> Planes:
    """The observation of `seat` (a seat name: X, O or X1, O1, X2, O2), shape (N, N, planes)."""
    masks = _masks_by_plane(board, seat)
    size = board.size
    # each mask's bits as bytes, unpacked at once (an agent's step makes one of these)
    raw = np.array(masks, dtype="<u4").view(np.uint8).reshape(len(masks), 4)
    cubes = np.unpackbits(raw, axis=1, bitorder="little")[:, _drawn_order(size)]
    found = np.empty((size * size, len(masks) + 1), dtype=np.int8)
    found[:, :-1] = cubes.T
    found[:, -1] = 1 - cubes.sum(axis=0)
    return found.reshape(size, size, len(masks) + 1)


@lru_cache(maxsize=None)
def _drawn_order(size: int) -> npt.NDArray[np.int64]:
    """The square numbers in the order of the cells as drawn (_squares, flattened)."""
    return _squares(size).ravel()


@lru_cache(maxsize=None)
def _marks() -> tuple[pixels.Mask, pixels.Mask, pixels.Mask]:
    """The masks of an X, an O and a dot, in a tile."""
    side = CELL - 4
    symbol = side - 8
    cross = np.zeros((side, side), dtype=bool)
    cross[4:4 + symbol, 4:4 + symbol] = pixels.cross_mask(symbol, 4)
    ring = np.zeros((side, side), dtype=bool)
    ring[4:4 + symbol, 4:4 + symbol] = pixels.disc_mask(symbol, inner=0.6)
    return cross, ring, pixels.disc_mask(6)


def image(board: BaseBoard) -> pixels.Picture:
    """The board as an RGB picture (uint8, shape (H, W, 3)): each cube an X or an O in its
    team's colour; in the four-player game a dot in a cube's top-left corner points at the
    team's first player (X1, O1), in its bottom-right corner at the second (X2, O2)."""
    size = board.size
    side = 2 * MARGIN + size * CELL
    picture = pixels.canvas(side, side, BOARD)
    cross, ring, dot = _marks()
    rows = str(board).split()[0].split("/")
    for row, cells in enumerate(rows):
        for column, cell in enumerate(cells):
            top, left = MARGIN + row * CELL + 2, MARGIN + column * CELL + 2
            pixels.fill_rectangle(picture, top, left, CELL - 4, CELL - 4, TILE)
            if cell == ".":
                continue
            team = cell.upper()
            pixels.paint_mask(picture, top, left, cross if team == "X" else ring,
                              TEAM_COLOURS[team])
            if board.players == 4:
                corner = 1 if cell == team else CELL - 4 - 1 - dot.shape[0]
                pixels.paint_mask(picture, top + corner, left + corner, dot, DOT)
    return picture
