"""The four-player generator's pure-Python twin: one tier solved by plain rounds.

Round n gives "win in n" to every undecided position with a child lost in n - 1, and
"loss in n" to every undecided position whose children are all known wins, the longest in
n - 1: the rule of SPEC "Plies" applied as written, to the team to move. Moves come from the
pure-Python team rules (_team_rules_twin); children in the tier with one more cube are asked
of `next_value`. Slow (use it on tiers of a few thousand positions) and obviously right.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import combinations, product

from ...tablebase import values
from .. import _team_rules_twin as rules

Roles = tuple[int, int, int, int]


def side_positions(size: int, team_count: int, other_count: int) -> Iterator[Roles]:
    """Every raw position of a side: the mover's team holds `team_count` cubes, each with its
    dot at the mover or the mate, and the other team `other_count`."""
    cells = range(size * size)
    for team in combinations(cells, team_count):
        rest = [sq for sq in cells if sq not in team]
        for others in combinations(rest, other_count):
            for team_dots in product((0, 2), repeat=team_count):
                for other_dots in product((1, 3), repeat=other_count):
                    masks = [0, 0, 0, 0]
                    for sq, role in zip(team + others, team_dots + other_dots):
                        masks[role] |= 1 << sq
                    yield masks[0], masks[1], masks[2], masks[3]


def solve_tier(size: int, team_count: int, other_count: int,
               next_value: Callable[[Roles], int] | None) -> dict[Roles, int]:
    """The value code of every raw position of the tier's sides, for the team to move."""
    sides = {(team_count, other_count), (other_count, team_count)}
    positions = [p for t, u in sorted(sides) for p in side_positions(size, t, u)]
    cubes = team_count + other_count
    code: dict[Roles, int] = {}
    children: dict[Roles, list[Roles]] = {}
    for position in positions:
        status = rules.position_status(size, position)
        if status:
            code[position] = values.encode(values.WIN if status > 0 else values.LOSS, 0)
        else:
            children[position] = [rules.play_move(size, position, move)
                                  for move in rules.legal_moves(size, position)]
    known: dict[Roles, int] = {}
    if next_value is not None:
        for kids in children.values():
            for kid in kids:
                if bin(kid[0] | kid[1] | kid[2] | kid[3]).count("1") > cubes:
                    known[kid] = next_value(kid)
    values.by_rounds(children, code, known)
    return {position: code.get(position, values.encode(values.DRAW, None)) for position in positions}
