"""The perft files of tests/data (python-chess keeps its perft files the same way): `id`,
`position`, then `perft DEPTH NODES` lines, entries separated by blank lines."""
from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).parent / "data"


def read_perft_file(path: Path) -> list[tuple[str, str, int, int]]:
    """(id, position, depth, nodes) for every `perft` line of the file."""
    cases: list[tuple[str, str, int, int]] = []
    name = position = ""
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        key, _, value = line.partition(" ")
        if key == "id":
            name, position = value, ""
        elif key == "position":
            position = value
        elif key == "perft":
            depth, nodes = value.split()
            cases.append((name, position, int(depth), int(nodes)))
        else:
            raise ValueError(f"{path.name}: unknown line {line!r}")
    return cases


def all_cases() -> list[tuple[str, str, str, int, int]]:
    """(file stem, id, position, depth, nodes) of every perft file."""
    return [(path.stem, *case) for path in sorted(DATA.glob("*.perft"))
            for case in read_perft_file(path)]


def counts_of(position: str) -> dict[int, int]:
    """{depth: nodes} of a position, from every file that lists it."""
    return {depth: nodes for _, _, where, depth, nodes in all_cases() if where == position}
