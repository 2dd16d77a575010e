"""A cmd= setting's program as a match plays it (`ExternalEngine`): started before its first
game, told of each new game (`ucinewgame`), sent the game as `position` and the setting's limits
as `go` for each move.

The limits go to the program with each `go` (`movetime`, `depth`, `nodes`, the clocks `xtime`
... in milliseconds), `hash` as its Hash option. Each worker runs its own copy of the program
for all its games. A program that crashes or does not answer in time (past its clock, or past
its `time` per move plus TIME_MARGIN; a move with only a depth or node limit may take
UNTIMED_MOVE_SECONDS) loses that game (engine_process.EngineFailure says which), and the match
goes on with the program started again.
"""
from __future__ import annotations

from .clock import GameClock
from .engine_process import EngineFailure, EngineProcess, describe_command
from .settings import EngineSetting, MatchSettings, program_words
from ..errors import MatchError

TIME_MARGIN = 1.0             # seconds a program may answer after its time per move
UNTIMED_MOVE_SECONDS = 300.0  # a program's move with a depth or node limit alone
HASH_OPTION = "Hash"


class ExternalEngine:
    """A cmd= setting's program, as one process (a worker) plays it: started before its first
    game and again after a failure, told of each new game, asked for each move."""

    def __init__(self, setting: EngineSetting, label: str) -> None:
        assert setting.cmd is not None
        self.setting = setting
        self.process = EngineProcess(program_words(setting.cmd), label)

    def start(self) -> None:
        """Run the program, greet it and set its Hash (EngineFailure if it cannot)."""
        self.process.start()
        if self.process.has_option(HASH_OPTION):
            self.process.set_option(HASH_OPTION, int(self.setting.hash))
            self.process.ready()

    def new_game(self) -> None:
        """Before a game: start the program if it is not running, then `ucinewgame`."""
        if not self.process.alive:
            self.start()
        self.process.new_game()

    def move(self, position: str, go: str, seconds: float) -> str:
        """The program's move (text, unchecked) for a `position` and `go` command, within
        `seconds` (EngineFailure otherwise)."""
        return self.process.play(position, go, seconds).move

    def close(self) -> None:
        self.process.close()


def check_programs(settings: MatchSettings) -> dict[str, str | None]:
    """Start each cmd= program once and end it, before a match's games (MatchError naming
    what went wrong if one cannot be run or greeted); returns each program's `id name`."""
    names: dict[str, str | None] = {}
    for name, setting in settings.engines.items():
        if setting.cmd is None:
            continue
        engine = ExternalEngine(setting, f"engine {name} ({describe_command(setting.cmd)})")
        try:
            engine.start()
        except EngineFailure as failure:
            raise MatchError(f"{failure}") from None
        finally:
            engine.close()
        names[name] = engine.process.name
    return names


def position_command(settings: MatchSettings, history: list[str], start: str | None = None
                     ) -> str:
    """`position startpos size N players P [moves ...]`: the game from its empty board, or
    `position START [moves ...]` from its `start` position."""
    words = (["position", *start.split()] if start is not None else
             ["position", "startpos", "size", str(settings.size), "players",
              str(settings.players)])
    if history:
        words += ["moves", *history]
    return " ".join(words)


def go_command(setting: EngineSetting, clocks: GameClock) -> str:
    """`go` with a setting's limits: every clocked player's time and increment (xtime, xinc,
    ... in milliseconds), movetime, depth, nodes."""
    words = ["go"]
    if setting.clock is not None:
        for player, control in clocks.controls.items():
            words += [f"{player.lower()}time", str(max(0, int(clocks.left(player) * 1000))),
                      f"{player.lower()}inc", str(int(round(control.increment * 1000)))]
    if setting.time is not None:
        words += ["movetime", str(max(1, int(round(setting.time * 1000))))]
    if setting.depth is not None:
        words += ["depth", str(setting.depth)]
    if setting.nodes is not None:
        words += ["nodes", str(setting.nodes)]
    return " ".join(words)


def answer_seconds(setting: EngineSetting, clocks: GameClock, player: str) -> float:
    """How long a program may take over a move: its clock's time left, its time per move
    plus TIME_MARGIN, or UNTIMED_MOVE_SECONDS."""
    if setting.clock is not None:
        return max(clocks.left(player), 0.0)
    if setting.time is not None:
        return setting.time + TIME_MARGIN
    return UNTIMED_MOVE_SECONDS
