"""Sheets and dice: notation, refusals, legal marks (and why a mark is illegal), score."""
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qwixx_stats import Dice, DiceError, IllegalMarkError, QwixxError, Sheet, SheetError
from qwixx_stats.rules.constants import PENALTIES_TO_END
from qwixx_stats.rules.sheet import COLOURS, ROW_NUMBERS, is_whole

from .qwixx_api import ANYTHING, DICE_INPUT, assert_refuses, refusal_cases
from .refusals import returns_or_refuses


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
    ("red:2,,3", "empty item between commas"),
    ("red:2,3,", "empty item between commas"),
    ("penalties:,", "empty item between commas"),
    ("closed:red,red", "lists a row twice"),
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


@pytest.mark.parametrize("faces, fragment", [
    (["3", "4", "6", "1", "2", "9"], r"every die shows 1\.\.6, not '9' \(the blue die\)"),
    ([3, 0, 6, 1, 2, 5], r"every die shows 1\.\.6, not 0 \(the second white die\)"),
    ([3, 4, True, 1, 2, 5], r"not True \(the red die\)"),
    (["3", "4", "6", "+1", "2", "5"], r"expected six numbers .*, not '\+1' \(the yellow die\)"),
    (["3", "4", "6", "1", "\u0662", "5"], r"not '\u0662' \(the green die\)"),
    (["9" * 5000, "4", "6", "1", "2", "5"], r"the first white die"),
    (["3", "4", "6", "1", "2"], "expected six numbers, got 5"),
])
def test_a_bad_face_is_refused_naming_its_die(faces, fragment):
    with pytest.raises(DiceError, match=fragment) as refused:
        Dice.of_faces(faces, "the roll")
    assert str(refused.value).startswith("dice 'the roll': ")


def test_faces_are_numbers_or_their_digits_and_every_parse_reads_them():
    assert Dice.of_faces(["3", 4, "6", 1, "2", 5], "typed") == Dice(3, 4, 6, 1, 2, 5)
    with pytest.raises(DiceError, match=r"dice '3,4,6,1,2,7': every die shows 1\.\.6, not '7' "
                                        r"\(the blue die\)"):
        Dice.parse("3,4,6,1,2,7")
    with pytest.raises(DiceError, match=r"not 7 \(the red die\)"):
        Dice.parse([3, 4, 7, 1, 2, 5])


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


# -- the rule of a legal mark, with its reasons -------------------------------------------------
@pytest.mark.parametrize("text, colour, number, reason", [
    ("red:2 closed:red", "red", 5, "red is closed"),
    ("red:2,5", "red", 5, "5 is already marked in red"),
    ("red:2,5", "red", 3, "3 is left of the last red mark (5): marks go to the right"),
    ("green:12,8", "green", 9, "9 is left of the last green mark (8): marks go to the right"),
    ("yellow:2,3,4,5", "yellow", 12,
     "12 is the last number of yellow: locking it needs 5 yellow marks first (4 so far)"),
    ("", "blue", 2, "2 is the last number of blue: locking it needs 5 blue marks first "
     "(0 so far)"),
])
def test_mark_problem_names_the_reason(text, colour, number, reason):
    sheet = Sheet.parse(text)
    assert sheet.mark_problem(colour, number) == reason
    assert not sheet.can_mark(colour, number)
    with pytest.raises(IllegalMarkError) as refused:
        sheet.mark(colour, number)
    assert str(refused.value) == f"{number} cannot be marked in {colour}: {reason}"


def test_mark_problem_is_none_for_legal_marks():
    sheet = Sheet.parse("red:2,5 yellow:2,3,4,5,6 green:12")
    assert sheet.mark_problem("red", 6) is None
    assert sheet.mark_problem("yellow", 12) is None            # five marks: the lock
    assert sheet.mark_problem("green", 11) is None
    assert sheet.mark_problem("blue", 12) is None
    assert Sheet.parse("red:2,3,4,5", lock_after=4).mark_problem("red", 12) is None


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 10), max_size=11), st.sampled_from(COLOURS),
       st.integers(0, 4), st.sampled_from([5, 4]), st.booleans())
def test_can_mark_is_no_problem_on_every_box(boxes, colour, penalties, lock_after, closed):
    """can_mark, legal_marks and mark all follow mark_problem, on every number of every row."""
    numbers = ROW_NUMBERS[colour]
    marks = tuple(numbers[box] for box in sorted(set(boxes)) if box < 10)
    rows = tuple(marks if c == colour else () for c in COLOURS)
    sheet = Sheet(rows, penalties, frozenset({colour} if closed else ()), lock_after)
    for other in COLOURS:
        legal = []
        for number in range(2, 13):
            problem = sheet.mark_problem(other, number)
            assert sheet.can_mark(other, number) == (problem is None)
            if problem is None:
                legal.append(number)
                assert sheet.mark(other, number).marks(other)[-1] == number
            else:
                assert "\n" not in problem
                with pytest.raises(IllegalMarkError, match=re.escape(problem)):
                    sheet.mark(other, number)
        assert sheet.legal_marks(other) == tuple(sorted(legal, key=ROW_NUMBERS[other].index))


def test_a_full_sheet_of_penalties_refuses_one_more():
    with pytest.raises(IllegalMarkError, match="at most 4 penalties"):
        Sheet(penalties=PENALTIES_TO_END).add_penalty()


# -- the API refuses bad input with the named error ---------------------------------------------
API_CASES = [
    ("Dice.parse(None)", lambda: Dice.parse(None), DiceError),
    ("Dice.parse(5)", lambda: Dice.parse(5), DiceError),
    ("Dice.parse(5.0)", lambda: Dice.parse(5.0), DiceError),
    ("Dice.parse(bytes)", lambda: Dice.parse(b"1,2,3,4,5,6"), DiceError),
    ("Dice.parse(set)", lambda: Dice.parse({1, 2, 3, 4, 5, 6}), DiceError),
    ("Dice.parse(five)", lambda: Dice.parse("1,2,3,4,5"), DiceError),
    ("Dice.parse(seven)", lambda: Dice.parse("1,2,3,4,5,6,1"), DiceError),
    ("Dice.parse(huge)", lambda: Dice.parse("1," * 100_000), DiceError),
    ("Dice.parse(7)", lambda: Dice.parse("1,2,3,4,5,7"), DiceError),
    ("Dice.parse(other digits)", lambda: Dice.parse("1,2,3,4,5,\u0665"), DiceError),
    ("Dice.parse(bool)", lambda: Dice.parse([1, 2, 3, 4, 5, True]), DiceError),
    ("Dice.parse(float)", lambda: Dice.parse([1, 2, 3, 4, 5, 6.0]), DiceError),
    ("Dice.parse(endless)", lambda: Dice.parse(iter(int, 1)), DiceError),
    ("Dice.parse(5000 digits)", lambda: Dice.parse("9" * 5000 + ",1,1,1,1,1"), DiceError),
    ("Sheet.parse(None)", lambda: Sheet.parse(None), SheetError),
    ("Sheet.parse(5)", lambda: Sheet.parse(5), SheetError),
    ("Sheet.parse(bytes)", lambda: Sheet.parse(b"red:2"), SheetError),
    ("Sheet.parse(other digits)", lambda: Sheet.parse("red:\u0663"), SheetError),
    ("Sheet.parse(sign)", lambda: Sheet.parse("red:+3"), SheetError),
    ("Sheet.parse(5000 digits)", lambda: Sheet.parse("penalties:" + "9" * 5000), SheetError),
    ("Sheet.parse(12 marks)", lambda: Sheet.parse("red:" + ",".join(["2"] * 12)), SheetError),
    ("Sheet(rows=None)", lambda: Sheet(None), SheetError),
    ("Sheet(rows=3 rows)", lambda: Sheet(((), (), ())), SheetError),
    ("Sheet(row None)", lambda: Sheet(((), None, (), ())), SheetError),
    ("Sheet(row text)", lambda: Sheet(("2,3", (), (), ())), SheetError),
    ("Sheet(penalties=True)", lambda: Sheet(penalties=True), SheetError),
    ("Sheet(penalties=1.0)", lambda: Sheet(penalties=1.0), SheetError),
    ("Sheet(closed=None)", lambda: Sheet(closed=None), SheetError),
    ("Sheet(closed='red')", lambda: Sheet(closed="red"), SheetError),
    ("legal_marks(['red'])", lambda: Sheet().legal_marks(["red"]), SheetError),
    ("legal_marks(None)", lambda: Sheet().legal_marks(None), SheetError),
    ("legal_marks('pink')", lambda: Sheet().legal_marks("pink"), SheetError),
    ("marks({})", lambda: Sheet().marks({}), SheetError),
    ("can_mark(number text)", lambda: Sheet().can_mark("red", "5"), SheetError),
    ("mark_problem(number 13)", lambda: Sheet().mark_problem("red", 13), SheetError),
    ("mark(bool)", lambda: Sheet().mark("red", True), SheetError),
    ("close(None)", lambda: Sheet().close(None), SheetError),
    ("close('red')", lambda: Sheet().close("red"), SheetError),
]


@refusal_cases(API_CASES)
def test_api_refuses_bad_input(call, expected):
    assert_refuses(call, expected)


# -- fuzzing: a refusal is the named error, in one line -----------------------------------------
SHEET_TEXT = st.one_of(
    st.text(max_size=40),
    st.text(alphabet="redyellowgreenbluepenaltiesclosed:,0123456789 \t+-_\u0663", max_size=60),
    st.lists(st.tuples(st.sampled_from(["red", "yellow", "green", "blue", "penalties", "closed",
                                        "pink", ""]),
                       st.lists(st.sampled_from(["2", "5", "7", "12", "0", "4", "red", "x", ""]),
                                max_size=6)),
             max_size=6).map(lambda tokens: " ".join(f"{k}:{','.join(v)}" for k, v in tokens)))


@settings(max_examples=250, deadline=None)
@given(SHEET_TEXT)
def test_fuzz_sheet_parse(text):
    sheet = returns_or_refuses(lambda: Sheet.parse(text), SheetError)
    if isinstance(sheet, Sheet):
        assert Sheet.parse(str(sheet)) == sheet


@settings(max_examples=200, deadline=None)
@given(DICE_INPUT)
def test_fuzz_dice_parse(value):
    dice = returns_or_refuses(lambda: Dice.parse(value), DiceError)
    if isinstance(dice, Dice):
        assert all(1 <= d <= 6 for d in dice)


def _a_box(colour, number):
    """Whether (colour, number) names a box of a row (else the sheet refuses: SheetError)."""
    return colour in COLOURS and is_whole(number) and 2 <= number <= 12


@settings(max_examples=150, deadline=None)
@given(ANYTHING, ANYTHING, st.sampled_from(["legal_marks", "marks", "mark_count", "is_locked"]))
def test_fuzz_sheet_queries(colour, number, method):
    sheet = Sheet.parse("red:2,3 green:12 penalties:1")
    answer = returns_or_refuses(lambda: getattr(sheet, method)(colour), SheetError)
    assert isinstance(answer, SheetError) == (colour not in COLOURS)
    legal = returns_or_refuses(lambda: sheet.can_mark(colour, number), SheetError)
    assert isinstance(legal, SheetError) == (not _a_box(colour, number))
    marked = returns_or_refuses(lambda: sheet.mark(colour, number), SheetError,
                                IllegalMarkError)
    if not _a_box(colour, number):
        assert isinstance(marked, SheetError)
    elif legal:
        assert isinstance(marked, Sheet)
    else:
        assert isinstance(marked, IllegalMarkError)
