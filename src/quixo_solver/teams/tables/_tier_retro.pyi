import numpy as np
import numpy.typing as npt

from ._tier_index import TierSideIndex

class TierSide:
    index: TierSideIndex
    words: npt.NDArray[np.uint16] | None
    chunk_plies: npt.NDArray[np.uint16]
    next_index: TierSideIndex | None
    next_values: npt.NDArray[np.uint16] | None
    def __init__(self, size: int, team_count: int, other_count: int,
                 next_values: npt.NDArray[np.uint16] | None = ...) -> None: ...
    @property
    def chunks(self) -> int: ...
    def take_values(self, threads: int = ...) -> npt.NDArray[np.uint16]: ...

def mark(side: TierSide, threads: int) -> int: ...
def propagate(frontier_side: TierSide, parent_side: TierSide, plies: int, threads: int) -> int: ...

FIRST_PASS: int
STATE_VERSION: int
