"""An agent's game of Quixo as an episode: its seats, how long it may run, what it pays.

>>> from quixo_solver import Board
>>> seats(2), seats(4)
(('X', 'O'), ('X1', 'O1', 'X2', 'O2'))
>>> board = Board("XX./O../O.. X")
>>> board.push("c1c3")                # X completes the top row
>>> final_rewards(board)
{'X': 1.0, 'O': -1.0}
"""
from __future__ import annotations

from ..limits import whole_number
from ..rules.baseboard import BaseBoard
from ..tournament.settings import MAX_PLIES as MATCH_PLY_LIMIT, MatchSettings
from ..variants import find_variant

# Quixo has no draw rule: two players who push cubes back and forth never end their game, and
# a drawn 5x5 position under best play goes on for ever. An episode is therefore cut off
# (truncated, not terminated: nobody won) after this many plies, the ply limit of `quixo
# match` (MatchSettings.max_plies), so an agent's games end as the engine matches do. It is
# above the longest win of the whole 5x5 game under best play (169 plies, docs/solved.md) and
# far above the length of random games (of 300 random 5x5 games, the longest took 132 plies;
# 4x4: 65; the four-player 5x5 game: 102), so it cuts off only games that go round in circles.
MAX_PLIES: int = MatchSettings.max_plies


def seats(players: int) -> tuple[str, ...]:
    """The seats of a game in turn order, as the boards name the player to move: X, O; or X1,
    O1, X2, O2. The agents of the environments are named after them."""
    return find_variant(players).player_names


def check_max_plies(max_plies: object) -> int:
    """A ply limit 1 .. the largest a match takes (LimitError otherwise)."""
    return whole_number("max_plies", max_plies, 1, MATCH_PLY_LIMIT)


def final_rewards(board: BaseBoard) -> dict[str, float] | None:
    """Every seat's reward once the game is over, None while it goes on: +1 for each player
    of the team that won, -1 for each of the other team (team-mates share their team's
    reward)."""
    winner = board.winner()
    if winner is None:
        return None
    return {seat: 1.0 if seat[0] == winner else -1.0
            for seat in seats(board.players)}
