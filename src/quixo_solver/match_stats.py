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
"""
from __future__ import annotations

import math
from collections import Counter
from typing import Any

Z95 = 1.959963984540054    # the two-sided 95% quantile of the normal distribution
VARIANCE_NOTE = ("pentanomial: the variance of the game-pair scores, since each opening is "
                 "played twice with the colours swapped")


def elo(score: float) -> float | None:
    """The Elo difference of an expected score, None at 0 or 1 (unbounded)."""
    if not 0.0 < score < 1.0:
        return None
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0   # + 0.0: no "-0.0" at a score of 1/2


def summarize(records: list[dict[str, Any]]) -> dict[str, Any]:
    """The statistics of a match's game records (dicts with `pair`, `game`, `score_a`,
    `reason` and `loser`, the engine that lost or None), from engine A's point of view.
    Only complete pairs count; `incomplete_pairs` says how many games wait for their twin."""
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
    stats: dict[str, Any] = {
        "pairs": len(complete), "games": len(games),
        "incomplete_pairs": len(by_pair) - len(complete),
        "wins": wins, "draws": draws, "losses": losses,
        "pentanomial": pentanomial,
        "reasons": {reason: reasons.get(reason, 0)
                    for reason in ("line", "time", "repetition", "move limit")},
        "losses_on_time": {"A": on_time.get("A", 0), "B": on_time.get("B", 0)},
        "mean_plies": (round(sum(game["plies"] for game in games) / len(games), 1)
                       if games else None),
        "score": None, "score_error": None, "score_interval_95": None,
        "elo": None, "elo_error_95": None, "elo_interval_95": None,
        "variance": VARIANCE_NOTE, "note": None}
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
