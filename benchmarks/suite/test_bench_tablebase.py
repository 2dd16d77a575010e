"""pytest-benchmark: building and probing tables.

    pytest benchmarks/suite/test_bench_tablebase.py --benchmark-enable
"""
import random

import pytest

from quixo_solver import Board
from quixo_solver.tablebase import Tablebase, build


@pytest.fixture(scope="module")
def tables_4x4(tmp_path_factory):
    directory = tmp_path_factory.mktemp("tables")
    build(directory, 4)
    return directory


def test_build_3x3(benchmark, tmp_path):
    counter = iter(range(10**6))
    benchmark(lambda: build(tmp_path / str(next(counter)), 3, progress=False))


def test_build_4x4(benchmark, tmp_path):
    counter = iter(range(10**6))
    benchmark.pedantic(lambda: build(tmp_path / str(next(counter)), 4, progress=False),
                       rounds=3, iterations=1)


def test_probe_wdl_4x4(benchmark, tables_4x4):
    rng = random.Random(7)
    boards = []
    for _ in range(1000):
        cells = "".join(rng.choice("XO.") for _ in range(16))
        boards.append(Board(cells + " X"))
    with Tablebase(tables_4x4) as tablebase:
        benchmark(lambda: [tablebase.probe_wdl(board) for board in boards])
