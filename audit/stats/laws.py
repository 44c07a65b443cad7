"""The distributions step 8's p-values come from: chi-square and normal tails, the hypergeometric pmf,
and mid-ranks.

scipy.special's functions are the ones scipy.stats itself calls (`chi2.sf` is `chdtrc`, `chi2.cdf`
`chdtr`, `norm.sf(z)` `ndtr(-z)`), so those p-values are the same floats. scipy.stats is not imported:
loading it costs every verify process about a second of start-up (docs/scaling.md), more than step 8
of a pool. Its two other uses here are replaced: the hypergeometric pmf by the ratio of consecutive
probabilities (within 1e-12 of the exact law, relative, where scipy.stats' is within about 1e-10;
tests/audit/stats/test_laws.py), and average ranks by the mid-ranks the other rank tests use.
"""

from __future__ import annotations

import numpy as np

__all__ = ["chi2_cdf", "chi2_lower_quantile", "chi2_sf", "hypergeom_pmf", "log_choose_ratio", "mid_ranks",
           "norm_sf"]


def chi2_sf(x: float, df: int) -> float:
    """P(X2 > x) for a chi-square with `df` degrees of freedom."""
    from scipy import special  # here, not with the module: start-up time, as in audit/stats/tests.py
    return float(special.chdtrc(df, x))


def chi2_cdf(x: float, df: int) -> float:
    """P(X2 <= x) for a chi-square with `df` degrees of freedom."""
    from scipy import special  # here, not with the module: start-up time
    return float(special.chdtr(df, x))


def chi2_lower_quantile(p: float, df: int) -> float:
    """The x with P(X2 <= x) = p, for a chi-square with `df` degrees of freedom."""
    from scipy import special  # here, not with the module: start-up time
    return float(special.chdtri(df, 1.0 - p))


def norm_sf(z: float) -> float:
    """P(Z > z) for a standard normal."""
    from scipy import special  # here, not with the module: start-up time
    return float(special.ndtr(-z))


def log_choose_ratio(room: int, t: int, n: int) -> float:
    """ln(C(room, t) / C(n, t)), room <= n: the chance that t uniform places among n all fall in a given
    `room` of them (-inf when room < t). The sum over i < t of ln(1 - (n - room) / (n - i)), each term by
    log1p: within about 1e-15 of the exact ratio's logarithm, relative, where differences of lgamma near
    ln(n!) lose 1e-9 of p on a pool of 300,000 (docs/statistics.md calls these p-values exact)."""
    if room < t:
        return -np.inf
    if t <= 0 or room >= n:
        return 0.0
    i = np.arange(t, dtype=np.float64)
    return float(np.log1p(-(n - room) / (n - i)).sum())


def hypergeom_pmf(population: int, successes: int, draws: int) -> np.ndarray:
    """P(k successes) for k = 0..draws, drawing `draws` of `population` items of which `successes`
    succeed, without replacement, as float64 (0 outside the support).

    From p(k + 1) / p(k) = (successes - k)(draws - k) / ((k + 1)(population - successes - draws + k + 1))
    on the support, the logarithm of each ratio summed outward from the mode (the law is log-concave: it
    rises while the ratio exceeds 1), so the largest probabilities carry the least rounding, and the
    result normalised to sum 1; probabilities below float64's range are 0. Summed from the support's
    first count instead, 1,000 draws were within 2e-14 of the exact law but 110,000 (docs/statistics.md
    1i's books of the top prizes at 300,000 tickets) 5e-11 off, 1.9e-12 of a p-value."""
    if not 0 <= successes <= population or not 0 <= draws <= population:
        raise ValueError(f"no hypergeometric law for {successes} of {population}, {draws} drawn")
    pmf = np.zeros(draws + 1, dtype=np.float64)
    lo, hi = max(0, draws - (population - successes)), min(successes, draws)
    k = np.arange(lo, hi, dtype=np.float64)
    steps = np.log((successes - k) * (draws - k) / ((k + 1) * (population - successes - draws + k + 1)))
    mode = int(np.count_nonzero(steps > 0))  # lo + mode is the most likely count
    log_p = np.zeros(hi - lo + 1)
    log_p[mode + 1:] = np.cumsum(steps[mode:])
    log_p[:mode] = -np.cumsum(steps[:mode][::-1])[::-1]
    p = np.exp(log_p)
    pmf[lo:hi + 1] = p / p.sum()
    return pmf


def mid_ranks(values: np.ndarray) -> np.ndarray:
    """The rank of each value among `values`, 1 for the smallest, ties sharing their average rank
    (scipy.stats.rankdata's "average")."""
    _, inverse, counts = np.unique(values, return_inverse=True, return_counts=True)
    mid = np.cumsum(counts) - (counts - 1) / 2.0
    return np.asarray(mid[inverse.reshape(-1)], dtype=np.float64)
