from pathlib import Path
from typing import Any, Literal, overload

import numpy as np
import numpy.typing as npt

from ._codec import CodecModel
from ._orbit_index import OrbitClass
from ..errors import CorruptTableError

MAX_CACHE_SLOTS: int
def cache_slots(entries: int, segment_entries: int) -> int: ...

class CompressedTable:
    path: Path
    header: Any          # files.TableHeader (files imports this module)
    model: CodecModel
    orbits: OrbitClass
    data: npt.NDArray[np.uint8]
    offsets: npt.NDArray[np.uint64]
    checksums: npt.NDArray[np.uint32]
    checked: npt.NDArray[np.uint8]
    def __init__(self, path: Path, header: Any, model: CodecModel, orbits: OrbitClass,
                 data: npt.NDArray[np.uint8], offsets: npt.NDArray[np.uint64],
                 checksums: npt.NDArray[np.uint32]) -> None: ...
    def damage(self, block: int) -> CorruptTableError: ...
    def position_code(self, mover: int, opponent: int) -> int: ...
    def stored_codes(self, start: int, stop: int) -> npt.NDArray[np.uint16]: ...
    @overload
    def position_codes(self, movers: npt.ArrayLike, opponents: npt.ArrayLike,
                       timed: Literal[False] = ...) -> npt.NDArray[np.int32]: ...
    @overload
    def position_codes(self, movers: npt.ArrayLike, opponents: npt.ArrayLike,
                       timed: Literal[True]) -> tuple[npt.NDArray[np.int32],
                                                      npt.NDArray[np.int64]]: ...
    def check_all(self, threads: int = ...) -> CompressedTable: ...
    def values(self, threads: int = ...) -> npt.NDArray[np.uint16]: ...
