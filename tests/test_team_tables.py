"""The four-player generator: its index against a plain twin of its definition, its kernels
against the pure-Python twin, and the whole 3x3 game against the solution by rounds
(teams/_solve.pyx), position by position."""
from functools import lru_cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quixo_solver.errors import PositionError
from quixo_solver.rules.geometry import symmetry_permutations
from quixo_solver.tablebase import values
from quixo_solver.teams import _solve
from quixo_solver.teams.tables import _tier_index, _tier_retro, _tier_twin, tiers

from .test_index import image, squares, twin_orbit_index, twin_rank

ROLE_DIGITS = 4


@st.composite
def team_positions(draw):
    """(size, roles): any four-player position, the game over or not."""
    size = draw(st.sampled_from((3, 4, 5)))
    cells = draw(st.lists(st.integers(-1, 3), min_size=size * size, max_size=size * size))
    roles = [0, 0, 0, 0]
    for sq, role in enumerate(cells):
        if role >= 0:
            roles[role] |= 1 << sq
    return size, tuple(roles)


def twin_tier_index(size, roles):
    """The definition (_tier_index.pxd): the teams' two-player entry, then the dots of the
    image that puts the teams on the canonical set with the smallest arrangement, the
    smallest dots among those."""
    own, next_, mate, last = roles
    team, others = own | mate, next_ | last
    forms = [tuple(image(p, cubes) for cubes in roles) for p in symmetry_permutations(size)]
    canonical = min(twin_rank(squares(sum(form))) for form in forms)
    on_canonical = [form for form in forms if twin_rank(squares(sum(form))) == canonical]

    def arrangement(form):
        occupied = squares(sum(form))
        return twin_rank([i for i, sq in enumerate(occupied) if (form[0] | form[2]) >> sq & 1])

    def dots(form):
        team_squares = squares(form[0] | form[2])
        other_squares = squares(form[1] | form[3])
        own_bits = sum(1 << i for i, sq in enumerate(team_squares) if form[0] >> sq & 1)
        next_bits = sum(1 << i for i, sq in enumerate(other_squares) if form[1] >> sq & 1)
        return own_bits | next_bits << len(team_squares)

    smallest = min(arrangement(form) for form in on_canonical)
    best_dots = min(dots(form) for form in on_canonical if arrangement(form) == smallest)
    cubes = bin(team | others).count("1")
    return twin_orbit_index(size, team, others) << cubes | best_dots


def side_of(size, roles):
    team = bin(roles[0] | roles[2]).count("1")
    return _tier_index.TierSideIndex(size, team, bin(roles[1] | roles[3]).count("1"))


def few_occupied_sets(size, roles):
    """Whether the twin can enumerate the canonical sets (test_index's limits)."""
    cubes = bin(roles[0] | roles[1] | roles[2] | roles[3]).count("1")
    return size < 5 or cubes <= 4 or cubes >= 21


@settings(max_examples=200, deadline=None)
@given(team_positions())
def test_the_tier_index_matches_its_twin_on_every_symmetric_form(position):
    size, roles = position
    side = side_of(size, roles)
    index = side.index_of(roles)
    assert 0 <= index < side.entries
    if few_occupied_sets(size, roles):
        assert index == twin_tier_index(size, roles)
    forms = {tuple(image(p, cubes) for cubes in roles) for p in symmetry_permutations(size)}
    for form in forms:
        assert side.index_of(form) == index
    stored, hole = side.position_at(index)
    assert stored in forms and not hole


@lru_cache(maxsize=None)
def every_3x3_position():
    """The role masks of all 5^9 positions, in the order of _solve.position_index."""
    index = np.arange(5 ** 9, dtype=np.int64)
    roles = [np.zeros(len(index), dtype=np.uint32) for _ in range(ROLE_DIGITS)]
    for sq in range(9):
        index, digit = np.divmod(index, 5)
        for role in range(ROLE_DIGITS):
            roles[role] |= (digit == role + 1).astype(np.uint32) << sq
    popcount = np.array([bin(m).count("1") for m in range(1 << 9)])
    return roles, popcount[roles[0] | roles[2]], popcount[roles[1] | roles[3]]


def entries_of_every_3x3_position():
    """{side: (which positions are on it, their entries)}."""
    roles, team, others = every_3x3_position()
    result = {}
    for t in range(10):
        for u in range(10 - t):
            on_side = (team == t) & (others == u)
            result[(t, u)] = on_side, _tier_index.TierSideIndex(3, t, u).indexes_of(
                *[np.ascontiguousarray(masks[on_side]) for masks in roles])
    return result


def test_every_3x3_slot_is_one_orbit_or_a_hole():
    for (t, u), (on_side, entries) in entries_of_every_3x3_position().items():
        side = _tier_index.TierSideIndex(3, t, u)
        assert side.entries == _tier_index.side_entries(3, t, u)
        holes = np.array([side.position_at(i)[1] for i in range(side.entries)])
        assert set(np.unique(entries)) == set(np.nonzero(~holes)[0])


def test_the_tiers_reproduce_the_3x3_solution_by_rounds_on_every_position():
    solved = tiers.solve_board(3, threads=2)
    by_rounds = _solve.solve(3)
    ours = np.full(5 ** 9, 0xFFFF, dtype=np.uint16)
    for side, (on_side, entries) in entries_of_every_3x3_position().items():
        ours[on_side] = solved[side][entries]
    assert np.array_equal(ours, by_rounds)
    empty = _tier_index.TierSideIndex(3, 0, 0).index_of((0, 0, 0, 0))
    assert solved[(0, 0)][empty] == values.encode(values.WIN, 7)


def test_the_result_does_not_depend_on_the_threads():
    one, two = tiers.solve_board(3, threads=1), tiers.solve_board(3, threads=2)
    assert one.keys() == two.keys()
    assert all(np.array_equal(one[side], two[side]) for side in one)


# tiers of 3x3 small enough for the twin (a few thousand raw positions)
SMALL_TIERS = [(0, 0), (1, 0), (2, 0), (1, 1), (3, 0), (2, 1), (8, 0), (9, 0)]


@pytest.mark.parametrize("team_count, other_count", SMALL_TIERS)
def test_the_kernels_match_the_twin(team_count, other_count):
    """Both sides of a tier, every raw position; the next tier's values come from the
    solution by rounds, which the twin asks and the kernels read from the tier's inputs."""
    by_rounds = _solve.solve(3)
    tier = tiers.Tier(3, team_count, other_count)
    needed = {}
    for t, u in tier.needs:
        side = _tier_index.TierSideIndex(3, t, u)
        needed[(t, u)] = np.zeros(side.entries, dtype=np.uint16)
        for roles in _tier_twin.side_positions(3, t, u):
            needed[(t, u)][side.index_of(roles)] = by_rounds[_solve.position_index(3, roles)]
    solved = tiers.solve_tier(tier, needed, threads=2)
    twin = _tier_twin.solve_tier(3, team_count, other_count,
                                 lambda roles: int(by_rounds[_solve.position_index(3, roles)]))
    for roles, code in twin.items():
        side = side_of(3, roles)
        assert solved[(side.team_count, side.other_count)][side.index_of(roles)] == code


def test_the_tiers_come_after_the_tiers_they_need():
    for size in (3, 4, 5):
        seen = set()
        for tier in tiers.tiers(size):
            assert set(tier.needs) <= seen
            seen.update(tier.sides)
        assert len(seen) == sum(1 for k in range(size * size + 1) for _ in range(k + 1))
    assert [t.cubes for t in tiers.tiers(4, max_blanks=1)] == [16] * 9 + [15] * 8


def test_bad_input_gets_the_named_error():
    with pytest.raises(ValueError, match="needs the"):
        _tier_retro.TierSide(3, 2, 1)
    with pytest.raises(ValueError, match="needs the"):
        _tier_retro.TierSide(3, 2, 1, np.zeros(3, dtype=np.uint16))
    with pytest.raises(ValueError, match="full board"):
        _tier_retro.TierSide(3, 5, 4, np.zeros(3, dtype=np.uint16))
    full = [_tier_retro.TierSide(3, 5, 4), _tier_retro.TierSide(3, 4, 5)]
    with pytest.raises(ValueError, match="other side"):
        _tier_retro.propagate(full[0], full[0], 2, 1)
    with pytest.raises(ValueError, match="starts at"):
        _tier_retro.propagate(full[0], full[1], 1, 1)
    side = _tier_index.TierSideIndex(3, 2, 1)
    with pytest.raises(PositionError, match="hold"):
        side.index_of((1, 2, 0, 0))
    with pytest.raises(PositionError, match="two masks share"):
        side.index_of((1, 1, 2, 0))
    with pytest.raises(PositionError, match="not within"):
        side.position_at(side.entries)
