import numpy as np

STRATEGY_CODES: dict[str, int]

def simulate(strategies: np.ndarray, limits: np.ndarray, first_game: int, games: int, seed: int,
             future: np.ndarray, scores: np.ndarray, turns: np.ndarray) -> None: ...
