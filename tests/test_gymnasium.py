"""The Gymnasium environment quixo_solver/Quixo-v0 (the extra rl): Gymnasium's own checker
for each opponent, the action mask in the info, illegal actions, the perfect opponent (it
never lets a won position go, and refuses positions its tables do not cover), the engine
opponent, and registration through gymnasium.make.

The perfect opponent's tables are those of the default folder, which conftest.py makes a
private one for the session: the first 4x4 environment builds them there (a few seconds)."""
import warnings

import numpy as np
import pytest

from .extras import require

require("gymnasium", "pettingzoo", extra="rl")

import gymnasium  # (after the check of the extra)
from gymnasium.utils.env_checker import check_env

import quixo_solver.gymnasium
from quixo_solver import Board, GameOverError, PositionError, QuixoError, Solver, Tablebase
from quixo_solver.frameworks.actions import ActionError, action_of_move
from quixo_solver.gymnasium import ENV_ID, OpponentError, QuixoEnv, UncoveredPositionError
from quixo_solver.tablebase import BaseTablebase, MissingTableError, default_directory


@pytest.fixture(autouse=True)
def quiet_checker():
    """Gymnasium's checker warns about what it cannot tell (an environment made without
    gymnasium.make has no spec to make its other render modes with)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


def random_episode(env, seed, options=None):
    """Play an episode with legal actions drawn from `seed`; its last reward and plies."""
    observation, info = env.reset(seed=seed, options=options)
    generator = np.random.default_rng(seed)
    reward, over = 0.0, False
    while not over:
        action = int(generator.choice(np.flatnonzero(info["action_mask"])))
        observation, reward, terminated, truncated, info = env.step(action)
        over = terminated or truncated
    return reward, len(env.unwrapped.board.move_stack)


@pytest.mark.parametrize("opponent, size", [("random", 3), ("random", 4), ("random", 5),
                                            ("engine", 3), ("engine", 5),
                                            ("perfect", 3), ("perfect", 4)])
def test_gymnasiums_checker_passes_for_every_opponent(opponent, size):
    env = gymnasium.make(ENV_ID, size=size, opponent=opponent)
    check_env(env.unwrapped)
    env.close()


def test_make_works_with_the_default_tables():
    env = gymnasium.make("quixo_solver/Quixo-v0", size=4, opponent="perfect")
    observation, info = env.reset(seed=0)
    assert observation.shape == (4, 4, 3) and info["action_mask"].sum() == 32
    assert Tablebase(default_directory()).has_size(4)


@pytest.mark.parametrize("opponent", ["random", "engine", "perfect"])
def test_the_mask_in_the_info_is_the_boards_legal_moves(opponent):
    env = QuixoEnv(size=3, opponent=opponent, seat="O")
    observation, info = env.reset(seed=3)
    generator = np.random.default_rng(3)
    while True:
        board = env.board
        assert board.turn == "O"
        legal = sorted(action_of_move(3, move) for move in board.legal_moves)
        assert np.flatnonzero(info["action_mask"]).tolist() == legal
        assert info["action_mask"].dtype == np.int8
        assert (observation[:, :, 0].sum(), observation[:, :, 1].sum()) == (
            bin(board.o_cubes).count("1"), bin(board.x_cubes).count("1"))
        observation, reward, terminated, truncated, info = env.step(int(generator.choice(legal)))
        if terminated or truncated:
            break
    assert not info["action_mask"].any()
    assert reward == (1.0 if env.board.winner() == "O" else -1.0)


def test_an_illegal_action_ends_the_episode_with_a_penalty():
    env = QuixoEnv(size=3, opponent="random", seat="O")
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])    # takes X's first cube
    observation, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert not info["action_mask"].any()
    with pytest.raises(GameOverError):
        env.step(0)
    env.reset(seed=1)
    with pytest.raises(ActionError):
        env.step(20)                       # not an action of the 3x3 board


def test_the_perfect_opponent_never_lets_a_won_game_go():
    for size, plies in ((3, 7), (4, 21)):       # the first player wins in 7, 21 plies
        env = QuixoEnv(size=size, opponent="perfect", seat="O")
        for seed in range(4):
            reward, played = random_episode(env, seed)
            assert reward == -1.0 and played <= plies


def test_the_perfect_opponent_wins_every_won_position_it_is_given():
    generator = np.random.default_rng(5)
    env = QuixoEnv(size=4, opponent="perfect", seat="O")
    tables = env.opponent.tables
    tried = 0
    while tried < 6:
        board = Board(size=4)
        for _ in range(int(generator.integers(4, 14))):
            moves = list(board.legal_moves)
            board.push(moves[int(generator.integers(len(moves)))])
            if board.is_game_over():
                break
        board = Board.from_masks(4, board.mover_cubes, board.opponent_cubes, "X")
        if board.is_game_over() or tables.probe_wdl(board) != 1:
            continue
        plies = tables.probe_plies(board)
        if plies == 1:          # won at once: reset refuses a position the opponent ends
            with pytest.raises(GameOverError, match="ends the game"):
                env.reset(options={"position": str(board)})
            continue
        reward, played = random_episode(env, tried, {"position": str(board)})
        assert reward == -1.0 and played <= plies
        tried += 1


class NoTables(BaseTablebase):
    """Tables that claim the 5x5 board and hold no class of it."""

    def has_table(self, size, mover_count, opponent_count):
        return size == 5

    def codes_of(self, size, positions):
        raise MissingTableError("no table of this class")


def test_the_perfect_opponent_refuses_positions_its_tables_do_not_cover(tmp_path):
    with pytest.raises(UncoveredPositionError, match="no 5x5 tables"):
        QuixoEnv(size=5, opponent="perfect", tablebase=tmp_path)
    env = QuixoEnv(size=5, opponent="perfect", seat="O", tablebase=NoTables())
    with pytest.raises(UncoveredPositionError, match="cannot play"):
        env.reset(seed=0)
    assert issubclass(UncoveredPositionError, ValueError)


def test_the_engine_plays_the_solvers_move_and_the_same_game_again():
    env = QuixoEnv(size=5, opponent="engine", seat="O", engine_nodes=2000)
    env.reset(seed=0)
    assert env.board.move_stack == [Solver(tt_mib=8).solve(Board(), nodes=2000).best_move]
    games = []
    for _ in range(2):
        _, info = env.reset(seed=9)
        for _ in range(5):
            action = int(np.flatnonzero(info["action_mask"])[0])
            _, _, terminated, truncated, info = env.step(action)
            if terminated or truncated:
                break
        games.append([str(move) for move in env.board.move_stack])
    assert games[0] == games[1]


def test_an_episode_can_start_from_a_position():
    env = QuixoEnv(size=3, opponent="random", seat="X")
    observation, info = env.reset(options={"position": "XX./O../O.. X"})
    assert info["action_mask"].sum() == Board("XX./O../O.. X").legal_moves.count()
    _, reward, terminated, _, _ = env.step(action_of_move(3, "c1c3"))    # X's top row
    assert (reward, terminated) == (1.0, True)
    with pytest.raises(PositionError, match="4x4"):
        env.reset(options={"position": "..../..../..../.... X"})
    with pytest.raises(GameOverError):
        env.reset(options={"position": "XXX/O../O.. O"})
    with pytest.raises(QuixoError, match="unknown reset options"):
        env.reset(options={"board": "XX./O../O.. X"})
    perfect = QuixoEnv(size=3, opponent="perfect", seat="O")
    with pytest.raises(GameOverError, match="first move, c1c3, ends the game"):
        perfect.reset(options={"position": "XX./O../O.. X"})     # X wins at once


def test_the_environment_refuses_bad_arguments():
    with pytest.raises(OpponentError, match="two-player"):
        QuixoEnv(players=4)
    with pytest.raises(OpponentError, match="opponent must be"):
        QuixoEnv(opponent="champion")
    with pytest.raises(OpponentError, match="seat"):
        QuixoEnv(seat="X1")
    with pytest.raises(OpponentError, match="engine_nodes"):
        QuixoEnv(opponent="engine", engine_nodes=0)
    with pytest.raises(QuixoError, match="render_mode"):
        QuixoEnv(render_mode="window")
    for error in (OpponentError, UncoveredPositionError):
        assert issubclass(error, ValueError)


def test_render_modes():
    env = QuixoEnv(size=3, render_mode="ansi")
    env.reset()
    assert env.render() == Board(size=3).render()
    env = QuixoEnv(size=3, render_mode="rgb_array")
    env.reset()
    picture = env.render()
    assert picture.shape == (104, 104, 3) and picture.dtype == np.uint8
    assert quixo_solver.gymnasium.ENV_ID in gymnasium.registry
