"""The compressed tables' value coder (_codec.pyx/.pxd) against its pure-Python twin
(_codec_twin.py): rows, frequencies, encode/decode round trips, escapes, damaged blocks."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quixo_solver.tablebase.format import _codec, _codec_twin, coding
from quixo_solver.tablebase.format._orbit_index import orbit_class


@given(st.integers(2, 12).flatmap(lambda occupied: st.tuples(
    st.just(occupied), st.integers(0, occupied), st.integers(1, occupied - 1))))
def test_rows_match_the_twin(shape):
    occupied, movers, split = shape
    starts, offsets = _codec.rows(occupied, movers, split)
    twin_starts, twin_offsets = _codec_twin.rows(occupied, movers, split)
    assert list(starts) == twin_starts and list(offsets) == twin_offsets
    # the row above holds the same low squares: the masks differ only above the cut
    from quixo_solver.tablebase.format._index import subsets_in_order
    masks = subsets_in_order(movers, occupied)
    for run, offset in enumerate(offsets):
        for rank in range(starts[run], starts[run + 1]):
            if offset:
                above = rank - offset
                assert masks[above] & ((1 << split) - 1) == masks[rank] & ((1 << split) - 1)
                assert bin(masks[above] >> split).count("1") == bin(masks[rank] >> split).count("1")
                assert masks[above] >> split < masks[rank] >> split


@given(st.lists(st.lists(st.integers(0, 10**6), min_size=1, max_size=64).map(
    lambda row: row), min_size=1, max_size=5).filter(lambda rows: len({len(r) for r in rows}) == 1))
def test_frequencies_match_the_twin_and_sum_to_the_scale(counts):
    ours = _codec.frequencies_from_counts(np.array(counts))
    assert ours.tolist() == _codec_twin.frequencies_from_counts(counts)
    for row, frequencies in zip(counts, ours.tolist()):
        assert sum(frequencies) in (0, _codec_twin.PROBABILITY_SCALE)
        assert all((f > 0) == (c > 0) for c, f in zip(row, frequencies))


@st.composite
def coded_blocks(draw):
    """A model fitted to some codes (so that every symbol is codable), and those codes."""
    occupied = draw(st.integers(2, 10))
    movers = draw(st.integers(0, occupied))
    distinct = draw(st.lists(st.integers(0, 0x7FFF), min_size=1, max_size=80, unique=True))
    segment = draw(st.sampled_from([1, 3, 64, 256, 512]))
    count = draw(st.integers(1, min(700, 256 * segment)))   # a block has 256 segments at most
    weights = draw(st.lists(st.integers(1, 50), min_size=len(distinct), max_size=len(distinct)))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    codes = [int(c) for c in rng.choice(distinct, size=count, p=np.array(weights) / sum(weights))]
    if draw(st.booleans()):     # runs, as in real tables
        codes = [codes[i // 7] for i in range(count)]
    symbols_in_use = sorted(set(codes), key=lambda c: (-codes.count(c), c))
    escape = len(symbols_in_use) > _codec_twin.MAX_SYMBOLS
    alphabet = symbols_in_use[:_codec_twin.MAX_SYMBOLS - 1] + [0] if escape else symbols_in_use
    buckets = draw(st.integers(0, 7))
    split = draw(st.integers(0, occupied - 1)) if occupied > 1 else 0
    first_index = draw(st.integers(0, 5000))
    model = _codec_twin.Model(alphabet, escape, buckets, split, occupied, movers)
    counts = [[0] * len(alphabet) for _ in range(model.contexts)]
    for start in range(0, count, segment):
        _codec_twin.count(model, codes[start:start + segment], first_index + start, counts)
    model.frequencies = _codec_twin.frequencies_from_counts(counts)
    return model, codes, first_index, segment


def compiled(model):
    return _codec.CodecModel(model.alphabet, model.escape, model.buckets, model.split,
                             model.occupied, model.movers, np.array(model.frequencies))


@settings(max_examples=200, deadline=None)
@given(coded_blocks())
def test_blocks_round_trip_and_match_the_twin(block):
    model, codes, first_index, segment = block
    data = _codec_twin.encode_block(model, codes, first_index, segment)
    assert _codec_twin.decode_block(model, data, first_index, len(codes), segment) == codes
    ours = compiled(model)
    assert _codec.encode_codes(ours, codes, first_index, segment) == data
    assert _codec.decode_codes(ours, data, first_index, len(codes), segment).tolist() == codes
    # the stored model gives the same one back
    again = _codec.CodecModel.from_bytes(ours.to_bytes(), model.occupied, model.movers)
    assert _codec.decode_codes(again, data, first_index, len(codes), segment).tolist() == codes


@settings(max_examples=200, deadline=None)
@given(coded_blocks(), st.data())
def test_damaged_blocks_are_refused_or_decode_as_in_the_twin(block, data):
    model, codes, first_index, segment = block
    good = _codec_twin.encode_block(model, codes, first_index, segment)
    how = data.draw(st.sampled_from(["flip", "cut", "extend"]))
    damaged = bytearray(good)
    if how == "flip":
        at = data.draw(st.integers(0, len(good) - 1))
        damaged[at] ^= 1 << data.draw(st.integers(0, 7))
    elif how == "cut":
        damaged = damaged[:data.draw(st.integers(0, len(good) - 1))]
    else:
        damaged += bytes(data.draw(st.binary(min_size=1, max_size=4)))
    damaged = bytes(damaged)
    try:
        expected = _codec_twin.decode_block(model, damaged, first_index, len(codes), segment)
    except _codec_twin.DamagedSegmentError:
        with pytest.raises(_codec.DamagedSegmentError):
            _codec.decode_codes(compiled(model), damaged, first_index, len(codes), segment)
    else:
        assert _codec.decode_codes(compiled(model), damaged, first_index, len(codes),
                                   segment).tolist() == expected
    # what the checksum is for: the block's CRC differs whatever the damage
    import zlib
    assert zlib.crc32(damaged) != zlib.crc32(good)


def test_random_bytes_never_crash_the_decoder():
    rng = np.random.default_rng(11)
    model = _codec_twin.Model([1, 3, 0, 5, 7], False, 3, 4, 9, 4)
    counts = [[rng.integers(0, 20) for _ in range(5)] for _ in range(model.contexts)]
    model.frequencies = _codec_twin.frequencies_from_counts(counts)
    ours = compiled(model)
    refused = 0
    for _ in range(2000):
        noise = rng.integers(0, 256, rng.integers(0, 80), dtype=np.uint8).tobytes()
        try:
            _codec.decode_codes(ours, noise, 0, 100, 64)
        except _codec.DamagedSegmentError:
            refused += 1
    assert refused > 1900


def test_an_escaped_code_and_a_certain_symbol():
    model = _codec_twin.Model([9, 0], True, 0, 0, 4, 2)
    codes = [9] * 50 + [700, 9, 9, 0x7FFF]
    counts = [[0, 0]]
    _codec_twin.count(model, codes, 0, counts)
    model.frequencies = _codec_twin.frequencies_from_counts(counts)
    data = _codec.encode_codes(compiled(model), codes, 0, 512)
    assert data == _codec_twin.encode_block(model, codes, 0, 512)
    assert _codec.decode_codes(compiled(model), data, 0, len(codes), 512).tolist() == codes
    # one symbol with probability 1 takes no bytes beyond the start state
    single = _codec_twin.Model([5], False, 0, 0, 4, 2, [[4096]])
    assert _codec_twin.encode_block(single, [5] * 300, 0, 512) == \
        _codec.encode_codes(compiled(single), [5] * 300, 0, 512) == (1 << 23).to_bytes(4, "little")


def test_holes_and_terminal_positions_take_the_code_before_them():
    """Entries the file need not hold (holes, positions the rules decide: a line, or no
    move) are written as the code before them; the others as they are. (The values given
    are true values: a position the rules decide has its win or loss in 0.)"""
    from quixo_solver.rules import _rules_twin

    orbits = orbit_class(4, 6, 5)        # symmetric blocks (holes) and many lines
    rng = np.random.default_rng(4)
    values = rng.integers(0, 9, orbits.entries).astype(np.uint16)
    decided = {}
    for index in range(orbits.entries):
        mover, opponent, hole = orbits.position_at(index)
        status = _rules_twin.position_status(4, mover, opponent)
        no_move = not (0b1111100110011111 & ~opponent)
        if not hole and (status or no_move):
            values[index] = 1 if status > 0 else 2
            decided[index] = True
    kinds = {"hole": 0, "decided": 0, "stored": 0}
    for first in range(0, orbits.entries, 97):
        count = min(97, orbits.entries - first)
        filled = _codec.fill_codes(orbits, values, first, count, 42).tolist()
        previous = 42
        for i in range(count):
            hole = orbits.position_at(first + i)[2]
            kind = "hole" if hole else "decided" if first + i in decided else "stored"
            kinds[kind] += 1
            expected = int(values[first + i]) if kind == "stored" else previous
            assert filled[i] == expected
            previous = expected
    assert min(kinds.values()) > 0, kinds


@settings(max_examples=100, deadline=None)
@given(st.integers(3, 12).flatmap(lambda occupied: st.tuples(
    st.just(occupied), st.integers(0, occupied), st.integers(1, occupied - 1),
    st.lists(st.integers(0, 9), min_size=1, max_size=600), st.integers(0, 3000),
    st.integers(0, 7), st.booleans())))
def test_coarser_counts_are_the_counts_of_the_coarser_shape(case):
    """choose_model counts each cut once with the most buckets: what it derives for every
    other shape must be what counting that shape gives (the twin counts both)."""
    occupied, movers, cut, codes, first_index, buckets, with_cut = case
    alphabet = sorted(set(codes))

    def counted(buckets, split):
        model = _codec_twin.Model(alphabet, False, buckets, split, occupied, movers)
        counts = [[0] * len(alphabet) for _ in range(model.contexts)]
        _codec_twin.count(model, codes, first_index, counts)
        return np.array(counts, dtype=np.int64)

    most = max(coding.BUCKETS)
    target = coding.Shape(buckets, cut if with_cut else 0)
    derived = coding.coarser_counts(counted(most, cut), most, target)
    assert derived.tolist() == counted(target.buckets, target.split).tolist()
