"""The tablebase generator's pure-Python twin: solves a small set of classes by plain rounds.

Round n gives "win in n" to every undecided position with a child lost in n - 1, and
"loss in n" to every undecided position whose children are all won, the longest in n - 1.
Moves come from the pure-Python rules. Slow (use it on 3x3 classes with many cubes), and
obviously right: it is the rule of SPEC "Plies" applied as written.
"""
from __future__ import annotations

from ...rules import _rules_twin
from .. import values


def solve_classes(size: int, fewest_cubes: int) -> dict[tuple[int, int], int]:
    """Value codes of every (mover, opponent) position with at least ``fewest_cubes`` cubes
    (a set closed under moves, since no move removes a cube)."""
    cells = size * size
    positions = []
    for arrangement in range(3 ** cells):
        mover = opponent = 0
        for sq in range(cells):
            arrangement, cell = divmod(arrangement, 3)
            mover |= (cell == 1) << sq
            opponent |= (cell == 2) << sq
        if bin(mover | opponent).count("1") >= fewest_cubes:
            positions.append((mover, opponent))
    code: dict[tuple[int, int], int] = {}
    children = {}
    for position in positions:
        status = _rules_twin.position_status(size, *position)
        if status:
            code[position] = values.encode(values.WIN if status > 0 else values.LOSS, 0)
        else:
            children[position] = [_rules_twin.play_move(size, *position, source, target)
                                  for source, target in _rules_twin.legal_moves(size, *position)]
    values.by_rounds(children, code, {})
    return {position: code.get(position, 0) for position in positions}
