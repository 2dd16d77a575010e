"""Exact probability tables against an independent enumeration of all 6^6 rolls."""
import itertools
from fractions import Fraction

import pytest

from qwixx_stats import COLOURS, Dice, Sheet
from qwixx_stats.rules.probabilities import exact_tables, float_tables, tables_json

ROLLS = [Dice(*faces) for faces in itertools.product(range(1, 7), repeat=6)]


def chance(event) -> Fraction:
    return Fraction(sum(1 for dice in ROLLS if event(dice)), len(ROLLS))


def test_white_sum_is_the_triangle():
    tables = exact_tables()
    for s in range(2, 13):
        assert tables["white_sum"][s] == Fraction(6 - abs(s - 7), 36)
        assert tables["passive"][s] == tables["white_sum"][s]
    assert sum(tables["white_sum"].values()) == 1


@pytest.mark.parametrize("colour", COLOURS)
def test_every_row_has_the_tables_by_enumerating_whole_rolls(colour):
    tables = exact_tables()
    for n in range(2, 13):
        assert chance(lambda d: n in d.colour_sums(colour)) == tables["active_colour"][n]
        assert chance(lambda d: n == d.white_sum or n in d.colour_sums(colour)) \
            == tables["active_any"][n]


def test_lock_chances_for_a_player_allowed_to_lock():
    tables = exact_tables()
    ready = {"red": Sheet.parse("red:2,3,4,5,6"), "green": Sheet.parse("green:12,11,10,9,8")}
    for colour, sheet in ready.items():
        last = 12 if colour == "red" else 2
        assert sheet.can_mark(colour, last)
        assert chance(lambda d: d.white_sum == last) == tables["lock_passive"] == Fraction(1, 36)
        assert chance(lambda d: d.white_sum == last or last in d.colour_sums(colour)) \
            == tables["lock_active"] == Fraction(2, 27)


def test_expected_usable_numbers():
    expected = sum(Fraction(len({d.white_sum, *d.colour_sums("red")}), len(ROLLS)) for d in ROLLS)
    assert exact_tables()["usable_sums_active"] == expected


def test_float_tables_match_the_fractions():
    exact, floats = exact_tables(), float_tables()
    for key in ("white_sum", "passive", "active_colour", "active_any"):
        for n in range(2, 13):
            assert floats[key][n] == pytest.approx(float(exact[key][n]), abs=1e-15)
    for key in ("lock_passive", "lock_active", "usable_sums_active"):
        assert floats[key] == pytest.approx(float(exact[key]), abs=1e-12)


def test_json_writes_exact_fractions():
    payload = tables_json()
    assert payload["white_sum"]["7"] == "1/6"
    assert payload["white_sum"]["2"] == "1/36"
    assert payload["lock_passive"] == "1/36"
    assert set(payload["active_any"]) == {str(n) for n in range(2, 13)}
