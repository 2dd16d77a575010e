import numpy as np
import numpy.typing as npt

from ._orbit_index import OrbitClass
from ._table import CompressedTable

class ClassSide:
    size: int
    mover_count: int
    opponent_count: int
    words: npt.NDArray[np.uint16]
    external: CompressedTable | None
    orbits: OrbitClass
    external_orbits: OrbitClass | None
    damaged: npt.NDArray[np.uint8]
    def __init__(self, size: int, mover_count: int, opponent_count: int,
                 external: CompressedTable | None) -> None: ...
    def check_children(self) -> None: ...
    def values(self) -> npt.NDArray[np.uint16]: ...

def initialise(side: ClassSide, threads: int) -> int: ...
def propagate(frontier_side: ClassSide, parent_side: ClassSide, plies: int, threads: int) -> int: ...
WORKING_WORD: dict[str, int]
