"""Tablebases: the published strong solutions of 3x3 and 4x4 exactly, the 5x5 classes with at
most one blank, the verifier on every table built, files, resume and probing."""
import importlib
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quixo_solver import Board, __version__
from quixo_solver.frontends.cli import main
from quixo_solver.tablebase.format import _index
from quixo_solver.tablebase import _verify
from quixo_solver.tablebase.format._orbit_index import orbit_class, position_orbits
from quixo_solver.tablebase import (BlankRangeError, CorruptTableError, MissingTableError,
                                    Tablebase, build, verify)
from quixo_solver.tablebase.format import files
from quixo_solver.tablebase import pairs
from quixo_solver.tablebase.generator import plan
from quixo_solver.tablebase.generator._retro_twin import solve_classes
from quixo_solver.tablebase.stats import class_counts


def totals(directory, size):
    counts = class_counts(directory, size)
    return tuple(sum(c[key] for c in counts) for key in ("win", "loss", "draw"))


def raw_code_counts(directory, size):
    """Raw positions per value code over every table of the size (entries weighed by the
    positions of their orbits)."""
    total = np.zeros(1, dtype=np.int64)
    for path in sorted(directory.glob(f"quixo{size}x{size}-*.qtb")):
        header = files.read_header(path)
        counts = orbit_class(size, header.mover_count, header.opponent_count).code_counts(
            files.load_values(path))
        total = np.pad(total, (0, max(0, counts.size - total.size)))
        total[:counts.size] += counts
    return total


def test_3x3_matches_the_published_solution(tables):
    assert totals(tables, 3) == (12748, 6935, 0)
    with Tablebase(tables) as tablebase:
        assert tablebase.probe_wdl(Board(size=3)) == 1
        assert tablebase.probe_plies(Board(size=3)) == 7


def test_stats_name_the_format_and_the_version_that_wrote_the_files(tables, capsys):
    assert main(["tablebase", "stats", "--size", "3", "--dir", str(tables), "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["format"] == files.VERSION == 4 and payload["written_by"] == [__version__]
    assert files.read_header(tables / files.table_name(3, 4, 4)).written_by == __version__


def test_4x4_matches_the_published_solution(tables):
    assert totals(tables, 4) == (26434489, 15003736, 1608496)
    with Tablebase(tables) as tablebase:
        assert tablebase.probe_wdl(Board(size=4)) == 1
        assert tablebase.probe_plies(Board(size=4)) == 21
    counts = raw_code_counts(tables, 4)
    wins, losses = np.flatnonzero(counts[1::2]), np.flatnonzero(counts[2::2])
    assert wins.max() == 21 and counts[2 * 21 + 1] == 57          # code 2k + 1: win in k
    assert losses.max() == 22 and counts[2 * 22 + 2] == 8          # code 2k + 2: loss in k


def test_every_position_counts_once(tables):
    for size in (3, 4):
        assert sum(totals(tables, size)) == 3 ** (size * size)
    assert sum(totals(tables, 5)) == sum(unit.positions for unit in pairs.units(5, 1))


def test_each_entry_counts_for_its_orbit_and_holes_for_nothing(tables):
    for size, blanks in ((3, None), (4, None), (5, 1)):
        for unit in pairs.units(size, blanks):
            for a, b in unit.classes:
                orbits = orbit_class(size, a, b)
                values = files.load_values(tables / files.table_name(size, a, b))
                assert orbits.code_counts(values).sum() == _index.class_size(size, a, b)
                assert orbits.code_counts(np.ones_like(values)).sum() == \
                    _index.class_size(size, a, b)
                assert values.size == orbits.entries >= position_orbits(size, a, b)


@settings(max_examples=300)
@given(st.sampled_from((3, 4, 5)), st.data())
def test_every_symmetric_form_of_a_board_gets_one_answer(tables, size, data):
    cells = size * size
    blanks = data.draw(st.integers(0, 1 if size == 5 else cells))
    squares = data.draw(st.permutations(range(cells)))
    mover_count = data.draw(st.integers(0, cells - blanks))
    mover = sum(1 << sq for sq in squares[:mover_count])
    opponent = sum(1 << sq for sq in squares[mover_count:cells - blanks])
    board = Board.from_masks(size, mover, opponent)
    with Tablebase(tables) as tablebase:
        answers = {(tablebase.code(image), tablebase.best_move(image) is None)
                   for image in board.symmetries()}
        assert len(answers) == 1
        best = tablebase.best_move(board)
        if best is not None:
            child = board.copy()
            child.push(best)
            result = tablebase.probe(board)
            if result.plies:
                assert tablebase.probe_plies(child) == result.plies - 1


def test_the_verifier_passes_on_every_table_built(tables):
    for size in (3, 4, 5):
        report = verify(tables, size)
        assert report.ok, [c for c in report.classes if c.mismatches]
        blanks = 1 if size == 5 else None
        assert len(report.classes) == sum(len(u.classes) for u in pairs.units(size, blanks))


def test_the_verifier_decodes_each_file_of_a_pair_once_for_both_classes(tables, monkeypatch):
    """A class and its mirror read each other's values: decoding them again for the second
    class of the pair made 6 decodes a pair where 4 do (about a tenth of the time)."""
    verifier = importlib.import_module("quixo_solver.tablebase.verify")  # not the function
    decoded: list[tuple[int, int]] = []
    values = verifier._values
    monkeypatch.setattr(verifier, "_values",
                        lambda directory, size, cls, threads: decoded.append(cls)
                        or values(directory, size, cls, threads))
    assert verify(tables, 4).ok
    units = pairs.units(4)
    children = sum(1 for unit in units for a, b in unit.classes if a + b < 4 * 4)
    assert len(decoded) == sum(len(unit.classes) for unit in units) + children


def test_checking_the_built_files_keeps_few_class_indexes(tables):
    """A build checks every built file when it begins; the class indexes that opening them
    takes must not stay for the whole build (the plan counts only ORBIT_CACHE_CLASSES)."""
    import gc
    import tracemalloc
    from math import comb

    from quixo_solver.tablebase.generator import pair_solver
    from quixo_solver.tablebase.format._orbit_index import ORBIT_CACHE_CLASSES

    units = pairs.units(5, 1)
    arrangement = pairs.BYTES_PER_ARRANGEMENT
    every_index = sum(comb(a + b, a) * arrangement for unit in units for a, b in unit.classes)
    cached_at_most = ORBIT_CACHE_CLASSES * arrangement * comb(25, 12)
    assert cached_at_most < every_index
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        assert all(pair_solver.is_built(tables, unit) for unit in units)
        gc.collect()
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert kept <= cached_at_most + 2**20


def test_the_verifier_checks_only_the_blanks_asked_for(tables):
    for low, high in ((0, 0), (1, 1), (0, 1), (1, 25)):
        report = verify(tables, 5, min_blanks=low, max_blanks=high)
        assert report.ok
        assert sorted((c.mover_count, c.opponent_count) for c in report.classes) == sorted(
            cls for unit in pairs.units(5, 1) if low <= 25 - unit.cubes <= high
            for cls in unit.classes)
    with pytest.raises(MissingTableError, match="with 2 to 25 blanks"):
        verify(tables, 5, min_blanks=2)
    for low, high in ((1, 0), (-1, 1), (0, 26), (True, 1), (0, 1.0)):
        with pytest.raises(BlankRangeError, match="blanks to verify"):
            verify(tables, 5, min_blanks=low, max_blanks=high)


def test_the_verifier_finds_a_wrong_value(tables):
    own = files.load_values(tables / files.table_name(4, 6, 5))
    mirror = files.load_values(tables / files.table_name(4, 5, 6))
    after_blank = files.load_values(tables / files.table_name(4, 5, 7))
    assert _verify.verify_class(4, 6, 5, own, mirror, after_blank, 1)[0] == 0
    wrong = own.copy()
    target = int(np.flatnonzero(wrong > 4)[0])
    wrong[target] += 2  # one more ply
    bad, examples = _verify.verify_class(4, 6, 5, wrong, mirror, after_blank, 1)
    assert bad >= 1 and target in examples


def test_the_sampled_verifier_reading_the_files_agrees_with_the_whole_check(tables, tmp_path):
    """verify_sample reads every value from the compressed files; on every entry of a class
    with wrong values it finds exactly the mismatches of verify_class on the decoded arrays."""
    # the pair (6, 5) and the after-blank children of both its classes
    for cls in ((5, 6), (5, 7), (6, 6)):
        name = files.table_name(4, *cls)
        (tmp_path / name).write_bytes((tables / name).read_bytes())
    own = files.load_values(tables / files.table_name(4, 6, 5))
    mirror = files.load_values(tables / files.table_name(4, 5, 6))
    after_blank = files.load_values(tables / files.table_name(4, 5, 7))
    wrong = own.copy()
    stored = np.flatnonzero(wrong > 4)
    targets = stored[::97]
    wrong[targets] += 2                      # one more ply for about 1% of the entries
    files.write_table(tmp_path, 4, 6, 5, wrong)
    bad, examples = _verify.verify_class(4, 6, 5, wrong, mirror, after_blank, 2)
    assert bad == len(targets)
    opened = [files.open_table(tmp_path / files.table_name(4, *cls), (4, *cls))
              for cls in ((6, 5), (5, 6), (5, 7))]
    everything = np.arange(own.size, dtype=np.uint64)
    checked, sampled_bad, unreadable, first = _verify.verify_sample(4, 6, 5, *opened,
                                                                    everything, 2)
    assert sampled_bad == bad and first[0] == examples[0] == targets[0]
    assert unreadable == 0                   # wrong values, but every block intact
    assert set(first) <= set(targets.tolist())
    holes = int(orbit_class(4, 6, 5).hole_mask().sum())
    assert checked == own.size - holes
    # through verify(): a small sample finds some of them; a sample of half the class or
    # more checks it whole
    small = verify(tmp_path, 4, min_blanks=5, max_blanks=5, sample=2000)
    check = next(c for c in small.classes if (c.mover_count, c.opponent_count) == (6, 5))
    assert 2000 <= check.sampled < own.size and 0 < check.mismatches < bad
    whole = verify(tmp_path, 4, min_blanks=5, max_blanks=5, sample=own.size)
    check = next(c for c in whole.classes if (c.mover_count, c.opponent_count) == (6, 5))
    assert check.mismatches == bad and check.sampled == checked


def test_3x3_tables_match_the_pure_python_oracle(tables):
    oracle = solve_classes(3, fewest_cubes=8)
    # every arrangement of 8 or 9 cubes: an empty oracle would make the loop check nothing
    assert len(oracle) == 2 ** 9 + 9 * 2 ** 8
    with Tablebase(tables) as tablebase:
        for (mover, opponent), code in oracle.items():
            assert tablebase.code(Board.from_masks(3, mover, opponent)) == code


def test_probe_agrees_with_the_best_move_and_children(tables):
    with Tablebase(tables) as tablebase:
        board = Board("XO.O/X..X/.OX./O.X. O")
        result = tablebase.probe(board)
        moves = tablebase.probe_moves(board)
        assert moves[0][1] == result
        best = tablebase.best_move(board)
        board.push(best)
        if result.plies:
            assert tablebase.probe_plies(board) == result.plies - 1
            assert tablebase.probe_wdl(board) == -result.wdl


def test_missing_classes_raise_a_key_error(tables):
    with Tablebase(tables) as tablebase:
        with pytest.raises(MissingTableError) as raised:
            tablebase.probe_wdl(Board())
        assert isinstance(raised.value, KeyError)
        assert "(0, 0)" in str(raised.value)
        assert tablebase.get_wdl(Board(), default="none") == "none"
        assert tablebase.get_plies(Board(size=3)) == 7


def test_corrupt_and_truncated_files_are_named(tables, tmp_path):
    name = files.table_name(4, 6, 5)
    source = tables / name
    header = files.read_header(source)
    damaged = tmp_path / name
    good = source.read_bytes()
    places = {"header": 9, "model": header.model_offset + 2,
              "block index": header.index_offset + 9, "trailer": len(good) - 50}
    for part, offset in places.items():
        data = bytearray(good)
        data[offset] ^= 0x01
        damaged.write_bytes(bytes(data))
        with pytest.raises(CorruptTableError, match=name):
            files.open_table(damaged)
    data = bytearray(good)
    data[header.data_offset + 3] ^= 0x01                  # in the first block
    damaged.write_bytes(bytes(data))
    table = files.open_table(damaged)                      # opening reads no block ...
    with pytest.raises(CorruptTableError, match=f"{name} is damaged: block 0"):
        table.check_all()                                  # ... checking them finds it
    with pytest.raises(CorruptTableError, match=name):
        files.load_values(damaged)
    damaged.write_bytes(good[:-1])
    with pytest.raises(CorruptTableError, match="truncated"):
        files.open_table(damaged)
    damaged.write_bytes(b"not a table at all" * 10)
    with pytest.raises(CorruptTableError, match="not a Quixo table"):
        files.open_table(damaged)


def test_codes_of_any_size_are_kept_exactly(tmp_path):
    """Rare codes (long wins and losses) go through the escape symbol; the search's kernel
    reads what the Python probe reads, and positions the rules decide need no stored value."""
    from quixo_solver.rules import _rules_twin
    from quixo_solver.search import _search

    orbits = orbit_class(4, 4, 3)
    rng = np.random.default_rng(5)
    values = rng.integers(0, 3000, orbits.entries).astype(np.uint16)
    values[rng.random(orbits.entries) < 0.7] = 7
    stored = []
    for index in range(orbits.entries):
        mover, opponent, hole = orbits.position_at(index)
        status = _rules_twin.position_status(4, mover, opponent)
        no_move = not (0b1111100110011111 & ~opponent)   # every border cube the opponent's
        if hole:
            values[index] = 0
        elif status or no_move:
            values[index] = 1 if status > 0 else 2
        else:
            stored.append(index)
    assert len(stored) > 1000 and np.count_nonzero(values[stored] > 200) > 100
    assert len(stored) < orbits.entries - 1000                  # and many decided ones
    path = files.write_table(tmp_path, 4, 4, 3, values)
    assert np.array_equal(files.load_values(path, (4, 4, 3)), values)
    table = files.open_table(path, (4, 4, 3))
    searcher = _search.Searcher(4, 1)
    searcher.add_table(4, 3, files.open_table(path, (4, 4, 3)))
    for index in range(orbits.entries):
        mover, opponent, hole = orbits.position_at(index)
        if not hole:
            assert table.position_code(mover, opponent) == values[index]
            assert searcher.table_code(mover, opponent) == values[index]
    with pytest.raises(ValueError, match="not the table of class"):
        searcher.add_table(3, 4, table)


def test_an_interrupted_build_resumes_and_keeps_finished_work(tmp_path):
    first = build(tmp_path, 3)
    assert len(first.solved) == len(pairs.units(3))
    finished = {p.name: p.read_bytes() for p in tmp_path.glob("*.qtb")}
    # Lose the last units, as if the build had been killed there, with a half-written file.
    removed = [files.table_name(3, *cls) for unit in pairs.units(3)[-4:] for cls in unit.classes]
    for name in removed:
        (tmp_path / name).unlink()
    (tmp_path / (removed[0] + files.TEMPORARY_SUFFIX + "-999999")).write_bytes(b"half")
    second = build(tmp_path, 3)
    assert len(second.solved) == 4 and len(second.skipped) == len(pairs.units(3)) - 4
    assert {p.name: p.read_bytes() for p in tmp_path.glob("*.qtb")} == finished
    assert not list(tmp_path.glob("*" + files.TEMPORARY_SUFFIX + "*"))


def test_results_do_not_depend_on_the_thread_count_or_the_schedule(tmp_path, monkeypatch):
    """One thread; two, the small pairs side by side; two, every pair alone on both."""
    one, side_by_side, alone = tmp_path / "one", tmp_path / "side", tmp_path / "alone"
    build(one, 3, jobs=1)
    build(side_by_side, 3, jobs=2)
    monkeypatch.setattr(plan, "SMALL_UNIT_ENTRIES", 0)
    build(alone, 3, jobs=2)
    expected = {path.name: path.read_bytes() for path in one.glob("*.qtb")}
    assert len(expected) == sum(len(unit.classes) for unit in pairs.units(3))
    for folder in (side_by_side, alone):
        assert {path.name: path.read_bytes() for path in folder.glob("*.qtb")} == expected


def test_a_build_that_needs_too_much_refuses_cleanly(tmp_path, monkeypatch):
    from quixo_solver.tablebase import InsufficientResourcesError
    from quixo_solver.tablebase.generator import prepare

    monkeypatch.setattr(prepare, "available_memory", lambda: 1000)
    with pytest.raises(InsufficientResourcesError, match="GiB of memory"):
        build(tmp_path, 4)
    assert not list(tmp_path.glob("*.qtb"))
    build(tmp_path, 3, force=True)  # --force overrides


def test_plan_orders_units_after_what_they_need():
    for size, blanks in ((3, None), (4, None), (5, 3)):
        done = set()
        for unit in pairs.units(size, blanks):
            assert all(cls in done for cls in unit.needs)
            done.update(unit.classes)
    assert sum(u.positions for u in pairs.units(5, 2)) == 2969567232


def test_the_5x5_classes_built_here_match_the_recorded_expected_data(tables):
    """tests/data/expected-5x5-up-to-2-blanks.json records what the one-entry-per-position
    generator gave for every 5x5 class with at most 2 blanks; a new generator (symmetry
    classes) must reproduce it. The classes built in the tests (<= 1 blank) are checked here."""
    import json
    from pathlib import Path

    expected = json.loads((Path(__file__).parent / "data" /
                           "expected-5x5-up-to-2-blanks.json").read_text())["classes"]
    built = {(c["mover"], c["opponent"]): c for c in class_counts(tables, 5)}
    recorded = {(c["mover"], c["opponent"]): c for c in expected}
    assert len(built) == sum(len(u.classes) for u in pairs.units(5, 1))
    for cls, counts in built.items():
        header = files.read_header(tables / files.table_name(5, *cls), (5, *cls))
        assert {key: counts[key] for key in ("win", "draw", "loss")} == {
            key: recorded[cls][key] for key in ("win", "draw", "loss")}
        assert header.longest_plies == recorded[cls]["longest_plies"]


@settings(max_examples=20, deadline=None)
@given(st.sampled_from([(6, 5), (7, 7), (8, 6)]), st.integers(0, 2**32 - 1))
def test_probes_that_decode_part_of_a_segment_agree_with_whole_segments(tables, cls, seed):
    """A probe decodes its segment only up to its entry, and the rest when a later probe
    needs it: in any order, every probe of a 4x4 class gives the value its entry has when
    the table is decoded whole (positions the rules decide left out: the file need not hold
    them)."""
    from quixo_solver.rules._rules import legal_moves, position_status
    from quixo_solver.tablebase.format import files

    movers_count, opponents_count = cls
    table = files.open_table(tables / files.table_name(4, *cls), (4, *cls))
    whole = table.values()
    rng = np.random.default_rng(seed)
    movers, opponents = [], []
    while len(movers) < 400:
        order = rng.permutation(16)
        mover = sum(1 << int(c) for c in order[:movers_count])
        opponent = sum(1 << int(c) for c in order[movers_count:movers_count + opponents_count])
        if position_status(4, mover, opponent) == 0 and legal_moves(4, mover, opponent):
            movers.append(mover)
            opponents.append(opponent)
    codes = table.position_codes(np.array(movers), np.array(opponents))
    expected = [whole[table.orbits.index_of(m, o)] for m, o in zip(movers, opponents)]
    assert codes.tolist() == [int(code) for code in expected]


def test_the_modules_of_0_1_0_import_under_their_old_names_with_a_warning():
    """A public name that moves keeps an alias for a release (CHANGELOG: until 0.3.0)."""
    import importlib
    import sys

    import quixo_solver.tablebase as face
    from quixo_solver.tablebase.format import files as moved_files
    from quixo_solver.tablebase.generator import builder as moved_builder

    for old in ("files", "builder", "plan"):      # as if never imported in this process
        sys.modules.pop(f"quixo_solver.tablebase.{old}", None)
        vars(face).pop(old, None)
    for old, module in (("files", moved_files), ("builder", moved_builder)):
        with pytest.warns(DeprecationWarning, match=f"tablebase.{old} moved to"):
            assert importlib.import_module(f"quixo_solver.tablebase.{old}") is module
    with pytest.warns(DeprecationWarning, match="tablebase.plan moved to"):
        from quixo_solver.tablebase import plan as old_plan
    assert old_plan.Unit is pairs.Unit and old_plan.units is pairs.units
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("quixo_solver.tablebase.no_such_module")
