"""The value code has one definition in the kernels (_value_code.pxd) and one Python twin
(tablebase/values.py): they must agree on every code a table can hold."""
from hypothesis import given
from hypothesis import strategies as st

from quixo_solver.tablebase import _verify
from quixo_solver.tablebase import values


@given(plies=st.integers(min_value=0, max_value=32766 // 2 - 1),
       code=st.integers(min_value=0, max_value=0xFFFF))
def test_the_kernels_and_the_twin_agree(plies, code):
    win, loss, is_win, is_loss, plies_of = _verify.value_code_kernels(plies, code)
    assert win == values.encode(values.WIN, plies)
    assert loss == values.encode(values.LOSS, plies)
    assert is_win == values.is_win(code) == (values.wdl_of(code) == values.WIN)
    assert is_loss == values.is_loss(code) == (values.wdl_of(code) == values.LOSS)
    if code:
        assert plies_of == values.plies_of(code)


def test_known_codes():
    assert values.encode(values.DRAW, None) == 0
    assert [values.encode(values.WIN, k) for k in (0, 1, 7)] == [1, 3, 15]
    assert [values.encode(values.LOSS, k) for k in (0, 1, 7)] == [2, 4, 16]
    assert values.plies_of(0) is None and values.plies_of(15) == 7 == values.plies_of(16)


def test_the_generators_working_word_has_one_layout():
    from quixo_solver.tablebase.generator import _retro

    names = ("SETTLED", "CODE_MASK", "HOLE", "WEIGHT_UNIT", "LONGEST_PLIES", "COUNT_MASK",
             "EXTERNAL_SHIFT", "EXTERNAL_NONE", "EXTERNAL_LONG", "EXTERNAL_DRAW")
    assert _retro.WORKING_WORD == {name: getattr(values, name) for name in names}
    # a settled word and an undecided one never meet; the largest count fits its field and
    # stays below a hole's, and the external field sits above it, below SETTLED
    assert values.SETTLED > values.HOLE
    assert 44 * values.WEIGHT_UNIT < values.COUNT_MASK == values.HOLE & values.COUNT_MASK
    assert values.COUNT_MASK < 1 << values.EXTERNAL_SHIFT
    assert values.EXTERNAL_DRAW << values.EXTERNAL_SHIFT | values.COUNT_MASK == values.HOLE
    assert values.EXTERNAL_NONE < values.EXTERNAL_LONG < values.EXTERNAL_DRAW
    assert values.SETTLED & values.CODE_MASK == 0
    assert values.encode(values.LOSS, values.LONGEST_PLIES) <= values.CODE_MASK
    assert values.encode(values.WIN, values.LONGEST_PLIES + 1) <= values.CODE_MASK
    assert values.encode(values.LOSS, values.LONGEST_PLIES + 1) > values.CODE_MASK
