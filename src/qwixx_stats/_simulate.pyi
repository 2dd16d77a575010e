import numpy as np
import numpy.typing as npt

STRATEGY_CODES: dict[str, int]

def simulate(strategies: npt.NDArray[np.intc], limits: npt.NDArray[np.intc], first_game: int,
             games: int, seed: int, future: npt.NDArray[np.float64],
             scores: npt.NDArray[np.intc], turns: npt.NDArray[np.intc]) -> None: ...
