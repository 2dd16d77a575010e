"""Coding a class's values for a compressed table file: the model, then the blocks.

`choose_model` picks, for one class, the context shape (_codec.pxd) that codes it in the
fewest bits, the model's own bytes included: the alphabet comes from the class's codes
(holes left out); each candidate shape is counted on a sample of blocks spread over the class
(all of it when it is small); the winner is counted on every block and its counts become the
frequencies. `coded_blocks` then codes the blocks in batches, on the cores, so that no copy of
a whole table is ever made.
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
BUCKETS = (0, 2, 4, 7)         # candidate buckets of the two neighbours' symbols
LOWEST_SPLIT = 4               # candidate row cuts: LOWEST_SPLIT, +2, ... below HIGHEST_SPLIT
HIGHEST_SPLIT = 12             # (rows of at most C(11, 5) = 462 entries fit a segment)


@dataclass(frozen=True)
class Shape:
    buckets: int
    split: int


def alphabet_of(code_counts: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.uint16], bool]:
    """The codes by decreasing count (ties: the smaller code first), and whether an escape
    symbol is needed for the codes beyond MAX_SYMBOLS - 1."""
    codes = np.flatnonzero(code_counts)
    if codes.size == 0:
        codes = np.zeros(1, dtype=np.int64)        # a class of holes only: code 0
    order = np.lexsort((codes, -code_counts[codes]))
    codes = codes[order]
    limit = _codec.PARAMETERS["MAX_SYMBOLS"]
    if codes.size > limit:
        return np.append(codes[:limit - 1], 0).astype(np.uint16), True
    return codes.astype(np.uint16), False


def candidate_shapes(occupied: int) -> list[Shape]:
    splits = [0] + [s for s in range(LOWEST_SPLIT, HIGHEST_SPLIT + 1, 2) if s < occupied]
    return [Shape(buckets, split) for buckets in BUCKETS for split in splits
            if buckets or not split]


def sample_blocks(blocks: int, entries: int, limit: int = _codec.SAMPLE_ENTRIES) -> np.ndarray:
    """Every block of a small class; else blocks spread evenly, `limit` entries in all."""
    wanted = max(1, limit // BLOCK_ENTRIES)
    if blocks <= wanted:
        return np.arange(blocks)
    return np.unique(np.linspace(0, blocks - 1, wanted).astype(np.int64))


def shape_bits(orbits: OrbitClass, values: npt.NDArray[np.uint16], alphabet: np.ndarray,
               escape: bool, shape: Shape, blocks: np.ndarray, threads: int
               ) -> tuple[float, _codec.CodecModel]:
    """The bits of a shape on the blocks (an ideal coder; with the model's own bits), and
    the shape's (frequency-less) model."""
    occupied = orbits.mover_count + orbits.opponent_count
    model = _codec.CodecModel(alphabet, escape, shape.buckets, shape.split, occupied,
                              orbits.mover_count)
    counts = _codec.count_contexts(model, orbits, values, blocks, BLOCK_ENTRIES,
                                   SEGMENT_ENTRIES, threads)
    return _codec.coded_bits(counts), model


def choose_model(orbits: OrbitClass, values: npt.NDArray[np.uint16],
                 threads: int = 1) -> _codec.CodecModel:
    """The model of a class: the cheapest candidate shape, counted on the whole class."""
    blocks = -(-orbits.entries // BLOCK_ENTRIES)
    alphabet, escape = alphabet_of(_codec.stored_code_counts(orbits, values, threads))
    sample = sample_blocks(blocks, orbits.entries)
    scale = blocks / sample.size
    best: tuple[float, _codec.CodecModel] | None = None
    for shape in candidate_shapes(orbits.mover_count + orbits.opponent_count):
        bits, model = shape_bits(orbits, values, alphabet, escape, shape, sample, threads)
        total = bits * scale + model.model_bits()
        if best is None or total < best[0]:
            best = (total, model)
    assert best is not None
    chosen = best[1]
    counts = (_codec.count_contexts(chosen, orbits, values, np.arange(blocks), BLOCK_ENTRIES,
                                    SEGMENT_ENTRIES, threads)
              if sample.size < blocks else
              _codec.count_contexts(chosen, orbits, values, sample, BLOCK_ENTRIES,
                                    SEGMENT_ENTRIES, threads))
    return chosen.with_counts(counts)


def coded_blocks(model: _codec.CodecModel, orbits: OrbitClass, values: npt.NDArray[np.uint16],
                 threads: int = 1) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """(bytes, lengths, checksums) of the class's blocks, BATCH_BLOCKS at a time, in order."""
    blocks = -(-orbits.entries // BLOCK_ENTRIES)
    for first in range(0, blocks, BATCH_BLOCKS):
        yield _codec.encode_blocks(model, orbits, values, first,
                                   min(BATCH_BLOCKS, blocks - first), BLOCK_ENTRIES,
                                   SEGMENT_ENTRIES, threads)
