"""Coding a class's values for a compressed table file: the model, then the blocks.

`choose_model` picks, for one class, the context shape (_codec.pxd) that codes it in the
fewest bits, the model's own bytes included: the alphabet comes from the class's codes (the
ones the file stores); each candidate shape is counted on a sample of blocks spread over the
class (all of it when it is small), and the winner's counts become the frequencies.
`coded_blocks` then codes the blocks in batches, on the cores, so that no copy of a whole
table is ever made. (Measured on the 5x5 classes, see benchmarks/tablebase_codecs.py: two
neighbours with 7 buckets, rows cut at 4 to 8, win on nearly every large class.)
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from . import _codec
from ._orbit_index import OrbitClass

BLOCK_ENTRIES = _codec.BLOCK_ENTRIES
SEGMENT_ENTRIES = _codec.SEGMENT_ENTRIES
BATCH_BLOCKS = 1024            # blocks coded at once (a few MiB of buffers)
BUCKETS = (4, 7)               # candidate buckets of the neighbours' symbols (and 0: none)
SPLITS = (4, 6, 8)             # candidate row cuts (rows of at most C(8, 4) = 70 entries)


@dataclass(frozen=True)
class Shape:
    """Buckets of the neighbours' symbols (0: one context) and where rows are cut (0: no
    row above)."""
    buckets: int
    split: int


def alphabet_of(code_counts: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.uint16], bool]:
    """The codes the file stores, by decreasing count (ties: the smaller code first), and
    whether an escape symbol is needed for the codes beyond MAX_SYMBOLS - 1. `code_counts`
    are a class's positions per code (files.class_figures): win and loss in 0 plies are the
    positions the rules decide, never stored."""
    counts = np.array(code_counts, dtype=np.int64)
    counts[1:3] = 0
    codes = np.flatnonzero(counts)
    if codes.size == 0:
        codes = np.zeros(1, dtype=np.int64)        # nothing stored: any one code
    order = np.lexsort((codes, -counts[codes]))
    codes = codes[order]
    limit = _codec.PARAMETERS["MAX_SYMBOLS"]
    if codes.size > limit:
        return np.append(codes[:limit - 1], 0).astype(np.uint16), True
    return codes.astype(np.uint16), False


def candidate_shapes(occupied: int) -> list[Shape]:
    """The shapes tried: no context, the left neighbour alone, and both neighbours with rows
    cut at a few heights (at most 2**16 rows: their tables stay small)."""
    splits = [s for s in SPLITS if max(1, occupied - 16) <= s < occupied]
    return [Shape(0, 0)] + [Shape(buckets, split) for buckets in BUCKETS
                            for split in [0] + splits]


def sample_blocks(blocks: int, limit_entries: int = _codec.SAMPLE_ENTRIES) -> np.ndarray:
    """Every block of a small class; else blocks spread evenly, `limit_entries` in all."""
    wanted = max(1, limit_entries // BLOCK_ENTRIES)
    if blocks <= wanted:
        return np.arange(blocks)
    return np.unique(np.linspace(0, blocks - 1, wanted).astype(np.int64))


def choose_model(orbits: OrbitClass, values: npt.NDArray[np.uint16],
                 code_counts: npt.NDArray[np.int64], threads: int = 1) -> _codec.CodecModel:
    """The model of a class: the candidate shape that codes a sample of its blocks (all of
    them in a small class) in the fewest bits, its own bytes included. Counted on the whole
    class, the frequencies are exact; from a sample, every symbol gets one count more in
    every context, so that no entry outside the sample meets a zero frequency."""
    blocks = -(-orbits.entries // BLOCK_ENTRIES)
    alphabet, escape = alphabet_of(code_counts)
    sample = sample_blocks(blocks)
    filled = _codec.fill_blocks(orbits, values, sample, BLOCK_ENTRIES, SEGMENT_ENTRIES,
                                int(alphabet[0]), threads)
    occupied = orbits.mover_count + orbits.opponent_count
    scale = blocks / sample.size
    best: tuple[float, _codec.CodecModel, np.ndarray] | None = None
    for shape in candidate_shapes(occupied):
        model = _codec.CodecModel(alphabet, escape, shape.buckets, shape.split, occupied,
                                  orbits.mover_count)
        counts = _codec.count_filled(model, filled, sample, orbits.entries, BLOCK_ENTRIES,
                                     SEGMENT_ENTRIES, threads)
        total = _codec.coded_bits(counts) * scale + model.model_bits()
        if best is None or total < best[0]:
            best = (total, model, counts)
    assert best is not None
    _, chosen, counts = best
    if sample.size < blocks:
        counts = counts + 1
    return chosen.with_counts(counts)


def coded_blocks(model: _codec.CodecModel, orbits: OrbitClass, values: npt.NDArray[np.uint16],
                 threads: int = 1) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """(bytes, lengths, checksums) of the class's blocks, BATCH_BLOCKS at a time, in order."""
    blocks = -(-orbits.entries // BLOCK_ENTRIES)
    for first in range(0, blocks, BATCH_BLOCKS):
        yield _codec.encode_blocks(model, orbits, values, first,
                                   min(BATCH_BLOCKS, blocks - first), BLOCK_ENTRIES,
                                   SEGMENT_ENTRIES, threads)
