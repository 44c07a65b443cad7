"""Step 8's winners-per-pack test for a printed run with pack parameters, its spec's or, without a
spec, its manifest's `print.packs` (docs/statistics.md; docs/randomness.md section 5), and the same
per block of serials for an eInstant run with block parameters (`[blocks]`, the manifest's `blocks`;
the test then replaces the per-1,000-share tests).

Under `min_winners` / `max_winners` alone, the winners per pack W_1..W_B of a fair pool are
distributed with P(W) proportional to prod C(m, W_b) on [lo, hi] with sum W_b = W: exactly B
independent draws of q(w) proportional to C(m, w) x^w on [lo, hi] conditioned on their sum, for any
x. With x making q's mean W / B, each W_b is q-distributed up to O(1/B); the histogram is compared
with B q by Pearson's chi-square (tails pooled to MIN_EXPECTED per bin; conditioning on the sum
only lowers the statistic's spread). The hypergeometric histogram and dispersion tests are replaced
by this one. Under any other composition parameter (prize value, caps, spacing) winners per pack
have no closed form: the winners-per-pack tests are not made, and the report says so.
"""

from __future__ import annotations

import math

import numpy as np

from audit.read.specs.packs import PackRules
from audit.stats.tests import MIN_EXPECTED, Finding

__all__ = ["pack_block_findings", "winners_reference"]


def winners_reference(m: int, books: int, total: int, lo: int, hi: int) -> np.ndarray:
    """q(w) for w = 0..m (zero outside [lo, hi]): C(m, w) x^w normalised, mean total / books."""
    ws = np.arange(lo, hi + 1)
    logc = np.array([math.lgamma(m + 1) - math.lgamma(w + 1) - math.lgamma(m - w + 1) for w in ws])

    def dist(t: float) -> np.ndarray:
        e = logc + ws * t
        p = np.exp(e - e.max())
        return np.asarray(p / p.sum())

    a, b = -60.0, 60.0
    for _ in range(100):
        mid = (a + b) / 2
        a, b = (mid, b) if float((ws * dist(mid)).sum()) < total / books else (a, mid)
    out = np.zeros(m + 1)
    out[lo: hi + 1] = dist((a + b) / 2)
    return out


def _against(name: str, per: np.ndarray, q: np.ndarray) -> Finding | None:
    blocks = len(per)
    expected = blocks * q
    observed = np.bincount(per, minlength=q.size)[: q.size].astype(np.float64)
    edges, acc = [], 0.0
    for k in range(q.size):
        acc += expected[k]
        if acc >= MIN_EXPECTED:
            edges.append(k + 1)
            acc = 0.0
    if len(edges) < 2:
        return None
    edges[-1] = q.size
    starts = [0, *edges[:-1]]
    exp = np.array([expected[a:b].sum() for a, b in zip(starts, edges, strict=True)])
    obs = np.array([observed[a:b].sum() for a, b in zip(starts, edges, strict=True)])
    x2 = float(((obs - exp) ** 2 / exp).sum())
    df = len(edges) - 1
    from scipy import stats  # here, not with the module: as in audit/stats/tests.py (start-up time)
    return Finding(name, f"chi-square of the histogram against the constrained distribution, {len(edges)} "
                   "bins (tails pooled)", f"X2 = {x2:.2f}, df = {df}", float(stats.chi2.sf(x2, df)))


def pack_block_findings(win: np.ndarray, per_book: int, rules: PackRules) -> tuple[list[Finding], list[str]]:
    """The winners-per-pack test under the pack parameters (replacing the hypergeometric ones)."""
    books = len(win) // per_book
    unit, rule = rules.unit, "pack" if rules.size is None else "block"
    if rules.min_prize_cents is not None or rules.min_prize_times is not None or rules.caps or rules.spacing:
        return [], [f"winners per {unit}: the game's {rule} parameters (prize value, caps or spacing) give "
                    "them no closed-form distribution (audit/stats/packs.py)"]
    if books < 2:
        return [], [f"winners per {unit}: fewer than two {unit}s"]
    per = win[: books * per_book].reshape(books, per_book).sum(axis=1)
    lo = rules.min_winners or 0
    hi = per_book if rules.max_winners is None else rules.max_winners
    q = winners_reference(per_book, books, int(per.sum()), lo, hi)
    found = _against(f"winners per {unit} of {per_book}: histogram of {books:,} {unit}s under the {rule} "
                     f"parameters ({lo}..{hi})", per, q)
    return ([found] if found else []), ([] if found else [f"winners per {unit}: too few {unit}s to bin"])
