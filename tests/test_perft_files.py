"""Runs the perft files of tests/data (python-chess keeps its perft files the same way): each
count on the compiled kernels, and every count up to TWIN_LIMIT on the pure-Python twin too.
A mismatch prints the count per first move, to find the move generator's fault."""
import pytest

from quixo_solver import parse_board, perft, perft_divide
from quixo_solver.rules import _rules_twin
from quixo_solver.teams import TeamBoard
from quixo_solver.teams import _team_rules_twin

from .perft_data import all_cases

TWIN_LIMIT = 30_000


def twin_perft(board, depth: int) -> int:
    if isinstance(board, TeamBoard):
        return _team_rules_twin.perft(board.size, board.roles, depth)
    return _rules_twin.perft(board.size, board.mover_cubes, board.opponent_cubes, depth)


def divide_report(board, depth: int) -> str:
    lines = [f"{move}: {nodes}" for move, nodes in perft_divide(board, depth).items()]
    return "\n".join(["per first move:"] + lines)


CASES = all_cases()


@pytest.mark.parametrize("file, name, position, depth, nodes", CASES,
                         ids=[f"{c[0]}: {c[1]} d{c[3]}" for c in CASES])
def test_perft_file(file, name, position, depth, nodes):
    board = parse_board(position)
    found = perft(board, depth)
    assert found == nodes, f"{position} depth {depth}: {found} != {nodes}\n" + divide_report(
        board, depth)
    if nodes <= TWIN_LIMIT:
        assert twin_perft(board, depth) == nodes


def test_the_files_cover_mid_game_near_terminal_and_four_player_positions():
    positions = {case[2] for case in CASES}
    assert any(len(p.split()[1]) == 2 for p in positions)            # four players
    assert sum(1 for case in CASES if case[4] <= TWIN_LIMIT) >= 20    # checked on the twin
    assert len(positions) >= 12
