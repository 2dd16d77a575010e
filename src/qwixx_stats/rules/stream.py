"""The random stream of the simulated games: SplitMix64, the same generator as the Cython
kernel's (`_stream.pxd`), so that a seed gives the same rolls in both."""
from __future__ import annotations

from solverkit.messages import clip

from ..errors import SimulationError
from .sheet import Dice, is_whole

MASK64 = (1 << 64) - 1


class SplitMix64:
    """The simulator's random stream (the same generator as the Cython kernel)."""

    def __init__(self, state: int):
        if not is_whole(state):
            raise SimulationError(f"a random stream starts from a whole number, not {clip(state)}")
        self.state = state & MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer 0..n-1 (n < 2**32)."""
        return ((self.next() >> 32) * n) >> 32

    def roll(self) -> Dice:
        return Dice(*(1 + self.below(6) for _ in range(6)))

    @classmethod
    def for_game(cls, seed: int, game: int) -> "SplitMix64":
        mixer = cls(seed)
        mixer.state = (mixer.state + 0x9E3779B97F4A7C15 * (game + 1)) & MASK64
        return cls(mixer.next())
