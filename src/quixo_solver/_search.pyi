import numpy as np
import numpy.typing as npt

MATE_SCORE: int
PROVEN_BOUND: int
DEPTH_LIMIT: int

class Engine:
    size: int
    entries: int
    nodes: int
    stopped: bool
    root_move: int
    def __init__(self, size: int, tt_mib: float) -> None: ...
    def add_table(self, mover_count: int, opponent_count: int, values: npt.NDArray[np.generic]) -> None: ...
    def clear(self) -> None: ...
    def search(self, mover: int, opponent: int, depth: int, seconds: float, node_limit: int,
               nodes_before: int = ...) -> int: ...
    def table_move(self, mover: int, opponent: int) -> int: ...
    def evaluate(self, mover: int, opponent: int) -> int: ...
