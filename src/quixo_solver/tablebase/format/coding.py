"""Coding a class's values for a compressed table file: the model, then the blocks.

`choose_model` picks, for one class, the context shape (_codec.pxd) that codes it in the
fewest bits, the model's own bytes included: the alphabet comes from the class's codes (the
ones the file stores); each candidate shape is counted on a sample of blocks spread over the
class, and the winner's frequencies come from all of a small class, or from a larger sample
of a large one. `coded_blocks` then codes the blocks in batches, on the cores, so that no
copy of a large table is ever made. (Measured on the 5x5 classes, see
benchmarks/quixo/tablebase/tablebase_codecs.py: two neighbours with 7 buckets, rows cut at 4 to 8, win on
nearly every large class.)
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


def coarser_counts(counts: npt.NDArray[np.int64], buckets: int, target: Shape
                   ) -> npt.NDArray[np.int64]:
    """The counts (contexts x symbols) of shape `target` from those of a shape with more
    buckets (`buckets`) and the same cut: a symbol's bucket with fewer buckets is the smaller
    of its bucket with more and the last one (_codec.bucket_map), "none" stays "none", and a
    target without a cut (split 0) sees "none" above every entry, which is the sum over the
    entries above. So one count per cut serves every candidate (the left neighbour does not
    depend on the cut)."""
    symbols = counts.shape[1]
    width = buckets + 1
    table = counts.reshape(width, width, symbols)
    if target.buckets == 0:
        every: npt.NDArray[np.int64] = table.sum(axis=(0, 1))
        return every.reshape(1, symbols)
    narrow = np.minimum(np.arange(width), target.buckets - 1)
    narrow[buckets] = target.buckets              # "none" (no entry there)
    out = np.zeros((target.buckets + 1, target.buckets + 1, symbols), dtype=np.int64)
    if target.split:
        np.add.at(out, (narrow[:, None], narrow[None, :]), table)
    else:
        np.add.at(out[:, target.buckets], narrow, table.sum(axis=1))
    return out.reshape(-1, symbols)


def choose_model(orbits: OrbitClass, values: npt.NDArray[np.uint16],
                 code_counts: npt.NDArray[np.int64], threads: int = 1
                 ) -> tuple[_codec.CodecModel, npt.NDArray[np.uint16] | None]:
    """The model of a class: the candidate shape that codes a sample of its blocks in the
    fewest bits, its own bytes included, with its frequencies. A small class (SAMPLE_ENTRIES
    or fewer) has its shape chosen on up to CHOICE_ENTRIES of it and its frequencies counted
    on all of it (exact); a large one has both from a sample of SAMPLE_ENTRIES, and every
    symbol gets one count more in every context, so that no entry outside the sample meets a
    zero frequency. Each cut is counted once, with the most buckets: the other candidates'
    counts follow from those (coarser_counts). Returns the model and, for a small class, its
    blocks' codes as coded (fill_blocks), which coded_blocks then need not fill again."""
    blocks = -(-orbits.entries // BLOCK_ENTRIES)
    alphabet, escape = alphabet_of(code_counts)
    occupied = orbits.mover_count + orbits.opponent_count
    small = blocks * BLOCK_ENTRIES <= _codec.SAMPLE_ENTRIES
    sample = sample_blocks(blocks, _codec.CHOICE_ENTRIES if small else _codec.SAMPLE_ENTRIES)
    every = np.arange(blocks) if small else sample
    filled = _codec.fill_blocks(orbits, values, every, BLOCK_ENTRIES, SEGMENT_ENTRIES,
                                int(alphabet[0]), threads)
    sample_filled = filled if sample.size == every.size else filled[sample]
    most = max(BUCKETS)
    shapes = candidate_shapes(occupied)
    counted = {}
    for cut in sorted({shape.split for shape in shapes if shape.split}) or [0]:
        model = _codec.CodecModel(alphabet, escape, most, cut, occupied, orbits.mover_count)
        counted[cut] = _codec.count_filled(model, sample_filled, sample, orbits.entries,
                                           BLOCK_ENTRIES, SEGMENT_ENTRIES, threads)
    any_cut = next(iter(counted.values()))      # the shapes without a cut sum over "above"
    scale = blocks / sample.size
    best: tuple[float, Shape, npt.NDArray[np.int64]] | None = None
    for shape in shapes:
        counts = coarser_counts(counted.get(shape.split, any_cut), most, shape)
        total = _codec.coded_bits(counts) * scale + _codec.model_bits(alphabet.size,
                                                                        shape.buckets)
        if best is None or total < best[0]:
            best = (total, shape, counts)
    assert best is not None
    _, chosen, counts = best
    if not small:
        counts = counts + 1
    elif sample.size < blocks:          # chosen on part of a small class: count all of it
        unfitted = _codec.CodecModel(alphabet, escape, chosen.buckets, chosen.split,
                                     occupied, orbits.mover_count)
        counts = _codec.count_filled(unfitted, filled, every, orbits.entries, BLOCK_ENTRIES,
                                     SEGMENT_ENTRIES, threads)
    model = _codec.CodecModel(alphabet, escape, chosen.buckets, chosen.split, occupied,
                              orbits.mover_count, _codec.frequencies_from_counts(counts))
    return model, filled if small else None


def coded_blocks(model: _codec.CodecModel, orbits: OrbitClass, values: npt.NDArray[np.uint16],
                 threads: int = 1, filled: npt.NDArray[np.uint16] | None = None
                 ) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """(bytes, lengths, checksums) of the class's blocks, BATCH_BLOCKS at a time, in order
    (`filled`: every block's codes as coded, if choose_model returned them)."""
    blocks = -(-orbits.entries // BLOCK_ENTRIES)
    for first in range(0, blocks, BATCH_BLOCKS):
        count = min(BATCH_BLOCKS, blocks - first)
        yield _codec.encode_blocks(model, orbits, values, first, count, BLOCK_ENTRIES,
                                   SEGMENT_ENTRIES, threads,
                                   None if filled is None else filled[first:first + count])
