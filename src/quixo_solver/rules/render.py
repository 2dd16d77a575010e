"""Drawings of a board: text for terminals, SVG for notebooks."""
from __future__ import annotations

from typing import Protocol

from .geometry import FILES


class Drawable(Protocol):
    """What a drawing needs of a board (every variant's board offers it)."""

    size: int

    @property
    def turn(self) -> str: ...
    def is_game_over(self) -> bool: ...
    def result(self) -> str: ...

CELL = 48
MARGIN = 24


def _rows(board: Drawable) -> list[str]:
    return str(board).split()[0].split("/")


def text(board: Drawable) -> str:
    """Rows from the top with rank numbers, file letters below, then the player to move."""
    size = board.size
    lines = [f"{size - i} | {' '.join(row)}" for i, row in enumerate(_rows(board))]
    lines.append("    " + "-" * (2 * size - 1))
    lines.append("    " + " ".join(FILES[:size]))
    lines.append(f"{board.turn} to move" if not board.is_game_over()
                 else f"game over: {board.result()}")
    return "\n".join(lines)


def svg(board: Drawable) -> str:
    size = board.size
    width = 2 * MARGIN + size * CELL
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{width}" '
             f'viewBox="0 0 {width} {width}" font-family="sans-serif">',
             f'<rect width="{width}" height="{width}" fill="#c8a26a"/>']
    for i, row in enumerate(_rows(board)):
        for j, cell in enumerate(row):
            x, y = MARGIN + j * CELL, MARGIN + i * CELL
            parts.append(f'<rect x="{x + 2}" y="{y + 2}" width="{CELL - 4}" height="{CELL - 4}" '
                         'rx="4" fill="#f4ead5" stroke="#6b4f2a"/>')
            cx, cy, r = x + CELL / 2, y + CELL / 2, CELL * 0.28
            if cell == "X":
                parts.append(f'<path d="M{cx - r},{cy - r}L{cx + r},{cy + r}M{cx + r},{cy - r}'
                             f'L{cx - r},{cy + r}" stroke="#b22222" stroke-width="5"/>')
            elif cell == "O":
                parts.append(f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="none" '
                             'stroke="#1f4e9c" stroke-width="5"/>')
        parts.append(f'<text x="{MARGIN / 2}" y="{MARGIN + i * CELL + CELL / 2 + 5}" '
                     f'text-anchor="middle" font-size="14">{size - i}</text>')
    for j in range(size):
        parts.append(f'<text x="{MARGIN + j * CELL + CELL / 2}" y="{width - 6}" '
                     f'text-anchor="middle" font-size="14">{FILES[j]}</text>')
    parts.append("</svg>")
    return "".join(parts)
