"""How long the engine thinks when it plays on a clock, as chess engines decide from UCI's
wtime/winc: from its remaining time, its increment and how many moves it is likely to make.

Every move gets two limits:
- `soft`: no new iteration of the deepening starts after it (an iteration that starts late
  would mostly be thrown away when the deadline cuts it);
- `hard`: the kernel's deadline, which stops the search inside an iteration.

With R the time left, I the increment, o the overhead of a move outside the search (Python,
clearing the transposition table, probing the tables at the root, the operating system taking
the core away: measured, see `TimeManager`) and m the player's expected moves to come:

    reserve = 2 o + RESERVE_MOVES * max(0, o + PANIC_SEARCH - I)
    free    = R - o - reserve
    soft    = free / m + INCREMENT_SHARE * I
    hard    = min(HARD_FACTOR * soft, MAX_SHARE * free)

Why the clock never runs out: a move costs at most hard + o (the search stops at its
deadline, o bounds the rest), and hard <= free / 2, so the clock after the move is at least
R - o - (R - o - reserve) / 2 >= reserve whenever R >= reserve + o: it never sinks below the
reserve while the engine still searches. Below that (`panic`) it searches to depth 1 with a
PANIC_SEARCH deadline, and the reserve pays for RESERVE_MOVES such moves even if each took
its whole deadline and the whole overhead estimate; a real one takes a millisecond or two, so
the reserve lasts several times longer, and with an increment of at least that cost for ever.
On 1 s and no increment (o = 5 ms: a reserve of 0.29 s), games of 200 plies, 100 moves of each
player, end with about 0.27 s on each clock (tests/test_time_allocation.py plays them). The
guarantee holds while a move's overhead stays within the estimate: a machine that stalls the
engine for longer than its reserve can still make it lose on time, and without an increment
a long enough game runs any clock down.

A proven result (win or loss found, a table's answer) or a single legal move is played at
once; that is the solvers' business (`Solver.solve(board, clock=...)`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from solverkit.messages import clip

from ..errors import LimitError


MIN_OVERHEAD = 0.005     # s: a move costs at least this outside the search, however fast
FIRST_OVERHEAD = 0.02    # s: assumed before a move has been measured (see prepare())
OVERHEAD_MARGIN = 1.5    # the measured overhead is scaled by this: the next move may be slower
OVERHEAD_DECAY = 0.9     # a slow move counts less with each move after it
PANIC_SEARCH = 0.002     # s: the deadline of a depth-1 search (5x5: about 1 ms)
MIN_DEADLINE = 0.0005    # s: the shortest deadline given to the kernel
RESERVE_MOVES = 40       # moves the reserve pays for when the clock is nearly out
MIN_MOVES_LEFT = 8       # the fewest moves to come it plans for (a game may go on)
BASE_PLIES = 12          # plies left beyond one per blank cube (see moves_left)
INCREMENT_SHARE = 0.75   # of the increment spent on the move it follows
HARD_FACTOR = 3.0        # the deadline, in soft limits: room for an iteration that runs long
MAX_SHARE = 0.5          # of the free time one move may take at most (the proof above)


@dataclass(frozen=True)
class Allotment:
    """The limits of one move: `soft` (start no iteration after it), `hard` (the deadline) in
    seconds; `panic`: search to depth 1 only, the clock is nearly out."""

    soft: float
    hard: float
    panic: bool = False


def check_clock(clock: object, increment: object) -> tuple[float, float]:
    """(clock, increment) as floats: the clock positive, the increment not negative."""
    for name, value in (("clock", clock), ("increment", increment)):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise LimitError(f"the {name} must be a number of seconds, not {clip(value)}")
        if not math.isfinite(value) or value < 0:
            raise LimitError(f"the {name} must be a finite number of seconds, not negative, "
                             f"not {value!r}")
    assert isinstance(clock, (int, float)) and isinstance(increment, (int, float))
    if clock <= 0:
        raise LimitError("the clock has run out (0 seconds left): there is no time to move")
    return float(clock), float(increment)


def moves_left(board: Any) -> int:
    """The moves the player to move is likely still to make: BASE_PLIES plus one ply per
    blank cube, shared by the players (each of four players moves every fourth ply), at least
    MIN_MOVES_LEFT. Engine games mostly end before the blanks run out (5x5 games at depth 4
    from 4 random plies end after about 20 plies with 8 blanks left), so this is on the long
    side: the engine spends a little less early, never more than it should."""
    cells = str(board).split()[0]
    players: int = board.players
    return max(MIN_MOVES_LEFT, math.ceil((BASE_PLIES + cells.count(".")) / players))


def allot(remaining: float, increment: float, moves: int, overhead: float) -> Allotment:
    """The limits of a move with `remaining` seconds on the clock, `increment` after it,
    `moves` expected moves to come (this one included) and `overhead` seconds spent outside
    the search (the formulas are in the module's docstring)."""
    moves = max(moves, 1)
    reserve = 2 * overhead + RESERVE_MOVES * max(0.0, overhead + PANIC_SEARCH - increment)
    free = remaining - overhead - reserve
    if free <= PANIC_SEARCH:
        # depth 1 takes about a millisecond; the deadline only guards a slow one
        hard = min(PANIC_SEARCH, max(MIN_DEADLINE, (remaining - overhead) / 4))
        return Allotment(hard, hard, panic=True)
    soft = free / moves + INCREMENT_SHARE * increment
    hard = min(HARD_FACTOR * soft, MAX_SHARE * free)
    return Allotment(min(soft, hard), hard)


class TimeManager:
    """The allotment of each move of one solver, and the overhead it learns from its moves:
    the time a move took beyond its search, scaled by OVERHEAD_MARGIN, the largest recent one
    (decaying by OVERHEAD_DECAY a move), never below MIN_OVERHEAD."""

    def __init__(self) -> None:
        self.overhead = FIRST_OVERHEAD
        self._measured = False

    def allot(self, board: Any, remaining: float, increment: float) -> Allotment:
        return allot(remaining, increment, moves_left(board), self.overhead)

    def record(self, elapsed: float, searched: float) -> None:
        """A move took `elapsed` seconds in all, `searched` of them in a search that stopped by
        itself (an overrun of the deadline counts as overhead: pass min(searched, hard))."""
        sample = max(0.0, elapsed - searched) * OVERHEAD_MARGIN
        previous = self.overhead * OVERHEAD_DECAY if self._measured else 0.0
        self.overhead = max(MIN_OVERHEAD, sample, previous)
        self._measured = True
