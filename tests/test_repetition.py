"""Repetitions in the search: a position that repeats one with the same player to move, on the
search's line or in the game before the root, is a draw; the side ahead steers away from it,
the side behind into it; and no repetition ever makes a proven claim wrong."""
import random

import pytest

from quixo_solver import Board, Solver, Tablebase
from quixo_solver.search import _search
from quixo_solver.teams import TeamBoard
from quixo_solver.teams.solve import TeamSolver


def children(board):
    """(move, child, the child's depth-0 value from the mover's side: the heuristic, or a loss
    when the opponent then wins at once) of every move that does not end the game."""
    searcher = _search.Searcher(board.size, 1)
    rows = []
    for move in board.legal_moves:
        child = board.copy(stack=False)
        child.push(move)
        if not child.is_game_over():
            rows.append((move, child,
                         -searcher.search((child.mover_cubes, child.opponent_cubes), 0, 0, 0)))
    return rows


def solve_after(game, root, depth):
    """Solve `root` as the position after the game's positions `game` (oldest first)."""
    searcher = _search.Searcher(root.size, 8)
    searcher.set_game(searcher.game_key((b.mover_cubes, b.opponent_cubes)) for b in game)
    score = searcher.search((root.mover_cubes, root.opponent_cubes), depth, 0, 0)
    return score, searcher.root_move, searcher.game_repetitions


def move_index(board, move):
    from quixo_solver.rules import geometry
    from quixo_solver.rules.notation import parse_square

    return geometry.moves(board.size).index((parse_square(board.size, move.source),
                                             parse_square(board.size, move.target)))


def full_board(rng, ahead):
    """A full 5x5 board (every move moves a cube of the mover's) with no line and no move that
    ends the game, on which the best move leaves X ahead by the heuristic (`ahead`) or every
    move leaves X behind."""
    while True:
        board = Board("".join(rng.choice("XO") for _ in range(25)) + " X")
        rows = children(board)
        if board.is_game_over() or len(rows) < 3 or len(rows) < board.legal_moves.count():
            continue
        values = [value for _, _, value in rows]
        if (max(values) > 0) if ahead else (max(values) < 0):
            return board


AHEAD = full_board(random.Random(1), ahead=True)
BEHIND = full_board(random.Random(2), ahead=False)


def test_the_side_ahead_avoids_a_repetition():
    rows = children(AHEAD)
    best_move, best_child, best_value = max(rows, key=lambda row: row[2])
    assert best_value > 0
    score, move, repeats = solve_after([best_child], AHEAD, 1)
    others = [(m, value) for m, c, value in rows if c != best_child]   # (moves may coincide)
    assert repeats >= 1 and move not in {move_index(AHEAD, m) for m, c, _ in rows
                                         if c == best_child}
    assert score == max(value for _, value in others)
    assert solve_after([], AHEAD, 1)[1] == move_index(AHEAD, best_move)   # without it


def test_the_side_behind_seeks_a_repetition():
    rows = children(BEHIND)
    worst_move, worst_child, worst_value = min(rows, key=lambda row: row[2])
    assert max(value for _, _, value in rows) < 0              # every move leaves X behind
    score, move, repeats = solve_after([worst_child], BEHIND, 1)
    assert (score, move) == (0, move_index(BEHIND, worst_move)) and repeats >= 1


def test_a_game_position_of_the_other_player_to_move_is_no_repetition():
    # the child with O to move, but put where X was to move: not the same position
    rows = children(AHEAD)
    best_move, best_child, _ = max(rows, key=lambda row: row[2])
    score, move, repeats = solve_after([best_child, AHEAD], AHEAD, 1)
    assert move == move_index(AHEAD, best_move) and repeats == 0


def test_the_solver_reads_the_repetitions_from_the_boards_move_stack():
    board = Board("X..../...../...../...../....O X")
    for move in ("a5e5", "e1a1", "e5a5", "a1e1"):        # back to the start, X to move
        board.push(move)
    assert str(board) == "X..../...../...../...../....O X"
    assert len(board.game_positions()) == 4
    solver = Solver(tt_mib=8)
    solver.solve(board, depth=2)                          # a5e5 repeats the game's second
    assert solver.searcher(5).game_repetitions >= 1
    solver.solve(Board(str(board)), depth=2)              # the same position, no game
    assert solver.searcher(5).game_repetitions == 0


# -- the kernel against a pure-Python negamax with the same rules --------------------------------
MATE, INFINITE = 30000, 32000


def twin_negamax(board, depth, ply, line, evaluate):
    """The depth-limited value of the kernel's search, by plain negamax: `line` holds the
    positions before this one (the game's, then the search's), oldest first."""
    if ply > 0 and str(board) in line[len(line) - 2::-2]:
        return 0
    moves, losing = [], []
    for move in board.legal_moves:
        child = board.copy(stack=False)
        child.push(move)
        status = child.status()
        if status < 0:                       # the mover completed only their own line
            return MATE - (ply + 1)
        (losing if status > 0 else moves).append(child)
    if depth <= 0:
        return evaluate(board)
    best = -(MATE - (ply + 1)) if losing else -INFINITE
    for child in moves:
        best = max(best, -twin_negamax(child, depth - 1, ply + 1, line + [str(board)],
                                       evaluate))
    return best


@pytest.mark.parametrize("seed", range(6))
def test_the_kernel_scores_repetitions_as_the_twin_does(seed):
    rng = random.Random(seed)
    while True:
        board = Board("".join(rng.choice("XO") for _ in range(16)) + " X")
        if board.is_game_over():
            continue
        for _ in range(2):                          # two plies of game before the root
            moves = list(board.legal_moves)
            board.push(rng.choice(moves))
            if board.is_game_over():
                break
        if not board.is_game_over():
            break
    game = board.game_positions()
    searcher = _search.Searcher(4, 8)
    evaluate = lambda b: searcher.evaluate(b.mover_cubes, b.opponent_cubes)   # noqa: E731
    for depth in (1, 2, 3):
        searcher.clear()
        searcher.set_game(searcher.game_key((b.mover_cubes, b.opponent_cubes)) for b in game)
        score = searcher.search((board.mover_cubes, board.opponent_cubes), depth, 0, 0)
        assert score == twin_negamax(board.copy(stack=False), depth, 0,
                                     [str(b) for b in game], evaluate), (str(board), depth)


def random_game_board(rng, tables_board):
    """A 4x4 board reached by a few random plies from a random position (a game history)."""
    board = tables_board
    for _ in range(rng.randint(1, 8)):
        moves = [m for m in board.legal_moves]
        board.push(rng.choice(moves))
        if board.is_game_over():
            board.pop()
            break
    return board


def test_claims_with_a_game_history_agree_with_the_tables(tables):
    rng = random.Random(11)
    checked = bounded = 0
    with Tablebase(tables) as tablebase:
        solver = Solver(tt_mib=8)
        for _ in range(120):
            start = Board("".join(rng.choice("XO..") for _ in range(16)) + " X")
            if start.is_game_over():
                continue
            board = random_game_board(rng, start)
            result = solver.solve(board, depth=7)
            truth = tablebase.probe(board)
            if result.value == "unknown":
                continue
            checked += 1
            assert result.value == truth.value, str(board)
            if result.plies is not None:
                assert result.plies == truth.plies, str(board)
            else:
                bounded += 1
                assert truth.plies <= result.plies_at_most, str(board)
    assert checked >= 20


def test_four_player_repetitions_are_four_plies_apart():
    board = TeamBoard("X..../...../...../...../....O X1")
    # X1, O1, X2, O2, each turning the dot to the team-mate: back to the start, X1 to move
    for move in ("a5e5+", "e1a1+", "e5a5+", "a1e1+"):
        board.push(move)
    assert str(board) == "X..../...../...../...../....O X1"
    solver = TeamSolver(tt_mib=8)
    solver.solve(board, depth=2)     # X1's a5e5+ repeats the game's second position
    assert solver.searcher(5).game_repetitions >= 1
    solver.solve(TeamBoard(str(board)), depth=2)          # the same position, no game
    assert solver.searcher(5).game_repetitions == 0
