import numpy as np
import numpy.typing as npt

from ...tablebase.format._orbit_index import OrbitClass

Roles = tuple[int, int, int, int]

class TierSideIndex:
    size: int
    team_count: int
    other_count: int
    teams: OrbitClass
    def __init__(self, size: int, team_count: int, other_count: int) -> None: ...
    @property
    def entries(self) -> int: ...
    def index_of(self, roles: Roles) -> int: ...
    def position_at(self, index: int) -> tuple[Roles, bool]: ...
    def indexes_of(self, own: npt.NDArray[np.uint32], next_: npt.NDArray[np.uint32],
                   mate: npt.NDArray[np.uint32],
                   last: npt.NDArray[np.uint32]) -> npt.NDArray[np.uint64]: ...
    def raw_counts(self, values: npt.NDArray[np.uint16],
                   threads: int = ...) -> tuple[npt.NDArray[np.int64], int]: ...

def side_entries(size: int, team_count: int, other_count: int) -> int: ...
