"""A match's statistics (quixo_solver.tournament.match_stats): W/D/L, the score and its interval
from the game pairs' variance (pentanomial), the Elo difference and its error."""
import math

import pytest

from quixo_solver.tournament.match_stats import Z95, elo, summarize


def games(*pairs, reason="line"):
    """Records of game pairs given as engine A's scores in the two games."""
    records = []
    for pair, scores in enumerate(pairs):
        for game, score in enumerate(scores):
            loser = None if score == 0.5 else ("B" if score == 1 else "A")
            records.append({"pair": pair, "game": game, "score_a": score, "plies": 30,
                            "reason": "repetition" if score == 0.5 else reason,
                            "loser": loser})
    return records


def test_elo_of_a_score():
    assert elo(0.5) == 0.0 and str(elo(0.5)) == "0.0"
    assert elo(0.75) == pytest.approx(190.849, abs=1e-3)
    assert elo(0.25) == pytest.approx(-190.849, abs=1e-3)
    assert elo(0.0) is None and elo(1.0) is None


def test_wins_draws_losses_score_and_pentanomial_variance():
    stats = summarize(games((1, 1), (1, 0), (0.5, 0.5), (0, 0.5)))
    assert (stats["wins"], stats["draws"], stats["losses"]) == (3, 3, 2)
    assert (stats["pairs"], stats["games"], stats["incomplete_pairs"]) == (4, 8, 0)
    assert stats["pentanomial"] == [0, 1, 2, 0, 1]     # pair scores 1/4, 1/2, 1/2, 1
    pair_scores = [1.0, 0.5, 0.5, 0.25]
    score = sum(pair_scores) / 4
    assert stats["score"] == pytest.approx(score) == pytest.approx((3 + 3 / 2) / 8)
    variance = sum((s - score) ** 2 for s in pair_scores) / 4
    error = math.sqrt(variance / 4)
    assert stats["score_error"] == pytest.approx(error, abs=1e-6)
    assert stats["score_interval_95"] == pytest.approx([score - Z95 * error,
                                                        score + Z95 * error], abs=1e-6)
    assert stats["elo"] == pytest.approx(elo(score), abs=0.01)
    slope = 400 / (math.log(10) * score * (1 - score))
    assert stats["elo_error_95"] == pytest.approx(Z95 * error * slope, abs=0.01)
    low, high = stats["elo_interval_95"]
    assert low == pytest.approx(elo(score - Z95 * error), abs=0.01)
    assert high == pytest.approx(elo(score + Z95 * error), abs=0.01)
    assert "pentanomial" in stats["variance"] and stats["note"] is None
    assert stats["reasons"] == {"line": 5, "time": 0, "repetition": 3, "move limit": 0,
                                "crash": 0, "illegal move": 0, "tables": 0}


def test_pairs_that_split_by_colour_have_less_error_than_separate_games_would():
    # every opening won by whoever plays it first: 1-1 in every pair, a score of 1/2 exactly
    stats = summarize(games(*[(1, 0)] * 10))
    assert stats["score"] == 0.5 and stats["score_error"] == 0.0
    assert stats["elo"] == 0.0 and stats["elo_error_95"] == 0.0


def test_the_elo_difference_is_antisymmetric():
    pairs = [(1, 0.5), (1, 1), (0, 0.5), (1, 0)]
    mirrored = [tuple(1 - s for s in pair) for pair in pairs]
    a, b = summarize(games(*pairs)), summarize(games(*mirrored))
    assert a["elo"] == pytest.approx(-b["elo"]) and a["elo_error_95"] == b["elo_error_95"]


@pytest.mark.parametrize("score, who", [(1, "won"), (0, "lost")])
def test_a_clean_sweep_has_no_finite_elo(score, who):
    stats = summarize(games(*[(score, score)] * 5, reason="time"))
    assert stats["score"] == score and stats["elo"] is None and stats["elo_error_95"] is None
    assert f"engine A {who} every game" in stats["note"]
    assert stats["losses_on_time"] == ({"A": 0, "B": 10} if score else {"A": 10, "B": 0})


def test_only_complete_pairs_count():
    records = games((1, 0.5), (0, 0))[:3]
    stats = summarize(records)
    assert (stats["pairs"], stats["games"], stats["incomplete_pairs"]) == (1, 2, 1)
    assert (stats["wins"], stats["draws"], stats["losses"]) == (1, 1, 0)
    assert stats["note"] == "one game pair: the error is not meaningful yet"
    assert summarize([])["note"] == "no complete game pair yet"
