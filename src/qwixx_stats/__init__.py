"""Exact dice probabilities, the exact optimal single-player strategy, an advisor and a
simulator for the dice game Qwixx.

    from qwixx_stats import Sheet, Dice, ExpectedValues
    values = ExpectedValues.load()            # solved once (seconds), then read from the cache
    values.value(Sheet())                     # 115.4831...: optimal single-player expectation
    values.active_options(Sheet.parse("red:2,3 penalties:1"), Dice.parse("3,4,6,1,2,5"))
    Advisor(RaceTable.load(players=2), values).active([Sheet(), Sheet()], 0, "3,4,6,1,2,5")
"""
from .errors import (DiceError, GameError, GameOverError, IllegalMarkError, QwixxError,
                     SheetError, SimulationError, StrategyError, TableError)
from .rules.game import Game, active_options
from .rules.sheet import COLOURS, Dice, Sheet
from .tables.solitaire import ExpectedValues, OptimalPlayer
from .tables.race import RaceTable
from .strategies.simulate import Strategy, parse_strategies, simulate
from .advisor import Advisor
from .strategies.winning import WinPlayer

from solverkit.version import __version__ as __version__
__all__ = [
    "Advisor", "COLOURS", "Dice", "DiceError", "ExpectedValues", "Game", "GameError",
    "GameOverError", "IllegalMarkError", "OptimalPlayer", "QwixxError", "RaceTable", "Sheet",
    "SheetError", "SimulationError", "Strategy", "StrategyError", "TableError", "WinPlayer",
    "active_options", "parse_strategies", "simulate",
]
