"""Step 8's tests of the compositions of several caps alone on disjoint tiers, which docs/randomness.md
5.10 draws exactly (docs/statistics.md 1b, *Under 5.10*). Written from the documents alone: no code of
poolgen's.

Caps i = 1..r on pairwise disjoint winning tier sets S_i, at most k_i a pack of m; pack b holds s_bi
tickets of S_i (its winners whose `tier` is in S_i), S_b = sum_i s_bi. 5.10's law,

    P(s) = prod_b m! / (prod_i s_bi! (m - S_b)!) / Z   on s_bi <= k_i, sum_b s_bi = C_i,

with, given s, every valid sequence equally likely, gives two exact conditional laws:

  - cap i given the others: with R_b = S_b - s_bi fixed, the factor of pack b that depends on s_bi is
    1 / (s_bi! (m - R_b - s_bi)!), proportional to C(m - R_b, s_bi); so the s_bi are independent draws
    of q_i(s | R_b) proportional to C(m - R_b, s) on s <= min(k_i, m - R_b), conditioned on their sum
    C_i. Tested per stratum R_b (X2 summed over the strata, one tilt), as `winners_given` does;
  - winners given the capped tickets: given s, the tickets of no cap (losers among them) are a uniform
    permutation over the pool's other places, so a pack's other winners are a multivariate
    hypergeometric draw over the packs' m - S_b other places: q(w | S_b) proportional to
    C(m - S_b, w - S_b), independent draws conditioned on their sum W (`Law(m, 0, m, None, 1).given_c`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from audit.stats.pack_laws import Law, Table, place_finding, winners_given
from audit.stats.tests import Finding

__all__ = ["cap_given_others", "caps_broken", "caps_law_findings"]


def cap_given_others(m: int, most: int) -> Table:
    """Cap i's table: the others' count R of a pack -> (the s allowed, log C(m - R, s) at each),
    s = 0..min(most, m - R)."""

    def table(rest: int) -> tuple[np.ndarray, np.ndarray]:
        top = min(most, m - rest)
        support = np.arange(max(top, -1) + 1, dtype=np.int64)
        logs = np.array([math.lgamma(m - rest + 1) - math.lgamma(s + 1) - math.lgamma(m - rest - s + 1)
                         for s in support.tolist()])
        return support, logs

    return table


def caps_broken(held: Sequence[np.ndarray], most: Sequence[int], m: int) -> bool:
    """Whether some pack holds more than a cap's `at_most` of its tickets, or more capped tickets than
    places (step 5 refuses such a pool; 5.10's law does not apply)."""
    per = [h.sum(axis=1) for h in held]
    return any((c > k).any() for c, k in zip(per, most, strict=True)) or bool((sum(per) > m).any())


def caps_law_findings(unit: str, win: np.ndarray, caps: Sequence[tuple[str, np.ndarray, int]]
                      ) -> list[Finding | None]:
    """The 5.10 tests of the packs (rows of `win`, m places each): for each cap (its label, its tickets
    as a mask like `win`, its at_most), its tickets per pack given the other caps', stratified by the
    others' count; the winners per pack given its capped tickets; each cap's tickets by place in their
    pack (given s every pack's order is uniform, so they are a uniform s_bi-subset of its places)."""
    books, m = win.shape
    per = [h.sum(axis=1) for _, h, _ in caps]
    every = np.sum(per, axis=0)
    found: list[Finding | None] = []
    for (label, _, most), c in zip(caps, per, strict=True):
        found.append(winners_given(f"capped tickets ({label}) per {unit} given the other caps' tickets: "
                                   f"{books:,} {unit}s", cap_given_others(m, most), every - c, c, m))
    labels = ", ".join(label for label, _, _ in caps)
    found.append(winners_given(f"winners per {unit} of {m} given its capped tickets ({labels}): {books:,} "
                               f"{unit}s", Law(m, 0, m, None, 1).given_c, every, win.sum(axis=1), m))
    for label, held, _ in caps:
        found.append(place_finding(f"capped tickets ({label})", unit, held, 1))
    return found
