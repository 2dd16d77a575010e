"""Moves as integer actions: the one numbering that every game-AI framework adapter uses
(OpenSpiel, PettingZoo, Gymnasium), so that action i is the same move in all of them.

It is the engine's own numbering. Two players: action i is move i of `geometry.moves(N)`, the
(source, target) squares ordered by source square, then by target square, squares counted
from a1 = 0 along rank 1, then along rank 2 and up (rules/geometry.py). On 5x5, actions 0, 1,
2, 3 are a1e1, a1a5, b1a1, b1e1, and the last, 43, is e5a5. Four players: the four-player
kernel's move codes (teams/_team_rules.pxd): action 2i is move i with the dot kept at the
mover (`a1e1`), 2i + 1 the same move with the dot turned to the team-mate (`a1e1+`), and the
last action, 2 * len(moves), is `pass`.

    board size          3    4    5
    two players        20   32   44
    four players       41   65   89

>>> from quixo_solver import Board
>>> board = Board(size=3)
>>> legal_actions(board)[:3], move_of_action(3, 2, 0), action_of_move(3, "a1a3")
([0, 1, 2], Move.from_text('a1c1'), 1)
>>> action_count(5, 4), move_of_action(5, 4, 3), move_of_action(5, 4, 88)
(89, TeamMove.from_text('a1a5+'), TeamMove.from_text('pass'))
"""
from __future__ import annotations

from functools import lru_cache
from numbers import Integral
from typing import Union

from solverkit.messages import clip

from ..errors import MoveError
from ..rules import geometry
from ..rules.baseboard import BaseBoard, check_board
from ..rules.board import Move, move_between
from ..rules.notation import square_name
from ..teams.board import TeamMove
from ..variants import find_variant

AnyMove = Union[Move, TeamMove]
DOT_CHOICES = (False, True)     # a four-player move keeps the dot (2i) or turns it (2i + 1)


class ActionError(MoveError):
    """An action number that is not one of the game's actions (0 .. action_count - 1)."""


def check_players(players: int) -> int:
    """2 or 4 (the players of a Quixo game), else VariantError."""
    return find_variant(players).players


def _checked_moves(size: int, players: int) -> tuple[AnyMove, ...]:
    """Every action's move, by action number, for a board size and players checked first
    (BoardSizeError, VariantError)."""
    return _moves(geometry.check_size(size), check_players(players))


@lru_cache(maxsize=None)
def _moves(size: int, players: int) -> tuple[AnyMove, ...]:
    squares = geometry.moves(size)
    if players == 2:
        return tuple(move_between(size, source, target) for source, target in squares)
    return tuple(TeamMove(square_name(size, source), square_name(size, target), to_mate)
                 for source, target in squares for to_mate in DOT_CHOICES) + (TeamMove.null(),)


@lru_cache(maxsize=None)
def _numbers(size: int, players: int) -> dict[AnyMove, int]:
    """The action number of every move."""
    return {move: action for action, move in enumerate(_checked_moves(size, players))}


@lru_cache(maxsize=None)
def _kernel_moves(size: int, players: int) -> tuple[object, ...]:
    """Every action's move as the board's rules kernel lists it, by action number (the keys
    of _kernel_numbers, in their order)."""
    return tuple(_kernel_numbers(size, players))


@lru_cache(maxsize=None)
def _kernel_numbers(size: int, players: int) -> dict[object, int]:
    """The action number of every move as the board's rules kernel lists it: (source,
    target) squares, with the dot's choice for four players, None for a pass."""
    squares = geometry.moves(size)
    if players == 2:
        return {pair: action for action, pair in enumerate(squares)}
    numbers: dict[object, int] = {(source, target, to_mate): 2 * index + to_mate
                                  for index, (source, target) in enumerate(squares)
                                  for to_mate in DOT_CHOICES}
    numbers[None] = 2 * len(squares)
    return numbers


def action_count(size: int, players: int = 2) -> int:
    """How many actions the game of this board size and number of players has."""
    return len(_checked_moves(size, players))


def check_action(size: int, players: int, action: object) -> int:
    """`action` as an int (a numpy integer too) if it is one of the game's action numbers,
    else ActionError."""
    count = action_count(size, players)
    # ints and numpy integers (numbers.Integral), not bools, floats or text
    number = int(action) if isinstance(action, Integral) and not isinstance(action, bool) else -1
    if 0 <= number < count:
        return number
    raise ActionError(f"an action of {players}-player Quixo on {size}x{size} is a whole "
                      f"number 0 .. {count - 1}, not {clip(action)}")


def move_of_action(size: int, players: int, action: object) -> AnyMove:
    """The move (Move, or TeamMove for four players) of an action number."""
    return _checked_moves(size, players)[check_action(size, players, action)]


def action_of_move(size: int, move: AnyMove | str, players: int = 2) -> int:
    """The action number of a move (a Move, a TeamMove, or its text: `a1e1`, `a1e1+`, `pass`
    for `players` players); MoveError if it is no move of the board."""
    if isinstance(move, str):
        move = (Move if check_players(players) == 2 else TeamMove).from_text(move)
    players = 2 if isinstance(move, Move) else 4
    number = _numbers(geometry.check_size(size), players).get(move)
    if number is None:
        raise MoveError(f"{clip(move)} is not a move on a {size}x{size} board")
    return number


def action_text(size: int, players: int, action: object) -> str:
    """The move of an action in the notation of the conventions: `a1e1`, `a1e1+`, `pass`."""
    return str(move_of_action(size, players, action))


def play_legal_action(board: BaseBoard, action: int) -> None:
    """Play an action that the caller took from the board's legal actions (an observation's
    mask), without checking it again: an adapter's step, thousands a second."""
    players = board.players
    board._push_legal(_moves(board.size, players)[action],
                      _kernel_moves(board.size, players)[action])


def legal_actions(board: BaseBoard) -> list[int]:
    """The action numbers of the board's legal moves, ascending; none once the game is
    over."""
    check_board(board)
    numbers = _kernel_numbers(board.size, board.players)
    # the kernel's own moves rather than move objects: making a TeamMove for each of them
    # would cost ten times the kernel's call, and agents ask for them at every step
    return sorted(numbers[raw] for raw in board._legal_raw())
