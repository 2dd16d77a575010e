"""The perfect class index against a plain twin: colex rank by math.comb, blocks of C(k, a)."""
from math import comb

from hypothesis import given

from quixo_solver.tablebase.format import _index

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


# -- the symmetry-class index (_orbit_index) against a plain twin of its definition ---------
from bisect import bisect_left  # noqa: E402
from functools import lru_cache  # noqa: E402
from itertools import combinations  # noqa: E402

import pytest  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from quixo_solver.errors import PositionError  # noqa: E402
from quixo_solver.rules.geometry import symmetry_permutations  # noqa: E402
from quixo_solver.tablebase.format import _orbit_index# noqa: E402


def image(permutation, cubes: int) -> int:
    return sum(1 << permutation[sq] for sq in range(len(permutation)) if cubes >> sq & 1)


def squares(cubes: int) -> list[int]:
    return [sq for sq in range(32) if cubes >> sq & 1]


@lru_cache(maxsize=None)
def canonical_set_ranks(size: int, count: int) -> list[int]:
    """Ranks of the sets that rank lowest among their 8 images, in order (the blocks)."""
    result = []
    for members in combinations(range(size * size), count):
        cubes = sum(1 << sq for sq in members)
        rank = twin_rank(list(members))
        if all(twin_rank(squares(image(p, cubes))) >= rank for p in symmetry_permutations(size)):
            result.append(rank)
    return sorted(result)


def twin_orbit_index(size: int, mover: int, opponent: int) -> int:
    images = [(image(p, mover), image(p, opponent)) for p in symmetry_permutations(size)]
    canonical = min(twin_rank(squares(m | o)) for m, o in images)
    occupied_count, mover_count = bin(mover | opponent).count("1"), bin(mover).count("1")
    block = bisect_left(canonical_set_ranks(size, occupied_count), canonical)
    arrangement = min(twin_rank([i for i, sq in enumerate(squares(m | o)) if m >> sq & 1])
                      for m, o in images if twin_rank(squares(m | o)) == canonical)
    return block * comb(occupied_count, mover_count) + arrangement


@st.composite
def positions_with_few_sets(draw):
    """Positions whose number of occupied sets the twin can enumerate: 3x3, 4x4, and 5x5 with
    at most 4 cubes or at most 4 blanks."""
    size, mover, opponent = draw(positions())
    if size == 5 and 4 < bin(mover | opponent).count("1") < 21:
        keep = draw(st.sampled_from((0, 1)))
        order = draw(st.permutations(range(25)))
        cubes = order[:draw(st.integers(0, 4))] if keep else order[:draw(st.integers(21, 25))]
        split = draw(st.integers(0, len(cubes)))
        mover = sum(1 << sq for sq in cubes[:split])
        opponent = sum(1 << sq for sq in cubes[split:])
    return size, mover, opponent


@given(positions_with_few_sets())
def test_orbit_index_matches_the_twin_on_every_symmetric_form(position):
    size, mover, opponent = position
    index = _orbit_index.position_index(size, mover, opponent)
    assert index == twin_orbit_index(size, mover, opponent)
    for permutation in symmetry_permutations(size):
        assert _orbit_index.position_index(size, image(permutation, mover),
                                           image(permutation, opponent)) == index
    a, b = bin(mover).count("1"), bin(opponent).count("1")
    assert 0 <= index < _orbit_index.entry_count(size, a, b)
    stored = _orbit_index.position_at(size, a, b, index)
    assert stored in {(image(p, mover), image(p, opponent)) for p in symmetry_permutations(size)}


def test_every_3x3_entry_is_one_orbit_or_a_hole():
    for a in range(10):
        for b in range(10 - a):
            orbits = _orbit_index.orbit_class(3, a, b)
            assert orbits.entries == _orbit_index.entry_count(3, a, b)
            stored = 0
            for index in range(orbits.entries):
                mover, opponent, hole = orbits.position_at(index)
                if hole:
                    with pytest.raises(PositionError, match="hole"):
                        _orbit_index.position_at(3, a, b, index)
                    assert _orbit_index.position_index(3, mover, opponent) < index
                else:
                    stored += 1
                    assert _orbit_index.position_index(3, mover, opponent) == index
            assert stored == _orbit_index.position_orbits(3, a, b)


def test_blocks_and_orbits_follow_burnside():
    for size in (3, 4, 5):
        for count in (0, 1, 2, size * size - 2, size * size):
            assert len(_orbit_index.subset_classes(size, count)[1]) == \
                _orbit_index.subset_orbits(size, count)
    # the orbits of all 3 ** 9 positions of 3x3, counted by brute force
    seen = set()
    for arrangement in range(3 ** 9):
        cells = [arrangement // 3 ** sq % 3 for sq in range(9)]
        mover = sum(1 << sq for sq in range(9) if cells[sq] == 1)
        opponent = sum(1 << sq for sq in range(9) if cells[sq] == 2)
        seen.add(min((image(p, mover), image(p, opponent)) for p in symmetry_permutations(3)))
    assert len(seen) == sum(_orbit_index.position_orbits(3, a, b) for a in range(10)
                            for b in range(10 - a))
