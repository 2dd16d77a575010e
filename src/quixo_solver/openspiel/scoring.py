"""An OpenSpiel bot scored on a set of positions with exact answers
(tournament/position_sets.py): its move in each position, as `bot.step` gives it on a state
that starts there.

    import pyspiel, quixo_solver.openspiel
    from open_spiel.python.algorithms import mcts
    from quixo_solver.openspiel.scoring import score_bot
    from quixo_solver.tournament.position_sets import PositionSet

    found = PositionSet.load("benchmarks/data/sets/quixo-4x4.json")
    game = pyspiel.load_game("python_quixo(size=4,players=2)")
    bot = mcts.MCTSBot(game, 2, 1000, mcts.RandomRolloutEvaluator(1, np.random.default_rng(1)))
    score_bot(game, bot, found)     # mistakes, optimal moves, plies lost, by stage
    score_bot(game, [pyspiel.make_uniform_random_bot(p, 1) for p in (0, 1)], found)

A bot made for one player id (OpenSpiel's C++ bots are) is given as a list of bots, one per
player id: each position is played by the bot of the player to move there.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pyspiel

from ..rules.baseboard import BaseBoard
from ..tournament.position_sets import PositionSet, score
from ..variants import VariantError
from .game import QuixoGame


def score_bot(game: QuixoGame, bot: pyspiel.Bot | Sequence[pyspiel.Bot],
              position_set: PositionSet) -> dict[str, Any]:
    """The bot's score on the set (`position_sets.score`): one bot for every position, or a
    bot per player id; `game` is the game the bots were made for, of the set's size and
    players."""
    bots = list(bot) if isinstance(bot, Sequence) else None
    if bots is not None and len(bots) != game.num_players():
        raise ValueError(f"give one bot for every player ({game.num_players()}), not "
                         f"{len(bots)}")
    if (game.size, game.variant.players) != (position_set.size, position_set.players):
        raise VariantError(f"the set {position_set.name} is of {position_set.size}x"
                           f"{position_set.size} with {position_set.players} players, not "
                           f"the bot's game")

    def choose(board: BaseBoard) -> str:
        state = game.state_at(board)
        player: Any = bot if bots is None else bots[state.current_player()]
        action = player.step(state)
        return str(state.action_to_string(state.current_player(), action))

    return score(position_set, choose)
