"""The JSON answers of `qwixx value` and `qwixx advise`, built in one place for every front end:
the command line prints them with --json and the explorer's web API (`quixo serve`,
/api/v1/qwixx/value and /advise) returns them, so both give the same object by construction
(SPEC "Command line" and "Web"). The text the command line prints without --json is read from
the same objects.

    value_answer(sheet, values)                       {"sheet", "expected_score", "lock_after"}
    advise_answer(sheet, dice, values, passive)       every option by its expected final score
    advise_to_win_answer(sheet, dice, opponents, advisor, ...)  by the chance of winning

`check_advice` refuses a roll that cannot be advised before any table is loaded.

Their inputs are read in one place too: the options of value and advise (`read_lock_after`,
`read_rollouts`, ... and `read_sheet`, `read_opponents`) are the argparse types of the command
line's parser and what the web API calls on the values of its query, so that a bad value is
refused with the same words wherever it is written (SPEC "Web": the API's errors are the
command line's).
"""
from __future__ import annotations

from typing import Any, Optional, Sequence

from solverkit.commandline import choice_argument, whole_number_argument

from .errors import QwixxError
from .rules.constants import LOCK_RULES
from .rules.game import MAX_PLAYERS, Option
from .rules.sheet import Dice, Sheet, game_over
from .tables.solitaire import ExpectedValues
from .advisor import ADVISED_STRATEGIES, Advice, Advisor
from .strategies.rollouts import MAX_ROLLOUTS, Estimate

DEFAULT_ROLLOUTS = 1000          # advise --opponents: games played on per option
DEFAULT_SEED = 0                 # and the seed of their rolls
read_lock_after = choice_argument(LOCK_RULES, int)
read_judge = choice_argument(ADVISED_STRATEGIES, str)
read_rollouts = whole_number_argument("a number of rollouts", 0, MAX_ROLLOUTS)
read_seed = whole_number_argument("a seed", 0, 2 ** 64 - 1)
read_roller = whole_number_argument("an opponent", 1, MAX_PLAYERS - 1)


def read_sheet(text: Optional[str], lock_after: int) -> Sheet:
    """--sheet in SPEC notation; None: the empty sheet."""
    return Sheet(lock_after=lock_after) if text is None else Sheet.parse(text, lock_after)


def read_opponents(text: str, lock_after: int) -> list[Sheet]:
    """--opponents 'SHEET;SHEET;...': the other players' sheets."""
    parts = [part.strip() for part in text.split(";", MAX_PLAYERS)]
    if len(parts) > MAX_PLAYERS - 1:
        raise QwixxError(f"--opponents: at most {MAX_PLAYERS - 1} sheets (a game has at most "
                         f"{MAX_PLAYERS} players)")
    return [Sheet.parse(part, lock_after) for part in parts]


def value_answer(sheet: Sheet, values: ExpectedValues) -> dict[str, Any]:
    """`qwixx value --json`: the expected final score of optimal single-player play."""
    return {"sheet": str(sheet), "expected_score": values.value(sheet),
            "lock_after": sheet.lock_after}


def describe(option: Option) -> dict[str, Any]:
    """An option as JSON: the white sum's row, the coloured mark, whether it is a penalty."""
    first, second = option
    return {"white": first,
            "colour": None if second is None else {"row": second[0], "number": second[1]},
            "penalty": first is None and second is None}


def option_of(entry: dict[str, Any]) -> Option:
    """The option an answer's entry describes."""
    colour = entry["colour"]
    return entry["white"], None if colour is None else (colour["row"], colour["number"])


def check_advice(sheet: Sheet, opponents: Optional[Sequence[Sheet]], passive: bool,
                 roller: Optional[int]) -> int:
    """QwixxError for a roll that cannot be advised (the game is over, a roller that is not an
    opponent); else the seat that rolled (0: the player advised). Checked before any table is
    loaded."""
    if sheet.is_finished():
        raise QwixxError(f"the game is over on this sheet ({sheet})")
    if opponents is None:
        return 0
    if game_over([sheet, *opponents]):
        raise QwixxError("the game is over on these sheets (a fourth penalty or two closed rows)")
    if roller is not None and not (passive and 1 <= roller <= len(opponents)):
        raise QwixxError(f"--roller names the opponent who rolled (1..{len(opponents)}), and "
                         "only with --passive")
    return (roller or 1) if passive else 0


def advise_answer(sheet: Sheet, dice: Dice, values: ExpectedValues,
                  passive: bool = False) -> dict[str, Any]:
    """`qwixx advise --json` for one player: every option with the expected final score of
    the single-player optimum after it, best first."""
    check_advice(sheet, None, passive, None)
    if passive:
        options = [{"white": row, "colour": None, "penalty": False, "expected_score": value}
                   for row, value in values.passive_options(sheet, dice)]
    else:
        options = [dict(describe(option), expected_score=value)
                   for option, value in values.active_options(sheet, dice)]
    return {"sheet": str(sheet), "dice": str(dice), "active": not passive,
            "lock_after": sheet.lock_after, "options": options}


def advise_to_win_answer(sheet: Sheet, dice: Dice, opponents: Sequence[Sheet],
                         advisor: Advisor, passive: bool = False, roller: Optional[int] = None,
                         rollouts: int = DEFAULT_ROLLOUTS,
                         seed: int = DEFAULT_SEED) -> dict[str, Any]:
    """`qwixx advise --opponents --json`: every option by its chance of winning, the race
    model's estimate (winning.py) and, unless `rollouts` is 0, the chance measured by playing
    the game on (everyone playing `win`) with its standard error, ranked by the measured
    chance when there is one; the single-player optimum's expected score beside."""
    active = check_advice(sheet, opponents, passive, roller)
    sheets = [sheet, *opponents]
    advice = (advisor.passive(sheets, 0, dice, active) if passive
              else advisor.active(sheets, 0, dice))
    measured: list[tuple[Advice, Optional[Estimate]]] = list(zip(advice, [None] * len(advice)))
    if rollouts:
        measured = list(advisor.measured(advice, sheets, 0, dice, active, rollouts, seed))
    options = []
    for item, estimate in measured:
        entry = dict(describe(item.option), win_chance=item.win_chance,
                     race_expected_score=item.race_expected_score,
                     expected_score=item.expected_score)
        entry["penalty"] = not passive and item.option == (None, None)
        if estimate is not None:
            entry.update(measured_win_chance=estimate.chance,
                         standard_error=estimate.standard_error)
        options.append(entry)
    return {"sheet": str(sheet), "dice": str(dice), "active": not passive,
            "lock_after": sheet.lock_after, "opponents": [str(s) for s in opponents],
            "roller": active, "rollouts": rollouts, "seed": seed, "options": options}
