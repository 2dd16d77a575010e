"""The search: whatever it claims as proven equals the tablebase, exactly."""
import json
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quixo_solver import Board, DepthError, LimitError, PositionError, QuixoError
from quixo_solver.frontends.cli import main
from quixo_solver.frontends.play import run
from quixo_solver.search import Solver
from quixo_solver.tablebase import Tablebase

from .conftest import positions
from .refusals import assert_one_line, returns_or_refuses


def random_board(rng, size, blanks):
    cells = ["." for _ in range(blanks)] + [rng.choice("XO") for _ in range(size * size - blanks)]
    rng.shuffle(cells)
    return Board("".join(cells) + " " + rng.choice("XO"))


def random_4x4(rng):
    while True:
        board = Board("".join(rng.choice("XO..") for _ in range(16)) + " X")
        if not board.is_game_over():
            return board


def check_claims(solver, tablebase, boards, **limits):
    proven = 0
    for board in boards:
        result = solver.solve(board, **limits)
        truth = tablebase.probe(board)
        assert result.best_move in board.legal_moves
        if result.value == "unknown":
            continue
        proven += 1
        assert (result.value, result.plies) == (truth.value, truth.plies), str(board)
        if result.value == "win":  # the move played keeps the win at the same pace
            child = board.copy()
            child.push(result.best_move)
            assert tablebase.probe_wdl(child) == -1
            assert tablebase.probe_plies(child) == truth.plies - 1, str(board)
    return proven


def test_search_claims_on_random_4x4_positions_match_the_tablebase(tables):
    rng = random.Random(4)
    boards = [random_4x4(rng) for _ in range(150)]
    with Tablebase(tables) as tablebase:
        proven = check_claims(Solver(tt_mib=8), tablebase, boards, depth=7)
    assert proven >= 30  # the comparison is not empty


def test_search_claims_on_5x5_positions_with_one_blank_match_the_tablebase(tables):
    rng = random.Random(5)
    boards = [b for b in (random_board(rng, 5, rng.choice((0, 1))) for _ in range(120))
              if not b.is_game_over()]
    with Tablebase(tables) as tablebase:
        proven = check_claims(Solver(tt_mib=8), tablebase, boards, depth=5)
    assert proven >= 20


def test_search_probes_tables_below_the_root(tables):
    # Two blanks: the root class is not built, its blank-taking children are.
    rng = random.Random(6)
    with Tablebase(tables) as tablebase:
        solver = Solver(tt_mib=8, tablebase=tablebase)
        sources = set()
        for _ in range(10):
            board = random_board(rng, 5, 2)
            if board.is_game_over():
                continue
            result = solver.solve(board, depth=2)
            sources.add(result.source)
            assert result.source == "search"
            if result.value != "unknown":
                assert result.plies is not None and result.plies <= 2
        assert sources == {"search"}


def test_the_root_in_a_table_answers_from_it(tables):
    with Tablebase(tables) as tablebase:
        result = Solver(tablebase=tablebase).solve(Board(size=4))
    assert (result.value, result.plies, result.source) == ("win", 21, "tablebase")
    assert len(result.principal_variation) == 21


def test_terminal_positions_follow_the_spec():
    assert Solver().solve(Board("XXX/OO./... X")).value == "win"
    result = Solver().solve(Board("XXX/OO./... O"))
    assert (result.value, result.plies, result.source, result.best_move) == (
        "loss", 0, "terminal", None)


def test_an_immediate_win_is_found_at_depth_one():
    board = Board("X..../X..../X..../X..../..... X")
    result = Solver().solve(board, depth=1)
    assert (result.value, result.plies) == ("win", 1)
    board.push(result.best_move)
    assert board.winner() == "X"


def test_results_are_deterministic_for_a_fixed_depth():
    board = Board("X.O../.X.../..O../...../O...X X")
    first = Solver(tt_mib=4).solve(board, depth=5)
    second = Solver(tt_mib=4).solve(board, depth=5)
    assert (first.best_move, first.score, first.nodes) == (second.best_move, second.score,
                                                            second.nodes)


def test_limits_stop_the_search():
    board = Board()
    result = Solver(tt_mib=4).solve(board, nodes=5000)
    assert result.value == "unknown" and result.best_move in board.legal_moves
    assert result.nodes <= 5000 + 1024
    result = Solver(tt_mib=4).solve(board, time=0.2)
    assert result.seconds < 2.0 and result.best_move in board.legal_moves


def test_bad_limits_are_refused():
    with pytest.raises(DepthError):
        Solver().solve(Board(), depth=0)
    with pytest.raises(QuixoError):
        Solver().solve(Board(), time=-1)
    with pytest.raises(QuixoError):
        Solver(tt_mib=0)


def test_analyze_lists_every_move_best_first(tables):
    board = Board("XO.O/X..X/.OX./O.X. X")
    with Tablebase(tables) as tablebase:
        rows = Solver(tablebase=tablebase).analyze(board)
        assert [str(m) for m, _ in rows] and len(rows) == board.legal_moves.count()
        best = rows[0][1]
        truth = tablebase.probe(board)
        assert (best.value, best.plies) == (truth.value, truth.plies)


def test_cli_solve_and_analyze_json(tables, capsys):
    status = main(["solve", "..../..../..../.... X", "--dir", str(tables), "--json"])
    payload = json.loads(capsys.readouterr().out)
    assert status == 0
    assert {k: payload[k] for k in ("position", "value", "plies", "source")} == {
        "position": "..../..../..../.... X", "value": "win", "plies": 21, "source": "tablebase"}
    status = main(["solve", "X..../X..../X..../X..../..... X", "--depth", "3", "--json",
                   "--no-tablebase"])
    payload = json.loads(capsys.readouterr().out)
    assert (payload["value"], payload["plies"], payload["source"]) == ("win", 1, "search")
    status = main(["analyze", ".../.../... X", "--dir", str(tables), "--json"])
    payload = json.loads(capsys.readouterr().out)
    assert len(payload["moves"]) == 20 and payload["moves"][0]["value"] == "win"
    assert payload["moves"][0]["plies"] == 7


def test_cli_refuses_bad_search_options(capsys):
    for argv in (["solve", "--time", "-2"], ["solve", "--depth", "0"], ["solve", "--size", "6"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith("quixo: error: argument --") and err.count("\n") == 1


def test_play_takes_moves_rejects_bad_ones_and_undoes(tables):
    typed = iter(["zz", "a1a1", "moves", "a1c1", "undo", "a1c1", "quit"])
    shown = []
    board = Board(size=3)
    with Tablebase(tables) as tablebase:
        result = run(board, Solver(tablebase=tablebase), human="X", seconds=0.1,
                     read=lambda prompt: next(typed), write=shown.append)
    text = "\n".join(shown)
    assert result == "*"
    assert "not played" in text and "is not a move" in text
    assert "a1c1 a1a3" in text  # the legal moves, listed on request
    assert text.count("engine plays") == 2  # once before the undo, once after


def test_play_to_the_end_against_perfect_play(tables):
    board = Board(size=3)
    with Tablebase(tables) as tablebase:
        solver = Solver(tablebase=tablebase)
        # the "human" plays the tablebase's worst move every time: the engine must win
        def worst(prompt):
            return str(tablebase.probe_moves(board)[-1][0])
        result = run(board, solver, human="O", seconds=0.1, read=worst, write=lambda line: None)
    assert result == "1-0"


@given(positions())
def test_the_heuristic_is_the_same_on_symmetric_positions(position):
    from quixo_solver.rules import _rules
    from quixo_solver.search import _search

    size, mover, opponent = position
    searcher = _search.Searcher(size, 1)
    value = searcher.evaluate(mover, opponent)
    assert abs(value) < 20000  # far from the proven scores
    for symmetry in range(8):
        assert searcher.evaluate(_rules.transform_mask(size, symmetry, mover),
                               _rules.transform_mask(size, symmetry, opponent)) == value


# -- bad input, named ----------------------------------------------------------------------
BAD_SOLVER_CALLS = {
    "solve time '5'": (lambda: Solver().solve(Board(size=4), time="5"), LimitError),
    "solve time nan": (lambda: Solver().solve(Board(size=4), time=math.nan), LimitError),
    "solve time inf": (lambda: Solver().solve(Board(size=4), time=math.inf), LimitError),
    "solve depth 10**30": (lambda: Solver().solve(Board(), depth=10**30), DepthError),
    "solve nodes 0": (lambda: Solver().solve(Board(), nodes=0), LimitError),
    "tt_mib '64'": (lambda: Solver(tt_mib="64"), LimitError),
    "tt_mib None": (lambda: Solver(tt_mib=None), LimitError),
    "tt_mib 1e13": (lambda: Solver(tt_mib=1e13), LimitError),
    "tt_mib 1e30": (lambda: Solver(tt_mib=1e30), LimitError),
    "tt_mib inf": (lambda: Solver(tt_mib=math.inf), LimitError),
    "tt_mib nan": (lambda: Solver(tt_mib=math.nan), LimitError),
    "tt_mib 0": (lambda: Solver(tt_mib=0), LimitError),
    "tablebase 42": (lambda: Solver(tablebase=42), QuixoError),
    "solve a string": (lambda: Solver().solve("a string"), PositionError),
    "analyze a string": (lambda: Solver().analyze("a string"), PositionError),
    "analyze depth 0": (lambda: Solver().analyze(Board(size=4), depth=0), DepthError),
}


@pytest.mark.parametrize("name", sorted(BAD_SOLVER_CALLS))
def test_bad_solver_input_raises_the_named_error(name):
    call, expected = BAD_SOLVER_CALLS[name]
    with pytest.raises(expected) as raised:
        call()
    assert_one_line(raised.value)


numbers = st.one_of(st.none(), st.booleans(), st.integers(min_value=-2**70, max_value=2**70),
                    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8))


@settings(max_examples=150)
@given(depth=numbers, seconds=numbers, mib=numbers,
       text=st.one_of(st.text(max_size=40), st.none(), st.integers()))
def test_fuzz_solver_arguments(depth, seconds, mib, text):
    # a node limit keeps every accepted search short
    returns_or_refuses(lambda: Solver(tt_mib=mib), LimitError)
    returns_or_refuses(lambda: Solver(tt_mib=1).solve(Board(size=5), depth=depth, time=seconds,
                                                      nodes=2000), LimitError, DepthError)
    returns_or_refuses(lambda: Solver(tt_mib=1).solve(text), PositionError)


def test_a_stop_while_the_searcher_opens_its_tables_answers_at_once(tables, monkeypatch):
    """Opening a folder's 5x5 tables takes about a second: a stop in the middle returns
    after the table being opened, and the searcher left without the others is not kept."""
    solver = Solver(tt_mib=8, tablebase=Tablebase(tables))
    board = Board("XO.../...../..O../...../..... X")
    real_table = solver.tablebase.table
    opened = []

    def open_then_stop(size, a, b):
        opened.append((a, b))
        solver.stop()
        return real_table(size, a, b)
    monkeypatch.setattr(solver.tablebase, "table", open_then_stop)
    result = solver.solve(board, time=30)
    assert len(opened) == 1 and result.value == "unknown" and result.seconds < 5
    solver.allow()
    monkeypatch.setattr(solver.tablebase, "table",
                        lambda size, a, b: opened.append((a, b)) or real_table(size, a, b))
    opened.clear()
    solver.solve(board, depth=1)
    built = [(a, b) for a in range(26) for b in range(26 - a)
             if solver.tablebase.has_table(5, a, b)]
    assert set(built) <= set(opened) and len(built) > 1      # every table, this time


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_an_analysis_from_the_tables_equals_the_move_by_move_one(tables, seed):
    """Solver.analyze answers from the tables without a board per move; the move-by-move
    analysis (a board and a probe per move) gives the same rows, on 3x3 and 4x4 positions of
    random games, finished ones included."""
    solver = Solver(tt_mib=1, tablebase=Tablebase(tables))
    rng = random.Random(seed)
    board = Board(size=rng.choice((3, 4)))
    for _ in range(rng.randrange(0, 40)):
        if board.is_game_over():
            break
        board.push(rng.choice(list(board.legal_moves)))
    fast = solver.analyze(board)
    # a board and a probe per move (what analyze does where the tables do not answer at once)
    slow = solver._rows_by_move(board, lambda child: solver.settled_result(child, line=0))
    assert slow is not None      # (the whole 3x3 and 4x4 games are in the tables)
    assert [(str(move), row.to_json()) for move, row in fast] == \
        [(str(move), row.to_json()) for move, row in slow]


def test_exact_analysis_is_analyze_where_the_tables_settle_every_move(small_tables):
    """The explorer's exact answers: what analyze gives where the tables settle each move,
    and None (with no search started) where a move needs one."""
    from quixo_solver.frontends import answers

    solver = Solver(tt_mib=1, tablebase=small_tables)
    settled = Board("XOX./O..X/.OX./XXOO X")         # 4x4, 5 blanks: every child is built
    exact = solver.exact_analysis(settled)
    assert exact is not None and exact == solver.analyze(settled)
    assert answers.exact_analyze_answer(settled, solver) == answers.analyze_answer(
        settled, solver)
    assert answers.exact_solve_answer(settled, solver) == answers.solve_answer(settled, solver)
    unsettled = Board(size=4)                          # 16 blanks: no table reaches it
    assert solver.exact_analysis(unsettled) is None
    assert answers.exact_solve_answer(unsettled, solver) is None
    assert solver._searchers == {}                     # no search kernel was made
