from typing import Callable, Optional

import numpy as np

def solve(future: np.ndarray, packed_rows: np.ndarray, level_starts: np.ndarray,
          progress: Optional[Callable[[int], None]] = ...) -> None: ...
