import numpy as np
import numpy.typing as npt

from ._orbit_index import OrbitClass

BLOCK_ENTRIES: int
SEGMENT_ENTRIES: int
SAMPLE_ENTRIES: int
CHOICE_ENTRIES: int
MODEL_HEADER: int
PARAMETERS: dict[str, int]

class DamagedSegmentError(ValueError): ...

def rows(occupied: int, movers: int, split: int) -> tuple[npt.NDArray[np.uint32],
                                                          npt.NDArray[np.uint32]]: ...
def bucket_map(symbols: int, buckets: int) -> npt.NDArray[np.uint8]: ...
def frequencies_from_counts(counts: npt.ArrayLike) -> npt.NDArray[np.uint16]: ...

class CodecModel:
    alphabet: npt.NDArray[np.uint16]
    bucket_of: npt.NDArray[np.uint8]
    code_symbol: npt.NDArray[np.uint8]
    run_start: npt.NDArray[np.uint32]
    run_offset: npt.NDArray[np.uint32]
    frequencies: npt.NDArray[np.uint16] | None
    escape: bool
    buckets: int
    split: int
    occupied: int
    movers: int
    contexts: int
    def __init__(self, alphabet: npt.ArrayLike, escape: bool, buckets: int, split: int,
                 occupied: int, movers: int,
                 frequencies: npt.ArrayLike | None = ...) -> None: ...
    @property
    def symbols(self) -> int: ...
    def to_bytes(self) -> bytes: ...
    @staticmethod
    def from_bytes(data: bytes, occupied: int, movers: int) -> CodecModel: ...

def model_bits(symbols: int, buckets: int) -> int: ...
def block_capacity(block_entries: int, segment_entries: int) -> int: ...
def fill_blocks(orbits: OrbitClass, values: npt.NDArray[np.uint16], blocks: npt.ArrayLike,
                block_entries: int, segment_entries: int, first_code: int,
                threads: int = ...) -> npt.NDArray[np.uint16]: ...
def count_filled(shape: CodecModel, filled: npt.NDArray[np.uint16], blocks: npt.ArrayLike,
                 entries: int, block_entries: int, segment_entries: int,
                 threads: int = ...) -> npt.NDArray[np.int64]: ...
def coded_bits(counts: npt.ArrayLike) -> float: ...
def encode_blocks(model: CodecModel, orbits: OrbitClass, values: npt.NDArray[np.uint16],
                  first_block: int, blocks: int, block_entries: int, segment_entries: int,
                  threads: int = ..., filled: npt.NDArray[np.uint16] | None = ...
                  ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint32],
                                               npt.NDArray[np.uint32]]: ...
def encode_codes(model: CodecModel, codes: npt.ArrayLike, first_index: int,
                 segment_entries: int) -> bytes: ...
def decode_codes(model: CodecModel, data: bytes, first_index: int, count: int,
                 segment_entries: int) -> npt.NDArray[np.uint16]: ...
def fill_codes(orbits: OrbitClass, values: npt.NDArray[np.uint16], first: int, count: int,
               first_code: int) -> npt.NDArray[np.uint16]: ...
