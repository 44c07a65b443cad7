"""The laws of a pool's pack compositions under the exact draws of docs/randomness.md (5.2, 5.6 to
5.8), as step 8 tests them (audit/stats/packs.py; docs/statistics.md, section 1b). Written from the
documents alone: no code of poolgen's.

A pack of m tickets holding w winners, c of them of the held tiers S (a cap's, or a spacing rule's
with distance d; c = 0 when there is none), has

    f(w, c) = apart(m, c, d) C(m - c, w - c)     (d = 1 for a cap: C(m, c) C(m - c, w - c) = C(m, w) C(w, c))

valid sequences up to factors that do not depend on the pack, on lo <= w <= hi, 0 <= c <= min(k, w)
with apart(m, c, d) > 0; P(w_1..w_B, c_1..c_B) is proportional to prod_b f(w_b, c_b) with sum w = W
and sum c = C. So given the held counts c, the w_b are independent draws of q(w | c_b) proportional
to f(w, c_b) x^w conditioned on their sum, for any x; and given the winners w, the c_b are draws of
q(c | w_b) proportional to f(w_b, c) y^c conditioned on theirs. With the tilt set so that the
expected sum is the observed one, each pack's count follows its q up to O(1/B).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from audit.stats.tests import MIN_EXPECTED

__all__ = ["Law", "apart", "chi_square", "conditional", "parts_expected", "pooled", "subset_factor", "tilted"]

TILT_RANGE = 60.0  # the tilt's logarithm is searched in [-TILT_RANGE, TILT_RANGE]
BISECTIONS = 100
PARTS = 10  # parts of a range of places in the place tests


def apart(m: int, c: int, d: int) -> int:
    """The ways to place c tickets among places 0..m-1, every two at least d apart:
    C(m - (c - 1)(d - 1), c); 1 for c = 0, 0 when they do not fit."""
    if c == 0:
        return 1
    room = m - (c - 1) * (d - 1)
    return math.comb(room, c) if room >= c else 0


def _log_comb(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


class Law:
    """f(w, c) of one pack (as log weights), the held tickets at most `most` a pack (None: no cap)
    and `distance` apart (1: a cap, no spacing)."""

    def __init__(self, m: int, lo: int, hi: int, most: int | None, distance: int) -> None:
        self.m, self.lo, self.hi, self.distance = m, lo, hi, distance
        self.most = m if most is None else most

    def log_f(self, w: int, c: int) -> float | None:
        """log f(w, c), None where (w, c) is not allowed."""
        if not (self.lo <= w <= self.hi and 0 <= c <= min(self.most, w)):
            return None
        ways = apart(self.m, c, self.distance)
        return math.log(ways) + _log_comb(self.m - c, w - c) if ways else None

    def given_c(self, c: int) -> tuple[np.ndarray, np.ndarray]:
        """(the w allowed with c, log f(w, c) at each)."""
        pairs = [(w, self.log_f(w, c)) for w in range(self.lo, self.hi + 1)]
        kept = [(w, v) for w, v in pairs if v is not None]
        return np.array([w for w, _ in kept], dtype=np.int64), np.array([v for _, v in kept])

    def given_w(self, w: int) -> tuple[np.ndarray, np.ndarray]:
        """(the c allowed with w, log f(w, c) at each)."""
        pairs = [(c, self.log_f(w, c)) for c in range(min(self.most, w) + 1)]
        kept = [(c, v) for c, v in pairs if v is not None]
        return np.array([c for c, _ in kept], dtype=np.int64), np.array([v for _, v in kept])


def tilted(support: np.ndarray, logw: np.ndarray, t: float) -> np.ndarray:
    """The law proportional to exp(logw + t support) on `support`."""
    e = logw + t * support
    p = np.exp(e - e.max())
    return np.asarray(p / p.sum())


def conditional(groups: dict[int, int], table: Callable[[int], tuple[np.ndarray, np.ndarray]],
                total: int) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """For packs grouped by the count they are conditioned on (value -> packs), each group's law of
    the other count, (support, probabilities), tilted by one t so that the expected sum over the
    packs is `total` (bisection of t in [-TILT_RANGE, TILT_RANGE]: the expected sum grows with t)."""
    tables = {g: table(g) for g in groups}

    def laws(t: float) -> dict[int, tuple[np.ndarray, np.ndarray]]:
        return {g: (s, tilted(s, v, t)) for g, (s, v) in tables.items() if s.size}

    def mean(t: float) -> float:
        return sum(groups[g] * float((s * p).sum()) for g, (s, p) in laws(t).items())

    a, b = -TILT_RANGE, TILT_RANGE
    for _ in range(BISECTIONS):
        mid = (a + b) / 2
        a, b = (mid, b) if mean(mid) < total else (a, mid)
    return laws((a + b) / 2)


def pooled(expected: np.ndarray, observed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Consecutive cells pooled from the first until each bin expects MIN_EXPECTED, what is left at the
    end joining the last bin: (expected, observed) per bin (one bin, or none, if too few)."""
    edges, acc = [], 0.0
    for k, e in enumerate(expected):
        acc += e
        if acc >= MIN_EXPECTED:
            edges.append(k + 1)
            acc = 0.0
    if not edges:
        return np.zeros(0), np.zeros(0)
    edges[-1] = len(expected)
    starts = [0, *edges[:-1]]
    exp = np.array([expected[a:b].sum() for a, b in zip(starts, edges, strict=True)])
    obs = np.array([observed[a:b].sum() for a, b in zip(starts, edges, strict=True)], dtype=np.float64)
    return exp, obs


def chi_square(exp: np.ndarray, obs: np.ndarray) -> tuple[float, int]:
    """Pearson's X2 of pooled bins and its df (bins - 1; 0 for fewer than two bins)."""
    if exp.size < 2:
        return 0.0, 0
    return float(((obs - exp) ** 2 / exp).sum()), int(exp.size - 1)


def parts_expected(sizes: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """The expected number of draws in each of the PARTS parts `place * PARTS // size` when each row
    draws counts[i] places uniformly (without replacement) from range(sizes[i])."""
    out = np.zeros(PARTS)
    by: dict[int, int] = {}
    for size, n in zip(sizes.tolist(), counts.tolist(), strict=True):
        if size > 0 and n > 0:
            by[size] = by.get(size, 0) + n
    for size, n in by.items():
        share = np.diff(-(-np.arange(PARTS + 1) * size // PARTS)) / size
        out += n * share
    return out


def subset_factor(sizes: np.ndarray, counts: np.ndarray) -> float:
    """The finite-population factor of draws without replacement, sum a (n - a) / (n - 1) / sum a over
    the rows (n = sizes, a = counts; a row of n = 1 adds nothing): the counts per part of rows drawing
    uniform a-subsets of range(n) have this times the multinomial covariance, so Pearson's X2 divided
    by it is chi-square (1 when nothing is drawn)."""
    n, a = sizes.astype(np.float64), counts.astype(np.float64)
    drawn = float(a.sum())
    if drawn <= 0:
        return 1.0
    each = np.where(n > 1, a * (n - a) / np.maximum(n - 1, 1), 0.0)
    return max(float(each.sum()) / drawn, 1e-12)
