"""Advice for one seat of a game: every legal choice ranked by its chance of winning, as the
`win` or the `lookahead` strategy judges it (what `qwixx advise --opponents`, `qwixx track`
and the explorer show), with the single-player optimum's expected score beside it."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Optional

from solverkit.messages import clip

from .errors import GameError
from .rules.game import Option
from .strategies.lookahead import LearnedValue, learned_for
from .tables.race import RaceTable
from .strategies.registry import ADVISING, DEFAULT_JUDGE, KINDS, Reads
from .strategies.rollouts import Estimate, rollout_chance
from .rules.sheet import Dice, Sheet
from .tables.solitaire import ExpectedValues
from .strategies.winning import RatedOption, ranked


@dataclass(frozen=True)
class Advice:
    """One choice with what it is worth: ranked by `win_chance` (best first)."""
    option: Option               # (action 1 row or None, (row, number) or None)
    win_chance: float            # the judge's estimate of finishing first
    race_expected_score: float   # this player's expected final score in the race model
    expected_score: float        # the single-player optimum's expected final score


ADVISED_STRATEGIES = ADVISING    # the strategies that can judge (registry.StrategyKind.judge)


class Advisor:
    """Advice for one seat of a game: every legal choice, best first, with the estimated
    chance of winning beside the expected score (what `qwixx advise --opponents` and
    `qwixx track` show). `strategy` is the judge: `win` (the race model's chance right after
    the choice) or `lookahead` (the choice played to the end of the turn, then the learned
    value at two players, the race model at more: lookahead.py; `learned` defaults to the
    shipped value, lookahead.learned_for)."""

    def __init__(self, race: RaceTable, values: ExpectedValues, strategy: str = DEFAULT_JUDGE,
                 learned: Optional[LearnedValue] = None):
        if not isinstance(race, RaceTable) or not isinstance(values, ExpectedValues):
            raise GameError("an Advisor needs a RaceTable and an ExpectedValues table")
        if race.lock_after != values.lock_after:
            raise GameError(f"the race table is for lock after {race.lock_after}, the "
                            f"single-player table for {values.lock_after}")
        if strategy not in ADVISED_STRATEGIES:
            raise GameError(f"an Advisor judges by {' or '.join(ADVISED_STRATEGIES)}, not "
                            f"{clip(strategy)}")
        kind = KINDS[strategy]
        if Reads.LEARNED in kind.reads:
            learned = learned_for(race.players, race.lock_after, learned)
        elif learned is not None:
            raise GameError("a learned value is read by lookahead only")
        assert kind.judge is not None                  # strategy is one of ADVISING
        self.race, self.values, self.strategy, self.learned = race, values, strategy, learned
        self.judge = kind.judge(race, learned)

    def _advice(self, rated: Sequence[RatedOption]) -> list[Advice]:
        return [Advice(item.option, item.win_chance, item.expected_score,
                       self.values.value(item.sheet)) for item in ranked(rated)]

    def active(self, sheets: Sequence[Sheet], seat: int, dice: Dice | str) -> list[Advice]:
        """The active player's plans (action 1 and action 2 together)."""
        return self._advice(self.judge.active(sheets, seat, dice))

    def passive(self, sheets: Sequence[Sheet], seat: int, dice: Dice | str,
                roller: Optional[int] = None) -> list[Advice]:
        """A non-active player's action 1 on the roll of the player at seat `roller` (which
        lookahead needs: it plays the turn on)."""
        return self._advice(self.judge.passive(sheets, seat, dice, roller))

    def measured(self, advice: Sequence[Advice], sheets: Sequence[Sheet], seat: int,
                 dice: Dice | str, active: int, rollouts: int,
                 seed: int = 0) -> list[tuple[Advice, Estimate]]:
        """Each choice's chance measured by rollouts (`rollout_chance`), best measured first
        (ties keep the order of `advice`)."""
        measured = [(item, rollout_chance(self.race, sheets, seat, dice, active, item.option,
                                          rollouts, seed)) for item in advice]
        return sorted(measured, key=lambda pair: -pair[1].chance)

    def second(self, sheets: Sequence[Sheet], seat: int, dice: Dice | str,
               marked_first: bool) -> list[Advice]:
        """The active player's action 2, once action 1 is resolved for everyone."""
        return self._advice(self.judge.second(sheets, seat, dice, marked_first))
