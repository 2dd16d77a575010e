"""Qwixx as a PettingZoo AEC environment for 2 to 5 players, in the style of PettingZoo's
classic games.

| Import             | `from qwixx_stats.pettingzoo import qwixx_v0`                    |
|--------------------|------------------------------------------------------------------|
| Agents             | `['player_0', ..., 'player_{n-1}']` (the seats, player_0 rolls first) |
| Actions            | Discrete(45): a box of the sheet (44), or pass                   |
| Observation shape  | (46 n + 12,)                                                     |
| Observation values | 0 .. 6                                                           |

`qwixx_v0.env(players=2, render_mode=None)`; `raw_env` takes the same arguments and has no
wrappers (an illegal action raises `IllegalMarkError` there; `env` ends the game instead, -1
for the agent that played it).

**Rules**: those of the conventions (SPEC "Qwixx", the printed lock rule), played by
`qwixx_stats.rules.game.Game` and its `Turn` (`env.unwrapped.game`). The dice are rolled from
the environment's generator, which `reset(seed=...)` seeds.

**Decisions**: every decision of the game is one agent's step. A turn: the active player
rolls; then each player, the active one first and then in seat order, takes the white sum in
one row or passes (action 1); then, unless action 1 ended the game, the active player marks a
white die plus a coloured die in that colour's row, or passes (action 2). An active player who
marked nothing in either takes a penalty. A decision with nothing legal but `pass` is still a
step. Action 1 is simultaneous by the rules: each player decides on the sheets as they were
before anyone's action 1, and sees none of the others' choices of this turn.

**Actions**: action 11 c + b marks box b (0 .. 10, left to right) of row c (0 red, 1 yellow,
2 green, 3 blue): red and yellow run 2 .. 12, green and blue 12 .. 2, so action 0 is red 2
and action 43 blue 2; action 44 is `pass` (no mark). The same action means the same box in
both decisions; the mask allows the white sum in action 1, a white die plus that row's die in
action 2.

**Observation**: a dict; `observation` is a vector of int8 seen from the agent: for each
player, the agent first and then the others in seat order, its 44 boxes (1 marked) and its
penalties (0 .. 4); the 4 rows closed (red, yellow, green, blue); the six dice (white, white,
red, yellow, green, blue: the roll of this turn, the last roll once the game is over); 2 flags
for the decision being taken (action 1, action 2); and the active player, one-hot by seat
counted from the agent. The sheets are those the decision is taken on: before anyone's
action 1 during action 1, after every action 1 during action 2. `action_mask` (int8): 1 for
each legal action of the agent to decide, 0s for the others.

**Rewards**: at the end alone, from the winner's share of the game as the project scores it
(`rules.game.final_share`: 1 for the highest score, shared by a tie, 0 for the others):
`(n share - 1) / (n - 1)`. It is +1 for a lone winner and -1 / (n - 1) for each other player
(two players: +1, -1, and 0 for a tie), so the rewards of a game always sum to 0. Playing to
win rather than for points is the aim the project's strategies are judged by (their win rates;
`win` and `lookahead`): a reward of score difference would pay for running up points in a game
already won. The final scores are in `env.unwrapped.game.scores()`.

**Render modes**: `ansi` (the sheets as `qwixx track` shows them, the roll and the decision
to take), `rgb_array` (the roll and the sheets, drawn with numpy), `human` (prints the text).

>>> env = raw_env(players=2, render_mode="ansi")
>>> env.reset(seed=3)
>>> env.agent_selection, env.unwrapped.decision
('player_0', 'action 1')
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Optional

import numpy as np
import numpy.typing as npt
from pettingzoo import AECEnv

from solverkit import pixels
from solverkit.aec import Observation, TurnBasedEnv, classic_wrappers, environment_metadata
from solverkit.messages import clip

from ..errors import GameError, IllegalMarkError, QwixxError
from ..rules.constants import PENALTIES_TO_END
from ..rules.game import Game, SecondMark, Turn, colour_marks, final_share, white_sum_rows
from ..rules.sheet import COLOURS, LAST_BOX, ROW_NUMBERS, Dice, Sheet, closed_rows, position
from ..track.text import GameText
from ..track.tracker import roll_text

PLAYER_COUNTS = range(2, 6)          # the box is for 2 to 5 players
BOXES = LAST_BOX + 1                 # boxes of a row
MARK_ACTIONS = len(COLOURS) * BOXES
PASS = MARK_ACTIONS                  # the last action: no mark
ACTIONS = MARK_ACTIONS + 1
DICE = 6                             # white, white, red, yellow, green, blue
FACES = 6


def agent_name(seat: int) -> str:
    return f"player_{seat}"


def action_of_mark(colour: str, number: int) -> int:
    """The action that marks `number` in the row of `colour`."""
    return COLOURS.index(colour) * BOXES + position(colour, number)


def mark_of_action(action: int) -> tuple[str, int]:
    """(row, number) of a mark's action (not `pass`)."""
    row, box = divmod(action, BOXES)
    colour = COLOURS[row]
    return colour, ROW_NUMBERS[colour][box]


def check_players(players: object) -> int:
    if isinstance(players, int) and not isinstance(players, bool) and players in PLAYER_COUNTS:
        return players
    raise GameError(f"the Qwixx environment seats 2 to 5 players, not {clip(players)}")


def env(players: int = 2, render_mode: str | None = None) -> AECEnv[str, Observation, Any]:
    """The environment with PettingZoo's classic wrappers (see the module's docstring)."""
    return classic_wrappers(raw_env(players, render_mode))


class raw_env(TurnBasedEnv):
    """Qwixx for `players` players (2 to 5), without wrappers."""

    metadata = environment_metadata("qwixx_v0")
    error_type = QwixxError
    illegal_action_error = IllegalMarkError

    def __init__(self, players: int = 2, render_mode: str | None = None) -> None:
        self.players = check_players(players)
        self.game = Game(players)
        self.turn: Optional[Turn] = None     # None once the game is over
        self.first: list[Optional[str]] = []     # this turn's action 1 so far, by seat
        self.decided = 0                     # action-1 decisions taken this turn
        low, high = observation_bounds(players)
        super().__init__([agent_name(seat) for seat in range(players)], low, high, ACTIONS,
                         render_mode)

    # -- the turn ------------------------------------------------------------------------------
    def _roll(self) -> None:
        faces = [int(face) for face in self.np_random.integers(1, FACES + 1, size=DICE)]
        self.turn = self.game.turn(Dice.of_faces(faces, faces))
        self.first, self.decided = [None] * self.players, 0

    @property
    def decision(self) -> str:
        """`action 1`, `action 2`, or `game over`."""
        if self.turn is None:
            return "game over"
        return "action 1" if self.decided < self.players else "action 2"

    @property
    def seat_to_decide(self) -> int:
        """The seat of the decision to take now."""
        # action 1 from the active player on, in seat order; action 2 the active player's
        return (self.game.active + self.decided) % self.players

    def _sheets(self) -> list[Sheet]:
        """The sheets the decision is taken on."""
        if self.turn is None:
            return self.game.sheets
        return self.turn.after if self.decision == "action 2" else self.turn.start

    def _dice(self) -> Dice:
        return self.turn.dice if self.turn is not None else self.game.history[-1].dice

    def _end_turn(self) -> None:
        assert self.turn is not None
        self.turn.finish()
        if self.game.is_over():
            self.turn = None
        else:
            self._roll()

    # -- the hooks of TurnBasedEnv -------------------------------------------------------------
    def _start(self) -> None:
        self.game = Game(self.players)
        self._roll()

    def _to_decide(self) -> str:
        return agent_name(self.game.active if self.turn is None else self.seat_to_decide)

    def _legal_actions(self) -> list[int]:
        if self.turn is None:
            return []
        seat, dice = self.seat_to_decide, self.turn.dice
        sheet = self._sheets()[seat]
        if self.decision == "action 1":
            marks = [(colour, dice.white_sum) for colour in white_sum_rows(sheet, dice)]
        else:
            marks = colour_marks(sheet, dice)
        return sorted(action_of_mark(*mark) for mark in marks) + [PASS]

    def _describe(self, action: int) -> str:
        if action == PASS:
            return "pass"
        colour, number = mark_of_action(action)
        return f"{number} in {colour}"

    def _play(self, action: int) -> None:
        turn = self.turn
        assert turn is not None             # the mask allows no action once the game is over
        mark = None if action == PASS else mark_of_action(action)
        if self.decision == "action 1":
            row = None if mark is None else mark[0]
            turn.check_first(self.seat_to_decide, row)
            self.first[self.seat_to_decide] = row
            self.decided += 1
            if self.decided == self.players:
                turn.take_first(self.first)
                if turn.ends_with_first:
                    self._end_turn()
            return
        second: SecondMark = mark
        turn.take_second(second)
        self._end_turn()

    def _outcome(self) -> dict[str, float] | None:
        if not self.game.is_over():
            return None
        players, sheets = self.players, self.game.sheets
        rewards = {}
        for seat, sheet in enumerate(sheets):
            share = final_share(sheet, sheets[:seat] + sheets[seat + 1:])
            # 1 for a lone winner, shared by a tie, 0 for the others, made zero-sum
            rewards[agent_name(seat)] = (players * share - 1) / (players - 1)
        return rewards

    def _cut_off(self) -> bool:
        return False        # a game ends: every turn marks a box or adds a penalty

    def _observation(self, agent: str) -> npt.NDArray[np.int8]:
        seat = self.possible_agents.index(agent)
        sheets = self._sheets()
        values: list[int] = []
        for other in range(self.players):
            sheet = sheets[(seat + other) % self.players]
            boxes = [0] * MARK_ACTIONS
            for colour in COLOURS:
                for number in sheet.marks(colour):
                    boxes[action_of_mark(colour, number)] = 1
            values += boxes + [sheet.penalties]
        closed = closed_rows(sheets)
        values += [int(colour in closed) for colour in COLOURS]
        values += list(self._dice())
        values += [int(self.decision == "action 1"), int(self.decision == "action 2")]
        values += [int(other == (self.game.active - seat) % self.players)
                   for other in range(self.players)]
        return np.array(values, dtype=np.int8)

    def _text(self) -> str:
        view = AgentText(self.game, None)
        if self.turn is None:
            return view.sheets(in_turn=False) + "\n" + view.final_text()
        lines = [view.sheets(in_turn=True),
                 f"{agent_name(self.game.active)} rolled {self.turn.dice}: "
                 + roll_text(self.turn.dice, self.game.closed)]
        seat, taken = self.seat_to_decide, self._first_so_far()
        lines.append("action 1 so far: " + (", ".join(taken) or "none"))
        if self.decision == "action 1":
            lines.append(f"{agent_name(seat)} to decide: action 1, the white sum "
                         f"{self.turn.dice.white_sum} in a row, or pass")
        else:
            lines.append(f"{agent_name(seat)} to decide: action 2, a white die and a coloured "
                         "die in that colour's row, or pass")
        return "\n".join(lines)

    def _first_so_far(self) -> list[str]:
        """This turn's action-1 decisions taken so far, in the order they were taken."""
        seats = ((self.game.active + k) % self.players for k in range(self.decided))
        return [f"{agent_name(seat)} {self.first[seat] or 'no mark'}" for seat in seats]

    def _image(self) -> npt.NDArray[np.uint8]:
        deciding = None if self.turn is None else self.seat_to_decide
        return picture(self._sheets(), self._dice(), deciding)


class AgentText(GameText):
    """The tracker's text of a game, its seats named as the agents are."""

    def name(self, seat: int) -> str:
        return agent_name(seat)


def observation_bounds(players: int) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int8]]:
    """The lowest and highest value of each number of an observation (see the module's
    docstring)."""
    sheets_low = [0] * (MARK_ACTIONS + 1) * players               # boxes, penalties
    sheets_high = ([1] * MARK_ACTIONS + [PENALTIES_TO_END]) * players
    flags = 2 + players                   # the decision taken, who rolled
    low = sheets_low + [0] * len(COLOURS) + [1] * DICE + [0] * flags
    high = sheets_high + [1] * len(COLOURS) + [FACES] * DICE + [1] * flags
    return np.array(low, dtype=np.int8), np.array(high, dtype=np.int8)


# -- the picture -----------------------------------------------------------------------------

CELL = 14                 # pixels of a box of a sheet
DIE = 22                  # pixels of a die
PIP = 6                   # ... and of a pip, on a grid of 3 x 3 pips 2 pixels in from the edge
MARGIN = 6
ROW_LIGHT = {"red": "#f4b6b6", "yellow": "#f7e59a", "green": "#b5dfb8", "blue": "#b3c8ef"}
ROW_DARK = {"red": "#c1272d", "yellow": "#d4a20b", "green": "#218a3c", "blue": "#1f55b5"}
DIE_FACES = {"white": "#fafafa", **ROW_DARK}
PAPER = pixels.colour("#ffffff")
INK = pixels.colour("#202020")
TABLE = pixels.colour("#d9d2c3")
CLOSED = pixels.colour("#8a8a8a")
DECIDING = pixels.colour("#ff8c00")
# where a face's pips lie on a 3 x 3 grid (row, column)
PIPS = {1: ((1, 1),), 2: ((0, 0), (2, 2)), 3: ((0, 0), (1, 1), (2, 2)),
        4: ((0, 0), (0, 2), (2, 0), (2, 2)), 5: ((0, 0), (0, 2), (1, 1), (2, 0), (2, 2)),
        6: ((0, 0), (0, 2), (1, 0), (1, 2), (2, 0), (2, 2))}


@lru_cache(maxsize=None)
def _box_marks() -> tuple[pixels.Mask, pixels.Mask]:
    """A cross (a marked box) and a pip."""
    return pixels.cross_mask(CELL - 4, 2), pixels.disc_mask(PIP)


def picture(sheets: list[Sheet], dice: Dice, deciding: Optional[int]) -> pixels.Picture:
    """The roll above the sheets, one under the other: each row's 11 boxes and its lock box
    (crossed when marked; grey when the row is closed), then the 4 penalty boxes; the sheet of
    the player to decide framed."""
    sheet_height = (len(COLOURS) + 1) * CELL
    width = 2 * MARGIN + (BOXES + 1) * CELL
    height = 2 * MARGIN + DIE + len(sheets) * (sheet_height + MARGIN)
    image = pixels.canvas(height, width, TABLE)
    cross, pip = _box_marks()
    for index, (name, face) in enumerate(zip(("white", "white", *COLOURS), dice)):
        left = MARGIN + index * (DIE + 4)
        pixels.fill_rectangle(image, MARGIN, left, DIE, DIE, pixels.colour(DIE_FACES[name]))
        ink = INK if name == "white" else PAPER
        for row, column in PIPS[face]:
            pixels.paint_mask(image, MARGIN + 2 + row * PIP, left + 2 + column * PIP, pip, ink)
    for seat, sheet in enumerate(sheets):
        top = 2 * MARGIN + DIE + seat * (sheet_height + MARGIN)
        if seat == deciding:
            pixels.fill_rectangle(image, top - 2, MARGIN - 2, sheet_height + 4,
                                  (BOXES + 1) * CELL + 4, DECIDING)
        pixels.fill_rectangle(image, top, MARGIN, sheet_height, (BOXES + 1) * CELL, PAPER)
        for row, colour in enumerate(COLOURS):
            marked = {position(colour, number) for number in sheet.marks(colour)}
            for box in range(BOXES + 1):     # the last box is the lock's
                y, x = top + row * CELL, MARGIN + box * CELL
                closed = box == BOXES and colour in sheet.closed
                fill = CLOSED if closed else pixels.colour(ROW_LIGHT[colour])
                pixels.fill_rectangle(image, y + 1, x + 1, CELL - 2, CELL - 2, fill)
                if box in marked or (box == BOXES and sheet.is_locked(colour)):
                    pixels.paint_mask(image, y + 2, x + 2, cross, INK)
        for penalty in range(PENALTIES_TO_END):
            y = top + len(COLOURS) * CELL
            x = MARGIN + (BOXES + 1 - PENALTIES_TO_END + penalty) * CELL
            pixels.fill_rectangle(image, y + 1, x + 1, CELL - 2, CELL - 2, CLOSED)
            if penalty < sheet.penalties:
                pixels.paint_mask(image, y + 2, x + 2, cross, INK)
    return image
