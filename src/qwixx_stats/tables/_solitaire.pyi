from typing import Callable, Optional

import numpy as np
import numpy.typing as npt

RULES: dict[str, int | tuple[int, int]]

def solve(future: npt.NDArray[np.float64], packed_rows: npt.NDArray[np.intc],
          level_starts: npt.NDArray[np.int64],
          progress: Optional[Callable[[int], None]] = ..., *, lock_after: int = ...,
          active_share: float = ..., continuation: float = ...,
          second: Optional[npt.NDArray[np.float64]] = ...) -> None: ...
