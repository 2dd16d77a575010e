"""solverkit.commandline's pieces that a front end without the parser shares with it: the line
of a usage error and the argparse type of an option with choices, whose words are those of
argparse's own `choices=` on Python 3.11, on every Python."""
import argparse

import pytest

from solverkit.commandline import OneLineParser, UsageError, choice_argument, usage_message

LOCK = choice_argument((5, 4), int)
JUDGE = choice_argument(("win", "lookahead"), str)


def test_a_choice_is_converted_and_checked():
    assert LOCK("4") == 4 and LOCK(" 5 ") == 5 and JUDGE("win") == "win"
    assert LOCK.__name__ == "int"


@pytest.mark.parametrize("read, text, message", [
    (LOCK, "7", "invalid choice: 7 (choose from 5, 4)"),
    (LOCK, "x", "invalid int value: 'x'"),
    (JUDGE, "oracle", "invalid choice: 'oracle' (choose from 'win', 'lookahead')"),
])
def test_a_refused_choice_says_what_argparse_3_11_says(read, text, message):
    with pytest.raises(argparse.ArgumentTypeError) as refused:
        read(text)
    assert str(refused.value) == message


def test_the_parser_and_usage_message_give_the_same_line():
    parser = OneLineParser(prog="prog")
    parser.add_argument("--judge", type=JUDGE)
    parser.add_argument("--need", required=True)
    long_name = "o" * 200
    with pytest.raises(UsageError) as refused:
        parser.parse_args([f"--judge={long_name}", "--need=1"])
    line = usage_message(f"argument --judge: invalid choice: '{long_name}' (choose from 'win', "
                         "'lookahead')")
    assert str(refused.value) == line
    assert line.endswith(" (see --help)") and "o" * 61 not in line      # the quote is cut
    with pytest.raises(UsageError) as refused:
        parser.parse_args([])
    assert str(refused.value) == usage_message("the following arguments are required: --need")


def test_usage_message_cuts_a_long_list_of_unrecognised_arguments():
    line = usage_message("unrecognized arguments: " + "x " * 200)
    assert len(line) < 120 and line.endswith("... (see --help)")
