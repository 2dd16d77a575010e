"""Reading an API request's query string as the command line reads its arguments.

Each endpoint of the JSON API is a command of the `quixo` or `qwixx` command line (SPEC
"Web"), and a number out of range, a clock that cannot be read or an unknown option value is
refused with the very message the command line prints (the API answers it as 400
`{"error": ...}`). Two ways get there: the query parameters become the command's arguments,
parsed by the command line's own parser (`parse_command`: the Quixo API), or each parameter
is read by the function that the parser takes as the option's type, and refused in the
parser's words (`OptionValues`: the Qwixx API). A parameter the endpoint does not know, or one
given twice, is refused too.
"""
from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Callable, Mapping, Optional, Sequence, TypeVar

from solverkit.commandline import usage_message
from solverkit.messages import clip

T = TypeVar("T")


class BadRequest(ValueError):
    """A request the API refuses with `status` (400 unless said) and this message."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Parameter:
    """A query parameter: the command-line option it becomes (None: the command's positional
    argument), and whether it is a flag (`1` gives the option, `0` leaves it out)."""

    name: str
    option: str | None
    flag: bool = False


def query_values(pairs: Sequence[tuple[str, str]],
                 parameters: Sequence[Parameter]) -> dict[str, str]:
    """The parameters of a query (its decoded name/value pairs), each at most once and
    every one known to the endpoint."""
    known = {parameter.name for parameter in parameters}
    values: dict[str, str] = {}
    for name, value in pairs:
        if name not in known:
            raise BadRequest(f"unknown parameter {clip(name)}: this request takes "
                             f"{', '.join(sorted(known))}")
        if name in values:
            raise BadRequest(f"the parameter {name!r} is given twice")
        values[name] = value
    return values


def flag_value(parameter: Parameter, value: str) -> bool:
    """A flag's value: `1` gives the option, `0` leaves it out."""
    if value not in ("0", "1"):
        raise BadRequest(f"{parameter.name} must be 1 or 0, not {clip(value)}")
    return value == "1"


def command_line(words: Sequence[str], values: Mapping[str, str],
                 parameters: Sequence[Parameter]) -> list[str]:
    """The command-line arguments of `words` (the command) with the query's values. Every
    value is attached to its option (`--time=VALUE`) and positionals come after `--`, so no
    value is ever read as an option."""
    options, positionals = [], []
    for parameter in parameters:
        if parameter.name not in values:
            continue
        value = values[parameter.name]
        if parameter.option is None:
            positionals.append(value)
        elif parameter.flag:
            if flag_value(parameter, value):
                options.append(parameter.option)
        else:
            options.append(f"{parameter.option}={value}")
    return [*words, *options, *(["--", *positionals] if positionals else [])]


def parse_command(parser: argparse.ArgumentParser, words: Sequence[str],
                  pairs: Sequence[tuple[str, str]],
                  parameters: Sequence[Parameter]) -> argparse.Namespace:
    """The namespace the command line's `parser` makes of the request's query; the parser's
    refusal (a ValueError subclass with the command line's message) passes through."""
    values = query_values(pairs, parameters)
    return parser.parse_args(command_line(words, values, parameters))


class OptionValues:
    """A query's parameters read one by one, each as the command line reads its option, with
    no parser: `read` converts a value with the option's argparse type and refuses it in the
    words the parser would use (`argument --seed: ...`). The flags are read at once (as
    `command_line` reads them before the parser sees anything); call `read` in the order of
    the command line's options and `required` last, as the parser reports them."""

    def __init__(self, pairs: Sequence[tuple[str, str]],
                 parameters: Sequence[Parameter]) -> None:
        self.values = query_values(pairs, parameters)
        self.flags = {parameter.name: flag_value(parameter, self.values[parameter.name])
                      for parameter in parameters
                      if parameter.flag and parameter.name in self.values}

    def flag(self, parameter: Parameter) -> bool:
        return self.flags.get(parameter.name, False)

    def text(self, parameter: Parameter) -> Optional[str]:
        return self.values.get(parameter.name)

    def read(self, parameter: Parameter, convert: Callable[[str], T], default: T) -> T:
        """The parameter's value by `convert` (an argparse type), or `default` when it is
        not given."""
        text = self.values.get(parameter.name)
        if text is None:
            return default
        try:
            return convert(text)
        except argparse.ArgumentTypeError as error:
            raise BadRequest(usage_message(f"argument {parameter.option}: {error}")) from None

    def required(self, *parameters: Parameter) -> list[str]:
        """The texts of parameters the command needs, refused together when any is missing."""
        missing = [str(parameter.option) for parameter in parameters
                   if parameter.name not in self.values]
        if missing:
            raise BadRequest(usage_message("the following arguments are required: "
                                           + ", ".join(missing)))
        return [self.values[parameter.name] for parameter in parameters]
