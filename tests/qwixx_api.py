"""What the Qwixx API tests share: how a refusal is checked (the named QwixxError, a
ValueError, with a one-line message) and the Hypothesis inputs of the fuzz tests (anything a
caller might pass where the API expects a row, a number or dice)."""
import pytest
from hypothesis import strategies as st

from qwixx_stats import QwixxError

from .refusals import assert_one_line


def refusal_cases(cases):
    """Parametrize a test by (name, call, expected error) cases."""
    return pytest.mark.parametrize("call, expected", [case[1:] for case in cases],
                                   ids=[case[0] for case in cases])


def assert_refuses(call, expected):
    """`call()` raises `expected`, a QwixxError (so a ValueError), with a one-line message."""
    assert issubclass(expected, QwixxError) and issubclass(expected, ValueError)
    with pytest.raises(expected) as caught:
        call()
    assert_one_line(caught.value)


ANYTHING = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True),
                     st.text(max_size=30), st.binary(max_size=10),
                     st.lists(st.integers(-3, 15), max_size=8),
                     st.tuples(st.sampled_from(["red", "blue", "pink", 3]), st.integers(-2, 14)))
DICE_INPUT = st.one_of(ANYTHING, st.text(alphabet="0123456789, -+", max_size=20),
                       st.lists(st.integers(-1, 8), min_size=5, max_size=7),
                       st.lists(st.integers(1, 6), min_size=6, max_size=6).map(
                           lambda v: ",".join(map(str, v))))
COLOUR = st.one_of(st.sampled_from(["red", "yellow", "green", "blue"]), ANYTHING)
