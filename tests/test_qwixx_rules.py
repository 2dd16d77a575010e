"""The numbers of the rules and the one test of a game's end (rules.py), the kernels' copy of
them (_constants.pxd), and the errors every refusal raises."""
import pytest

import qwixx_stats
from qwixx_stats import errors
from qwixx_stats.strategies import _simulate
from qwixx_stats.tables import _solitaire
from qwixx_stats.rules import constants as rules
from qwixx_stats import Game, Sheet
from qwixx_stats.rules.sheet import game_over


def test_the_kernels_are_compiled_with_the_rules_of_rules_py():
    expected = {name: getattr(rules, name) for name in (
        "MARKS_TO_LOCK", "LOCK_RULES", "PENALTY_POINTS", "PENALTIES_TO_END",
        "CLOSED_ROWS_TO_END")}
    assert _simulate.RULES == expected
    assert _solitaire.RULES == expected


def test_the_numbers_of_the_printed_rules():
    assert (rules.MARKS_TO_LOCK, rules.LOCK_RULES) == (5, (5, 4))
    assert (rules.PENALTY_POINTS, rules.PENALTIES_TO_END, rules.CLOSED_ROWS_TO_END) == (5, 4, 2)


@pytest.mark.parametrize("penalties, closed_rows, over", [
    (0, 0, False), (3, 1, False), (4, 0, True), (0, 2, True), (4, 2, True), (3, 3, True),
])
def test_game_ends(penalties, closed_rows, over):
    assert rules.game_ends(penalties, closed_rows) is over


def test_every_end_of_game_is_the_same_rule():
    """Sheet.is_finished, sheet.game_over and Game.is_over all ask rules.game_ends."""
    assert Sheet.parse("penalties:4").is_finished()
    assert Sheet.parse("closed:red,blue").is_finished()
    assert not Sheet.parse("penalties:3 closed:red").is_finished()
    # the rows closed on different sheets count together, and any player's fourth penalty
    apart = [Sheet.parse("closed:red"), Sheet.parse("closed:blue")]
    assert game_over(apart) and not any(sheet.is_finished() for sheet in apart)
    assert game_over([Sheet(), Sheet.parse("penalties:4")])
    assert not game_over([Sheet.parse("penalties:3 closed:green"), Sheet.parse("closed:green")])
    assert Game(2, apart).is_over()
    assert not Game(2, [Sheet.parse("closed:green"), Sheet()]).is_over()


def test_game_over_follows_the_rule_numbers(monkeypatch):
    """One place decides: with a (hypothetical) third closed row ending the game, the sheets
    and the game follow it."""
    import qwixx_stats.rules.sheet
    monkeypatch.setattr(qwixx_stats.rules.sheet, "game_ends",
                        lambda penalties, closed: penalties >= 4 or closed >= 3)
    assert not Sheet.parse("closed:red,blue").is_finished()
    assert not Game(2, [Sheet.parse("closed:red"), Sheet.parse("closed:blue")]).is_over()


def test_every_refusal_is_a_value_error_that_names_its_kind():
    assert issubclass(errors.QwixxError, ValueError)
    kinds = [value for value in vars(errors).values()
             if isinstance(value, type) and issubclass(value, Exception)]
    assert len(kinds) >= 11
    assert all(issubclass(kind, errors.QwixxError) for kind in kinds)
    assert issubclass(errors.SaveFileError, errors.TrackError)
    for name in qwixx_stats.__all__:
        if name.endswith("Error"):
            assert issubclass(getattr(qwixx_stats, name), errors.QwixxError)
