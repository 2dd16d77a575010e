"""The four-player generator: its index against a plain twin of its definition, its kernels
against the pure-Python twin, and the whole 3x3 game against the solution by rounds
(teams/_solve.pyx), position by position."""
import json
from functools import lru_cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quixo_solver.errors import PositionError
from quixo_solver.frontends.cli import main
from quixo_solver.rules.geometry import symmetry_permutations
from quixo_solver.tablebase import values
from quixo_solver.tablebase.errors import CorruptTableError
from quixo_solver.teams import TeamBoard, _solve
from quixo_solver.teams.notation import PLAYERS
from quixo_solver.teams.solve import TeamSolver, table_value
from quixo_solver.teams.tables import _tier_index, _tier_retro, _tier_twin, builder, files, tiers
from quixo_solver.teams.tables import stats as team_stats
from quixo_solver.teams.tables import verify as team_verify
from quixo_solver.teams.tables import plan as team_plan
from quixo_solver.teams.tables import checkpoint as team_checkpoint
from quixo_solver.tablebase.generator.checkpoint import BudgetSpent, CheckpointError

from .test_index import image, squares, twin_orbit_index, twin_rank

ROLE_DIGITS = 4


@st.composite
def team_positions(draw):
    """(size, roles): any four-player position, the game over or not."""
    size = draw(st.sampled_from((3, 4, 5)))
    cells = draw(st.lists(st.integers(-1, 3), min_size=size * size, max_size=size * size))
    roles = [0, 0, 0, 0]
    for sq, role in enumerate(cells):
        if role >= 0:
            roles[role] |= 1 << sq
    return size, tuple(roles)


def twin_tier_index(size, roles):
    """The definition (_tier_index.pxd): the teams' two-player entry, then the dots of the
    image that puts the teams on the canonical set with the smallest arrangement, the
    smallest dots among those."""
    own, next_, mate, last = roles
    team, others = own | mate, next_ | last
    forms = [tuple(image(p, cubes) for cubes in roles) for p in symmetry_permutations(size)]
    canonical = min(twin_rank(squares(sum(form))) for form in forms)
    on_canonical = [form for form in forms if twin_rank(squares(sum(form))) == canonical]

    def arrangement(form):
        occupied = squares(sum(form))
        return twin_rank([i for i, sq in enumerate(occupied) if (form[0] | form[2]) >> sq & 1])

    def dots(form):
        team_squares = squares(form[0] | form[2])
        other_squares = squares(form[1] | form[3])
        own_bits = sum(1 << i for i, sq in enumerate(team_squares) if form[0] >> sq & 1)
        next_bits = sum(1 << i for i, sq in enumerate(other_squares) if form[1] >> sq & 1)
        return own_bits | next_bits << len(team_squares)

    smallest = min(arrangement(form) for form in on_canonical)
    best_dots = min(dots(form) for form in on_canonical if arrangement(form) == smallest)
    cubes = bin(team | others).count("1")
    return twin_orbit_index(size, team, others) << cubes | best_dots


def side_of(size, roles):
    team = bin(roles[0] | roles[2]).count("1")
    return _tier_index.TierSideIndex(size, team, bin(roles[1] | roles[3]).count("1"))


def few_occupied_sets(size, roles):
    """Whether the twin can enumerate the canonical sets (test_index's limits)."""
    cubes = bin(roles[0] | roles[1] | roles[2] | roles[3]).count("1")
    return size < 5 or cubes <= 4 or cubes >= 21


@settings(max_examples=200, deadline=None)
@given(team_positions())
def test_the_tier_index_matches_its_twin_on_every_symmetric_form(position):
    size, roles = position
    side = side_of(size, roles)
    index = side.index_of(roles)
    assert 0 <= index < side.entries
    if few_occupied_sets(size, roles):
        assert index == twin_tier_index(size, roles)
    forms = {tuple(image(p, cubes) for cubes in roles) for p in symmetry_permutations(size)}
    for form in forms:
        assert side.index_of(form) == index
    stored, hole = side.position_at(index)
    assert stored in forms and not hole


@lru_cache(maxsize=None)
def every_3x3_position():
    """The role masks of all 5^9 positions, in the order of _solve.position_index."""
    index = np.arange(5 ** 9, dtype=np.int64)
    roles = [np.zeros(len(index), dtype=np.uint32) for _ in range(ROLE_DIGITS)]
    for sq in range(9):
        index, digit = np.divmod(index, 5)
        for role in range(ROLE_DIGITS):
            roles[role] |= (digit == role + 1).astype(np.uint32) << sq
    popcount = np.array([bin(m).count("1") for m in range(1 << 9)])
    return roles, popcount[roles[0] | roles[2]], popcount[roles[1] | roles[3]]


def entries_of_every_3x3_position():
    """{side: (which positions are on it, their entries)}."""
    roles, team, others = every_3x3_position()
    result = {}
    for t in range(10):
        for u in range(10 - t):
            on_side = (team == t) & (others == u)
            result[(t, u)] = on_side, _tier_index.TierSideIndex(3, t, u).indexes_of(
                *[np.ascontiguousarray(masks[on_side]) for masks in roles])
    return result


def test_every_3x3_slot_is_one_orbit_or_a_hole():
    for (t, u), (on_side, entries) in entries_of_every_3x3_position().items():
        side = _tier_index.TierSideIndex(3, t, u)
        assert side.entries == _tier_index.side_entries(3, t, u)
        holes = np.array([side.position_at(i)[1] for i in range(side.entries)])
        assert set(np.unique(entries)) == set(np.nonzero(~holes)[0])


def test_the_tiers_reproduce_the_3x3_solution_by_rounds_on_every_position():
    solved = tiers.solve_board(3, threads=2)
    by_rounds = _solve.solve(3)
    ours = np.full(5 ** 9, 0xFFFF, dtype=np.uint16)
    for side, (on_side, entries) in entries_of_every_3x3_position().items():
        ours[on_side] = solved[side][entries]
    assert np.array_equal(ours, by_rounds)
    empty = _tier_index.TierSideIndex(3, 0, 0).index_of((0, 0, 0, 0))
    assert solved[(0, 0)][empty] == values.encode(values.WIN, 7)


def test_the_result_does_not_depend_on_the_threads():
    one, two = tiers.solve_board(3, threads=1), tiers.solve_board(3, threads=2)
    assert one.keys() == two.keys()
    assert all(np.array_equal(one[side], two[side]) for side in one)


# tiers of 3x3 small enough for the twin (a few thousand raw positions)
SMALL_TIERS = [(0, 0), (1, 0), (2, 0), (1, 1), (3, 0), (2, 1), (8, 0), (9, 0)]


@pytest.mark.parametrize("team_count, other_count", SMALL_TIERS)
def test_the_kernels_match_the_twin(team_count, other_count):
    """Both sides of a tier, every raw position; the next tier's values come from the
    solution by rounds, which the twin asks and the kernels read from the tier's inputs."""
    by_rounds = _solve.solve(3)
    tier = tiers.Tier(3, team_count, other_count)
    needed = {}
    for t, u in tier.needs:
        side = _tier_index.TierSideIndex(3, t, u)
        needed[(t, u)] = np.zeros(side.entries, dtype=np.uint16)
        for roles in _tier_twin.side_positions(3, t, u):
            needed[(t, u)][side.index_of(roles)] = by_rounds[_solve.position_index(3, roles)]
    solved = tiers.solve_tier(tier, needed, threads=2)
    twin = _tier_twin.solve_tier(3, team_count, other_count,
                                 lambda roles: int(by_rounds[_solve.position_index(3, roles)]))
    for roles, code in twin.items():
        side = side_of(3, roles)
        assert solved[(side.team_count, side.other_count)][side.index_of(roles)] == code


def test_the_tiers_come_after_the_tiers_they_need():
    for size in (3, 4, 5):
        seen = set()
        for tier in tiers.tiers(size):
            assert set(tier.needs) <= seen
            seen.update(tier.sides)
        assert len(seen) == sum(1 for k in range(size * size + 1) for _ in range(k + 1))
    assert [t.cubes for t in tiers.tiers(4, max_blanks=1)] == [16] * 9 + [15] * 8


def test_bad_input_gets_the_named_error():
    with pytest.raises(ValueError, match="needs the"):
        _tier_retro.TierSide(3, 2, 1)
    with pytest.raises(ValueError, match="needs the"):
        _tier_retro.TierSide(3, 2, 1, np.zeros(3, dtype=np.uint16))
    with pytest.raises(ValueError, match="full board"):
        _tier_retro.TierSide(3, 5, 4, np.zeros(3, dtype=np.uint16))
    full = [_tier_retro.TierSide(3, 5, 4), _tier_retro.TierSide(3, 4, 5)]
    with pytest.raises(ValueError, match="other side"):
        _tier_retro.propagate(full[0], full[0], 2, 1)
    with pytest.raises(ValueError, match="starts at"):
        _tier_retro.propagate(full[0], full[1], 1, 1)
    full[0].take_values()
    with pytest.raises(ValueError, match="were taken"):
        _tier_retro.mark(full[0], 1)
    side = _tier_index.TierSideIndex(3, 2, 1)
    with pytest.raises(PositionError, match="hold"):
        side.index_of((1, 2, 0, 0))
    with pytest.raises(PositionError, match="two masks share"):
        side.index_of((1, 1, 2, 0))
    with pytest.raises(PositionError, match="not within"):
        side.position_at(side.entries)


# -- the files, the build in a folder, the counts and the probes ------------------------------

@pytest.fixture(scope="module")
def folder_3x3(tmp_path_factory):
    directory = tmp_path_factory.mktemp("teams3")
    report = builder.build(directory, 3, threads=2)
    assert len(report.solved) == len(tiers.tiers(3)) and report.complete
    return directory


def test_the_files_hold_the_solved_values(folder_3x3):
    solved = tiers.solve_board(3, threads=2)
    for (t, u), expected in solved.items():
        table = files.open_side(folder_3x3, 3, t, u)
        try:
            assert np.array_equal(table.values(threads=2), expected)
            assert table.value(len(expected) - 1) == expected[-1]
        finally:
            table.close()


def test_the_counts_cover_every_raw_position_once(folder_3x3):
    rows = team_stats.class_counts(folder_3x3, 3)
    movers = {mover: sum(r["win"] + r["draw"] + r["loss"] for r in rows if r["mover"] == mover)
              for mover in PLAYERS}
    assert movers == {mover: 5 ** 9 for mover in PLAYERS}
    # the counts of a class from the solution by rounds, position by position
    roles, team, others = every_3x3_position()
    by_rounds = _solve.solve(3)
    own_count = np.array([bin(m).count("1") for m in range(512)])[roles[0]]
    next_count = np.array([bin(m).count("1") for m in range(512)])[roles[1]]
    row = next(r for r in rows if r["mover"] == "O1" and r["counts"] == {
        "X1": 1, "O1": 2, "X2": 1, "O2": 1})
    # O1 to move: own = O1 (2), next = X2 (1), mate = O2 (1), last = X1 (1)
    chosen = (own_count == 2) & (next_count == 1) & (team == 3) & (others == 2)
    codes = by_rounds[chosen]
    assert (row["win"], row["draw"], row["loss"]) == (
        int(np.sum(codes % 2 == 1)), int(np.sum(codes == 0)),
        int(np.sum((codes > 0) & (codes % 2 == 0))))


def test_a_build_resumes_tier_by_tier_and_solves_a_damaged_tier_again(tmp_path):
    report = builder.build(tmp_path, 3, max_blanks=2, threads=1, stop_after=0)
    assert report.solved == [] and not report.complete
    report = builder.build(tmp_path, 3, max_blanks=2, threads=1)
    assert report.complete and len(report.solved) == len(tiers.tiers(3, 2))
    path = tmp_path / files.side_name(3, 5, 4)
    data = bytearray(path.read_bytes())
    data[files.HEAD.size + 3] ^= 0xFF                  # a byte of the first block
    path.write_bytes(bytes(data))
    assert not files.is_intact(tmp_path, 3, 5, 4, check_data=True)
    report = builder.build(tmp_path, 3, max_blanks=2, threads=1)
    assert report.solved == [tiers.Tier(3, 5, 4)]
    assert files.is_intact(tmp_path, 3, 5, 4, check_data=True)
    journal = builder.read_journal(tmp_path)
    assert {(line["team"], line["other"]) for line in journal} == {
        (tier.team_count, tier.other_count) for tier in tiers.tiers(3, 2)}


@pytest.mark.parametrize("damage, message", [
    (lambda data: data[:100], "too short|truncated|trailer"),
    (lambda data: b"NOTATABL" + data[8:], "bad magic"),
    (lambda data: data[:-10] + bytes(10), "trailer"),
    (lambda data: data[:20] + bytes([data[20] ^ 1]) + data[21:], "block 0 is damaged"),
    (lambda data: b"", "empty"),
])
def test_a_damaged_file_gets_a_clear_error(folder_3x3, tmp_path, damage, message):
    name = files.side_name(3, 5, 4)
    (tmp_path / name).write_bytes(damage((folder_3x3 / name).read_bytes()))
    with pytest.raises(CorruptTableError, match=message):
        table = files.open_side(tmp_path, 3, 5, 4)
        table.values()


def test_the_solver_answers_from_the_tables(folder_3x3):
    solver = TeamSolver(tablebase=folder_3x3)
    plain = TeamSolver()
    for text in ("X../.../... O1", "Xo./.x./O.. X2", ".../.../... X1", "XxO/o.X/... O2"):
        board = TeamBoard(text)
        assert solver.tables is not None and solver.tables.has_side(
            3, *(bin(m).count("1") for m in (board.roles[0] | board.roles[2],
                                            board.roles[1] | board.roles[3])))
        assert solver.table_value(board) == table_value(board)
        ours, theirs = solver.tablebase_result(board), plain.tablebase_result(board)
        assert (ours.value, ours.plies, ours.source) == (theirs.value, theirs.plies,
                                                          "tablebase")
        assert len(ours.principal_variation) == len(theirs.principal_variation)


def test_the_command_line_builds_counts_and_probes(tmp_path, capsys):
    assert main(["tablebase", "build", "--players", "4", "--size", "3", "--dir",
                 str(tmp_path), "--json"]) == 0
    built = json.loads(capsys.readouterr().out)
    assert (built["players"], built["solved"], built["complete"]) == (4, 30, True)
    assert main(["tablebase", "stats", "--players", "4", "--size", "3", "--dir", str(tmp_path),
                 "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["players"] == 4 and len(payload["classes"]) == 4 * 715
    empty = next(row for row in payload["classes"] if row["mover"] == "X1"
                 and row["counts"] == {"X1": 0, "O1": 0, "X2": 0, "O2": 0})
    assert (empty["win"], empty["draw"], empty["loss"]) == (1, 0, 0)
    assert main(["tablebase", "probe", "X../.../... O1", "--dir", str(tmp_path), "--json"]) == 0
    probed = json.loads(capsys.readouterr().out)
    assert (probed["value"], probed["plies"], probed["source"]) == ("loss", 6, "tablebase")
    assert main(["tablebase", "stats", "--players", "4", "--size", "4", "--dir",
                 str(tmp_path)]) == 2
    assert "no four-player table" in capsys.readouterr().err
    assert main(["tablebase", "build", "--players", "4", "--size", "3", "--workers", "2",
                 "--dir", str(tmp_path)]) == 2
    assert "one process" in capsys.readouterr().err


def test_the_verifier_passes_the_tables_and_catches_a_wrong_value(folder_3x3, tmp_path,
                                                                  capsys):
    orbits = {side: len(np.unique(entries))
              for side, (_, entries) in entries_of_every_3x3_position().items()}
    report = team_verify.verify(folder_3x3, 3, threads=2)
    assert report.ok and {(c.team_count, c.other_count): c.checked
                          for c in report.sides} == orbits
    for name in folder_3x3.iterdir():
        (tmp_path / name.name).write_bytes(name.read_bytes())
    table = files.open_side(tmp_path, 3, 4, 3)
    values = table.values().copy()
    table.close()
    side = _tier_index.TierSideIndex(3, 4, 3)
    wrong = side.index_of((0b11, 0b1100, 0b110000, 0b1000000))
    values[wrong] = values[wrong] + 2 if values[wrong] else 1      # another value
    files.write_side(tmp_path, 3, 4, 3, values)
    report = team_verify.verify(tmp_path, 3, threads=2)
    found = [check for check in report.sides if check.mismatches]
    assert [(c.team_count, c.other_count) for c in found][:1] == [(4, 3)]
    assert wrong in found[0].examples
    assert main(["tablebase", "verify", "--players", "4", "--size", "3", "--dir", str(tmp_path),
                 "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["mismatches"] >= 1
    sampled = team_verify.verify(folder_3x3, 3, sample=100, seed=3, threads=1)
    assert sampled.ok and all(check.checked >= min(100, orbits[(check.team_count,
                                                                check.other_count)])
                              for check in sampled.sides)


# a full 4x4 board of tier (11, 5), team X (5 cubes) to move: where the dot of the cube pushed in at d4
# points decides how long team O lasts (the losing side delays)
DOTS_MATTER = "oOXO/oxxo/Xooo/oOoX X1"


def test_4x4_positions_are_answered_from_the_tables(team_tables_4x4, capsys):
    """The tier built on 4x4 (conftest) against the twin rules, and on the command line."""
    solver = TeamSolver(tablebase=team_tables_4x4)
    board = TeamBoard(DOTS_MATTER)
    assert solver.table_value(board) == ("loss", 4)
    rows = {str(move): (result.value, result.plies) for move, result in
            solver.exact_analysis(board)}
    assert (rows["c4d4"], rows["c4d4+"]) == (("loss", 4), ("loss", 3))
    # the position's value is what its moves make of it: every move loses, the longest in 4
    assert len(rows) == len(board.legal_moves)
    assert {value for value, _ in rows.values()} == {"loss"}
    assert max(plies for _, plies in rows.values()) == 4
    assert main(["analyze", DOTS_MATTER, "--dir", str(team_tables_4x4), "--json"]) == 0
    moves = json.loads(capsys.readouterr().out)["moves"]
    assert moves[0] == {"move": moves[0]["move"], "value": "loss", "plies": 4}
    assert main(["solve", DOTS_MATTER, "--dir", str(team_tables_4x4), "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert (answer["value"], answer["plies"], answer["source"]) == ("loss", 4, "tablebase")
    assert len(answer["pv"]) == 4
    report = team_verify.verify(team_tables_4x4, 4, sample=20000, seed=2)
    assert report.ok and all(check.checked >= 20000 for check in report.sides)


def test_a_sample_checks_distinct_entries(folder_3x3):
    """A sample never counts an entry twice: a side with fewer entries than the sample is
    checked whole, each entry once."""
    orbits = {side: len(np.unique(entries))
              for side, (_, entries) in entries_of_every_3x3_position().items()}
    report = team_verify.verify(folder_3x3, 3, sample=5000, seed=9, threads=1)
    for check in report.sides:
        assert check.checked <= orbits[(check.team_count, check.other_count)]
        assert check.checked >= min(5000, orbits[(check.team_count, check.other_count)])


def test_a_block_that_decompresses_wrong_is_refused(tmp_path, monkeypatch):
    """A block whose checksums hold but whose data is not its values (a writer's fault):
    refused by name, never a traceback or a huge allocation."""
    import zlib
    written = files._compressed_blocks

    def odd_first_block(values, blocks, threads):
        for number, block in enumerate(written(values, blocks, threads)):
            yield zlib.compress(b"\0" * 3) if number == 0 else block  # not whole values

    side = _tier_index.TierSideIndex(3, 5, 4)
    monkeypatch.setattr(files, "_compressed_blocks", odd_first_block)
    files.write_side(tmp_path, 3, 5, 4, np.zeros(side.entries, dtype=np.uint16))
    table = files.open_side(tmp_path, 3, 5, 4)
    with pytest.raises(CorruptTableError, match="does not decompress"):
        table.block(0)
    table.close()
    assert not files.is_intact(tmp_path, 3, 5, 4, check_data=True)


def test_the_plan_counts_every_position_and_bounds_the_memory(capsys):
    rows = team_plan.plan(4)
    assert sum(row.positions for row in rows) == 5 ** 16 and len(rows) == 81
    assert sum(row.slots for row in rows) == sum(t.entries for t in tiers.tiers(4))
    for row in rows:
        inputs = sum(_tier_index.side_entries(4, t, u) for t, u in row.tier.needs)
        assert row.memory_bytes >= 2 * (row.slots + inputs)
        assert row.seconds >= 0 and row.entries * 8 >= row.positions
    assert main(["tablebase", "plan", "--players", "4", "--size", "4", "--max-blanks", "1",
                 "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["positions"] == 5 ** 16 - sum(
        row.positions for row in rows if row.blanks > 1)
    assert set(payload["seconds_by_blanks"]) == {"0", "1"}
    assert main(["tablebase", "plan", "--players", "4", "--size", "5"]) == 2
    assert "no four-player build of 5x5" in capsys.readouterr().err


def test_a_tier_stopped_at_its_deadline_resumes_to_the_same_files(tmp_path):
    """Stopped after its first step (the deadline already passed), the tier saves its state;
    solved again, it resumes from it and writes the files of a solve never stopped."""
    import time as clock
    whole, stopped = tmp_path / "whole", tmp_path / "stopped"
    for folder in (whole, stopped):
        builder.build(folder, 3, max_blanks=0, threads=1)      # the inputs: the full board
    tier = tiers.Tier(3, 4, 4)                                  # 8 cubes: 1 blank
    builder.solve_in_folder(whole, tier, 1, checkpoint_seconds=None)
    with pytest.raises(BudgetSpent):
        builder.solve_in_folder(stopped, tier, 2, deadline=clock.monotonic())
    assert team_checkpoint.path_of(stopped, tier).exists()
    assert not (stopped / files.side_name(3, 4, 4)).exists()
    builder.solve_in_folder(stopped, tier, 2, checkpoint_seconds=0)    # saves at every step
    assert not team_checkpoint.path_of(stopped, tier).exists()
    name = files.side_name(3, 4, 4)
    assert (stopped / name).read_bytes() == (whole / name).read_bytes()
    line = next(line for line in builder.read_journal(stopped) if line["team"] == 4
                and line["other"] == 4)
    assert line["resumed"] is True


def test_a_checkpoint_of_other_inputs_is_set_aside(tmp_path):
    builder.build(tmp_path, 3, max_blanks=0, threads=1)
    tier = tiers.Tier(3, 4, 4)
    path = team_checkpoint.path_of(tmp_path, tier)
    with pytest.raises(BudgetSpent):
        builder.solve_in_folder(tmp_path, tier, 1, deadline=0.0)
    inputs = team_checkpoint.inputs_identity([files.read_header(tmp_path, 3, 5, 4)])
    assert path.exists()
    with pytest.raises(CheckpointError, match="other input"):
        team_checkpoint.TierCheckpoints(path, tier, inputs).restore(
            [_tier_retro.TierSide(3, 4, 4, np.zeros(_tier_index.side_entries(3, 4, 5),
                                                    dtype=np.uint16))])
    path.write_bytes(path.read_bytes()[:-9])            # damaged: solved from its start
    with pytest.warns(UserWarning, match="from its start"):
        builder.solve_in_folder(tmp_path, tier, 1)
    assert files.is_intact(tmp_path, 3, 4, 4, check_data=True) and not path.exists()


def test_a_four_player_set_is_judged_with_the_four_player_tables(team_tables_4x4):
    """`quixo judge --set` on a four-player set: the engine reads the team tables (with them,
    at depth 1, every move is optimal), and the set's answers come from them."""
    from quixo_solver.tournament import judge, position_sets
    from quixo_solver.tournament.settings import EngineSetting

    solver = TeamSolver(tablebase=team_tables_4x4)
    row = position_sets.answered(TeamBoard(DOTS_MATTER), -1, solver)
    assert row is not None and (row.value, row.plies) == ("loss", 4)
    found = position_sets.PositionSet("teams-test", 4, 4, 0, "one position", "", [row])
    with_tables = judge.PositionPlayer(EngineSetting(depth=1, hash=4), team_tables_4x4, "on")
    scored = position_sets.score(found, with_tables.move)
    assert (scored["positions"], scored["optimal"], scored["mistakes"]) == (1, 1, 0)
    assert with_tables.move(TeamBoard(DOTS_MATTER)) in row.optimal
