from typing import TypedDict, Unpack

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

class RaceArrays(TypedDict, total=False):
    """The race model's keyword arguments (race.RaceTable.kernel_arrays)."""
    race_mean: npt.NDArray[np.float64] | None
    race_second: npt.NDArray[np.float64] | None
    nodes: npt.NDArray[np.float64] | None
    weights: npt.NDArray[np.float64] | None
    correlation: float
    race_late_mean: npt.NDArray[np.float64] | None
    race_late_second: npt.NDArray[np.float64] | None

class TableArrays(RaceArrays, total=False):
    """The race model's, the heuristic players' and the learned value's keyword arguments."""
    heuristic: npt.NDArray[np.float64] | None
    learned: npt.NDArray[np.float64] | None

def simulate(strategies: npt.NDArray[np.intc], limits: npt.NDArray[np.intc], first_game: int,
             games: int, seed: int, future: npt.NDArray[np.float64],
             scores: npt.NDArray[np.intc], turns: npt.NDArray[np.intc],
             endings: npt.NDArray[np.intc], *, lock_after: int = ..., rotate: bool = ...,
             **tables: Unpack[TableArrays]) -> None: ...

def rollouts(strategies: npt.NDArray[np.intc], limits: npt.NDArray[np.intc],
             future: npt.NDArray[np.float64], lock_after: int, last: npt.NDArray[np.intc],
             marks: npt.NDArray[np.intc], locked: npt.NDArray[np.intc],
             penalties: npt.NDArray[np.intc], closed: int, active: int,
             dice: npt.NDArray[np.intc], seat: int, first: int, second: int, second_box: int,
             seed: int, shares: npt.NDArray[np.float64],
             **tables: Unpack[TableArrays]) -> None: ...

def rate_lookahead(lock_after: int, last: npt.NDArray[np.intc], marks: npt.NDArray[np.intc],
                   locked: npt.NDArray[np.intc], penalties: npt.NDArray[np.intc], closed: int,
                   active: int, dice: npt.NDArray[np.intc], seat: int, marked_first: int,
                   options: npt.NDArray[np.intc], values: npt.NDArray[np.float64],
                   means: npt.NDArray[np.float64], *,
                   learned: npt.NDArray[np.float64] | None = ...,
                   **race: Unpack[RaceArrays]) -> int: ...

def train_lookahead(learned: npt.NDArray[np.float64], first_game: int, games: int, seed: int,
                    rate: float, race_rate: float, *, lock_after: int = ...,
                    **race: Unpack[RaceArrays]) -> None: ...
