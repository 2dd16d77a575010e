"""The OpenSpiel game python_quixo and its bots (quixo_solver.openspiel; the extra rl, which CI
installs: these tests run, never skip)."""
import pickle
import random
import time

import numpy as np
import pytest

from .extras import require

require("pyspiel", "open_spiel", extra="rl")

import pyspiel  # (after the check of the extra)
from open_spiel.python.algorithms.mcts import MCTSBot, RandomRolloutEvaluator

import quixo_solver.openspiel.game as openspiel_game
from quixo_solver import Board, Solver, Tablebase
from quixo_solver.errors import (BoardSizeError, GameOverError, IllegalMoveError, LimitError,
                                 MoveError)
from quixo_solver.openspiel import MAX_GAME_LENGTH, EngineBot, PerfectBot, UnsolvedPositionError
from quixo_solver.rules import geometry
from quixo_solver.tablebase import build
from quixo_solver.teams import TeamBoard
from quixo_solver.teams.solve import TeamSolver
from quixo_solver.variants import VariantError, parse_board

SIZES_AND_PLAYERS = [(size, players) for size in (3, 4, 5) for players in (2, 4)]
CYCLE = ["a1c1", "a3c3", "c1a1", "c3a3"]    # X and O shuffle a cube there and back


def load(size, players):
    return pyspiel.load_game(f"python_quixo(size={size},players={players})")


def play(state, moves):
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


def random_state(game, plies, rng):
    """The state after up to `plies` random moves (fewer if the game ends first)."""
    state = game.new_initial_state()
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def open_states(game, count, rng):
    """`count` unfinished states of random games, from 0 to 12 plies in."""
    states = []
    while len(states) < count:
        state = random_state(game, rng.randrange(13), rng)
        if not state.is_terminal():
            states.append(state)
    return states


def play_out(state, choose):
    """Plays `choose(state)` until the game ends; returns the state."""
    while not state.is_terminal():
        state.apply_action(choose(state))
    return state


@pytest.fixture(scope="module")
def tables_3x3(tmp_path_factory):
    folder = tmp_path_factory.mktemp("openspiel-tables")
    build(folder, 3)
    return folder


# -- the game ------------------------------------------------------------------------------------
@pytest.mark.parametrize("size, players", SIZES_AND_PLAYERS)
def test_random_simulations_pass_openspiels_checks(size, players):
    pyspiel.random_sim_test(load(size, players), num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("size, players", SIZES_AND_PLAYERS)
def test_the_game_declares_its_sizes(size, players):
    game = load(size, players)
    moves = len(geometry.moves(size))
    planes = 3 if players == 2 else 5
    actions = moves if players == 2 else 2 * moves + 1
    assert game.num_players() == players
    assert game.num_distinct_actions() == actions
    assert game.max_game_length() == MAX_GAME_LENGTH == 200
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    assert game.observation_tensor_shape() == [planes, size, size]
    assert game.information_state_tensor_shape() == [planes * size * size
                                                     + MAX_GAME_LENGTH * actions]
    kind = game.get_type()
    assert kind.short_name == "python_quixo"
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL


def test_the_defaults_are_5x5_two_players():
    game = pyspiel.load_game("python_quixo")
    assert game.get_parameters() == {"size": 5, "players": 2}
    assert str(game.new_initial_state()) == "...../...../...../...../..... X"


@pytest.mark.parametrize("text, error", [("python_quixo(size=6)", BoardSizeError),
                                         ("python_quixo(size=2)", BoardSizeError),
                                         ("python_quixo(players=3)", VariantError),
                                         ("python_quixo(size=4,players=1)", VariantError)])
def test_bad_parameters_are_refused_by_name(text, error):
    with pytest.raises(error) as raised:
        pyspiel.load_game(text)
    assert isinstance(raised.value, ValueError)
    assert "size" in str(raised.value) or "players" in str(raised.value)


@pytest.mark.parametrize("size, players", SIZES_AND_PLAYERS)
def test_actions_are_the_projects_moves_in_spec_text(size, players):
    """For every legal action of random positions: its text is a legal move of the project's
    board read from str(state), it reads back to the same action, and the numbering is the
    board geometry's (four players: twice a move, the dot kept then turned, and pass last)."""
    game = load(size, players)
    moves = geometry.moves(size)
    for state in open_states(game, 4, random.Random(size * players)):
        board = parse_board(str(state))          # the SPEC position, read by the project
        player = state.current_player()
        texts = {state.action_to_string(player, action): action
                 for action in state.legal_actions()}
        assert set(texts) == {str(move) for move in board.legal_moves}
        for text, action in texts.items():
            assert state.string_to_action(player, text) == action
            assert state.string_to_action(text.upper()) == action
            if text == "pass":
                assert action == 2 * len(moves)
                continue
            move = board.move_type.from_text(text)
            index = moves.index(move.squares(size)[:2])
            assert action == (index if players == 2 else 2 * index + move.to_mate)


def test_str_is_the_spec_position():
    state = play(load(3, 2).new_initial_state(), ["a1c1", "a3a1"])
    assert str(state) == ".../.../O.X X" == str(state.to_board())
    assert state.current_player() == 0
    team_state = play(load(5, 4).new_initial_state(), ["a1e1+", "a1a5"])
    assert str(team_state) == "O..../...../...../...../....x X2"
    assert team_state.current_player() == 2
    assert team_state.to_board() == TeamBoard(str(team_state))


def test_actions_that_are_no_moves_are_refused():
    state = load(3, 2).new_initial_state()
    with pytest.raises(MoveError, match="0 .. 19"):
        state.action_to_string(0, 20)
    with pytest.raises(MoveError, match="not a move on a 3x3 board"):
        state.string_to_action("b2b1")
    with pytest.raises(MoveError):
        state.string_to_action("pass")          # no passing in the two-player game
    play(state, ["a1c1"])
    with pytest.raises(IllegalMoveError, match="opponent"):
        state.apply_action(state.string_to_action("c1a1"))   # O may not take X's cube
    assert state.legal_actions(0) == []                      # X is not to move


def test_a_third_occurrence_of_a_position_is_a_draw():
    state = play(load(3, 2).new_initial_state(), CYCLE * 2 + CYCLE[:1])
    assert not state.is_terminal()
    play(state, CYCLE[1:2])          # the position after a1c1 a3c3, for the third time
    assert state.is_terminal() and state.end_reason() == "repetition"
    assert state.returns() == [0.0, 0.0] and state.legal_actions() == []
    assert len(state.history()) == 10


def test_the_move_limit_is_a_draw(monkeypatch):
    monkeypatch.setattr(openspiel_game, "MAX_GAME_LENGTH", 4)
    state = play(load(5, 4).new_initial_state(), ["a1e1", "a2e2", "a3e3"])
    assert not state.is_terminal()
    play(state, ["a4e4"])
    assert state.is_terminal() and state.end_reason() == "move limit"
    assert state.returns() == [0.0] * 4


def test_a_line_ends_the_game_with_the_winners_reward():
    state = play(load(3, 2).new_initial_state(),
                 ["c2a2", "c3c1", "c3a3", "b3a3", "a1a3", "b1a1", "c2c3"])  # the solved line
    assert state.is_terminal() and state.end_reason() == "line"
    assert state.returns() == [1.0, -1.0]


@pytest.mark.parametrize("size, players", [(3, 2), (3, 4), (4, 2), (4, 4)])
def test_terminal_returns_are_zero_sum_and_shared_by_a_team(size, players):
    game, rng = load(size, players), random.Random(7)
    for _ in range(20):
        state = play_out(game.new_initial_state(), lambda s: rng.choice(s.legal_actions()))
        returns = state.returns()
        assert sum(returns) == 0 and set(returns) <= {-1.0, 0.0, 1.0}
        assert returns[0::2] == [returns[0]] * len(returns[0::2])     # team X: 0 and 2
        assert returns[1::2] == [-returns[0]] * len(returns[1::2])    # team O: 1 and 3
        winner = state.to_board().winner()
        assert returns[0] == {"X": 1.0, "O": -1.0, None: 0.0}[winner]
        assert (winner is None) == (state.end_reason() != "line")


# -- observations ----------------------------------------------------------------------------
def planes_of(state, player, tensor="observation"):
    game = state.get_game()
    if tensor == "observation":
        return np.reshape(state.observation_tensor(player), game.observation_tensor_shape())
    planes = game.observation_tensor_shape()
    flat = np.asarray(state.information_state_tensor(player))
    return flat[:np.prod(planes)].reshape(planes), flat[np.prod(planes):]


def test_two_player_planes_are_seen_from_the_mover():
    state = play(load(3, 2).new_initial_state(), ["a1c1", "a3a1", "b1b3"])   # O to move
    assert str(state) == ".X./.../O.X O"
    mover, opponent, blanks = planes_of(state, 1)
    assert mover.tolist() == [[0, 0, 0], [0, 0, 0], [1, 0, 0]]
    assert opponent.tolist() == [[0, 1, 0], [0, 0, 0], [0, 0, 1]]
    assert blanks.tolist() == [[1, 0, 1], [1, 1, 1], [0, 1, 0]]
    assert (planes_of(state, 0) == planes_of(state, 1)).all()    # whoever observes
    assert state.observation_string(0) == state.observation_string(1) == str(state)


def test_four_player_planes_are_the_cubes_by_team_and_by_dot():
    # X1 a1c1+ (x at c1: dot at X2), O1 a3a1 (O at a1), X2 b3c3 (x at c3), O2 to move
    state = play(load(3, 4).new_initial_state(), ["a1c1+", "a3a1", "b3c3"])
    assert str(state) == "..x/.../O.x O2"
    own_at_mover, own_at_mate, other_at_next, other_at_last, blanks = planes_of(state, 3)
    assert own_at_mover.sum() == 0                                           # no o cube
    assert own_at_mate.tolist() == [[0, 0, 0], [0, 0, 0], [1, 0, 0]]         # O at a1
    assert other_at_next.sum() == 0                                          # no X cube
    assert other_at_last.tolist() == [[0, 0, 1], [0, 0, 0], [0, 0, 1]]       # x: X2 moved
    assert blanks.sum() == 6


def test_the_information_state_recalls_the_moves():
    game = load(3, 2)
    state = play(game.new_initial_state(), ["a1c1", "a3a1"])
    assert state.information_state_string(0) == ".../.../... X moves a1c1 a3a1"
    assert game.new_initial_state().information_state_string(1) == ".../.../... X"
    board, history = planes_of(state, 0, tensor="information state")
    assert (board == planes_of(state, 0)).all()
    history = history.reshape(MAX_GAME_LENGTH, game.num_distinct_actions())
    assert history.sum() == 2
    first, second = state.string_to_action("a1c1"), state.string_to_action("a3a1")
    assert history[0, first] == history[1, second] == 1
    # the same position by another road: one observation, two information states
    again = play(game.new_initial_state(), CYCLE + ["a1c1", "a3a1"])
    assert again.observation_string(0) == state.observation_string(0)
    assert again.information_state_string(0) != state.information_state_string(0)


# -- serialization and pickling ----------------------------------------------------------------
@pytest.mark.parametrize("size, players", SIZES_AND_PLAYERS)
def test_states_and_games_survive_serialization_and_pickling(size, players):
    game = load(size, players)
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    for state in open_states(game, 3, random.Random(size + players)):
        for copy in (game.deserialize_state(state.serialize()),
                     pickle.loads(pickle.dumps(state))):
            assert str(copy) == str(state) and copy.history() == state.history()
            assert copy.legal_actions() == state.legal_actions()
            assert copy.information_state_string(0) == state.information_state_string(0)


def test_a_restored_state_still_counts_repetitions():
    game = load(3, 2)
    state = play(game.new_initial_state(), CYCLE * 2 + CYCLE[:1])
    for copy in (game.deserialize_state(state.serialize()), pickle.loads(pickle.dumps(state))):
        play(copy, CYCLE[1:2])
        assert copy.end_reason() == "repetition"


# -- OpenSpiel's bots ------------------------------------------------------------------------
def mcts_bot(game, seed, simulations):
    return MCTSBot(game, uct_c=2.0, max_simulations=simulations,
                   evaluator=RandomRolloutEvaluator(1, np.random.RandomState(seed)),
                   random_state=np.random.RandomState(seed))


@pytest.mark.parametrize("size, players, simulations", [(3, 2, 50), (4, 2, 15), (3, 4, 20)])
def test_mcts_and_random_bots_play_whole_games(size, players, simulations):
    game = load(size, players)
    for seed in range(2):
        bots = [mcts_bot(game, seed, simulations) if player % 2 == seed % 2
                else pyspiel.make_uniform_random_bot(player, seed) for player in range(players)]
        returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
        assert sum(returns) == 0 and set(returns) <= {-1.0, 0.0, 1.0}


# -- PerfectBot ----------------------------------------------------------------------------------
def test_perfect_bots_play_the_3x3_game_as_the_project_solves_it(tables_3x3):
    with Tablebase(tables_3x3) as tablebase:
        solved = Solver(tablebase=tablebase).solve(Board(size=3))
    game = load(3, 2)
    bots = [PerfectBot(game, player, tablebase=tables_3x3) for player in range(2)]
    state = play_out(game.new_initial_state(), lambda s: bots[s.current_player()].step(s))
    assert (solved.value, solved.plies) == ("win", 7)
    assert state.returns() == [1.0, -1.0] and len(state.history()) == solved.plies

    team_solved = TeamSolver().solve(TeamBoard(size=3))
    team_game = load(3, 4)
    team_bots = [PerfectBot(team_game, player) for player in range(4)]
    state = play_out(team_game.new_initial_state(), lambda s: team_bots[s.current_player()].step(s))
    assert (team_solved.value, team_solved.plies) == ("win", 7)
    assert state.returns() == [1.0, -1.0, 1.0, -1.0] and len(state.history()) == 7


def test_the_perfect_bot_beats_the_random_bot_as_x(tables_3x3):
    game = load(3, 2)
    perfect = PerfectBot(game, 0, tablebase=tables_3x3)
    for seed in range(10):
        bots = [perfect, pyspiel.make_uniform_random_bot(1, seed)]
        assert pyspiel.evaluate_bots(game.new_initial_state(), bots, seed) == [1.0, -1.0]
    team_game = load(3, 4)
    for seed in range(5):
        bots = [PerfectBot(team_game, player) if player % 2 == 0
                else pyspiel.make_uniform_random_bot(player, seed) for player in range(4)]
        assert pyspiel.evaluate_bots(team_game.new_initial_state(), bots, seed) == [1.0, -1.0,
                                                                                   1.0, -1.0]


def test_the_perfect_bot_never_loses_a_won_position(tables_3x3):
    """From random 3x3 positions that the tables call won for the mover, the PerfectBot of
    the mover wins against random moves and against MCTS, within the tables' plies."""
    game, rng = load(3, 2), random.Random(3)
    won = []
    with Tablebase(tables_3x3) as tablebase:
        for state in open_states(game, 60, rng):
            probe = tablebase.probe(Board(str(state)))
            if probe.wdl == 1:
                won.append((state, probe.plies))
    assert len(won) >= 20
    for number, (state, plies) in enumerate(won):
        mover = state.current_player()
        perfect = PerfectBot(game, mover, tablebase=tables_3x3)
        opponent = mcts_bot(game, number, 30) if number % 4 == 0 else None
        start = len(state.history())
        state = play_out(state.clone(), lambda s: perfect.step(s) if s.current_player() == mover
                         else opponent.step(s) if opponent else rng.choice(s.legal_actions()))
        assert state.returns()[mover] == 1.0
        assert len(state.history()) - start <= plies


def test_the_perfect_bot_refuses_to_guess(tmp_path):
    game = load(4, 2)
    bot = PerfectBot(game, 0, tablebase=tmp_path)        # an empty folder: no 4x4 tables
    with pytest.raises(UnsolvedPositionError, match="do not answer") as raised:
        bot.step(game.new_initial_state())
    assert isinstance(raised.value, ValueError)
    with pytest.raises(UnsolvedPositionError, match="finds none"):
        PerfectBot(load(4, 4), 0, tablebase=tmp_path)
    three = load(3, 4)                           # the 3x3 solution needs no folder's tables
    assert PerfectBot(three, 0, tablebase=tmp_path).step(three.new_initial_state()) in \
        three.new_initial_state().legal_actions()


# -- EngineBot -----------------------------------------------------------------------------------
@pytest.mark.parametrize("size, players", [(4, 2), (5, 2), (4, 4), (5, 4)])
def test_the_engine_bot_plays_legal_moves_within_its_budget(size, players):
    game = load(size, players)
    by_nodes = EngineBot(game, 0, nodes=3000, tt_mib=8)
    by_time = EngineBot(game, 0, time=0.05, tt_mib=8)
    for state in open_states(game, 2, random.Random(size * players)):
        action = by_nodes.step(state)
        assert action in state.legal_actions()
        assert by_nodes.last_result.nodes <= 3000 + 1024   # the kernel looks every 1024
        started = time.perf_counter()
        assert by_time.step(state) in state.legal_actions()
        assert by_time.last_result.seconds <= 0.05 + 0.05
        assert time.perf_counter() - started < 1.0


def test_the_engine_bot_plays_a_whole_game():
    game = load(4, 2)
    bots = [EngineBot(game, 0, depth=2, tt_mib=8), pyspiel.make_uniform_random_bot(1, 5)]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 5)
    assert sum(returns) == 0


def test_bots_refuse_bad_arguments():
    game = load(3, 2)
    with pytest.raises(LimitError, match="budget"):
        EngineBot(game, 0)
    with pytest.raises(LimitError, match="time"):
        EngineBot(game, 0, time=-1)
    with pytest.raises(LimitError, match="player_id"):
        EngineBot(game, 2, depth=1)
    with pytest.raises(ValueError, match="python_quixo"):
        EngineBot(pyspiel.load_game("tic_tac_toe"), 0, depth=1)
    state = play(game.new_initial_state(), ["c2a2", "c3c1", "c3a3", "b3a3", "a1a3", "b1a1",
                                            "c2c3"])
    with pytest.raises(GameOverError):
        EngineBot(game, 0, depth=1).step(state)
