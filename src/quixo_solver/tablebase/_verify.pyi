import numpy as np
import numpy.typing as npt

from .format._compressed_table import CompressedTable

def verify_class(size: int, mover_count: int, opponent_count: int,
                 values: npt.NDArray[np.uint16], same_pair: npt.NDArray[np.uint16],
                 next_pair: npt.NDArray[np.uint16], threads: int,
                 report_limit: int = ...) -> tuple[int, list[int]]: ...
def verify_sample(size: int, mover_count: int, opponent_count: int, own: CompressedTable,
                  same_pair: CompressedTable, next_pair: CompressedTable | None,
                  indices: npt.ArrayLike, threads: int,
                  report_limit: int = ...) -> tuple[int, int, int, list[int]]: ...
def value_code_kernels(plies: int, code: int) -> tuple[int, int, bool, bool, int]: ...
