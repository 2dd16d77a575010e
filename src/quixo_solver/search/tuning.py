"""Tuning the evaluation's weights by the Texel method: the chance that the player to move
wins is modelled as sigmoid(evaluation / scale), and the weights that make the model fit a set
of labelled positions best (the least cross-entropy) are found by logistic regression, with
numpy. The evaluation is linear in the weights (weights.features), so the fit is a convex
problem: Newton's method finds its optimum in a few steps.

A label is the result for the player to move: 1 a win, 1/2 a draw, 0 a loss: from the tables
(exact), or from the end of a game the position was played in (the classic Texel labels: each
position of a game gets the game's result). `tools/tune_weights.py` draws the positions, labels
them and writes a weights file.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import numpy as np
import numpy.typing as npt

from .weights import LIMITS, LINE_COUNTS, Weights, features

@dataclass(frozen=True)
class Fit:
    """The result of a fit: the weights (integers), the scale (evaluation points per unit of
    log-odds), and the mean cross-entropy of the rulebook's weights and of the tuned ones."""

    weights: Weights
    scale: float
    loss_before: float
    loss_after: float
    positions: int


def feature_matrix(size: int, positions: Iterable[tuple[int, int]]) -> npt.NDArray[np.float64]:
    """One row of `weights.features` per (mover cubes, opponent cubes)."""
    rows = [features(size, mine, theirs) for mine, theirs in positions]
    return np.array(rows, dtype=np.float64).reshape(len(rows), 2 * LINE_COUNTS + 4)


def cross_entropy(matrix: npt.NDArray[np.float64], labels: npt.NDArray[np.float64],
                  log_odds_weights: npt.NDArray[np.float64]) -> float:
    """The mean cross-entropy of the labels under sigmoid(matrix @ weights)."""
    z = matrix @ log_odds_weights
    # log(1 + e^z) computed stably
    softplus = np.logaddexp(0.0, z)
    return float(np.mean(softplus - labels * z))


def fit_log_odds(matrix: npt.NDArray[np.float64], labels: npt.NDArray[np.float64],
                 ridge: float = 1e-6, steps: int = 50) -> npt.NDArray[np.float64]:
    """The weights w that minimise the mean cross-entropy of sigmoid(matrix @ w) against the
    labels (plus a tiny ridge that keeps the problem well posed when a feature never
    varies), by Newton's method."""
    count, width = matrix.shape
    w = np.zeros(width)
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(matrix @ w)))
        gradient = matrix.T @ (p - labels) / count + ridge * w
        hessian = (matrix.T * (p * (1 - p))) @ matrix / count + ridge * np.eye(width)
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.max(np.abs(step)) < 1e-10:
            break
    return w


def to_weights(size: int, log_odds_weights: npt.NDArray[np.float64],
               scale: float) -> Weights:
    """Integer weights of `scale` evaluation units per unit of log-odds, clipped to the
    kernel's bounds; line weights of counts a board of this size never evaluates (a full
    line ends the game) are 0."""
    scaled = log_odds_weights * scale
    for unused in range(size - 1, LINE_COUNTS):
        scaled[unused] = scaled[LINE_COUNTS + unused] = 0
    limits = [LIMITS["line"]] * (2 * LINE_COUNTS) + [LIMITS["ends"]] * 2 + [LIMITS["cube"],
                                                                           LIMITS["tempo"]]
    return Weights.from_vector(np.clip(np.round(scaled), -np.array(limits), np.array(limits)))


def tune(size: int, positions: list[tuple[int, int]], labels: list[float]) -> Fit:
    """Fit the weights of one board size to labelled positions (see the module docstring)."""
    if len(positions) != len(labels) or not positions:
        raise ValueError("give as many labels as positions, and at least one")
    matrix = feature_matrix(size, positions)
    target = np.array(labels, dtype=np.float64)
    if np.any((target < 0) | (target > 1)):
        raise ValueError("labels are results from 0 (a loss) to 1 (a win)")
    fitted = fit_log_odds(matrix, target)
    # the unit of the tuned scores: as many evaluation points per unit of log-odds as the
    # rulebook's weights give when they fit these positions best, so that a score means
    # what it meant to the search's other numbers (draws at 0, the evaluation's limit)
    before = Weights()
    scale = _best_scale(matrix, target, before.vector())
    weights = to_weights(size, fitted, scale)
    return Fit(weights, scale, cross_entropy(matrix, target, before.vector() / scale),
               cross_entropy(matrix, target, weights.vector() / scale), len(positions))


def _best_scale(matrix: npt.NDArray[np.float64], labels: npt.NDArray[np.float64],
                vector: npt.NDArray[np.float64]) -> float:
    """The scale that fits fixed weights best (Texel's K), by a search over its logarithm:
    the fair way to compare other weights' cross-entropy with a fit's."""
    candidates = np.exp(np.linspace(np.log(1.0), np.log(10000.0), 400))
    losses = [cross_entropy(matrix, labels, vector / scale) for scale in candidates]
    return float(candidates[int(np.argmin(losses))])
