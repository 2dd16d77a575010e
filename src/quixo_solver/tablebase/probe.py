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
from typing import Iterator, NamedTuple, Sequence, TypeVar

from ..rules._backend import rules
from ..rules.baseboard import check_board
from ..rules.board import Board, Move, move_between
from ..rules.notation import format_position
from .format import files
from . import values
from .errors import CorruptTableError, MissingTableError
from .format.files import CompressedTable

T = TypeVar("T")
TablebaseT = TypeVar("TablebaseT", bound="BaseTablebase")


# The 5x5 classes of the opening that ship with the package (SPEC "Tables in the install"):
# ordinary table files in its folder tablebase/opening/, read wherever the folder given lacks
# their class, and checked like any other table.
SHIPPED_FOLDER = Path(__file__).with_name("opening")


def shipped_folder() -> Path | None:
    """The folder of the tables that ship with the package, None in an install without it."""
    return SHIPPED_FOLDER if SHIPPED_FOLDER.is_dir() else None


def table_path(directory: Path, size: int, mover_count: int, opponent_count: int,
               shipped: Path | None) -> Path | None:
    """Where a class's table is read from: the folder given, else the shipped tables; None
    where neither holds it."""
    name = files.table_name(size, mover_count, opponent_count)
    for folder in (directory, shipped):
        if folder is not None and (folder / name).exists():
            return folder / name
    return None


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


Position = tuple[int, int]      # (mover, opponent) masks of one position of a board size
DRAW_CODE = values.encode(values.DRAW, None)


class Child(NamedTuple):
    """A legal move (the squares it takes from and pushes in at, on a board of `size`), the
    position it leads to (masks of the player to move there and of the other) and that
    position's value code."""

    size: int
    source: int
    target: int
    mover: int
    opponent: int
    code: int

    @property
    def move(self) -> Move:
        return move_between(self.size, self.source, self.target)

    @property
    def move_result(self) -> ProbeResult:
        """The move's result for the player who makes it (from the child's, for the other)."""
        plies = values.plies_of(self.code)
        return ProbeResult(-values.wdl_of(self.code), None if plies is None else plies + 1)


class BaseTablebase:
    """What every source of table values answers (the local `Tablebase`, the
    `RemoteTablebase` of another server): built from `codes_of`, the value codes of many
    positions of one board size in one call, and `has_table`."""

    def __enter__(self: TablebaseT) -> TablebaseT:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Let go of what the source holds open (its files, its connection)."""

    def has_table(self, size: int, mover_count: int, opponent_count: int) -> bool:
        raise NotImplementedError

    def codes_of(self, size: int, positions: Sequence[Position]) -> list[int]:
        """The value codes (values.py) of many positions of any classes of one board size;
        MissingTableError when one of their classes is not built."""
        raise NotImplementedError

    def kernel_tables(self, size: int) -> Iterator[tuple[int, int, CompressedTable]]:
        """(mover count, opponent count, table) of each built class, opened one after the
        other, for the search kernel, which reads local files only (none by default)."""
        return iter(())

    def has_size(self, size: int) -> bool:
        """Whether any class of the board size is built."""
        cells = size * size
        return any(self.has_table(size, a, b) for a in range(cells + 1)
                   for b in range(cells + 1 - a))

    def code(self, board: Board) -> int:
        check_board(board, Board)
        return self.codes_of(board.size, [(board.mover_cubes, board.opponent_cubes)])[0]

    def probe(self, board: Board) -> ProbeResult:
        return ProbeResult.of_code(self.code(board))

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

    def children(self, size: int, mover: int, opponent: int, *,
                 reachable: bool = False) -> list[Child]:
        """Every legal move of a position (in the order of the legal moves) with the position
        it leads to and that position's value code (for the player to move there); a move
        that ends the game gets the code of its finished game, unprobed. One `codes_of` call,
        each position once (a quarter of the moves, on average, lead where another does).
        MissingTableError if a class a move reaches is not built; with `reachable`, the moves
        into such a class are left out instead (the edge of the tables shipped)."""
        children = rules.children(size, mover, opponent)
        if reachable:
            children = [child for child in children if child[4] or self.has_table(
                size, child[2].bit_count(), child[3].bit_count())]
        probed = list(dict.fromkeys((child_mover, child_opponent) for _, _, child_mover,
                                    child_opponent, status in children if not status))
        codes = dict(zip(probed, self.codes_of(size, probed))) if probed else {}
        return [Child(size, source, target, child_mover, child_opponent,
                      values.encode(status, 0) if status else codes[child_mover,
                                                                   child_opponent])
                for source, target, child_mover, child_opponent, status in children]

    def probe_moves(self, board: Board) -> list[tuple[Move, ProbeResult]]:
        """Every legal move with its result for the player to move, best first: fastest win,
        then draws, then the slowest loss (among equals, in the order of the legal moves)."""
        check_board(board, Board)
        results = [(child.move, child.move_result)
                   for child in self.children(board.size, board.mover_cubes,
                                              board.opponent_cubes)]
        results.sort(key=lambda item: move_preference(item[1]))
        return results

    def best_move(self, board: Board) -> Move | None:
        moves = self.probe_moves(board)
        return moves[0][0] if moves else None

    def best_line(self, board: Board, moves: int | None = None, *,
                  through_draws: bool = False) -> list[Move]:
        """The line of best play from an unfinished or finished position: the first `moves`
        of it (None: all), each the first best move in the order of `probe_moves`. A won or
        lost position's line ends the game; a drawn one's is its first move alone, or with
        `through_draws` goes on until a position comes back (or `moves` are played). Where
        a move leads into a class that is not built (beyond the tables shipped), the first
        best move among those the tables reach is taken, and the line ends where none is."""
        check_board(board, Board)
        size, mover, opponent = board.size, board.mover_cubes, board.opponent_cubes
        line: list[Move] = []
        if moves == 0 or rules.position_status(size, mover, opponent):
            return line                     # (nothing to probe: its class may be unbuilt)
        code = self.code(board)
        seen = {(mover, opponent)}
        while (moves is None or len(line) < moves) and not rules.position_status(
                size, mover, opponent):
            if code == DRAW_CODE and line and not through_draws:
                break
            wanted = _best_child_code(code)
            try:
                children, whole = self.children(size, mover, opponent), True
            except MissingTableError:
                children, whole = self.children(size, mover, opponent, reachable=True), False
            best = next((child for child in children if child.code == wanted), None)
            if best is None and not whole:
                break                               # its best moves leave the tables
            if best is None:
                raise CorruptTableError(
                    f"the tables disagree: no move of {format_position(size, mover, opponent, 'X')} "
                    f"leads to the value its code {code} promises")
            line.append(best.move)
            mover, opponent, code = best.mover, best.opponent, wanted
            if (mover, opponent) in seen:
                break
            seen.add((mover, opponent))
        return line


class Tablebase(BaseTablebase):
    """The tables of one folder, memory-mapped on first use; each block of values is checked
    against its checksum before its first value is used (files.CompressedTable). A table's
    cache of decoded segments serves one thread at a time (a lock per table): threads that
    probe different tables decode side by side."""

    def __init__(self, directory: str | os.PathLike[str] | None = None, *,
                 shipped: bool = True) -> None:
        self.directory = files.folder_path(directory) if directory else default_directory()
        # the tables that ship with the package, read where the folder lacks a class
        self.shipped = shipped_folder() if shipped else None
        self._tables: dict[tuple[int, int, int], tuple[CompressedTable, threading.Lock]] = {}
        self._lock = threading.Lock()       # the dict of open tables

    def close(self) -> None:
        with self._lock:
            self._tables.clear()

    def path(self, size: int, mover_count: int, opponent_count: int) -> Path:
        """Where the class's table is read from (the folder's, else the shipped one); the
        folder's own path where neither holds it."""
        return table_path(self.directory, size, mover_count, opponent_count, self.shipped) or \
            self.directory / files.table_name(size, mover_count, opponent_count)

    def has_table(self, size: int, mover_count: int, opponent_count: int) -> bool:
        return self.path(size, mover_count, opponent_count).exists()

    def table(self, size: int, mover_count: int, opponent_count: int) -> CompressedTable:
        """The table of a class; MissingTableError if it is not built."""
        return self._opened(size, mover_count, opponent_count)[0]

    def _opened(self, size: int, mover_count: int,
                opponent_count: int) -> tuple[CompressedTable, threading.Lock]:
        """The table of a class and the lock of its cache, opened on first use."""
        key = (size, mover_count, opponent_count)
        found = self._tables.get(key)
        if found is not None:
            return found
        with self._lock:
            if key not in self._tables:
                path = self.path(*key)
                if not path.exists():
                    raise MissingTableError(
                        f"no table for class ({mover_count}, {opponent_count}) of the "
                        f"{size}x{size} board in {self.directory}")
                try:
                    self._tables[key] = (files.open_table(path, key), threading.Lock())
                except CorruptTableError as error:
                    if self.shipped is None or path.parent != self.shipped:
                        raise
                    raise CorruptTableError(f"{error} (a table shipped with the package: the "
                                            "install is damaged; reinstall quixo-solver)"
                                            ) from None
            return self._tables[key]

    def code(self, board: Board) -> int:
        check_board(board, Board)
        mover, opponent = board.mover_cubes, board.opponent_cubes
        table, lock = self._opened(board.size, mover.bit_count(), opponent.bit_count())
        with lock:
            return int(table.position_code(mover, opponent))

    def kernel_tables(self, size: int) -> Iterator[tuple[int, int, CompressedTable]]:
        for a in range(size * size + 1):
            for b in range(size * size + 1 - a):
                if self.has_table(size, a, b):
                    yield a, b, self.table(size, a, b)

    def codes_of(self, size: int, positions: Sequence[Position]) -> list[int]:
        by_class: dict[tuple[int, int], list[int]] = {}
        for i, (mover, opponent) in enumerate(positions):
            by_class.setdefault((mover.bit_count(), opponent.bit_count()), []).append(i)
        codes = [0] * len(positions)
        for (a, b), members in by_class.items():
            table, lock = self._opened(size, a, b)
            with lock:
                found = table.position_codes([positions[i][0] for i in members],
                                             [positions[i][1] for i in members])
            for i, value in zip(members, found.tolist()):
                codes[i] = value
        return codes


def _best_child_code(code: int) -> int:
    """The value code of the position that best play leads to from a position of `code`:
    a win in k plies moves to a loss in k - 1 for the opponent, a loss in k to a win in k - 1
    (the slowest), a draw to a draw."""
    if code == DRAW_CODE:
        return DRAW_CODE
    plies = values.plies_of(code)
    assert plies is not None and plies > 0      # an unfinished game's win or loss
    return values.encode(-values.wdl_of(code), plies - 1)


def move_preference(result: ProbeResult) -> tuple[int, int]:
    """A sort key of moves by their results for the mover, best first: the fastest win,
    then draws, then the slowest loss."""
    if result.wdl == values.DRAW:
        return (1, 0)
    assert result.plies is not None   # a win or a loss has plies
    if result.wdl == values.WIN:
        return (0, result.plies)
    return (2, -result.plies)
