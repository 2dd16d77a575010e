"""Sets of positions with exact answers, and the score of any player on them.

As Pascal Pons' positions with exact values for Connect Four: each position of a set comes
with its value for the player to move, its plies, and the value every legal move leaves that
player, from the tables. So a set is scored without tables: a move is a mistake if it drops
the value (win to draw or loss, draw to loss), optimal if it keeps the value and the exact
plies (the fastest win, the longest loss, any draw), and `plies_lost` is, in a kept win, the
plies beyond the fastest, in a kept loss, the plies short of the longest.

The sets drawn by this project ship with it (`PositionSet.bundled(name)`, `BUNDLED`): made by
benchmarks/quixo/sets/make_sets.py, whose sampling rule each set also states.

A position's stage is what it is scored by: how far into a game it lies (`played`: the plies
of the random game that reached it) and how far from the end (its value's plies): see
`stage_of`. Scores come by stage with 95% Wilson intervals.

File (JSON): {"name", "size", "players", "seed", "rule" (the sampling rule, in words),
"command", "positions": [{"position", "played", "value", "plies", "moves": {MOVE: [value,
plies]}}]}; every field is checked when a set is read.
"""
from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solverkit.arrayfile import write_atomically
from solverkit.messages import cut_path

from ..errors import QuixoError
from ..rules.baseboard import BaseBoard
from ..search import BaseSolver, SearchResult, preference
from ..variants import parse_board

BUNDLED_FOLDER = Path(__file__).with_name("sets")
VALUES = ("win", "draw", "loss")
RANK = {"win": 1, "draw": 0, "loss": -1}
# how far into the game: the plies played before the position (random games from the start)
PLAYED_STAGES = (("opening", 0, 4), ("middle", 5, 14), ("late", 15, None))
# how far from the end: the plies of its value (a draw has none)
NEAR = 5


class PositionSetError(QuixoError):
    """A position set file that cannot be read (named, with what is wrong)."""


@dataclass(frozen=True)
class SetPosition:
    position: str
    played: int                 # plies of the random game that reached it; -1: drawn from its class
    value: str
    plies: int | None
    moves: dict[str, tuple[str, int | None]]     # every legal move: the value it leaves

    @property
    def optimal(self) -> list[str]:
        return [move for move, seen in self.moves.items() if seen == (self.value, self.plies)]

    def to_json(self) -> dict[str, Any]:
        return {"position": self.position, "played": self.played, "value": self.value,
                "plies": self.plies, "moves": {m: list(v) for m, v in self.moves.items()}}


def stage_of(position: SetPosition) -> str:
    """`how far in/how far from the end`: opening (0-4 plies played), middle (5-14), late (15
    on), or for a position drawn from its class rather than reached by a game (played -1)
    its blanks (`3 blanks`); near (a win or loss in at most NEAR plies), far (more), draw."""
    if position.played < 0:
        played = f"{position.position.count('.')} blanks"
    else:
        played = next(name for name, low, high in PLAYED_STAGES
                      if position.played >= low and (high is None or position.played <= high))
    end = "draw" if position.value == "draw" else (
        "near" if position.plies is not None and position.plies <= NEAR else "far")
    return f"{played}/{end}"


@dataclass
class PositionSet:
    name: str
    size: int
    players: int
    seed: int
    rule: str
    command: str
    positions: list[SetPosition] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "size": self.size, "players": self.players,
                "seed": self.seed, "rule": self.rule, "command": self.command,
                "positions": [p.to_json() for p in self.positions]}

    def save(self, path: str | os.PathLike[str]) -> None:
        """The set as JSON, one position a line."""
        head = json.dumps({k: v for k, v in self.to_json().items() if k != "positions"})
        rows = ",\n".join(json.dumps(row.to_json()) for row in self.positions)
        write_atomically(Path(path), [f'{head[:-1]}, "positions": [\n{rows}\n]}}\n'.encode()])

    @classmethod
    def bundled(cls, name: str) -> PositionSet:
        """A set that ships with the package, by name (`BUNDLED`)."""
        if name not in bundled_names():
            raise PositionSetError(f"no position set is named {name!r} (sets: "
                                   f"{', '.join(bundled_names())})")
        return cls.load(BUNDLED_FOLDER / f"{name}.json")

    @classmethod
    def named_or_read(cls, name_or_path: str) -> PositionSet:
        """A bundled set by its name, else the set of a file."""
        if name_or_path in bundled_names():
            return cls.bundled(name_or_path)
        return cls.load(Path(name_or_path).expanduser())

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> PositionSet:
        where = cut_path(os.fspath(path))
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as error:
            raise PositionSetError(f"{where} is not a position set: {error}") from None
        try:
            found = cls(str(data["name"]), int(data["size"]), int(data["players"]),
                        int(data["seed"]), str(data["rule"]), str(data["command"]),
                        [_position(row) for row in data["positions"]])
        except (KeyError, TypeError, ValueError) as error:
            raise PositionSetError(f"{where}: a field is missing or wrong ({error})") from None
        for number, row in enumerate(found.positions, 1):
            board = parse_board(row.position)
            if board.size != found.size or board.players != found.players:
                raise PositionSetError(f"{where}: position {number} is not of the set's game")
            if sorted(row.moves) != sorted(str(m) for m in board.legal_moves):
                raise PositionSetError(f"{where}: position {number}'s moves are not its legal "
                                       "moves")
        return found


def bundled_names() -> list[str]:
    """The names of the sets that ship with the package."""
    return sorted(path.stem for path in BUNDLED_FOLDER.glob("*.json"))


def _position(row: dict[str, Any]) -> SetPosition:
    moves = {str(m): (str(v[0]), None if v[1] is None else int(v[1]))
             for m, v in row["moves"].items()}
    value, plies = str(row["value"]), row["plies"]
    if value not in VALUES or any(v[0] not in VALUES for v in moves.values()):
        raise ValueError("a value is not win, draw or loss")
    return SetPosition(str(row["position"]), int(row["played"]), value,
                       None if plies is None else int(plies), moves)


def answered(board: BaseBoard, played: int, solver: BaseSolver[Any]) -> SetPosition | None:
    """The set's row of a position from the solver's exact analysis (tables), None where the
    tables do not answer every move."""
    rows = solver.exact_analysis(board)
    if rows is None:
        return None
    best: SearchResult = min((result for _, result in rows), key=preference)
    return SetPosition(str(board), played, best.value, best.plies,
                       {str(move): (result.value, result.plies) for move, result in rows})


# -- scoring ------------------------------------------------------------------------------------

def wilson(successes: int, trials: int) -> tuple[float, float] | None:
    """The 95% Wilson score interval of a proportion (None without trials)."""
    if trials == 0:
        return None
    z = 1.959963984540054
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (
        1 + z * z / trials)
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class StageScore:
    positions: int = 0
    mistakes: int = 0
    optimal: int = 0
    plies_lost: list[int] = field(default_factory=list)

    def add(self, row: SetPosition, move: str) -> None:
        seen = row.moves.get(move)
        if seen is None:
            raise QuixoError(f"{move!r} is not a legal move of {row.position}")
        self.positions += 1
        if RANK[seen[0]] < RANK[row.value]:
            self.mistakes += 1
            return
        if seen == (row.value, row.plies):
            self.optimal += 1
        if row.value != "draw" and seen[1] is not None and row.plies is not None:
            self.plies_lost.append(abs(seen[1] - row.plies))

    def to_json(self) -> dict[str, Any]:
        def rounded(interval: tuple[float, float] | None) -> list[float] | None:
            return None if interval is None else [round(x, 4) for x in interval]
        return {"positions": self.positions, "mistakes": self.mistakes,
                "mistake_rate": round(self.mistakes / self.positions, 4)
                if self.positions else None,
                "mistake_interval": rounded(wilson(self.mistakes, self.positions)),
                "optimal": self.optimal,
                "optimal_share": round(self.optimal / self.positions, 4)
                if self.positions else None,
                "optimal_interval": rounded(wilson(self.optimal, self.positions)),
                "plies_lost_mean": round(sum(self.plies_lost) / len(self.plies_lost), 3)
                if self.plies_lost else None}


def score(position_set: PositionSet, choose: Callable[[BaseBoard], object]) -> dict[str, Any]:
    """Ask `choose` (a board -> a legal move, or its text) for a move in every position of
    the set; the score overall and by stage."""
    overall, stages = StageScore(), dict[str, StageScore]()
    for row in position_set.positions:
        move = str(choose(parse_board(row.position)))
        overall.add(row, move)
        stages.setdefault(stage_of(row), StageScore()).add(row, move)
    return {"set": position_set.name, **overall.to_json(),
            "by_stage": {name: stages[name].to_json() for name in sorted(stages)}}


def stages_of(positions: Iterable[SetPosition]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for row in positions:
        counts[stage_of(row)] = counts.get(stage_of(row), 0) + 1
    return dict(sorted(counts.items()))
