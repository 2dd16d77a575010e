"""The proof-number search (df-pn): with the tables hidden from it, every win or loss it proves
is the tables' value, within the plies it claims; and the command line and limits."""
import json
import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quixo_solver import Board, Solver, Tablebase
from quixo_solver.frontends.cli import main


def random_position(rng, size, blanks):
    while True:
        cells = ["."] * blanks + [rng.choice("XO") for _ in range(size * size - blanks)]
        rng.shuffle(cells)
        board = Board("".join(cells) + " " + rng.choice("XO"))
        if not board.is_game_over():
            return board


def check_proofs(boards, tablebase, nodes):
    """Prove each board without tables; every claim must be the tables' (a win or a loss,
    within `plies_at_most`, exact `plies` when given). The number proven."""
    prover = Solver(tt_mib=4)            # no tablebase: the tables are only the judge
    proven = 0
    for board in boards:
        result = prover.prove(board, nodes=nodes)
        truth = tablebase.probe(board)
        assert result.best_move in board.legal_moves
        if result.value == "unknown":
            continue
        proven += 1
        assert result.value == truth.value, str(board)
        assert truth.plies <= result.plies_at_most, str(board)
        if result.plies is not None:
            assert result.plies == truth.plies, str(board)
        if result.value == "win":          # the proof's move keeps the win
            child = board.copy(stack=False)
            child.push(result.best_move)
            assert tablebase.probe(child).value == "loss", str(board)
    return proven


@pytest.mark.parametrize("size, blanks, nodes", [(3, 3, 20000), (3, 5, 20000), (4, 4, 50000),
                                                 (4, 7, 50000), (5, 0, 50000), (5, 1, 50000)])
def test_proofs_agree_with_the_hidden_tables(tables, size, blanks, nodes):
    rng = random.Random(size * 100 + blanks)
    boards = [random_position(rng, size, blanks) for _ in range(40)]
    with Tablebase(tables) as tablebase:
        assert check_proofs(boards, tablebase, nodes) >= 10    # the comparison is not empty


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from((3, 4, 5)), data=st.data())
def test_random_proofs_agree_with_the_hidden_tables(tables, seed, size, data):
    blanks = data.draw(st.integers(0, {3: 6, 4: 8, 5: 1}[size]))
    board = random_position(random.Random(seed), size, blanks)
    with Tablebase(tables) as tablebase:
        check_proofs([board], tablebase, 20000)


def test_a_proof_beyond_alpha_betas_depth():
    # a 4x4 position with 6 blanks: alpha-beta to depth 3 proves nothing, df-pn proves it
    rng = random.Random(7)
    solver = Solver(tt_mib=8)
    for _ in range(200):
        board = random_position(rng, 4, 6)
        if solver.solve(board, depth=3).value != "unknown":
            continue
        proof = solver.prove(board, nodes=200000)
        if proof.value != "unknown" and proof.plies_at_most > 3:
            assert proof.plies is None or proof.plies == 1
            return
    pytest.fail("no position proven beyond depth 3")


def test_the_proof_search_keeps_its_time_limit():
    started = time.perf_counter()
    result = Solver(tt_mib=8).prove(Board(), time=0.5)
    assert time.perf_counter() - started < 2.0
    assert result.value == "unknown" and result.best_move in Board().legal_moves
    assert "no proof within the limits" in result.proof_search


def test_solve_runs_the_proof_search_when_alpha_beta_proves_nothing():
    solver = Solver(tt_mib=8)
    result = solver.solve(Board(), time=0.4, proof_share=0.5)
    assert result.value == "unknown" and "no proof" in result.proof_search
    result = solver.solve(Board(), depth=2, proof_share=0.5)
    assert result.proof_search == "not run: the proof search needs a time limit"
    assert solver.solve(Board(), depth=2).proof_search is None     # not asked


def test_solve_prove_on_the_command_line(capsys, tables):
    rng = random.Random(3)
    with Tablebase(tables) as tablebase:
        for _ in range(100):
            board = random_position(rng, 4, 5)
            truth = tablebase.probe(board)
            if truth.value != "draw" and truth.plies > 3:
                break
    status = main(["solve", str(board), "--prove", "--no-tablebase", "--time", "5", "--json"])
    payload = json.loads(capsys.readouterr().out)
    assert status == 0 and payload["value"] == truth.value
    assert payload["plies"] is None and payload["plies_at_most"] >= truth.plies
    assert payload["proof_search"].startswith("proven")
    assert main(["solve", str(board), "--prove", "--depth", "3"]) == 2
    assert "--prove searches by time" in capsys.readouterr().err
