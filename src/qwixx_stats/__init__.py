"""Exact dice probabilities and expected-value tables for the dice game Qwixx.

Not built yet: see the project's issue tracker. The package exists so that the distribution's
layout is final."""

__version__ = "0.1.0"
__all__: list[str] = []
