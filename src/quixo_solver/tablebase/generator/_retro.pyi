import numpy as np
import numpy.typing as npt

from ..format._orbit_index import OrbitClass
from ..format._compressed_table import CompressedTable

class ClassSide:
    size: int
    mover_count: int
    opponent_count: int
    words: npt.NDArray[np.uint16]
    external: CompressedTable | None
    orbits: OrbitClass
    external_orbits: OrbitClass | None
    damaged: npt.NDArray[np.uint8]
    chunk_plies: npt.NDArray[np.uint16]
    @property
    def chunks(self) -> int: ...
    @property
    def external_chunks(self) -> int: ...
    def __init__(self, size: int, mover_count: int, opponent_count: int,
                 external: CompressedTable | None) -> None: ...
    def check_children(self) -> None: ...
    def values(self) -> npt.NDArray[np.uint16]: ...

def mark(side: ClassSide, threads: int, first: int, last: int) -> int: ...
def pull(side: ClassSide, threads: int, first: int, last: int) -> int: ...
def settle(side: ClassSide, threads: int, first: int, last: int) -> int: ...
def resolve(side: ClassSide, threads: int, first: int, last: int) -> int: ...
def propagate(frontier_side: ClassSide, parent_side: ClassSide, plies: int, threads: int,
              first: int = 0, last: int = -1) -> int: ...
STATE_VERSION: int
FIRST_PASS: int
LAST_RESOLVE_PASS: int
WORKING_WORD: dict[str, int]
