"""Step 8's test of which prizes the winners of a pack hold by place (docs/statistics.md 1b, under the
chain): given a pack's composition and which of its places hold its other winners (those of no spacing
rule), their prizes are a uniform permutation over those places (docs/randomness.md 5.3, step 4: each
pack in a uniform order among those meeting its spacing rules, which bind only the spaced tickets). So
a bias that keeps the better prizes from the first and last tickets of every pack (where an insider's
confederate would look: the top prize's ticket number within its book is tested for the same reason,
docs/statistics.md 1a) while the winners' places stay as chance puts them, unseen by the winners'
place and runs tests, is tested by a permutation chi-square within packs. Written from the documents
alone: no code of poolgen's.

Pack b's other winners, n_b of them, score a_i = the mid-rank of their `prize_cents` among all the
pool's other winners, centred on the pack's mean; three parts of the places: the first (place 0), the
middle and the last (place m - 1). S_g = the sum
over the packs of the centred scores in part g; under the within-pack permutation E S = 0 and

    Cov(S_g, S_h) = sum_b s_b n_b / (n_b - 1) (n_bg [g = h] - n_bg n_bh / n_b),  s_b = sum_i a_i^2 / n_b,

the packs independent; X2 = S' Cov^+ S against chi-square with the rank of Cov degrees of freedom.
"""

from __future__ import annotations

import numpy as np

from audit.stats.laws import chi2_sf, mid_ranks
from audit.stats.tests import Finding

__all__ = ["MIN_WINNERS", "prizes_by_place"]

MIN_WINNERS = 100  # fewest other winners, in packs holding two or more with different prizes, for a test


def prizes_by_place(unit: str, prize: np.ndarray, others: np.ndarray) -> Finding | None:
    """The test (None: too few winners whose prizes differ within their pack); `prize` and `others`
    (the winners of no spacing rule) as (packs, m) arrays in print order."""
    books, m = others.shape
    row, place = np.nonzero(others)
    score = mid_ranks(np.asarray(prize)[row, place].astype(np.float64))
    n = np.bincount(row, minlength=books).astype(np.float64)
    mean = np.bincount(row, weights=score, minlength=books) / np.maximum(n, 1)
    a = score - mean[row]
    s = np.bincount(row, weights=a * a, minlength=books) / np.maximum(n, 1)
    used = (n >= 2) & (s > 1e-12)
    keep = used[row]
    if int(n[used].sum()) < MIN_WINNERS:
        return None
    part = np.where(place == 0, 0, np.where(place == m - 1, 2, 1))  # the first ticket, the middle, the last
    parts = 3
    nbg = np.zeros((books, parts))
    np.add.at(nbg, (row[keep], part[keep]), 1.0)
    total = np.bincount(part[keep], weights=a[keep], minlength=parts)
    f = np.where(used, s * n / np.maximum(n - 1, 1), 0.0)
    cov = np.diag((f[:, None] * nbg).sum(axis=0)) - (f[:, None, None] / np.maximum(n, 1)[:, None, None]
                                                       * nbg[:, :, None] * nbg[:, None, :]).sum(axis=0)
    df = int(np.linalg.matrix_rank(cov))
    if df < 1:
        return None
    x2 = float(total @ np.linalg.pinv(cov) @ total)
    return Finding(f"prizes of the other winners at the first and last places of their {unit}s",
                   f"permutation chi-square within {unit}s of the prizes' mid-ranks (docs/statistics.md 1b, "
                   "under the chain)",
                   f"{int(n[used].sum()):,} winners in {int(used.sum()):,} {unit}s, X2 = {x2:.2f}, df = {df}",
                   chi2_sf(x2, df))
