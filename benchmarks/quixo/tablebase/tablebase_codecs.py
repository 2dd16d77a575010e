"""Issue 23's choice of a coder: the candidates measured on real classes, side by side.

    python benchmarks/quixo/tablebase/tablebase_codecs.py --dir /work/tables/ref5 \
        --classes 10,10 11,9 9,11 ...

The folder holds tables of either format (format 3 is read by tablebase.format3). For each
class, on the same entries, in bits per entry (every entry counts, holes included):
  order0       the empirical order-0 entropy of the stored codes (a static Huffman or
               arithmetic coder without context can do no better)
  huffman0     a static order-0 Huffman code (at least 1 bit a symbol)
  ours         this package's coder (_codec.pxd), the whole class coded as a file stores it:
               model, block index and checksums included
  ours-terms   the same coder with terminal positions stored like any other (no "don't care"
               entries but holes): what the rules-decided entries cost
  zlib, xz     each 4096-entry block compressed alone (level 9 / preset 6)
  zstd-dict    zstd level 19 per 4096-entry block with a 64 KiB dictionary trained on the class
               (the dictionary's bytes spread over the class)
  pairs        syzygy-like: adjacent pairs of symbols replaced by new symbols (up to 4095, most
               frequent pair first), then a static Huffman code, on a sample of blocks
Speeds: our raw decode (ns per entry, one thread) and zstd's per-block decompression through
its Python binding. Every "don't care" entry (hole, position the rules decide) is written, for
the generic compressors, as the code before it, as our coder does.
"""
import argparse
import heapq
import json
import lzma
import sys
import tempfile
import time
import zlib
from pathlib import Path

import numpy as np

from quixo_solver.tablebase.format import _codec, coding, files, format3
from quixo_solver.tablebase.format._orbit_index import orbit_class

BLOCK = 4096


def load(folder: Path, size: int, a: int, b: int) -> np.ndarray:
    path = folder / files.table_name(size, a, b)
    if files.file_version(path) == 3:
        return format3.load_values(path, (size, a, b))[1]
    return files.load_values(path, (size, a, b), 2)


def filled_codes(orbits, values: np.ndarray, first_code: int) -> np.ndarray:
    """The class as our coder sees it: don't-care entries copy the code before them."""
    blocks = np.arange(-(-orbits.entries // BLOCK))
    filled = _codec.fill_blocks(orbits, values, blocks, BLOCK, coding.SEGMENT_ENTRIES,
                                first_code, 2)
    return filled.reshape(-1)[:orbits.entries]


def entropy_bits(symbols: np.ndarray) -> float:
    counts = np.bincount(symbols).astype(float)
    counts = counts[counts > 0]
    return float(-(counts * np.log2(counts / counts.sum())).sum())


def huffman_bits(counts: np.ndarray) -> float:
    counts = [int(c) for c in counts if c > 0]
    if len(counts) <= 1:
        return float(sum(counts))      # a code needs at least a bit a symbol
    heap = [(c, i, 0) for i, c in enumerate(counts)]
    heapq.heapify(heap)
    total, tie = 0, len(counts)
    while len(heap) > 1:
        a, _, _ = heapq.heappop(heap)
        b, _, _ = heapq.heappop(heap)
        total += a + b            # every merge adds one bit to each symbol below it
        heapq.heappush(heap, (a + b, tie, 0))
        tie += 1
    return float(total)


def pair_substitution_bits(blocks: list[np.ndarray], symbols: int, limit: int = 4095) -> float:
    """Bits of a syzygy-like code of the blocks: repeatedly replace the most frequent pair of
    adjacent symbols (inside a block) with a new symbol, while it saves bits, then Huffman;
    the pair dictionary (two 12-bit symbols a rule) is counted."""
    sequences = [b.astype(np.int64) for b in blocks]
    next_symbol = symbols
    while next_symbol < limit:
        keys = np.concatenate([s[:-1] * limit + s[1:] for s in sequences if s.size > 1])
        if keys.size == 0:
            break
        values, counts = np.unique(keys, return_counts=True)
        best = int(np.argmax(counts))
        if counts[best] < 8:
            break
        first, second = divmod(int(values[best]), limit)
        for i, s in enumerate(sequences):
            hit = np.flatnonzero((s[:-1] == first) & (s[1:] == second))
            if hit.size == 0:
                continue
            if first == second:      # runs: pair them from the left, without overlap
                keep = [hit[0]]
                for h in hit[1:]:
                    if h > keep[-1] + 1:
                        keep.append(h)
                hit = np.array(keep)
            s = s.copy()
            s[hit] = next_symbol
            s = np.delete(s, hit + 1)
            sequences[i] = s
        next_symbol += 1
    counts = np.bincount(np.concatenate(sequences))
    return huffman_bits(counts) + 24 * (next_symbol - symbols)


def our_bytes(size: int, a: int, b: int, values: np.ndarray, terminals_stored: bool) -> tuple[
        int, float]:
    """(file bytes, raw decode ns per entry) of our coder on a class."""
    with tempfile.TemporaryDirectory() as folder:
        if terminals_stored:
            # store every code (as if no position were decided by the rules): pretend the
            # terminal codes are ordinary ones by shifting them out of the way of the rule
            shifted = values.astype(np.uint16).copy()
            decided = (shifted == 1) | (shifted == 2)
            shifted[decided] += 30000
            path = files.write_table(Path(folder), size, a, b, shifted, 2)
            return path.stat().st_size, float("nan")
        path = files.write_table(Path(folder), size, a, b, values, 2)
        table = files.open_table(path, (size, a, b))
        table.check_all(2)
        started = time.perf_counter()
        table.stored_codes(0, table.header.entries)
        seconds = time.perf_counter() - started
        return path.stat().st_size, seconds * 1e9 / table.header.entries


def measure(folder: Path, size: int, a: int, b: int, sample_blocks: int) -> dict:
    import zstandard

    orbits = orbit_class(size, a, b)
    values = load(folder, size, a, b)
    counts = orbits.code_counts(values)
    alphabet, _ = coding.alphabet_of(counts)
    filled = filled_codes(orbits, values, int(alphabet[0]))
    n = orbits.entries
    row = {"class": [a, b], "entries": n}
    stored = orbits.hole_mask() == 0
    stored &= (values != 1) & (values != 2)
    symbols = np.searchsorted(np.sort(np.unique(filled)), filled)
    real = symbols[stored]
    row["order0"] = entropy_bits(real) / n
    row["huffman0"] = huffman_bits(np.bincount(real)) / n
    size_ours, decode_ns = our_bytes(size, a, b, values, False)
    row["ours"] = 8 * size_ours / n
    row["ours_decode_ns_per_entry"] = decode_ns
    row["ours-terms"] = 8 * our_bytes(size, a, b, values, True)[0] / n
    data = np.minimum(filled, 255).astype(np.uint8)
    blocks = [data[i:i + BLOCK].tobytes() for i in range(0, n, BLOCK)]
    rng = np.random.default_rng(1)
    pick = np.sort(rng.choice(len(blocks), min(len(blocks), sample_blocks), replace=False))
    share = len(blocks) / pick.size
    sampled = sum(len(blocks[i]) for i in pick)
    for name, pack in (("zlib", lambda d: zlib.compress(d, 9)),
                       ("xz", lambda d: lzma.compress(d, preset=6))):
        row[name] = 8 * sum(len(pack(blocks[i])) for i in pick) / sampled
    training = [blocks[i] for i in rng.choice(len(blocks), min(len(blocks), 4000),
                                               replace=False)]
    try:
        dictionary = zstandard.train_dictionary(65536, training)
        packer = zstandard.ZstdCompressor(level=19, dict_data=dictionary)
        unpacker = zstandard.ZstdDecompressor(dict_data=dictionary)
        packed = [packer.compress(blocks[i]) for i in pick]
        started = time.perf_counter()
        for p in packed:
            unpacker.decompress(p)
        row["zstd_decode_ns_per_entry"] = (time.perf_counter() - started) * 1e9 / sampled
        row["zstd-dict"] = (8 * sum(map(len, packed)) * share
                            + 8 * len(dictionary.as_bytes())) / n
    except zstandard.ZstdError:      # too few samples to train on (a small class)
        row["zstd-dict"] = None
    pair_blocks = [symbols[i * BLOCK:(i + 1) * BLOCK] for i in pick[:min(64, pick.size)]]
    pair_entries = sum(p.size for p in pair_blocks)
    row["pairs"] = pair_substitution_bits(pair_blocks, int(symbols.max()) + 1) / pair_entries
    return row


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True)
    parser.add_argument("--size", type=int, default=5)
    parser.add_argument("--classes", nargs="+", required=True, help="a,b pairs")
    parser.add_argument("--sample-blocks", type=int, default=2000)
    parser.add_argument("--json", help="write the rows to this file")
    args = parser.parse_args()
    rows = []
    names = ["order0", "huffman0", "ours", "ours-terms", "zlib", "xz", "zstd-dict", "pairs"]
    print(f"{'class':>8} {'entries':>12} " + " ".join(f"{n:>10}" for n in names)
          + "   decode ns/entry: ours zstd", flush=True)
    for text in args.classes:
        a, b = map(int, text.split(","))
        row = measure(Path(args.dir), args.size, a, b, args.sample_blocks)
        rows.append(row)
        cells = " ".join(f"{row[n]:>10.3f}" if row[n] is not None else f"{'-':>10}"
                         for n in names)
        print(f"{a:>4},{b:<3} {row['entries']:>12,} {cells}   "
              f"{row['ours_decode_ns_per_entry']:.1f} "
              f"{row.get('zstd_decode_ns_per_entry', float('nan')):.1f}", flush=True)
    total = sum(r["entries"] for r in rows)
    print("weighted by entries: " + " ".join(
        f"{n} {sum(r[n] * r['entries'] for r in rows) / total:.3f}" for n in names
        if all(r[n] is not None for r in rows)))
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    sys.exit(main())
