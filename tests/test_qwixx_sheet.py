"""Sheets and dice: notation, refusals, legal marks, score."""
import pytest

from qwixx_stats import Dice, DiceError, IllegalMarkError, QwixxError, Sheet, SheetError


def test_notation_round_trip_and_any_order():
    sheet = Sheet.parse("penalties:1 closed:red green:12,10 red:2,3,5,6,7,12")
    assert str(sheet) == ("red:2,3,5,6,7,12 yellow: green:12,10 blue: penalties:1 closed:red")
    assert Sheet.parse(str(sheet)) == sheet
    assert Sheet.parse("") == Sheet()


@pytest.mark.parametrize("text, fragment", [
    ("red:5,3", "not in row order"),
    ("green:3,5", "not in row order"),
    ("red:2,2", "not in row order"),
    ("red:2,3,4,12 closed:red", "locking needs 5"),
    ("blue:12,11,10,9,8,2 closed:blue", None),            # legal: 5 marks then the lock
    ("red:2,3,4,5,6,12", "must be closed"),
    ("purple:3", "unknown sheet token 'purple'"),
    ("closed:purple", "unknown row 'purple'"),
    ("red:13", "not a number of a Qwixx row"),
    ("red:x", "not a whole number"),
    ("penalties:5", "penalties must be 0..4"),
    ("penalties:1,2", "penalties takes one number"),
    ("red:2 red:3", "appears twice"),
    ("red", "has no ':'"),
])
def test_impossible_sheets_are_refused(text, fragment):
    if fragment is None:
        assert Sheet.parse(text).is_locked("blue")
        return
    with pytest.raises(SheetError, match=fragment):
        Sheet.parse(text)


@pytest.mark.parametrize("text", ["3,4,6,1,2", "3,4,6,1,2,5,1", "0,4,6,1,2,5", "3,4,7,1,2,5",
                                  "a,4,6,1,2,5", ""])
def test_bad_dice_are_refused(text):
    with pytest.raises(DiceError, match="dice"):
        Dice.parse(text)


def test_errors_are_value_errors():
    assert issubclass(SheetError, QwixxError) and issubclass(QwixxError, ValueError)
    assert issubclass(DiceError, ValueError) and issubclass(IllegalMarkError, ValueError)


def test_dice_sums():
    dice = Dice.parse("3,4,6,1,2,5")
    assert dice.white_sum == 7
    assert dice.colour_sums("red") == (9, 10)
    assert dice.colour_sums("blue") == (8, 9)
    assert str(dice) == "3,4,6,1,2,5"


def test_marks_go_right_of_the_last_one():
    sheet = Sheet.parse("red:2,5 green:12,8")
    assert sheet.legal_marks("red") == (6, 7, 8, 9, 10, 11)
    assert sheet.legal_marks("green") == (7, 6, 5, 4, 3)
    assert not sheet.can_mark("red", 5) and not sheet.can_mark("green", 9)
    with pytest.raises(IllegalMarkError, match="cannot be marked"):
        sheet.mark("red", 4)


def test_lock_needs_five_marks_and_counts_as_a_mark():
    four = Sheet.parse("yellow:2,3,4,5")
    assert not four.can_mark("yellow", 12)
    five = four.mark("yellow", 6)
    locked = five.mark("yellow", 12)
    assert locked.is_locked("yellow") and "yellow" in locked.closed
    assert locked.mark_count("yellow") == 7
    assert locked.score() == 28
    assert locked.legal_marks("yellow") == ()


def test_closed_rows_take_no_marks():
    sheet = Sheet.parse("red:2 closed:red")
    assert sheet.legal_marks("red") == ()
    assert sheet.score() == 1 and not sheet.is_locked("red")


def test_score_and_end():
    sheet = Sheet.parse("red:2,3,4 green:12 penalties:2")
    assert sheet.score() == 6 + 1 - 10
    assert not sheet.is_finished()
    assert Sheet.parse("penalties:4").is_finished()
    assert Sheet.parse("closed:red,blue").is_finished()
    with pytest.raises(IllegalMarkError):
        Sheet.parse("penalties:4").add_penalty()


def test_lock_after_four_variant():
    from qwixx_stats.errors import SheetError
    four = Sheet.parse("red:2,3,4,5", lock_after=4)
    assert four.can_mark("red", 12) and not Sheet.parse("red:2,3,4,5").can_mark("red", 12)
    locked = four.mark("red", 12)
    assert locked.lock_after == 4 and locked.is_locked("red") and "red" in locked.closed
    assert locked.score() == 21                       # 4 marks, the 12 and the lock
    assert Sheet.parse("red:2,3,4,5,12 closed:red", lock_after=4) == locked
    with pytest.raises(SheetError, match="locking needs 5"):
        Sheet.parse("red:2,3,4,5,12 closed:red")
    with pytest.raises(SheetError, match="locking needs 4"):
        Sheet.parse("red:2,3,4,12 closed:red", lock_after=4)
    with pytest.raises(SheetError, match="5 \\(the printed rules\\) or 4"):
        Sheet(lock_after=6)
    # a sheet keeps its rule through every change
    assert four.add_penalty().close(["blue"]).lock_after == 4
