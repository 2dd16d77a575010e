import numpy as np
import numpy.typing as npt

CODE_MAX_SCORE: int
CODE_GREEDY: int
CODE_CAUTIOUS: int
CODE_RANDOM: int
CODE_WIN: int
CODE_WEIGHTED: int
CODE_SCORED: int
CODE_LOOKAHEAD: int
CODE_QWIXXER: int
ENDINGS: dict[str, int]
RULES: dict[str, int | tuple[int, int]]
HEURISTIC_WEIGHT_COUNT: int
ENDING_VALUE: float
QWIXXER_WEIGHTS: tuple[float, float, float, float]
LEARNED_WEIGHT_COUNT: int
LEARNED_FEATURE_COUNT: int
LEARNED_SURE_CHANCE: float
MAX_CHOICES: int

Ints = npt.NDArray[np.intc]
Floats = npt.NDArray[np.float64]

class Race:
    """The race model as the kernel reads it (kernel_view.kernel_race)."""
    arrays: tuple[object, ...]
    def __init__(self, mean: Floats, second: Floats, nodes: Floats, weights: Floats,
                 correlation: float, late_mean: Floats | None = ...,
                 late_second: Floats | None = ...) -> None: ...

class Lineup:
    """Who plays what, entry by entry, with what each strategy reads."""
    players: int
    arrays: tuple[object, ...]
    def __init__(self, strategies: Ints, limits: Ints, future: Floats, race: Race | None = ...,
                 heuristic: Floats | None = ..., learned: Floats | None = ...) -> None: ...

class Position:
    """A table before a roll (kernel_view.kernel_position)."""
    players: int
    def __init__(self, lock_after: int, last: Ints, marks: Ints, locked: Ints,
                 penalties: Ints, closed: int, active: int, dice: Ints) -> None: ...

def lookahead_lineup(players: int, race: Race | None,
                     learned: Floats | None = ...) -> Lineup: ...

def simulate(lineup: Lineup, first_game: int, seed: int, scores: Ints, turns: Ints,
             endings: Ints, *, lock_after: int = ..., rotate: bool = ...) -> None: ...

def rollouts(lineup: Lineup, position: Position, seat: int, first: int, second: int,
             second_box: int, seed: int, shares: Floats) -> None: ...

def rate_lookahead(position: Position, lineup: Lineup, seat: int, marked_first: int,
                   options: Ints, values: Floats, means: Floats) -> int: ...

def train_lookahead(lineup: Lineup, first_game: int, games: int, seed: int, rate: float,
                    race_rate: float, *, lock_after: int = ...) -> None: ...
