"""The value coder's pure-Python twin (see _codec.pxd): the oracle of tests/test_codec.py.

Slow and plain: rows from sorted bit masks, contexts as the rule says, rANS one symbol at a
time with Python integers. The compiled coder (_codec.pyx, _codec.pxd) must give the same
bytes and the same codes.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import combinations

PROBABILITY_BITS = 12
PROBABILITY_SCALE = 1 << PROBABILITY_BITS
RANS_LOW = 1 << 23
MAX_SYMBOLS = 64
RAW_BITS = 8


class DamagedSegmentError(ValueError):
    """Bytes that are not a segment of the model."""


def rows(occupied: int, movers: int, split: int) -> tuple[list[int], list[int]]:
    """(run starts + the end, distance of each run to the row above or 0)."""
    masks = sorted(sum(1 << p for p in chosen) for chosen in combinations(range(occupied), movers))
    starts: list[int] = []
    offsets: list[int] = []
    previous: dict[int, int] = {}
    for rank, mask in enumerate(masks):
        high = mask >> split
        if rank == 0 or high != masks[rank - 1] >> split:
            cubes = bin(high).count("1")
            offsets.append(rank - previous[cubes] if cubes in previous else 0)
            previous[cubes] = rank
            starts.append(rank)
    return starts + [len(masks)], offsets


@dataclass
class Model:
    alphabet: list[int]              # symbol -> code (the last one: the escape, if `escape`)
    escape: bool
    buckets: int
    split: int
    occupied: int
    movers: int
    frequencies: list[list[int]] = field(default_factory=list)   # context -> symbol -> freq

    @property
    def contexts(self) -> int:
        return (self.buckets + 1) ** 2

    def bucket(self, symbol: int) -> int:
        return 0 if self.buckets == 0 else min(symbol, self.buckets - 1)

    def symbol_of(self, code: int) -> int:
        plain = self.alphabet[:len(self.alphabet) - self.escape]
        if code in plain:
            return plain.index(code)
        if not self.escape:
            raise ValueError(f"code {code} has no symbol")
        return len(self.alphabet) - 1

    def cumulative(self, context: int, symbol: int) -> int:
        return sum(self.frequencies[context][:symbol])


def frequencies_from_counts(counts: list[list[int]]) -> list[list[int]]:
    result = []
    for row in counts:
        total = sum(row)
        if total == 0:
            result.append([0] * len(row))
            continue
        frequency = [0 if c == 0 else max(1, c * PROBABILITY_SCALE // total) for c in row]
        missing = PROBABILITY_SCALE - sum(frequency)
        if missing > 0:
            frequency[row.index(max(row))] += missing
        while missing < 0:
            largest = max(range(len(frequency)), key=lambda s: (frequency[s], -s))
            taken = min(-missing, frequency[largest] - 1)
            frequency[largest] -= taken
            missing += taken
        result.append(frequency)
    return result


def context_of(model: Model, first_index: int) -> Callable[[int, list[int]], int]:
    """The context of entry i of a segment from the buckets of the entries before it: the
    bucket on its left and, for a split model, the bucket of the entry "above" it (the same
    arrangement of the row before), each `model.buckets` where there is none."""
    none = model.buckets
    if model.split:
        starts, offsets = rows(model.occupied, model.movers, model.split)
        arrangements = starts[-1]

    def context(i: int, buckets: list[int]) -> int:
        left = buckets[i - 1] if i else none
        above = none
        if model.split:
            rank = (first_index + i) % arrangements
            run = max(r for r in range(len(offsets)) if starts[r] <= rank)
            if offsets[run] and offsets[run] <= i:
                above = buckets[i - offsets[run]]
        return left * (model.buckets + 1) + above

    return context


def contexts(model: Model, codes: list[int], first_index: int) -> list[tuple[int, int]]:
    """(context, symbol) of each entry of a segment."""
    context = context_of(model, first_index)
    result: list[tuple[int, int]] = []
    buckets: list[int] = []
    for i, code in enumerate(codes):
        symbol = model.symbol_of(code)
        result.append((context(i, buckets), symbol))
        buckets.append(model.bucket(symbol))
    return result


def count(model: Model, codes: list[int], first_index: int, counts: list[list[int]]) -> None:
    for context, symbol in contexts(model, codes, first_index):
        counts[context][symbol] += 1


def encode_segment(model: Model, codes: list[int], first_index: int) -> bytes:
    # the symbols with their (frequency, cumulative), in decoding order
    steps = []
    uniform = 1 << (PROBABILITY_BITS - RAW_BITS)
    for (context, symbol), code in zip(contexts(model, codes, first_index), codes):
        frequency = model.frequencies[context][symbol]
        if frequency == 0:
            raise ValueError(f"symbol {symbol} has no probability in context {context}")
        steps.append((frequency, model.cumulative(context, symbol)))
        if model.escape and symbol == len(model.alphabet) - 1:
            steps.append((uniform, (code >> RAW_BITS) * uniform))
            steps.append((uniform, (code & 0xFF) * uniform))
    x, emitted = RANS_LOW, []
    for frequency, cumulative in reversed(steps):
        while x >= ((RANS_LOW >> PROBABILITY_BITS) << 8) * frequency:
            emitted.append(x & 0xFF)
            x >>= 8
        x = (x // frequency << PROBABILITY_BITS) + x % frequency + cumulative
    return x.to_bytes(4, "little") + bytes(reversed(emitted))


def decode_segment(model: Model, data: bytes, first_index: int, count: int) -> list[int]:
    if len(data) < 4:
        raise DamagedSegmentError("shorter than a start state")
    x, at = int.from_bytes(data[:4], "little"), 4
    context = context_of(model, first_index)
    codes: list[int] = []
    buckets: list[int] = []

    def take(frequency_of_slot: Callable[[int], tuple[int, int, int]]) -> int:
        # one rANS step: the symbol (or raw value) of the slot
        nonlocal x, at
        slot = x & (PROBABILITY_SCALE - 1)
        value, frequency, cumulative = frequency_of_slot(slot)
        x = frequency * (x >> PROBABILITY_BITS) + slot - cumulative
        while x < RANS_LOW:
            if at == len(data):
                raise DamagedSegmentError("ends early")
            x = (x << 8) | data[at]
            at += 1
        return value

    for i in range(count):
        row = model.frequencies[context(i, buckets)]
        if sum(row) == 0:
            raise DamagedSegmentError("a context no entry has")

        def by_slot(slot: int, row: list[int] = row) -> tuple[int, int, int]:
            cumulative = 0
            for symbol, frequency in enumerate(row):
                if slot < cumulative + frequency:
                    return symbol, frequency, cumulative
                cumulative += frequency
            raise AssertionError("the frequencies sum to the scale")

        symbol = take(by_slot)
        if model.escape and symbol == len(model.alphabet) - 1:
            uniform = 1 << (PROBABILITY_BITS - RAW_BITS)
            high = take(lambda slot: (slot // uniform, uniform, slot // uniform * uniform))
            low = take(lambda slot: (slot // uniform, uniform, slot // uniform * uniform))
            codes.append(high << 8 | low)
        else:
            codes.append(model.alphabet[symbol])
        buckets.append(model.bucket(symbol))
    if at != len(data) or x != RANS_LOW:
        raise DamagedSegmentError("does not end on the start state")
    return codes


def encode_block(model: Model, codes: list[int], first_index: int, segment_entries: int) -> bytes:
    segments = [encode_segment(model, codes[s:s + segment_entries], first_index + s)
                for s in range(0, len(codes), segment_entries)]
    table, at = b"", 2 * (len(segments) - 1)
    for segment in segments[:-1]:
        at += len(segment)
        table += at.to_bytes(2, "little")
    return table + b"".join(segments)


def decode_block(model: Model, data: bytes, first_index: int, count: int,
                 segment_entries: int) -> list[int]:
    segments = -(-count // segment_entries)
    table = 2 * (segments - 1)
    if table > len(data):
        raise DamagedSegmentError("shorter than its offsets")
    ends = [int.from_bytes(data[2 * s:2 * s + 2], "little") for s in range(segments - 1)]
    bounds = [table] + ends + [len(data)]
    codes: list[int] = []
    for s in range(segments):
        start, stop = bounds[s], bounds[s + 1]
        if start < table or stop < start or stop > len(data):
            raise DamagedSegmentError("offsets outside the block")
        n = min(segment_entries, count - s * segment_entries)
        codes += decode_segment(model, data[start:stop], first_index + s * segment_entries, n)
    return codes
