"""The Cython kernels agree with the pure-Python twin on random positions."""
from hypothesis import given
from hypothesis import strategies as st

from quixo_solver.rules import _rules, _rules_twin, geometry

from .conftest import positions


@given(positions())
def test_legal_moves_agree(position):
    assert _rules.legal_moves(*position) == _rules_twin.legal_moves(*position)


@given(positions())
def test_every_child_and_its_status_agree(position):
    size = position[0]
    for source, target in _rules_twin.legal_moves(*position):
        cython_child = _rules.play_move(*position, source, target)
        assert cython_child == _rules_twin.play_move(*position, source, target)
        assert _rules.position_status(size, *cython_child) == _rules_twin.position_status(
            size, *cython_child)


@given(positions())
def test_children_agree(position):
    assert _rules.children(*position) == _rules_twin.children(*position)


@given(positions())
def test_status_agrees(position):
    assert _rules.position_status(*position) == _rules_twin.position_status(*position)


@given(positions(), st.integers(0, 7))
def test_symmetries_agree(position, symmetry):
    size, mover, opponent = position
    for cubes in (mover, opponent):
        assert _rules.transform_mask(size, symmetry, cubes) == _rules_twin.transform_mask(
            size, symmetry, cubes)


@given(positions())
def test_canonical_form_and_key_agree(position):
    assert _rules.canonical_position(*position) == _rules_twin.canonical_position(*position)
    assert _rules.position_key(*position) == _rules_twin.position_key(*position)


@given(positions())
def test_perft_agrees(position):
    assert _rules.perft(*position, 2) == _rules_twin.perft(*position, 2)


@given(positions(), st.integers(0, 7))
def test_geometry_permutations_match_the_twin_grid_operations(position, symmetry):
    size, mover, _ = position
    permutation = geometry.symmetry_permutations(size)[symmetry]
    image = geometry.mask_of(permutation[sq] for sq in range(size * size) if mover >> sq & 1)
    assert image == _rules_twin.transform_mask(size, symmetry, mover)
