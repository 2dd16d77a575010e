"""The perfect class index against a plain twin: colex rank by math.comb, blocks of C(k, a)."""
from math import comb

from hypothesis import given

from quixo_solver.tablebase import _index

from .conftest import positions


def twin_rank(members: list[int]) -> int:
    return sum(comb(p, i + 1) for i, p in enumerate(sorted(members)))


def twin_index(size: int, mover: int, opponent: int) -> int:
    occupied = [sq for sq in range(size * size) if (mover | opponent) >> sq & 1]
    mover_places = [i for i, sq in enumerate(occupied) if mover >> sq & 1]
    block = comb(len(occupied), len(mover_places))
    return twin_rank(occupied) * block + twin_rank(mover_places)


@given(positions())
def test_index_matches_the_twin_and_round_trips(position):
    size, mover, opponent = position
    index = _index.position_index(size, mover, opponent)
    assert index == twin_index(size, mover, opponent)
    a, b = bin(mover).count("1"), bin(opponent).count("1")
    assert 0 <= index < _index.class_size(size, a, b)
    assert _index.position_at(size, a, b, index) == (mover, opponent)


def test_class_sizes_cover_every_arrangement():
    for size in (3, 4, 5):
        cells = size * size
        total = sum(_index.class_size(size, a, b)
                    for a in range(cells + 1) for b in range(cells + 1 - a))
        assert total == 3 ** cells


def test_subsets_come_in_rank_order():
    subsets = _index.subsets_in_order(3, 7)
    assert len(subsets) == comb(7, 3)
    for rank, mask in enumerate(subsets):
        assert twin_rank([p for p in range(7) if int(mask) >> p & 1]) == rank
