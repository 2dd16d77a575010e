"""The pure-Python twin of the search kernel's evaluation (_search.pyx, Searcher.evaluate):
the test oracle that Hypothesis compares it with (tests/test_weights.py)."""
from .weights import Weights, features


def evaluate(size: int, weights: Weights, mine: int, theirs: int) -> int:
    """The kernel's evaluate: the weighted sum of the position's features, rounded."""
    return int(round(float(features(size, mine, theirs) @ weights.vector())))
