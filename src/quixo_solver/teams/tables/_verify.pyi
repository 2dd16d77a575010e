import numpy as np
import numpy.typing as npt

from ._tier_index import TierSideIndex

def check_entries(side: TierSideIndex, values: npt.NDArray[np.uint16], other: TierSideIndex,
                  other_values: npt.NDArray[np.uint16], next_side: TierSideIndex | None,
                  next_values: npt.NDArray[np.uint16] | None, entries: npt.NDArray[np.uint64],
                  threads: int = ...) -> tuple[int, npt.NDArray[np.uint8]]: ...
