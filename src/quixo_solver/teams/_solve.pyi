from typing import Callable, Optional

import numpy as np
import numpy.typing as npt

def solve(size: int,
          progress: Optional[Callable[[int, int], None]] = ...) -> npt.NDArray[np.uint16]: ...
def position_index(size: int, roles: tuple[int, int, int, int]) -> int: ...
