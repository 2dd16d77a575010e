"""pytest-benchmark: move generation and perft, Cython kernels against the Python twin.

    pytest benchmarks/ --benchmark-enable
"""
import random

import pytest

from quixo_solver.rules import _rules, _rules_twin


def random_positions(size, count, seed=1):
    rng = random.Random(seed)
    result = []
    for _ in range(count):
        mover = opponent = 0
        for sq in range(size * size):
            cell = rng.randrange(3)
            mover |= (cell == 1) << sq
            opponent |= (cell == 2) << sq
        result.append((size, mover, opponent))
    return result


POSITIONS = random_positions(5, 200)


@pytest.mark.parametrize("engine", [_rules, _rules_twin], ids=["cython", "twin"])
def test_move_generation_and_play(benchmark, engine):
    def generate_and_play():
        total = 0
        for position in POSITIONS:
            for source, target in engine.legal_moves(*position):
                total += engine.play_move(*position, source, target)[0] & 1
        return total

    benchmark(generate_and_play)


@pytest.mark.parametrize("engine", [_rules, _rules_twin], ids=["cython", "twin"])
def test_perft_4x4_depth_3(benchmark, engine):
    assert benchmark(engine.perft, 4, 0, 0, 3) == 28312


def test_perft_5x5_depth_5_cython(benchmark):
    assert benchmark(_rules.perft, 5, 0, 0, 5) == 118928388


def test_perft_5x5_depth_6_cython(benchmark):
    assert benchmark.pedantic(_rules.perft, args=(5, 0, 0, 6), rounds=3) == 4422929160
