"""The sequential test and the pentanomial figures of fastchess's report (match_stats): the
LLR of normalized Elo, normalized Elo with its error, LOS and the draw ratio, against figures
published by fastchess and against an independent computation of the same quantities."""
import math
from statistics import NormalDist

import numpy
import pytest

from quixo_solver.errors import MatchError
from quixo_solver.tournament.match_stats import (NELO_PER_T, PAIR_SCORES, Sprt, elo,
                                                 likelihood_of_superiority,
                                                 most_likely_distribution, normalized_elo,
                                                 summarize)


def pentanomial(ll, ld, wl, dd, wd, ww):
    """[LL, LD, WL+DD, WD, WW] of fastchess's six pair counts (its Stats(ll, ld, wl, dd, wd,
    ww) order)."""
    return [ll, ld, wl + dd, wd, ww]


# -- figures published by fastchess (app/tests/sprt_test.cpp, elo_test.cpp), to their two
#    decimals ------------------------------------------------------------------------------

@pytest.mark.parametrize("counts, elo0, elo1, llr", [
    ((365, 16618, 36029, 200, 16974, 390), 0.0, 2.0, 2.25),
    ((127, 4883, 10311, 401, 5150, 104), -1.75, 0.25, 3.01),
])
def test_llr_of_fastchess_examples(counts, elo0, elo1, llr):
    assert Sprt(elo0, elo1).llr(pentanomial(*counts)) == pytest.approx(llr, abs=0.005)


@pytest.mark.parametrize("counts, nelo, nelo_error, elo_, los", [
    ((34, 54, 31, 32, 64, 75), 57.94, 28.28, 55.58, "100.00 %"),
    ((332, 433, 457, 41, 333, 334), -9.17, 10.96, -8.64, "5.05 %"),
    ((7895, 8757, 5485, 200, 568, 9999), -19.01, 2.65, -21.04, "0.00 %"),
])
def test_normalized_elo_and_los_of_fastchess_examples(counts, nelo, nelo_error, elo_, los):
    counts5 = pentanomial(*counts)
    found, error = normalized_elo(counts5)
    assert (round(found, 2), round(error, 2)) == (nelo, nelo_error)
    score = sum(c * a for c, a in zip(counts5, PAIR_SCORES)) / sum(counts5)
    assert round(elo(score), 2) == elo_
    assert f"{likelihood_of_superiority(counts5) * 100:.2f} %" == los


# -- an independent computation: the constrained maximum likelihood by Newton's method on its
#    Lagrange conditions, followed from the observed t-value to the hypothesis --------------

def independent_mle(observed, t, reference=0.5, steps=50):
    """argmax sum o_i log p_i over distributions p of PAIR_SCORES with (mu - reference) /
    sigma = t: Newton on the 7 Lagrange equations o_i / p_i - lam - nu dg/dp_i = 0,
    sum p = 1, g(p) = mu - reference - t sigma = 0, with t moved in `steps` steps from the
    observed t-value (where p = o, lam = 1, nu = 0 solve them exactly)."""
    a = numpy.array(PAIR_SCORES)
    o = numpy.array(observed, dtype=float)
    mu_o = (o * a).sum()
    t_observed = (mu_o - reference) / math.sqrt((o * (a - mu_o) ** 2).sum())

    def equations(x, target):
        p, lam, nu = x[:5], x[5], x[6]
        mu = (p * a).sum()
        sigma = math.sqrt((p * (a - mu) ** 2).sum())
        gradient = a - target * (a - mu) ** 2 / (2 * sigma)
        return numpy.concatenate([o / p - lam - nu * gradient,
                                  [p.sum() - 1, mu - reference - target * sigma]])

    x = numpy.concatenate([o, [1.0, 0.0]])
    for target in numpy.linspace(t_observed, t, steps + 1)[1:]:
        for _ in range(50):
            value = equations(x, target)
            jacobian = numpy.empty((7, 7))
            for column in range(7):
                step = numpy.zeros(7)
                step[column] = 1e-7 * max(1.0, abs(x[column]))
                jacobian[:, column] = (equations(x + step, target)
                                       - equations(x - step, target)) / (2 * step[column])
            change = numpy.linalg.solve(jacobian, -value)
            x = x + change
            if numpy.abs(change).max() < 1e-14:
                break
    assert numpy.abs(equations(x, t)).max() < 1e-10
    return x[:5]


def independent_llr(counts, elo0, elo1):
    regular = [c if c else 1e-3 for c in counts]
    total = sum(regular)
    observed = [c / total for c in regular]
    p0, p1 = (independent_mle(observed, math.sqrt(2) * e / (800 / math.log(10)))
              for e in (elo0, elo1))
    return total * sum(o * (math.log(b) - math.log(a)) for o, a, b in zip(observed, p0, p1))


@pytest.mark.parametrize("counts, elo0, elo1", [
    ([365, 16618, 36229, 16974, 390], 0.0, 2.0),
    ([127, 4883, 10712, 5150, 104], -1.75, 0.25),
    ([3, 20, 41, 27, 9], 0.0, 10.0),
    ([9, 27, 41, 20, 3], 0.0, 10.0),
    ([0, 12, 30, 25, 6], 0.0, 30.0),      # an empty bin counts 0.001
    ([1, 2, 3, 4, 5], -5.0, 5.0),
    ([5, 60, 300, 70, 8], 0.0, 5.0),
])
def test_llr_agrees_with_an_independent_maximum_likelihood(counts, elo0, elo1):
    assert Sprt(elo0, elo1).llr(counts) == pytest.approx(independent_llr(counts, elo0, elo1),
                                                         rel=1e-8, abs=1e-9)


def test_most_likely_distribution_meets_its_constraint_and_beats_its_neighbours():
    observed = [0.05, 0.2, 0.4, 0.25, 0.1]
    t = 0.1
    p = most_likely_distribution(observed, t)
    mu = sum(q * a for q, a in zip(p, PAIR_SCORES))
    sigma = math.sqrt(sum(q * (a - mu) ** 2 for q, a in zip(p, PAIR_SCORES)))
    assert sum(p) == pytest.approx(1, abs=1e-12)
    assert (mu - 0.5) / sigma == pytest.approx(t, abs=1e-12)
    assert p == pytest.approx(list(independent_mle(observed, t)), abs=1e-9)


def test_llr_is_antisymmetric_under_mirroring():
    counts = [4, 18, 40, 25, 7]
    assert Sprt(0, 10).llr(counts) == pytest.approx(-Sprt(-10, 0).llr(counts[::-1]),
                                                    rel=1e-10)


def test_the_llr_is_close_to_van_den_berghs_approximation_on_many_pairs():
    # normalized_elo_practical.pdf, section 4.2: LLR ~ games/2 ln((1 + (nt - nt0)^2) /
    # (1 + (nt - nt1)^2)), nt the observed normalized t-value per game
    counts = [365, 16618, 36229, 16974, 390]
    pairs = sum(counts)
    mu = sum(c * a for c, a in zip(counts, PAIR_SCORES)) / pairs
    sigma_game = math.sqrt(2 * sum(c * (a - mu) ** 2 for c, a in zip(counts, PAIR_SCORES))
                           / pairs)
    nt, nt0, nt1 = (mu - 0.5) / sigma_game, 0.0, 2.0 / NELO_PER_T
    approximation = pairs * math.log((1 + (nt - nt0) ** 2) / (1 + (nt - nt1) ** 2))
    assert Sprt(0, 2).llr(counts) == pytest.approx(approximation, rel=2e-3)


# -- closed forms -----------------------------------------------------------------------------

def test_bounds_are_walds():
    sprt = Sprt(0, 10, alpha=0.05, beta=0.05)
    assert sprt.lower == pytest.approx(math.log(0.05 / 0.95), rel=1e-15)
    assert sprt.upper == pytest.approx(math.log(0.95 / 0.05), rel=1e-15)
    assert round(sprt.upper, 2) == 2.94 and round(sprt.lower, 2) == -2.94
    skewed = Sprt(0, 5, alpha=0.01, beta=0.1)
    assert (skewed.lower, skewed.upper) == (pytest.approx(math.log(0.1 / 0.99)),
                                            pytest.approx(math.log(0.9 / 0.01)))


@pytest.mark.parametrize("counts", [[3, 20, 41, 27, 9], [10, 10, 10, 10, 10], [0, 1, 5, 1, 0]])
def test_los_and_normalized_elo_closed_forms(counts):
    pairs = sum(counts)
    mu = sum(c * a for c, a in zip(counts, PAIR_SCORES)) / pairs
    variance = sum(c * (a - mu) ** 2 for c, a in zip(counts, PAIR_SCORES)) / pairs
    assert likelihood_of_superiority(counts) == pytest.approx(
        NormalDist().cdf((mu - 0.5) / math.sqrt(variance / pairs)), rel=1e-12)
    nelo, error = normalized_elo(counts)
    assert nelo == pytest.approx((mu - 0.5) / math.sqrt(2 * variance) * 800 / math.log(10))
    assert error == pytest.approx(1.959963984540054 / math.sqrt(2 * pairs) * 800
                                  / math.log(10))


def test_results_and_no_pairs():
    sprt = Sprt(0, 10)
    assert sprt.llr([0, 0, 0, 0, 0]) == 0.0 and sprt.result(0.0) == "continue"
    assert sprt.result(sprt.upper) == "H1 accepted"
    assert sprt.result(sprt.lower) == "H0 accepted"
    assert sprt.result(sprt.upper - 1e-9) == "continue"
    assert likelihood_of_superiority([0, 0, 0, 0, 0]) == 0.5
    assert likelihood_of_superiority([0, 0, 0, 0, 4]) == 1.0   # no spread: certain
    assert likelihood_of_superiority([0, 0, 7, 0, 0]) == 0.5


def test_a_stronger_engine_is_accepted_and_a_weaker_rejected():
    stronger = [2, 10, 40, 35, 13]
    weaker = stronger[::-1]
    sprt = Sprt(0, 10)
    for factor in range(1, 60):
        if sprt.decided([c * factor for c in stronger]):
            break
    assert sprt.result(sprt.llr([c * factor for c in stronger])) == "H1 accepted"
    assert sprt.result(sprt.llr([c * factor for c in weaker])) == "H0 accepted"


# -- reading --sprt -----------------------------------------------------------------------

def test_settings_are_read():
    assert Sprt.parse("elo0=0,elo1=10,alpha=0.05,beta=0.05") == Sprt(0, 10, 0.05, 0.05)
    assert Sprt.parse("elo1=30 elo0=-2") == Sprt(-2, 30)
    assert Sprt.parse(str(Sprt(0.5, 2.5, 0.01, 0.1))) == Sprt(0.5, 2.5, 0.01, 0.1)


@pytest.mark.parametrize("text, fragment", [
    ("elo0=0", "needs elo1="),
    ("elo1=5", "needs elo0="),
    ("elo0=0,elo1=10,gamma=1", "unknown SPRT setting 'gamma=1'"),
    ("elo0=0,elo1=x", "elo1= must be a number"),
    ("elo0=10,elo1=0", "less than its elo1"),
    ("elo0=0,elo1=10,alpha=0", "between 0 and 1"),
    ("elo0=0,elo1=10,alpha=0.6,beta=0.5", "sum below 1"),
    ("elo0=0,elo1=nan", "finite"),
    ("elo0=0,elo0=1,elo1=3", "given twice"),
    ("elo0=0,elo1=201", r"within \+-200 normalized Elo"),
])
def test_bad_settings_name_the_problem(text, fragment):
    with pytest.raises(MatchError, match=fragment):
        Sprt.parse(text)


# -- in a match's summary -------------------------------------------------------------------

def records(*pairs):
    rows = []
    for pair, scores in enumerate(pairs):
        for game, score in enumerate(scores):
            rows.append({"pair": pair, "game": game, "score_a": score, "plies": 20,
                         "reason": "line" if score != 0.5 else "repetition",
                         "loser": None if score == 0.5 else ("B" if score else "A")})
    return rows


def test_the_summary_carries_the_test_and_fastchess_figures():
    games = records((1, 1), (1, 0), (0.5, 0.5), (0, 0.5), (1, 0.5), (0.5, 0.5), (1, 0))
    stats = summarize(games, Sprt(0, 10))
    assert stats["pentanomial"] == [0, 1, 4, 1, 1]
    assert stats["pair_kinds"] == {"LL": 0, "LD": 1, "WL": 2, "DD": 2, "WD": 1, "WW": 1}
    assert stats["draw_ratio"] == pytest.approx(4 / 7, abs=1e-6)
    assert stats["wl_dd_ratio"] == 1.0
    assert stats["los"] == pytest.approx(likelihood_of_superiority([0, 1, 4, 1, 1]), abs=1e-6)
    report = stats["sprt"]
    assert report["llr"] == pytest.approx(Sprt(0, 10).llr([0, 1, 4, 1, 1]), abs=1e-4)
    assert (report["lower_bound"], report["upper_bound"]) == (-2.9444, 2.9444)
    assert report["result"] == "continue" and report["elo1"] == 10
    assert report["fraction"] == pytest.approx(report["llr"] / 2.9444, abs=1e-3)
    assert "sprt" not in summarize(games)


@pytest.mark.parametrize("elo0, elo1", [(-200, 200), (0, 200), (199, 200), (-200, -150),
                                        (0, 5), (-5, 0)])
def test_the_llr_is_found_for_extreme_results_within_the_allowed_bounds(elo0, elo1):
    sprt = Sprt(elo0, elo1)
    extremes = [[0, 0, 0, 0, 1], [0, 0, 0, 0, 10000], [7, 0, 0, 0, 0], [0, 0, 50, 0, 0],
                [0, 3, 0, 3, 0], [1, 0, 0, 0, 1], [0, 0, 1, 0, 0]]
    for counts in extremes:
        llr = sprt.llr(counts)
        assert math.isfinite(llr)
        assert llr == pytest.approx(-Sprt(-elo1, -elo0).llr(counts[::-1]), rel=1e-9, abs=1e-9)
