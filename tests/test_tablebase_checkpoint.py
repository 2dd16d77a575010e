"""A build stopped anywhere resumes inside the pair it was solving
(tablebase/generator/checkpoint.py): the resumed files are byte for byte those of a build never
stopped."""
import io
import shutil
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from quixo_solver.tablebase import build
from quixo_solver.tablebase.generator import checkpoint, journal, pair_solver
from quixo_solver.tablebase import pairs
from quixo_solver.tablebase.format import files
from quixo_solver.tablebase.generator.progress import BuildProgress, place_label
from quixo_solver.tablebase.generator.checkpoint import CheckpointError, Checkpoints, Place


class Stop(Exception):
    """Stands for a kill in the in-process tests."""


def table_bytes(folder, size):
    return {path.name: path.read_bytes() for path in folder.glob(f"quixo{size}x{size}-*.qtb")}


def largest(size, max_blanks=None):
    return max(pairs.units(size, max_blanks), key=lambda unit: unit.entries)


def copy_inputs(source, target, unit):
    """A folder holding the tables `unit` needs, taken from a finished build."""
    target.mkdir(parents=True, exist_ok=True)
    for cls in unit.needs:
        name = files.table_name(unit.size, *cls)
        shutil.copy(source / name, target / name)
    return target


def open_inputs(folder, unit):
    return {cls: files.open_table(folder / files.table_name(unit.size, *cls), (unit.size, *cls))
            for cls in unit.needs}


def solve(folder, unit, *, stop_after_steps=None, slice_chunks=2, resumed=None):
    """Solve `unit` from `folder` with a checkpoint after every slice, stopping (as a kill
    would, with no save) after that many slices."""
    inputs = open_inputs(folder, unit)
    saved = Checkpoints(checkpoint.path_of(folder, unit), unit,
                        checkpoint.inputs_identity(inputs), every=0)
    steps = []

    def step(place, longest, chunks):
        steps.append(place)
        if stop_after_steps is not None and len(steps) == stop_after_steps:
            raise Stop

    values = pair_solver.solve_unit(unit, inputs, 2, step, checkpoints=saved,
                                    slice_chunks=slice_chunks,
                                    on_resume=None if resumed is None else resumed.append)
    return values, steps


@pytest.mark.parametrize("size", [3, 4])
def test_a_pair_stopped_after_any_slice_resumes_to_the_same_values(tables, tmp_path, size):
    unit = largest(size)
    folder = copy_inputs(tables, tmp_path, unit)
    expected = pair_solver.solve_unit(unit, open_inputs(folder, unit), 2)
    _, steps = solve(folder, unit)
    checkpoint.path_of(folder, unit).unlink()
    assert len(steps) > 10 and any(place.chunk not in (0,) for place in steps)
    for stop in sorted({1, 2, 3, len(steps) // 3, len(steps) // 2, len(steps) - 1}):
        with pytest.raises(Stop):
            solve(folder, unit, stop_after_steps=stop)
        resumed = []
        values, rest = solve(folder, unit, resumed=resumed)
        assert resumed == [steps[stop - 1]]       # saved after that slice, before the stop
        assert len(rest) == len(steps) - stop
        assert values.keys() == expected.keys()
        for cls in expected:
            assert (values[cls] == expected[cls]).all(), (stop, cls)
        checkpoint.path_of(folder, unit).unlink(missing_ok=True)


def test_places_follow_the_order_of_the_kernel_calls():
    """Each kernel on both classes before the next (pair_solver.solve_unit); `resolve` before
    the propagation of its pass."""
    order = [Place.of("mark", 0, 0, 5), Place.of("mark", 1, 0, 0), Place.of("pull", 0, 0, 0),
             Place.of("pull", 1, 0, 2), Place.of("settle", 0, 0, 9),
             Place.of("settle", 1, 0, 3),
             Place.of("propagate", 0, 2, 7), Place.of("propagate", 1, 2, 0),
             Place.of("resolve", 0, 3, 0), Place.of("resolve", 1, 3, 4),
             Place.of("propagate", 0, 3, 0)]
    assert sorted(order) == order
    assert checkpoint.START < order[0]


def test_the_progress_line_says_how_far_the_step_under_way_is():
    """A long step (the pull of a large pair runs for tens of minutes) shows its share done."""
    unit = largest(5, 8)
    (a, b), (c, d) = unit.classes
    assert place_label(unit, Place.of("pull", 1, 0, 50), -1, 200) == (
        f"{unit}: class ({c}, {d}) pull 25%")
    assert place_label(unit, Place.of("propagate", 0, 7, 200), 30, 200) == (
        f"{unit}: ply 7/31 100%")


def test_the_progress_line_gives_entries_done_and_left_the_rate_and_an_eta():
    """The rate is that of the pairs this run solved over the time it ran; a pair another
    process built counts as done but not in the rate; the ETA is what is left at that rate,
    less the time the running pair has had."""
    first, second, third = (pairs.Unit(5, 14, 8), pairs.Unit(5, 13, 9), pairs.Unit(5, 12, 10))
    progress = BuildProgress([first, second, third], "build", stream=io.StringIO(),
                             enabled=False)
    started = progress.started
    assert "ETA" not in progress.line(started + 10, 0.0)     # no pair solved: no rate yet
    progress.finish(first, True)
    progress.finish(second, False)
    progress.start(third)
    progress.unit_started = started + 60
    total = first.entries + second.entries + third.entries
    line = progress.line(started + 100, progress.done / total)
    rate = first.entries / 100
    assert f" {(first.entries + second.entries) / 1e9:.2f}/{total / 1e9:.2f} G entries" in line
    assert f" {rate / 1e6:.2f} M/s " in line
    eta = int(third.entries / rate - 40)
    assert f"ETA {eta // 60}m{eta % 60:02d}s" in line

def test_a_damaged_or_foreign_checkpoint_is_set_aside_and_the_pair_solved_afresh(tables,
                                                                                 tmp_path):
    unit = largest(4)
    folder = copy_inputs(tables, tmp_path, unit)
    expected = pair_solver.solve_unit(unit, open_inputs(folder, unit), 2)
    path = checkpoint.path_of(folder, unit)
    with pytest.raises(Stop):
        solve(folder, unit, stop_after_steps=6)
    good = path.read_bytes()
    middle = len(good) // 2
    for damaged in (good[:middle] + bytes([good[middle] ^ 1]) + good[middle + 1:],
                    good[:-1], good[:40], b""):
        path.write_bytes(damaged)
        with pytest.raises(CheckpointError):
            checkpoint.load(path, unit, pair_solver_sides(unit, folder), [])
        with pytest.warns(UserWarning, match="solving pair"):
            values, steps = solve(folder, unit)
        assert all((values[cls] == expected[cls]).all() for cls in expected)
        path.unlink(missing_ok=True)
    # a checkpoint of other inputs is not used either
    path.write_bytes(good)
    sides = pair_solver_sides(unit, folder)
    with pytest.raises(CheckpointError, match="other input tables"):
        checkpoint.load(path, unit, sides, [[0, 0, 0, 0, 0]])
    with pytest.raises(CheckpointError, match="another pair"):
        checkpoint.load(path, pairs.Unit(4, 5, 4), sides, [])


def test_the_saved_state_of_a_pair_killed_after_its_files_were_written_is_removed(tables,
                                                                                  tmp_path):
    """A kill between writing a pair's files and removing its checkpoint leaves a built pair
    with a saved state: the next build, which skips the pair, removes the state."""
    unit = largest(3)
    folder = copy_inputs(tables, tmp_path, unit)
    with pytest.raises(Stop):
        solve(folder, unit, stop_after_steps=2)
    for cls in unit.classes:
        name = files.table_name(unit.size, *cls)
        shutil.copy(tables / name, folder / name)
    report = build(folder, 3, progress=False)
    assert unit in report.skipped and report.complete
    assert not list(folder.glob(".checkpoint-*"))


def pair_solver_sides(unit, folder):
    from quixo_solver.tablebase.generator import _retro

    inputs = open_inputs(folder, unit)
    return [_retro.ClassSide(unit.size, a, b, inputs.get((b, a + 1))) for a, b in unit.classes]


def test_a_time_budget_ends_at_a_checkpoint_and_the_same_call_finishes(tables, tmp_path):
    first = build(tmp_path, 4, stop_after=0.3, slice_chunks=4)
    assert not first.complete and first.left
    assert all(unit not in first.solved for unit in first.left)
    second = build(tmp_path, 4, slice_chunks=4)
    assert second.complete and set(second.solved) == set(first.left)
    assert table_bytes(tmp_path, 4) == table_bytes(tables, 4)
    assert not list(tmp_path.glob(".checkpoint-*"))
    # the journal: one line per unit over both runs, the resumed ones marked, and each unit's
    # time the sum over the runs (so at least what its checkpoint kept)
    lines = {(line["mover"], line["opponent"]): line for line in journal.read(tmp_path)}
    assert set(lines) == {unit.classes[0] for unit in pairs.units(4)}
    assert {cls for cls, line in lines.items() if line["resumed"]} == {
        unit.classes[0] for unit in second.resumed}
    for unit in pairs.units(4):
        line = lines[unit.classes[0]]
        assert line["entries"] == unit.entries and line["seconds"] > 0 < line["cpu_seconds"]
        assert line["bytes"] == sum((tmp_path / files.table_name(4, *cls)).stat().st_size
                                    for cls in unit.classes)
        assert line["peak_memory_bytes"] > 2**20     # Linux: the process's VmHWM


def test_the_cli_says_what_a_time_budget_left(tmp_path, capsys):
    from quixo_solver.frontends.cli import main

    assert main(["tablebase", "build", "--size", "4", "--dir", str(tmp_path), "--stop-after",
                 "0.2s", "--json"]) == 0
    import json

    payload = json.loads(capsys.readouterr().out)
    assert payload["complete"] is False and payload["left"] > 0 and payload["entries_left"] > 0
    assert main(["tablebase", "build", "--size", "4", "--dir", str(tmp_path), "--stop-after",
                 "soon"]) == 2
    assert "expected a duration such as 2h30m" in capsys.readouterr().err


# -- SIGKILL in the middle of a pair, in a real build process ----------------------------------

KILLER = textwrap.dedent("""
    import os, random, signal, sys, threading, time
    from quixo_solver.tablebase import build
    from quixo_solver.tablebase.generator import checkpoint
    folder, size, blanks, saves, delay = sys.argv[1], int(sys.argv[2]), sys.argv[3], \\
        int(sys.argv[4]), float(sys.argv[5])
    real_save = checkpoint.save
    count = 0
    def save(*args, **kwargs):
        global count
        real_save(*args, **kwargs)
        count += 1
        if count == saves:        # die `delay` seconds after this save: inside a kernel call,
            # a write or between slices, wherever the build then is
            threading.Thread(target=lambda: (time.sleep(delay),
                                             os.kill(os.getpid(), signal.SIGKILL))).start()
    checkpoint.save = save
    build(folder, size, None if blanks == "all" else int(blanks), checkpoint_seconds=0,
          slice_chunks=int(sys.argv[6]), progress=False)
    sys.exit(3)                    # the build finished before it was killed
""")


def killed_build(folder, size, blanks, saves, delay, slice_chunks):
    """Run a build in a process that kills itself with SIGKILL `delay` seconds after its
    `saves`-th checkpoint; True if it was killed."""
    done = subprocess.run([sys.executable, "-c", KILLER, str(folder), str(size), str(blanks),
                           str(saves), str(delay), str(slice_chunks)], timeout=600)
    assert done.returncode in (-signal.SIGKILL, 3), done.returncode
    return done.returncode == -signal.SIGKILL


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX only: SIGKILL")
@pytest.mark.parametrize("size, blanks, slice_chunks, kills", [
    (3, "all", 1, [(5, 0.0), (40, 0.0), (41, 0.002)]),
    (4, "all", 4, [(30, 0.0), (200, 0.003), (400, 0.001)]),
])
def test_a_build_killed_with_sigkill_resumes_byte_identical(tables, tmp_path, size, blanks,
                                                            slice_chunks, kills):
    killed = 0
    for saves, delay in kills:
        killed += killed_build(tmp_path, size, blanks, saves, delay, slice_chunks)
    assert killed == len(kills)
    assert list(tmp_path.glob(".checkpoint-*")), "no pair was killed in its middle"
    report = build(tmp_path, size, None if blanks == "all" else blanks, progress=False)
    assert report.complete and report.resumed
    assert table_bytes(tmp_path, size) == table_bytes(tables, size)
    assert not list(tmp_path.glob(".checkpoint-*"))
    assert not list(tmp_path.glob("*" + files.TEMPORARY_SUFFIX + "*"))


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX only: SIGKILL")
def test_a_5x5_pair_killed_in_a_pass_resumes_byte_identical(tables, tmp_path):
    """The largest pair of 1 blank, (12, 12): killed twice in its passes (slices of 64 chunks),
    then finished; its file is the one the uninterrupted build wrote."""
    unit = largest(5, 1)
    copy_inputs(tables, tmp_path, unit)
    for other in pairs.units(5, 1):      # every other class of the range is there already
        if other != unit:
            for cls in other.classes:
                name = files.table_name(5, *cls)
                shutil.copy(tables / name, tmp_path / name)
    assert killed_build(tmp_path, 5, 1, 3, 0.05, 64)
    assert killed_build(tmp_path, 5, 1, 8, 0.2, 64)
    started = time.monotonic()
    report = build(tmp_path, 5, 1, progress=False)
    assert report.solved == [unit] and unit in report.resumed
    assert report.resumed[unit] > checkpoint.START
    assert table_bytes(tmp_path, 5) == table_bytes(tables, 5)
    assert time.monotonic() - started < 600
