# The race estimate of the `win` strategy (the method: winning.py; the pure-Python twin:
# race.win_chance).
#
# Each player's final score is taken as a normal variable with the mean and variance the paced
# table gives for that player's sheet (race.py: the expected final score and the second moment
# of the points still to come, for a player active one turn in N whose game goes on after each
# turn with a fixed chance). The players share the game's length (the turn on which it ends is
# the same for all), so their points still to come are positively correlated: the model gives
# every pair the correlation rho (RaceModel.correlation; race.CORRELATION, measured). With
# standard deviations s, s_o the chance that this player finishes first is then
#     one opponent:  Phi((mean - mean_o) / sqrt(var + var_o - 2 rho s s_o))    (exact)
#     several:       E over X ~ N(mean, (1 - rho) var) of
#                        prod_o Phi((X - mean_o) / sqrt((1 - rho) var_o + rho (s - s_o)^2))
# (the shared part taken out of each difference, the opponents' mutual correlation left out),
# the expectation by Gauss-Hermite quadrature (nodes and weights given by the caller, so that
# the twin uses the very same numbers). rho = 0 is the independent model of issue 14. A game
# already over is scored exactly, elsewhere.
from libc.math cimport erfc, sqrt

cdef extern from *:
    """
    #define QWIXX_SAME_CHANCE 1e-12   /* chances closer than this are equal: the mean decides */
    #define QWIXX_NO_SPREAD 1e-12     /* a variance below this is a certainty */
    """
    const double SAME_CHANCE "QWIXX_SAME_CHANCE"
    const double NO_SPREAD "QWIXX_NO_SPREAD"

ctypedef struct Outlook:
    double mean          # expected final score
    double variance      # of the final score

ctypedef struct RaceModel:
    const double* mean       # expected points still to come, [state * 4 + penalties]
    const double* second     # their second moment, same layout
    const double* nodes      # Gauss-Hermite nodes
    const double* weights    # Gauss-Hermite weights divided by sqrt(pi)
    int node_count
    double correlation       # rho: of any two players' points still to come (0 <= rho < 1)
    const double* late_mean      # the same for a game with a closed row (NULL: mean, second)
    const double* late_second


cdef inline double normal_cdf(double x) noexcept nogil:
    return 0.5 * erfc(-x * 0.7071067811865476)


cdef inline double beats(double difference, double variance) noexcept nogil:
    """P(D > 0) for D ~ N(difference, variance); with no spread, 1, 1/2 (a tie) or 0."""
    if variance <= NO_SPREAD:
        return 1.0 if difference > 0 else (0.5 if difference == 0 else 0.0)
    return normal_cdf(difference / sqrt(variance))


cdef inline double win_chance(Outlook me, const Outlook* others, int count,
                              const RaceModel* model) noexcept nogil:
    """The chance that `me` ends above every one of the `count` others."""
    cdef double total = 0.0, product, spread, x, rho = model.correlation
    cdef double own_sd = sqrt(me.variance), own_part = (1.0 - rho) * me.variance
    cdef double shared
    cdef double variances[8]
    cdef int k, j
    if count == 1:
        return beats(me.mean - others[0].mean, me.variance + others[0].variance
                     - 2.0 * rho * own_sd * sqrt(others[0].variance))
    for j in range(count):
        shared = own_sd - sqrt(others[j].variance)
        variances[j] = (1.0 - rho) * others[j].variance + rho * shared * shared
    if own_part <= NO_SPREAD:
        product = 1.0
        for j in range(count):
            product *= beats(me.mean - others[j].mean, variances[j])
        return product
    spread = sqrt(2.0 * own_part)
    for k in range(model.node_count):
        x = me.mean + spread * model.nodes[k]
        product = model.weights[k]
        for j in range(count):
            product *= beats(x - others[j].mean, variances[j])
        total += product
    return total
