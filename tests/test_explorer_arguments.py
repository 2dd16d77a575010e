"""explorer/arguments.py without a server: a query read parameter by parameter (OptionValues,
the Qwixx API's way) refuses bad values in the words of the command line's parser."""
from __future__ import annotations

import pytest

from solverkit.commandline import OneLineParser, UsageError, whole_number_argument

from .extras import require

require("starlette")

SEED_TYPE = whole_number_argument("a seed", 0, 99)


def parameters():
    from explorer.arguments import Parameter

    return (Parameter("name", "--name"), Parameter("fast", "--fast", flag=True),
            Parameter("seed", "--seed"))


def read(pairs):
    from explorer.arguments import OptionValues

    return OptionValues(pairs, parameters())


def parser_error(*argv: str) -> str:
    """What the command line's own parser says of `argv` (the same options)."""
    parser = OneLineParser(prog="prog")
    parser.add_argument("--name", required=True)
    parser.add_argument("--fast", action="store_true")
    parser.add_argument("--seed", type=SEED_TYPE, default=0)
    with pytest.raises(UsageError) as refused:
        parser.parse_args(list(argv))
    return str(refused.value)


def test_values_flags_and_defaults():
    name, fast, seed = parameters()
    query = read([("seed", "7"), ("fast", "1"), ("name", "x")])
    assert query.read(seed, SEED_TYPE, 0) == 7 and query.flag(fast)
    assert query.required(name) == ["x"] and query.text(name) == "x"
    empty = read([])
    assert empty.read(seed, SEED_TYPE, 0) == 0 and not empty.flag(fast)
    assert empty.text(name) is None and not read([("fast", "0")]).flag(fast)


def test_a_bad_value_is_refused_in_the_parsers_words():
    from explorer.arguments import BadRequest

    name, fast, seed = parameters()
    with pytest.raises(BadRequest) as refused:
        read([("seed", "-1"), ("name", "x")]).read(seed, SEED_TYPE, 0)
    assert str(refused.value) == parser_error("--seed=-1", "--name=x")
    with pytest.raises(BadRequest) as refused:
        read([]).required(name)
    assert str(refused.value) == parser_error()


def test_flags_are_1_or_0_and_parameters_known_and_single():
    from explorer.arguments import BadRequest

    for pairs, message in [([("fast", "yes")], "fast must be 1 or 0, not 'yes'"),
                           ([("slow", "1")], "unknown parameter 'slow'"),
                           ([("seed", "1"), ("seed", "2")], "the parameter 'seed' is given twice")]:
        with pytest.raises(BadRequest, match=message):
            read(pairs)


def test_an_error_of_another_kind_passes_through():
    _, _, seed = parameters()

    def broken(text: str) -> int:
        raise ValueError("not argparse's")

    with pytest.raises(ValueError, match="not argparse's"):
        read([("seed", "1")]).read(seed, broken, 0)
