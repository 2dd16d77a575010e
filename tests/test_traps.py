"""The trap rule (tablebase/traps.py): among the best moves of the tables, the one that leaves
the opponent the fewest good replies. Checked against a brute-force twin that plays every move
and every reply on a board and reads each position's value: on 3x3 from the tables' pure-Python
oracle (its own rules and retrograde rounds), on 4x4 from the tables one probe at a time. And
the solver: a perfect move either way, the trap move only when asked."""
import random

import pytest

from quixo_solver import Board, Solver, Tablebase
from quixo_solver.rules import _rules_twin
from quixo_solver.tablebase import values
from quixo_solver.tablebase.generator._retro_twin import solve_classes
from quixo_solver.tablebase.traps import reply_counts, trap_move

ORACLE_CUBES = 6      # the oracle solves the 3x3 positions with at least this many cubes


@pytest.fixture(scope="module")
def oracle():
    return solve_classes(3, fewest_cubes=ORACLE_CUBES)


def twin_choice(size, mover, opponent, value):
    """The trap rule as written, by brute force: `value(mover, opponent)` is (wdl, plies) of a
    position for its player to move. Returns (move, good replies, perfect replies)."""
    def moves(mover, opponent):
        """Each move with its (wdl, plies) for the player who makes it, and the child."""
        rows = []
        for source, target in _rules_twin.legal_moves(size, mover, opponent):
            child = _rules_twin.play_move(size, mover, opponent, source, target)
            wdl, plies = value(*child)
            rows.append(((source, target), -wdl, None if plies is None else plies + 1, child))
        return rows

    def rank(wdl, plies):
        return (1, 0) if wdl == 0 else (0, plies) if wdl == 1 else (2, -plies)

    rows = moves(mover, opponent)
    best = min(rank(wdl, plies) for _, wdl, plies, _ in rows)
    choices = []
    for move, wdl, plies, child in rows:
        if rank(wdl, plies) != best:
            continue
        own_wdl, own_plies = value(*child)
        replies = moves(*child)
        keeping = [r for r in replies if r[1] == own_wdl]
        perfect = [r for r in keeping if r[2] == own_plies]
        good = len(perfect) if own_wdl == -1 else len(keeping)
        choices.append(((good, len(perfect)), move))
    counts, move = min(choices, key=lambda choice: choice[0])     # the first of the fewest
    return move, counts


def random_positions(size, count, seed, fewest_cubes=0):
    generator = random.Random(seed)
    found = []
    while len(found) < count:
        board = Board(size=size)
        while not board.is_game_over():
            cubes = bin(board.mover_cubes | board.opponent_cubes).count("1")
            if cubes >= fewest_cubes and generator.random() < 0.3:
                found.append(board.copy(stack=False))
            board.push(generator.choice(list(board.legal_moves)))
    return found[:count]


def squares(board, move):
    return move.squares(board.size)


def test_the_trap_move_is_the_twins_on_3x3_by_the_oracle(tables, oracle):
    def value(mover, opponent):
        code = oracle[(mover, opponent)]
        return values.wdl_of(code), values.plies_of(code)

    changed = 0
    with Tablebase(tables) as tablebase:
        for board in random_positions(3, 150, seed=1, fewest_cubes=ORACLE_CUBES):
            move, counts = twin_choice(3, board.mover_cubes, board.opponent_cubes, value)
            chosen = trap_move(tablebase, board)
            assert squares(board, chosen) == move, str(board)
            child = board.copy(stack=False)
            child.push(chosen)
            if not child.is_game_over():
                assert reply_counts(tablebase, 3, child.mover_cubes,
                                    child.opponent_cubes) == counts
            changed += chosen != tablebase.best_move(board)
    assert changed > 0          # the rule changed some choices, or it tests nothing


def test_the_trap_move_is_the_twins_on_4x4(tables):
    changed = 0
    with Tablebase(tables) as tablebase:
        def value(mover, opponent):
            found = tablebase.probe(Board.from_masks(4, mover, opponent))
            return found.wdl, found.plies

        for board in random_positions(4, 60, seed=2):
            move, _ = twin_choice(4, board.mover_cubes, board.opponent_cubes, value)
            chosen = trap_move(tablebase, board)
            assert squares(board, chosen) == move, str(board)
            changed += chosen != tablebase.best_move(board)
    assert changed > 0


def test_the_solver_plays_the_trap_move_only_with_traps_on(tables):
    with Tablebase(tables) as tablebase:
        boards = random_positions(4, 40, seed=4)
        with_traps = Solver(4, tablebase)
        plain = Solver(4, tablebase, traps=False)
        differ = 0
        for board in boards:
            expected = tablebase.probe(board)
            trap = with_traps.solve(board, depth=1)
            first = plain.solve(board, depth=1)
            assert trap.best_move == trap_move(tablebase, board)
            assert first.best_move == tablebase.best_move(board)
            for result in (trap, first):      # the same value: both are perfect moves
                assert (result.value, result.plies) == (expected.value, expected.plies)
                child = board.copy(stack=False)
                child.push(result.best_move)
                seen = tablebase.probe(child)
                assert -seen.wdl == expected.wdl
                assert expected.plies is None or seen.plies + 1 == expected.plies
            differ += trap.best_move != first.best_move
        assert differ > 0


def test_a_finished_game_has_no_trap_move(tables):
    board = Board("XXX/OO./... O")
    with Tablebase(tables) as tablebase:
        assert trap_move(tablebase, board) is None
        assert reply_counts(tablebase, 3, board.mover_cubes, board.opponent_cubes) == (0, 0)
