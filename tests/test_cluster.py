"""Builds on a local Dask cluster (tablebase.cluster), the build plan and its forecast."""
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from quixo_solver.tablebase import build, verify
from quixo_solver.tablebase.generator import builder, cluster, forecast
from quixo_solver.tablebase import pairs
from quixo_solver.tablebase.format import files


@pytest.fixture(scope="module")
def client():
    client = cluster.local_client(2, memory_per_worker=4 * 2**30)
    yield client
    client.close()
    client.cluster.close()


def same_files(first, second, size):
    names = sorted(path.name for path in first.glob(f"quixo{size}x{size}-*.qtb"))
    assert names == sorted(path.name for path in second.glob(f"quixo{size}x{size}-*.qtb"))
    for name in names:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name
    return len(names)


def test_a_local_cluster_builds_the_same_files_as_one_process(client, tables, tmp_path):
    for size, blanks in ((3, None), (4, None), (5, 1)):
        report = build(tmp_path, size, blanks, client=client)
        assert len(report.solved) == len(pairs.units(size, blanks)) and not report.skipped
        assert same_files(tmp_path, tables, size) == sum(len(u.classes)
                                                         for u in pairs.units(size, blanks))
    again = build(tmp_path, 3, client=client)     # a second run finds everything built
    assert not again.solved and len(again.skipped) == len(pairs.units(3))


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX only: SIGKILL")
def test_a_worker_killed_in_the_middle_of_a_unit_resumes_on_another_from_its_checkpoint(
        client, tables, tmp_path):
    """The largest unit (about 10 s on one thread) saves its state every second; once a state
    is saved, its worker is killed; the task runs again on the other worker, which resumes
    from that state."""
    largest = max(pairs.units(5, 1), key=lambda unit: unit.entries)
    saved = tmp_path / f".checkpoint-5-{largest.mover_count:02d}-{largest.opponent_count:02d}"
    outcome = {}
    runner = threading.Thread(target=lambda: outcome.update(
        report=build(tmp_path, 5, 1, client=client, checkpoint_seconds=1, slice_chunks=64)))
    runner.start()
    killed = None
    deadline = time.monotonic() + 120
    while killed is None and time.monotonic() < deadline and runner.is_alive():
        if saved.exists():     # the unit has saved its state: kill the worker that runs it
            for address, keys in client.processing().items():
                if any(f"-{largest.mover_count}-{largest.opponent_count}-" in str(key)
                       for key in keys):
                    killed = client.run(os.getpid, workers=[address])[address]
                    os.kill(killed, signal.SIGKILL)
                    break
        time.sleep(0.01)
    runner.join(300)
    assert killed is not None, "the unit finished before a worker could be killed"
    report = outcome["report"]
    assert report.solved and report.complete
    assert largest in report.resumed, "the task run again did not resume from the checkpoint"
    assert verify(tmp_path, 5).ok
    assert same_files(tmp_path, tables, 5) == sum(len(u.classes) for u in pairs.units(5, 1))
    assert not list(tmp_path.glob("*" + files.TEMPORARY_SUFFIX + "*"))
    assert not saved.exists()


def test_a_time_budget_ends_a_cluster_build_at_a_checkpoint(client, tables, tmp_path):
    first = build(tmp_path, 4, client=client, stop_after=0.5, slice_chunks=4)
    assert not first.complete and first.left
    second = build(tmp_path, 4, client=client)
    assert second.complete and set(second.solved) == set(first.left)
    assert same_files(tmp_path, tables, 4) == sum(len(u.classes) for u in pairs.units(4))


def test_a_unit_larger_than_every_worker_is_refused_with_the_numbers(tmp_path):
    small = cluster.local_client(1, memory_per_worker=1000)
    try:
        with pytest.raises(builder.InsufficientResourcesError, match=r"GiB.*largest Dask worker"):
            build(tmp_path, 3, client=small)
        assert not list(tmp_path.glob("*.qtb"))
    finally:
        small.close()
        small.cluster.close()


def test_without_dask_the_cluster_options_name_the_extra(tmp_path):
    program = ("import sys; sys.modules['distributed'] = None\n"
               "from quixo_solver.frontends.cli import main\n"
               f"sys.exit(main(['tablebase', 'build', '--size', '3', '--dir', {str(tmp_path)!r},"
               " '--workers', '2']))")
    finished = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True)
    assert finished.returncode == 2
    assert 'pip install "quixo-solver[cluster]"' in finished.stderr
    assert "Traceback" not in finished.stderr


MEASURE_PEAK = """
import sys, tracemalloc
from pathlib import Path
from quixo_solver.tablebase.format import files
from quixo_solver.tablebase import pairs
from quixo_solver.tablebase.generator import pair_solver
size, blanks, folder = int(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3])
unit = max(pairs.units(size, blanks), key=lambda u: u.entries)
tracemalloc.start()
inputs = {cls: files.open_table(folder / files.table_name(size, *cls), (size, *cls))
          for cls in unit.needs}
solved = pair_solver.solve_unit(unit, inputs, 1)
inputs.clear()
for (a, b), values in solved.items():
    files.write_table(folder / "written", size, a, b, values)
# what the plan reserves that tracemalloc cannot see or a small unit does not fill: the
# inputs' mapped pages and decoders, the writer's and kernels' fixed buffers, and what the
# process keeps whatever it solves
reserves = pairs.WRITER_BYTES + pairs.BUFFERS + pairs.process_bytes(size) + sum(
    pairs.class_disk_bytes(size, a, b) + pairs.DECODER_BYTES for a, b in unit.needs)
print(tracemalloc.get_traced_memory()[1], unit.memory_bytes, reserves)
"""


def test_the_plan_lists_the_units_the_builder_solves_with_their_memory(tmp_path):
    report = build(tmp_path, 4)
    assert report.solved == pairs.units(4)
    build(tmp_path, 5, 0)     # what the largest pair with one blank needs
    (tmp_path / "written").mkdir()
    # the memory planned for a unit bounds what solving it takes (measured alone, in a fresh
    # process), and not by much
    for size, blanks in ((4, None), (5, 1)):
        finished = subprocess.run(
            [sys.executable, "-c", MEASURE_PEAK, str(size), str(blanks if blanks else 16),
             str(tmp_path)], capture_output=True, text=True, check=True)
        peak, planned, reserves = map(int, finished.stdout.split())
        assert peak <= planned <= 1.5 * peak + reserves + 2**20, (size, peak, planned)


def test_a_large_unit_costs_more_an_entry_than_the_calibration():
    small = 2**20
    assert forecast.size_slowdown(small) == 1.0
    assert forecast.size_slowdown(round(2 ** (forecast.KNEE_LOG2 + 2))) == pytest.approx(
        1 + 2 * forecast.SLOWDOWN_PER_DOUBLING)
    units = pairs.units(4)           # no whole-game record of 4x4: the size slowdown
    largest = max(units, key=lambda unit: unit.entries)
    assert forecast.unit_seconds(largest, 1e6, cores=2) == pytest.approx(
        largest.entries * forecast.size_slowdown(largest.entries) / 2e6)
    found = forecast.forecast([largest], 1e6, cores=2)
    assert found.seconds[largest] == forecast.unit_seconds(largest, 1e6, cores=2)


def test_a_5x5_pair_costs_what_the_whole_game_build_measured():
    """The plan knows the length of the games: the pairs of long games cost many times their
    neighbours of the same blanks (pair-costs-5x5.json, from the committed whole-game record)."""
    import json
    from pathlib import Path

    record = json.loads((Path(__file__).parents[1] / "benchmarks" / "results"
                         / "5x5-whole-game.json").read_text())
    throughput = json.loads((Path(__file__).parents[1] / "benchmarks" / "results"
                             / "plan-5x5-2-cores.json").read_text())[
        "throughput_entries_per_core_second"]
    by_pair = {(row["mover"], row["opponent"]): row for row in record["build"]["pairs"]}
    long_games, short_games = pairs.Unit(5, 8, 6), pairs.Unit(5, 7, 7)     # both 11 blanks
    for unit in (long_games, short_games):
        row = by_pair[unit.mover_count, unit.opponent_count]
        assert forecast.unit_seconds(unit, throughput) == pytest.approx(
            row["cpu_seconds"], rel=1e-3)
    assert forecast.relative_cost(long_games) > 3 * forecast.relative_cost(short_games)
    measured = forecast.measured_costs(5)
    large = [unit for unit in pairs.units(5) if unit.entries >= 2**20]
    assert all((unit.mover_count, unit.opponent_count) in measured for unit in large)
    tiny = pairs.Unit(5, 25, 0)
    assert forecast.relative_cost(tiny) == forecast.size_slowdown(tiny.entries)


def test_the_forecast_follows_the_dependencies():
    units = pairs.units(3)
    rate = 1000.0
    one = forecast.forecast(units, rate, workers=1)
    many = forecast.forecast(units, rate, workers=1000)
    total = sum(unit.entries for unit in units) / rate
    assert one.wall_seconds == pytest.approx(total)              # one worker: every unit
    assert many.wall_seconds == pytest.approx(many.critical_seconds)  # enough: the chain
    assert many.critical_seconds < one.wall_seconds
    chain = many.critical_path
    assert chain[0].cubes == 9 and chain[-1].cubes == 0
    made_by = forecast.producers(units)
    for earlier, later in zip(chain, chain[1:]):
        assert earlier in forecast.needed_units(later, made_by)
    with pytest.raises(ValueError, match="more than a worker"):
        forecast.forecast(units, rate, workers=2, memory_per_worker=10)


def test_the_plan_command_prints_units_critical_path_and_time():
    finished = subprocess.run(
        [sys.executable, "-m", "quixo_solver", "tablebase", "plan", "--size", "5",
         "--max-blanks", "2", "--workers", "4", "--cores", "2", "--throughput", "1e6",
         "--json"], capture_output=True, text=True, check=True)
    import json

    found = json.loads(finished.stdout)
    assert len(found["units"]) == len(pairs.units(5, 2))
    assert found["entries"] == sum(u.entries for u in pairs.units(5, 2))
    chain = found["critical_path"]["units"]
    assert sum(chain[0]) == 25 and sum(chain[-1]) == 23
    assert 0 < found["critical_path"]["seconds"] <= found["estimated_seconds"]
    assert found["estimated_seconds"] <= sum(u["seconds"] for u in found["units"])


@pytest.mark.parametrize("cores", [1, 2, 64])
def test_the_plan_calibrates_on_the_cores_of_a_worker_at_most_the_machines(
        cores, monkeypatch, capsys):
    # Two threads share the memory bandwidth and solve fewer entries a core than one: the
    # calibration runs on the threads a unit will run on, capped at the cores that exist.
    from quixo_solver.frontends.cli import main

    asked = []

    def calibrate(threads=1):
        asked.append(threads)
        return forecast.Calibration(5, 1, 10**6, 1.0, threads)

    monkeypatch.setattr(forecast, "calibrate", calibrate)
    main(["tablebase", "plan", "--size", "3", "--cores", str(cores), "--json"])
    import json

    found = json.loads(capsys.readouterr().out)
    threads = min(cores, os.cpu_count() or 1)
    assert asked == [threads]
    assert found["calibration"]["threads"] == threads
    assert found["throughput_entries_per_core_second"] == 10**6 / threads
