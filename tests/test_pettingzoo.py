"""The PettingZoo environments (the extra rl): quixo_v0 for two and four players on every
board, qwixx_v0 for 2 to 5 players. PettingZoo's own checks (api_test, seed_test,
render_test), the action mask against the project's legal moves and rules, the rewards, the
action numbering that every framework adapter shares, and whole random games."""
import functools
import warnings

import numpy as np
import pytest

from .extras import require

require("pettingzoo", "gymnasium", extra="rl")

with warnings.catch_warnings():
    # pettingzoo.test imports connect_four_v3 by its deprecated name where pygame is installed
    warnings.simplefilter("ignore", DeprecationWarning)
    from pettingzoo.test import api_test, render_test, seed_test

from quixo_solver import Board, BoardSizeError, IllegalMoveError, QuixoError
from quixo_solver.frameworks.actions import (ActionError, action_count, action_of_move,
                                             check_action, legal_actions, move_of_action)
from quixo_solver.frameworks.episodes import MAX_PLIES
from quixo_solver.pettingzoo import quixo_v0
from quixo_solver.rules import geometry
from quixo_solver.rules.notation import square_name
from quixo_solver.teams import TeamBoard
from qwixx_stats import GameError, IllegalMarkError, QwixxError
from qwixx_stats.errors import TurnFault
from qwixx_stats.pettingzoo import qwixx_v0
from qwixx_stats.rules.game import final_share, second_mark
from qwixx_stats.rules.sheet import COLOURS, ROW_NUMBERS

QUIXO_GAMES = [(size, players) for size in (3, 4, 5) for players in (2, 4)]
QWIXX_PLAYERS = [2, 3, 4, 5]


@pytest.fixture(autouse=True)
def quiet_checks():
    """PettingZoo's checks warn about what the SPEC fixes (agents named X and O, dict
    observations); those warnings are not this suite's business."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


def random_game(env, seed):
    """Play `env` (wrapped) to its end with legal actions drawn from `seed`; the rewards
    each agent got in all, and the number of decisions."""
    env.reset(seed=seed)
    generator = np.random.default_rng(seed)
    totals, steps = {}, 0
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        totals[agent] = totals.get(agent, 0.0) + reward
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(generator.choice(np.flatnonzero(observation["action_mask"]))))
        steps += 1
    return totals, steps


# -- the action numbering --------------------------------------------------------------------

@pytest.mark.parametrize("size", [3, 4, 5])
def test_actions_are_the_engines_move_numbers(size):
    squares = geometry.moves(size)
    assert action_count(size, 2) == len(squares) == {3: 20, 4: 32, 5: 44}[size]
    assert action_count(size, 4) == 2 * len(squares) + 1
    for index, (source, target) in enumerate(squares):
        text = square_name(size, source) + square_name(size, target)
        assert str(move_of_action(size, 2, index)) == text
        assert str(move_of_action(size, 4, 2 * index)) == text
        assert str(move_of_action(size, 4, 2 * index + 1)) == text + "+"
        assert action_of_move(size, text) == index
        assert action_of_move(size, text + "+", players=4) == 2 * index + 1
    assert str(move_of_action(size, 4, 2 * len(squares))) == "pass"
    assert action_of_move(size, "pass", players=4) == 2 * len(squares)


def test_action_numbers_are_checked():
    assert check_action(3, 2, np.int64(19)) == 19
    for bad in (20, -1, 1.0, True, "1", None):
        with pytest.raises(ActionError):
            check_action(3, 2, bad)
    with pytest.raises(QuixoError, match="2 or 4 players"):
        action_count(3, 3)
    with pytest.raises(BoardSizeError):
        action_count(6, 2)
    with pytest.raises(QuixoError):
        action_of_move(3, "a1e1")          # a 5x5 move


# -- quixo_v0 ---------------------------------------------------------------------------------

@pytest.mark.parametrize("size, players", QUIXO_GAMES)
def test_quixo_passes_pettingzoos_checks(size, players):
    api_test(quixo_v0.env(size=size, players=players), num_cycles=300)
    seed_test(functools.partial(quixo_v0.env, size=size, players=players), num_cycles=100)
    render_test(functools.partial(quixo_v0.env, size=size, players=players))


@pytest.mark.parametrize("size, players", QUIXO_GAMES)
def test_quixo_mask_is_the_boards_legal_moves(size, players):
    env = quixo_v0.raw_env(size=size, players=players)
    env.reset()
    generator = np.random.default_rng(size * players)
    while not (any(env.terminations.values()) or any(env.truncations.values())):
        board = env.board
        mask = env.observe(env.agent_selection)["action_mask"]
        assert env.agent_selection == board.turn
        assert mask.dtype == np.int8
        legal = sorted(action_of_move(size, move) for move in board.legal_moves)
        assert np.flatnonzero(mask).tolist() == legal == legal_actions(board)
        for other in env.possible_agents:
            if other != env.agent_selection:
                assert not env.observe(other)["action_mask"].any()
        env.step(int(generator.choice(legal)))
    assert not env.observe(env.agent_selection)["action_mask"].any()


def test_quixo_observation_is_seen_from_the_agent():
    env = quixo_v0.raw_env(size=3)
    env.reset()
    env.step(action_of_move(3, "a1c1"))
    x_view, o_view = env.observe("X")["observation"], env.observe("O")["observation"]
    assert x_view.shape == (3, 3, 3) and x_view.dtype == np.int8
    assert x_view[2, 2].tolist() == [1, 0, 0]      # c1: X's own cube for X ...
    assert o_view[2, 2].tolist() == [0, 1, 0]      # ... the opponent's for O
    assert x_view[0, 0].tolist() == [0, 0, 1]      # a3: blank


def test_quixo_four_player_planes_are_by_team_and_dot():
    env = quixo_v0.raw_env(size=3, players=4)
    env.reset()
    env.step(action_of_move(3, "a1c1+", players=4))     # X1: c1, the dot to X2
    view = {agent: env.observe(agent)["observation"][2, 2].tolist() for agent in env.agents}
    # planes: own, team-mate, next player, player before, blank; X2 plays after O1, before O2
    assert view == {"X1": [0, 1, 0, 0, 0], "X2": [1, 0, 0, 0, 0],
                    "O1": [0, 0, 1, 0, 0], "O2": [0, 0, 0, 1, 0]}


@pytest.mark.parametrize("size, players", QUIXO_GAMES)
def test_a_random_quixo_game_pays_the_winner_zero_sum(size, players):
    env = quixo_v0.env(size=size, players=players)
    for seed in range(3):
        totals, steps = random_game(env, seed)
        board = env.unwrapped.board
        assert sum(totals.values()) == 0
        assert steps == len(board.move_stack) <= MAX_PLIES
        if board.is_game_over():
            winner = board.winner()
            assert totals == {seat: 1.0 if seat[0] == winner else -1.0 for seat in totals}
        else:
            assert steps == MAX_PLIES and set(totals.values()) == {0.0}
        if players == 4:
            assert totals["X1"] == totals["X2"] and totals["O1"] == totals["O2"]


def test_a_quixo_game_is_cut_off_at_its_ply_limit():
    env = quixo_v0.raw_env(size=5, max_plies=4, render_mode="ansi")
    env.reset()
    for text in ("a1e1", "a5e5", "a1e1", "a5e5"):    # nobody near a line
        assert not any(env.truncations.values())
        env.step(action_of_move(5, text))
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert env.rewards == {"X": 0.0, "O": 0.0}
    assert env.render().endswith("cut off after 4 plies (Quixo has no draw rule)")


def test_quixo_refuses_bad_arguments_and_illegal_actions():
    with pytest.raises(BoardSizeError):
        quixo_v0.env(size=6)
    with pytest.raises(QuixoError, match="2 or 4 players"):
        quixo_v0.env(players=3)
    with pytest.raises(QuixoError, match="render_mode"):
        quixo_v0.env(render_mode="window")
    with pytest.raises(QuixoError, match="max_plies"):
        quixo_v0.env(max_plies=0)
    raw = quixo_v0.raw_env(size=3)
    raw.reset()
    raw.step(action_of_move(3, "a1c1"))
    with pytest.raises(IllegalMoveError, match="c1a1"):
        raw.step(action_of_move(3, "c1a1"))         # X's cube, O to move
    with pytest.raises(IllegalMoveError):
        raw.step(20)
    env = quixo_v0.env(size=3)                       # the wrappers: an illegal action loses
    env.reset()
    env.step(action_of_move(3, "a1c1"))
    env.step(action_of_move(3, "c1a1"))
    assert env.terminations["O"] and env.rewards == {"X": 0.0, "O": -1.0}


def test_quixo_renders_the_boards_drawing_and_a_picture():
    env = quixo_v0.env(size=4, render_mode="ansi")
    env.reset()
    assert env.render() == Board(size=4).render()
    env = quixo_v0.env(size=4, players=4, render_mode="rgb_array")
    env.reset()
    picture = env.render()
    assert picture.shape == (136, 136, 3) and picture.dtype == np.uint8
    env.step(action_of_move(4, "a1d1", players=4))
    assert (env.render() != picture).any()
    assert env.unwrapped.board == TeamBoard("..../..../..../...X O1")


# -- qwixx_v0 ---------------------------------------------------------------------------------

@pytest.mark.parametrize("players", QWIXX_PLAYERS)
def test_qwixx_passes_pettingzoos_checks(players):
    api_test(qwixx_v0.env(players=players), num_cycles=1000)
    seed_test(functools.partial(qwixx_v0.env, players=players), num_cycles=300)
    render_test(functools.partial(qwixx_v0.env, players=players))


def rules_allow(env, action):
    """Whether the project's rules take `action` for the decision `env` (raw) waits for."""
    turn, seat = env.turn, env.seat_to_decide
    mark = None if action == qwixx_v0.PASS else qwixx_v0.mark_of_action(action)
    try:
        if env.decision == "action 1":
            if mark is not None and mark[1] != turn.dice.white_sum:
                return False
            turn.check_first(seat, None if mark is None else mark[0])
        else:
            second_mark(turn, mark)
    except TurnFault:
        return False
    return True


@pytest.mark.parametrize("players", QWIXX_PLAYERS)
def test_qwixx_mask_is_what_the_rules_allow(players):
    closed = set()
    for seed in range(3):
        env = qwixx_v0.raw_env(players=players)
        env.reset(seed=seed)
        generator = np.random.default_rng(seed)
        while env.turn is not None:
            mask = env.observe(env.agent_selection)["action_mask"]
            allowed = [action for action in range(qwixx_v0.ACTIONS) if rules_allow(env, action)]
            assert np.flatnonzero(mask).tolist() == allowed
            legal = np.flatnonzero(mask)
            marks = legal[:-1]
            # mostly the leftmost box, so that rows fill up, lock and close
            if len(marks) and generator.random() < 0.9:
                action = min(marks, key=lambda action: action % qwixx_v0.BOXES)
            else:
                action = generator.choice(legal)
            env.step(int(action))
        assert env.game.is_over()
        closed |= env.game.closed
    assert closed          # the games reached locks and closed rows


def test_qwixx_actions_name_the_boxes_of_the_sheet():
    assert qwixx_v0.ACTIONS == 45 and qwixx_v0.PASS == 44
    actions = [qwixx_v0.action_of_mark(colour, number)
               for colour in COLOURS for number in ROW_NUMBERS[colour]]
    assert actions == list(range(44))
    assert qwixx_v0.mark_of_action(0) == ("red", 2) and qwixx_v0.mark_of_action(43) == ("blue", 2)


def test_qwixx_turn_is_every_players_white_sum_then_the_active_colour():
    env = qwixx_v0.raw_env(players=3)
    env.reset(seed=11)
    order = []
    while len(env.game.history) < 2 and env.turn is not None:
        order.append((env.agent_selection, env.decision))
        env.step(qwixx_v0.PASS)
    assert order[:8] == [("player_0", "action 1"), ("player_1", "action 1"),
                         ("player_2", "action 1"), ("player_0", "action 2"),
                         ("player_1", "action 1"), ("player_2", "action 1"),
                         ("player_0", "action 1"), ("player_1", "action 2")]
    assert [sheet.penalties for sheet in env.game.sheets] == [1, 1, 0]


def test_qwixx_dice_come_from_the_seeded_generator():
    rolls = []
    for seed in (5, 5, 6):
        env = qwixx_v0.raw_env(players=2)
        env.reset(seed=seed)
        for _ in range(9):                  # three turns of passes
            env.step(qwixx_v0.PASS)
        rolls.append([str(record.dice) for record in env.game.history])
    assert rolls[0] == rolls[1] != rolls[2]


def test_qwixx_observation_holds_sheets_dice_and_decision():
    env = qwixx_v0.raw_env(players=2)
    env.reset(seed=2)
    dice = env.turn.dice
    mark = int(np.flatnonzero(env.observe("player_0")["action_mask"])[0])
    env.step(mark)                                   # player_0 marks the white sum
    observation = env.observe("player_1")["observation"]
    assert observation.shape == (46 * 2 + 12,) and observation.dtype == np.int8
    assert not observation[:90].any()        # action 1 is simultaneous: not shown in it yet
    assert observation[94:100].tolist() == list(dice)
    assert observation[100:].tolist() == [1, 0, 0, 1]   # action 1; player_0 (one seat on) rolled
    env.step(qwixx_v0.PASS)
    own = env.observe("player_0")["observation"]
    assert own[mark] == 1 and own[100:].tolist() == [0, 1, 1, 0]    # action 2, player_0 rolled


@pytest.mark.parametrize("players", QWIXX_PLAYERS)
def test_a_random_qwixx_game_pays_the_winners_share_zero_sum(players):
    env = qwixx_v0.env(players=players)
    totals, steps = random_game(env, players)
    game = env.unwrapped.game
    assert game.is_over() and steps >= players
    assert sum(totals.values()) == pytest.approx(0)
    sheets = game.sheets
    for seat, sheet in enumerate(sheets):
        share = final_share(sheet, sheets[:seat] + sheets[seat + 1:])
        assert totals[f"player_{seat}"] == pytest.approx((players * share - 1) / (players - 1))
    assert max(totals.values()) > 0


def test_qwixx_refuses_bad_arguments_and_illegal_actions():
    for players in (1, 6, 2.0, True):
        with pytest.raises(GameError, match="2 to 5 players"):
            qwixx_v0.env(players=players)
    with pytest.raises(QwixxError, match="render_mode"):
        qwixx_v0.env(render_mode="window")
    raw = qwixx_v0.raw_env(players=2)
    raw.reset(seed=1)
    illegal = next(action for action in range(qwixx_v0.ACTIONS)
                   if not raw.observe("player_0")["action_mask"][action])
    with pytest.raises(IllegalMarkError, match="not legal for player_0"):
        raw.step(illegal)
    env = qwixx_v0.env(players=2)
    env.reset(seed=1)
    env.step(illegal)
    assert env.terminations["player_0"] and env.rewards["player_0"] == -1.0


def test_qwixx_renders_the_trackers_text_and_a_picture():
    env = qwixx_v0.env(players=2, render_mode="ansi")
    env.reset(seed=4)
    text = env.render()
    assert "player_0 rolled" in text and "player_0 to decide: action 1" in text
    env = qwixx_v0.env(players=3, render_mode="rgb_array")
    env.reset(seed=4)
    picture = env.render()
    assert picture.dtype == np.uint8 and picture.shape[2] == 3
