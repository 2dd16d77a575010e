"""The statistics of an engine match: wins, draws and losses of the first engine, its score
with a 95% interval, and the Elo difference with its error.

Each opening is played twice with the colours swapped, so the two games of a pair are not
independent: an opening that favours one side gives one win to each engine, and a pair's
score varies less than two separate games' would. The error therefore comes from the spread
of the *pair* scores (the pentanomial model of chess engine testing: a pair scores 0, 1/4,
1/2, 3/4 or 1 for the first engine), not from the spread of single games (the trinomial
model, which overstates the error when the openings decide much).

    score  = (W + D/2) / N                  over the games of complete pairs
    se     = sqrt(var(pair scores) / pairs)
    95%    = score +- 1.96 se
    Elo    = -400 log10(1/score - 1)
    error  = 1.96 se * dElo/dscore = 1.96 se * 400 / (ln 10 * score * (1 - score))

A score of 0 or 1 has no finite Elo: it is reported as null with a note.

As fastchess and OpenBench report a match (their public formulas; the code is ours), from the
pair counts LL, LD, WL, DD, WD, WW (engine A's results in the two games of a pair):

    nElo   = (score - 1/2) / sqrt(2 var) * 800 / ln 10        normalized Elo: the t-value of
    error  = 1.96 / sqrt(2 pairs) * 800 / ln 10               the score, in Elo-like units
    LOS    = Phi((score - 1/2) / se)                          likelihood of superiority
    draw ratio = (WL + DD) / pairs                            pairs that score 1/2

and the sequential test (`Sprt`): the generalized log-likelihood ratio of normalized Elo
elo1 against elo0 under the pentanomial model (Michel Van den Bergh, "Comments on normalized
Elo", section 4: the maximum-likelihood distributions of the pair scores whose t-value
(mu - 1/2) / sigma is sqrt(2) elo / (800 / ln 10), found by his fixed-point iteration over a
secular equation). The test accepts H1 (elo1) when the LLR reaches ln((1 - beta) / alpha), H0
(elo0) when it falls to ln(beta / (1 - alpha)). A count of 0 is taken as 0.001, as they do.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, Sequence

from solverkit.messages import clip

from ..errors import MatchError

Z95 = 1.959963984540054    # the two-sided 95% quantile of the normal distribution
NELO_PER_T = 800.0 / math.log(10.0)      # normalized Elo per unit of t-value, per game
PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)     # engine A's score of a pair, by pentanomial bin
PAIR_KINDS = ("LL", "LD", "WL", "DD", "WD", "WW")   # A's two results; WL and DD both score 1/2
EMPTY_BIN = 1e-3           # what an empty bin counts for in the LLR (as fastchess, OpenBench)
REASONS = ("line", "time", "repetition", "move limit", "crash", "illegal move", "tables")
FORFEITS = ("time", "crash", "illegal move")   # the reasons a game is lost by an engine's fault
VARIANCE_NOTE = ("pentanomial: the variance of the game-pair scores, since each opening is "
                 "played twice with the colours swapped")


def elo(score: float) -> float | None:
    """The Elo difference of an expected score, None at 0 or 1 (unbounded)."""
    if not 0.0 < score < 1.0:
        return None
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0   # + 0.0: no "-0.0" at a score of 1/2


def summarize(records: list[dict[str, Any]], sprt: Sprt | None = None) -> dict[str, Any]:
    """The statistics of a match's game records (dicts with `pair`, `game`, `score_a`,
    `reason` and `loser`, the engine that lost or None), from engine A's point of view.
    Only complete pairs count; `incomplete_pairs` says how many games wait for their twin.
    With `sprt`, the test's state (`Sprt.report`) as "sprt"."""
    by_pair: dict[int, list[dict[str, Any]]] = {}
    for record in records:
        by_pair.setdefault(record["pair"], []).append(record)
    complete = {pair: games for pair, games in by_pair.items() if len(games) == 2}
    games = [game for pair in sorted(complete) for game in complete[pair]]
    wins = sum(1 for game in games if game["score_a"] == 1)
    draws = sum(1 for game in games if game["score_a"] == 0.5)
    losses = sum(1 for game in games if game["score_a"] == 0)
    pair_scores = [(g[0]["score_a"] + g[1]["score_a"]) / 2 for g in complete.values()]
    pentanomial = [0] * 5
    for pair_score in pair_scores:
        pentanomial[round(pair_score * 4)] += 1
    reasons = Counter(game["reason"] for game in games)
    on_time = Counter(game["loser"] for game in games if game["reason"] == "time")
    forfeits = Counter((game["loser"], game["reason"]) for game in games
                       if game["reason"] in FORFEITS)
    stats: dict[str, Any] = {
        "pairs": len(complete), "games": len(games),
        "incomplete_pairs": len(by_pair) - len(complete),
        "wins": wins, "draws": draws, "losses": losses,
        "pentanomial": pentanomial,
        "pair_kinds": pair_kinds(complete.values()),
        "reasons": {reason: reasons.get(reason, 0) for reason in REASONS},
        "losses_on_time": {"A": on_time.get("A", 0), "B": on_time.get("B", 0)},
        "forfeits": {engine: {reason: forfeits.get((engine, reason), 0) for reason in FORFEITS}
                     for engine in ("A", "B")},
        "mean_plies": (round(sum(game["plies"] for game in games) / len(games), 1)
                       if games else None),
        "score": None, "score_error": None, "score_interval_95": None,
        "elo": None, "elo_error_95": None, "elo_interval_95": None,
        "variance": VARIANCE_NOTE, "note": None,
        **pair_statistics(pentanomial, pair_kinds(complete.values()))}
    if sprt is not None:
        stats["sprt"] = sprt.report(pentanomial)
    if not pair_scores:
        stats["note"] = "no complete game pair yet"
        return stats
    count = len(pair_scores)
    score = sum(pair_scores) / count
    error = math.sqrt(sum((s - score) ** 2 for s in pair_scores) / count / count)
    low, high = max(0.0, score - Z95 * error), min(1.0, score + Z95 * error)
    stats.update(score=round(score, 6), score_error=round(error, 6),
                 score_interval_95=[round(low, 6), round(high, 6)])
    difference = elo(score)
    if difference is None:
        who = "won" if score == 1.0 else "lost"
        stats["note"] = (f"engine A {who} every game: the Elo difference is unbounded, "
                         "so it is reported as null")
        return stats
    slope = 400.0 / (math.log(10.0) * score * (1.0 - score))
    bounds = [elo(low), elo(high)]
    stats.update(elo=round(difference, 2), elo_error_95=round(Z95 * error * slope, 2),
                 elo_interval_95=[None if b is None else round(b, 2) for b in bounds])
    if count < 2:
        stats["note"] = "one game pair: the error is not meaningful yet"
    return stats


def pair_kinds(pairs: Any) -> dict[str, int]:
    """How many pairs engine A lost twice (LL), lost and drew (LD), won and lost (WL), drew
    twice (DD), won and drew (WD), won twice (WW); `pairs`: the two records of each pair."""
    kinds: Counter[str] = Counter()
    for games in pairs:
        scores = sorted(game["score_a"] for game in games)
        kinds[{(0.0, 0.0): "LL", (0.0, 0.5): "LD", (0.0, 1.0): "WL", (0.5, 0.5): "DD",
               (0.5, 1.0): "WD", (1.0, 1.0): "WW"}[scores[0], scores[1]]] += 1
    return {kind: kinds.get(kind, 0) for kind in PAIR_KINDS}


def pair_statistics(pentanomial: Sequence[int], kinds: dict[str, int]) -> dict[str, Any]:
    """Normalized Elo with its 95% error, the likelihood of superiority and the draw ratio of
    the pentanomial counts [LL, LD, WL+DD, WD, WW] (None where no pair is played, or where the
    pair scores do not vary)."""
    pairs = sum(pentanomial)
    stats: dict[str, Any] = {"nelo": None, "nelo_error_95": None, "los": None,
                             "draw_ratio": None, "wl_dd_ratio": None}
    if not pairs:
        return stats
    score, variance = _moments(pentanomial)
    stats["draw_ratio"] = round(pentanomial[2] / pairs, 6)
    stats["wl_dd_ratio"] = (round(kinds["WL"] / kinds["DD"], 6) if kinds["DD"] else None)
    stats["los"] = round(likelihood_of_superiority(pentanomial), 6)
    if variance > 0:
        nelo, error = normalized_elo(pentanomial)
        stats.update(nelo=round(nelo, 2), nelo_error_95=round(error, 2))
    return stats


def _moments(pentanomial: Sequence[float]) -> tuple[float, float]:
    """The mean and the variance of a pair's score, from the counts of each bin."""
    pairs = sum(pentanomial)
    score = sum(count * value for count, value in zip(pentanomial, PAIR_SCORES)) / pairs
    variance = sum(count * (value - score) ** 2
                   for count, value in zip(pentanomial, PAIR_SCORES)) / pairs
    return score, variance


def normalized_elo(pentanomial: Sequence[int]) -> tuple[float, float]:
    """(normalized Elo, its 95% error) of pentanomial counts with varying pair scores."""
    pairs = sum(pentanomial)
    score, variance = _moments(pentanomial)
    nelo = (score - 0.5) / math.sqrt(2.0 * variance) * NELO_PER_T
    return nelo, Z95 / math.sqrt(2.0 * pairs) * NELO_PER_T


def likelihood_of_superiority(pentanomial: Sequence[int]) -> float:
    """The probability that engine A is the stronger, Phi((score - 1/2) / se), with se the
    standard error of the mean pair score; 1/2 without any pair, 0 or 1 when the pair scores
    do not vary."""
    pairs = sum(pentanomial)
    if not pairs:
        return 0.5
    score, variance = _moments(pentanomial)
    if variance == 0:
        return 0.5 if score == 0.5 else float(score > 0.5)
    return 0.5 * math.erfc(-(score - 0.5) / math.sqrt(2.0 * variance / pairs))


# -- the sequential probability ratio test --------------------------------------------------------

SPRT_KEYS = ("elo0", "elo1", "alpha", "beta")
MAX_SPRT_ELO = 200.0   # beyond, the fixed point below may start where it has no root
SPRT_RESULTS = ("H1 accepted", "H0 accepted", "continue")


def setting_items(text: str, keys: tuple[str, ...], what: str,
                  usage: str) -> list[tuple[str, str]]:
    """(key, value) of each `key=value` of a setting such as `elo0=0,elo1=10` (separated by
    commas or spaces; keys in any case): MatchError for an unknown key, a missing `=` or a key
    given twice."""
    items: list[tuple[str, str]] = []
    for item in re.split(r"[,\s]+", text.strip()):
        if not item:
            continue
        key, equals, value = item.partition("=")
        key = key.strip().lower()
        if key not in keys or not equals:
            raise MatchError(f"unknown {what} {clip(item)}: use {usage}")
        if any(key == seen for seen, _ in items):
            raise MatchError(f"{key}= is given twice in {clip(text)}")
        items.append((key, value))
    return items


@dataclass(frozen=True)
class Sprt:
    """A sequential test of engine A's normalized Elo: H0 `elo0` against H1 `elo1`, with
    false-positive rate `alpha` and false-negative rate `beta` (see the module docstring)."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        for name in SPRT_KEYS:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) \
                    or not math.isfinite(value):
                raise MatchError(f"the SPRT's {name} must be a finite number, not {clip(value)}")
        if not self.elo0 < self.elo1:
            raise MatchError(f"the SPRT's elo0 must be less than its elo1, not {self.elo0:g} "
                             f"and {self.elo1:g}")
        if not (0 < self.alpha < 1 and 0 < self.beta < 1 and self.alpha + self.beta < 1):
            raise MatchError("the SPRT's alpha and beta must be between 0 and 1, with a sum "
                             f"below 1, not {self.alpha:g} and {self.beta:g}")
        if max(abs(self.elo0), abs(self.elo1)) > MAX_SPRT_ELO:
            raise MatchError(f"the SPRT's elo0 and elo1 must be within +-{MAX_SPRT_ELO:g} "
                             "normalized Elo")

    @classmethod
    def parse(cls, text: str) -> "Sprt":
        """`elo0=0,elo1=10,alpha=0.05,beta=0.05` (alpha and beta default to 0.05)."""
        values: dict[str, float] = {}
        for key, value in setting_items(text, SPRT_KEYS, "SPRT setting",
                                        "elo0=..., elo1=..., alpha=..., beta=... (normalized "
                                        "Elo, pentanomial)"):
            try:
                values[key] = float(value)
            except ValueError:
                raise MatchError(f"the SPRT's {key}= must be a number, not "
                                 f"{clip(value)}") from None
        missing = [key for key in ("elo0", "elo1") if key not in values]
        if missing:
            raise MatchError(f"the SPRT needs {' and '.join(k + '=' for k in missing)} "
                             "(such as elo0=0,elo1=10)")
        return cls(**values)

    def __str__(self) -> str:
        return (f"elo0={self.elo0:g},elo1={self.elo1:g},alpha={self.alpha:g},"
                f"beta={self.beta:g}")

    @property
    def lower(self) -> float:
        """The LLR at or below which H0 is accepted."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        """The LLR at or above which H1 is accepted."""
        return math.log((1.0 - self.beta) / self.alpha)

    def llr(self, pentanomial: Sequence[int]) -> float:
        """The log-likelihood ratio of H1 against H0 after these pentanomial counts [LL, LD,
        WL+DD, WD, WW] (0 before any pair)."""
        if len(pentanomial) != 5 or any(count < 0 for count in pentanomial):
            raise MatchError(f"pentanomial counts are five counts, not {clip(pentanomial)}")
        if not sum(pentanomial):
            return 0.0
        counts = [count if count > 0 else EMPTY_BIN for count in pentanomial]
        total = sum(counts)
        observed = [count / total for count in counts]
        h0, h1 = (most_likely_distribution(observed, math.sqrt(2.0) * elo / NELO_PER_T)
                  for elo in (self.elo0, self.elo1))
        return total * sum(p * (math.log(b) - math.log(a))
                           for p, a, b in zip(observed, h0, h1))

    def result(self, llr: float) -> str:
        """"H1 accepted", "H0 accepted" or "continue"."""
        if llr >= self.upper:
            return SPRT_RESULTS[0]
        if llr <= self.lower:
            return SPRT_RESULTS[1]
        return SPRT_RESULTS[2]

    def decided(self, pentanomial: Sequence[int]) -> bool:
        return self.result(self.llr(pentanomial)) != "continue"

    def report(self, pentanomial: Sequence[int]) -> dict[str, Any]:
        """The test's settings and state, for the match's summary."""
        llr = self.llr(pentanomial)
        return {"elo0": self.elo0, "elo1": self.elo1, "alpha": self.alpha, "beta": self.beta,
                "model": "normalized Elo, pentanomial", "llr": round(llr, 4),
                "fraction": round(llr / self.upper if llr >= 0 else -llr / self.lower, 4),
                "lower_bound": round(self.lower, 4), "upper_bound": round(self.upper, 4),
                "result": self.result(llr)}


def most_likely_distribution(observed: Sequence[float], t: float,
                             reference: float = 0.5) -> list[float]:
    """The distribution of the pair scores (PAIR_SCORES) of largest likelihood for the
    observed frequencies (all positive, summing to 1) among those whose t-value
    (mu - reference) / sigma is `t`. Van den Bergh's fixed point: with mu and sigma of the
    current estimate p, phi_i = a_i - reference - t sigma (1 + ((a_i - mu) / sigma)^2) / 2, the
    next estimate is observed_i / (1 + x phi_i) where x solves the secular equation
    sum observed_i phi_i / (1 + x phi_i) = 0; start from the uniform distribution."""
    count = len(PAIR_SCORES)
    estimate = [1.0 / count] * count
    for _ in range(200):
        mean = sum(p * a for p, a in zip(estimate, PAIR_SCORES))
        sigma = math.sqrt(sum(p * (a - mean) ** 2 for p, a in zip(estimate, PAIR_SCORES)))
        phi = [a - reference - t * sigma * (1.0 + ((a - mean) / sigma) ** 2) / 2.0
               for a in PAIR_SCORES]
        x = _secular_root(observed, phi)
        following = [p / (1.0 + x * f) for p, f in zip(observed, phi)]
        change = max(abs(a - b) for a, b in zip(following, estimate))
        estimate = following
        if change < 1e-13:
            break
    return estimate


def _secular_root(weights: Sequence[float], values: Sequence[float]) -> float:
    """The x in (-1 / max(values), -1 / min(values)) where sum w_i v_i / (1 + x v_i) = 0: the
    sum falls from +inf to -inf across that interval, so bisection finds it (to the last bit
    that changes the midpoint)."""
    low_value, high_value = min(values), max(values)
    if not low_value < 0 < high_value:
        raise MatchError("the SPRT's bounds are out of reach of these results "
                         "(no distribution has that t-value)")
    low, high = -1.0 / high_value, -1.0 / low_value

    def total(x: float) -> float:
        return sum(w * v / (1.0 + x * v) for w, v in zip(weights, values))

    for _ in range(2000):
        middle = (low + high) / 2.0
        if middle <= low or middle >= high:
            break
        if total(middle) > 0:
            low = middle
        else:
            high = middle
    return (low + high) / 2.0
