"""Reading tables: ``Tablebase`` answers for any position whose class has been built.

With the 4x4 tables built (``quixo tablebase build --size 4``) in the default folder,
$QUIXO_TABLEBASE_DIR, else ~/.cache/quixo_solver/tablebases:

>>> from quixo_solver import Board
>>> with Tablebase() as tablebase:
...     tablebase.probe_wdl(Board(size=4))          # 1: the player to move wins ...
...     tablebase.probe_plies(Board(size=4))        # ... in 21 plies
1
21
"""
from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from .._backend import rules
from ..baseboard import check_board
from ..board import Board, Move
from . import files, values
from .files import CompressedTable

T = TypeVar("T")


class MissingTableError(KeyError):
    """The table of a position's class has not been built (or not found in the folder)."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


def default_directory() -> Path:
    """$QUIXO_TABLEBASE_DIR, else the user's cache folder."""
    configured = os.environ.get("QUIXO_TABLEBASE_DIR")
    if configured:
        return Path(configured).expanduser()
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(cache) / "quixo_solver" / "tablebases"


@dataclass(frozen=True)
class ProbeResult:
    wdl: int              # +1 win, 0 draw, -1 loss for the player to move
    plies: int | None     # None for a draw

    @property
    def value(self) -> str:
        return values.WDL_NAMES[self.wdl]

    @classmethod
    def of_code(cls, code: int) -> "ProbeResult":
        """The result a table's value code stands for."""
        return cls(values.wdl_of(code), values.plies_of(code))


class Tablebase:
    """The tables of one folder, memory-mapped on first use; each block of values is checked
    against its checksum before its first value is used (files.CompressedTable)."""

    def __init__(self, directory: str | os.PathLike[str] | None = None) -> None:
        self.directory = files.folder_path(directory) if directory else default_directory()
        self._tables: dict[tuple[int, int, int], CompressedTable] = {}
        self._lock = threading.Lock()

    def __enter__(self) -> "Tablebase":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        with self._lock:
            self._tables.clear()

    def path(self, size: int, mover_count: int, opponent_count: int) -> Path:
        return self.directory / files.table_name(size, mover_count, opponent_count)

    def has_table(self, size: int, mover_count: int, opponent_count: int) -> bool:
        return self.path(size, mover_count, opponent_count).exists()

    def has_size(self, size: int) -> bool:
        """Whether any class of the board size is built."""
        cells = size * size
        return any(self.has_table(size, a, b) for a in range(cells + 1)
                   for b in range(cells + 1 - a))

    def table(self, size: int, mover_count: int, opponent_count: int) -> CompressedTable:
        """The table of a class; MissingTableError if it is not built."""
        key = (size, mover_count, opponent_count)
        with self._lock:
            if key not in self._tables:
                path = self.path(*key)
                if not path.exists():
                    raise MissingTableError(
                        f"no table for class ({mover_count}, {opponent_count}) of the "
                        f"{size}x{size} board in {self.directory}")
                self._tables[key] = files.open_table(path, key)
            return self._tables[key]

    def code(self, board: Board) -> int:
        check_board(board, Board)
        mover, opponent = board.mover_cubes, board.opponent_cubes
        table = self.table(board.size, bin(mover).count("1"), bin(opponent).count("1"))
        with self._lock:       # a table's cache of decoded segments serves one thread at a time
            return int(table.position_code(mover, opponent))

    def codes_at(self, size: int, mover_count: int, opponent_count: int,
                 movers: list[int], opponents: list[int]) -> list[int]:
        """The value codes of many positions of one class (masks checked by the table)."""
        table = self.table(size, mover_count, opponent_count)
        with self._lock:
            return [int(code) for code in table.position_codes(movers, opponents)]

    def probe(self, board: Board) -> ProbeResult:
        return ProbeResult.of_code(self.code(board))

    def child_results(self, size: int, mover: int,
                      opponent: int) -> list[tuple[int, int, int, int, ProbeResult]]:
        """Every legal move of a position (masks of the player to move and of the other) as
        (source, target, child's mover, child's opponent, the child's result for its mover),
        in move order: the children of each class looked up in one call, a finished child
        from its line alone. MissingTableError if a child's class is not built."""
        children = rules.children(size, mover, opponent)
        by_class: dict[tuple[int, int], list[int]] = {}
        for i, (_, _, child_mover, child_opponent, status) in enumerate(children):
            if not status:
                key = (child_mover.bit_count(), child_opponent.bit_count())
                by_class.setdefault(key, []).append(i)
        results: dict[int, ProbeResult] = {}
        for (a, b), members in by_class.items():
            found = self.codes_at(size, a, b, [children[i][2] for i in members],
                                  [children[i][3] for i in members])
            results.update((i, ProbeResult.of_code(code)) for i, code in zip(members, found))
        return [(source, target, child_mover, child_opponent,
                 results[i] if not status else
                 ProbeResult(values.WIN if status > 0 else values.LOSS, 0))
                for i, (source, target, child_mover, child_opponent, status)
                in enumerate(children)]

    def probe_wdl(self, board: Board) -> int:
        """+1 if the player to move wins, 0 for a draw, -1 for a loss."""
        return values.wdl_of(self.code(board))

    def probe_plies(self, board: Board) -> int | None:
        """Plies to the end with best play (SPEC); None for a draw."""
        return values.plies_of(self.code(board))

    def get(self, board: Board, default: T | None = None) -> ProbeResult | T | None:
        """The result of a position, or `default` where its class is not built."""
        try:
            return self.probe(board)
        except MissingTableError:
            return default

    def get_wdl(self, board: Board, default: T | None = None) -> int | T | None:
        try:
            return self.probe_wdl(board)
        except MissingTableError:
            return default

    def get_plies(self, board: Board, default: T | None = None) -> int | T | None:
        try:
            return self.probe_plies(board)
        except MissingTableError:
            return default

    def probe_moves(self, board: Board) -> list[tuple[Move, ProbeResult]]:
        """Every legal move with its result for the player to move, best first: fastest win,
        then draws, then the slowest loss."""
        results = []
        for move in board.legal_moves:
            child = board.copy(stack=False)
            child.push(move)
            seen = self.probe(child)
            plies = None if seen.plies is None else seen.plies + 1
            results.append((move, ProbeResult(-seen.wdl, plies)))
        results.sort(key=lambda item: move_preference(item[1]))
        return results

    def best_move(self, board: Board) -> Move | None:
        moves = self.probe_moves(board)
        return moves[0][0] if moves else None


def move_preference(result: ProbeResult) -> tuple[int, int]:
    """A sort key of moves by their results for the mover, best first: the fastest win,
    then draws, then the slowest loss."""
    if result.wdl == values.DRAW:
        return (1, 0)
    assert result.plies is not None   # a win or a loss has plies
    if result.wdl == values.WIN:
        return (0, result.plies)
    return (2, -result.plies)
