"""Step 8's pools' own tests combined across the run (docs/statistics.md section 1d).

A leak spread thinly over every pool of a run can stay below each pool's threshold while the same
test is small in every pool. For each test name made in two or more pools of the run, once in each,
the pools' p-values p_1 .. p_k are combined by Fisher's method: X = -2 sum_i ln p_i, which is
chi-square with 2k degrees of freedom when the p_i are independent and uniform; the combined
p = P(chi2_2k >= X). The pools are independent under the null (each is drawn from its own DRBG
stream), and a p-value that is conservative (discrete or exact: P(p <= a) <= a) makes -2 ln p
stochastically smaller than chi2_2, so the combination is conservative too, never anti-conservative.
A p_i of 0 gives a combined p of 0. Step 8 judges these tests by Holm's step-down at ALPHA_COMBINED
(audit/stats/step.py).

A test is known by its name, with one exception: the count of books in the name of a test of the top
prizes' printed book numbers ("books of the top prizes ($100; 5 of 100 books) by ..."; audit/stats/
numbers.py) depends on the pool's draw, so for combining it reads "k of 100 books". Those tests are
exact given that count (the numbers are a uniform permutation of the books, whatever they hold), so
pools with different counts combine validly.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from audit.stats.laws import chi2_sf
from audit.stats.tests import Finding

__all__ = ["MIN_POOLS", "combined_findings", "combined_key"]

MIN_POOLS = 2  # a test is combined when it was made in at least this many pools
BOOK_COUNT = re.compile(r"; [0-9,]+ of ([0-9,]+) books\)")  # audit/stats/numbers.py's "; k of B books)"


def combined_key(name: str) -> str:
    """The name a test is combined under: its own, the drawn count of books of a book number test
    replaced by "k"."""
    return BOOK_COUNT.sub(r"; k of \1 books)", name)


def fisher(ps: Sequence[float]) -> tuple[float, float]:
    """(X, p): X = -2 sum ln p_i, p = P(chi2 with 2 len(ps) df >= X); a p_i of 0 gives (inf, 0)."""
    if min(ps) <= 0.0:
        return math.inf, 0.0
    x = max(0.0, -2.0 * math.fsum(math.log(p) for p in ps))  # every p 1: 0, not -0.0 (printed "-0.00")
    return x, float(min(1.0, max(0.0, chi2_sf(x, 2 * len(ps)))))


def combined_findings(pools: Sequence[Sequence[Finding]]) -> list[Finding]:
    """One finding per test (by `combined_key`) made exactly once in each of MIN_POOLS or more pools
    (`pools`: each pool's findings, in the run's pool order), in the order the keys first appear:
    Fisher's combination of their p-values. A key made twice within one pool is left out."""
    ps: dict[str, list[float]] = {}
    twice: set[str] = set()
    for findings in pools:
        seen: set[str] = set()
        for f in findings:
            key = combined_key(f.name)
            if key in seen:
                twice.add(key)
            seen.add(key)
            ps.setdefault(key, []).append(f.p)
    out = []
    for name, values in ps.items():
        if name in twice or len(values) < MIN_POOLS:
            continue
        x, p = fisher(values)
        df = 2 * len(values)
        out.append(Finding(f"{name}: {len(values)} pools combined",
                           f"Fisher's combination of the pools' p-values, chi-square with {df} df",
                           f"-2 sum ln p = {x:.2f}, df = {2 * len(values)}, smallest pool p = "
                           f"{min(values):.3g}", p))
    return out
