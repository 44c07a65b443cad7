"""The exact draw under two caps of one a pack on disjoint tiers (docs/randomness.md, 5.9), with or
without winners bounds, and no other composition parameter: "at most one $100 and at most one $20 per
pack".

B packs of m tickets, W winners, C1 tickets of the tiers S1 of the first cap and C2 of the tiers S2 of
the second (S1, S2 disjoint winning tiers, C = C1 + C2), winners per pack in [lo, hi]. A valid
sequence is, per pack, its winners w_b, its tickets c1_b, c2_b in {0, 1} of S1 and S2; which of its m
places win (C(m, w_b) ways), which winning place holds the S1 ticket and which the S2 ticket
(w_b^(c1_b) (w_b - c1_b)^(c2_b) ways); then the tiers over the pool's C1 places of S1, its C2 of S2 and
its W - C other winning places (constants). With j_b = c1_b + c2_b, the ways of a pack are
C(m, w_b) C(w_b, j_b) j_b!, so

    P(w, c1, c2) proportional to prod_b C(m, w_b) C(w_b, j_b) j_b!.

Given (w, j), the colouring (which packs with j_b = 1 hold S1's ticket) is uniform among the
C(n1, C1 - n2) allowed (n_i packs with j_b = i; the packs with j_b = 2 hold one of each), and the law
of (w, j) is proportional to prod_b C(m, w_b) C(w_b, j_b) times K(n2) = 2^n2 C(C - 2 n2, C1 - n2),
a function of n2 alone. It is drawn by rejection from 5.7's two-dimensional divide-and-conquer for one
cap of two on S1 and S2 together, with the packs holding two weighted by a tilt z: the accepted pairs
have P proportional to prod_b C(m, w_b) C(w_b, j_b) z^n2, kept with probability
K(n2) z^-n2 / max_t K(t) z^-t. Exact for any z; z = K(t + 1) / K(t) at t = C1 C2 // B, the overlap of
two uniform placements, sets the pairs' mode of n2 near K's and so the rate.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from poolgen.rng import Stream, big_integers, permutation
from poolgen.run.packs.capped import PairTable, pair_ways, possible
from poolgen.run.packs.composition import Rules, ordered

__all__ = ["arrange_two_caps", "colourings", "exactly_two_capped", "overlap_tilt", "two_caps_per_pack"]


def exactly_two_capped(rules: Rules) -> bool:
    """Whether 5.9 applies: two caps of one a pack on disjoint winning tiers, beside winners bounds
    at most."""
    if len(rules.caps) != 2 or rules.min_cents is not None or rules.spacing:
        return False
    (s1, k1), (s2, k2) = rules.caps
    return k1 == 1 and k2 == 1 and not s1 & s2 and 0 not in s1 | s2


def colourings(c1: int, c2: int, both: int) -> int:
    """K(t), t = `both`: the ways to give C1 tickets of S1 and C2 of S2 to packs of which t hold two
    capped tickets and C1 + C2 - 2t hold one (in a fixed order of the two places of each pack holding
    two): each of the t holds one of each, in 2 orders, and C1 - t of the others hold S1's."""
    one = c1 + c2 - 2 * both
    if both < 0 or one < 0 or both > min(c1, c2):
        return 0
    return math.comb(one, c1 - both) << both


def overlap_tilt(c1: int, c2: int, books: int) -> Fraction:
    """z = K(t + 1) / K(t) at t = min(C1 C2 // B, min(C1, C2) - 1) (at least C - B, as C1, C2 <= B),
    1 where K(t) or K(t + 1) is 0. Only the speed depends on it."""
    t = min(c1 * c2 // books, min(c1, c2) - 1)
    now, then = colourings(c1, c2, t), colourings(c1, c2, t + 1)
    return Fraction(then, now) if now and then else Fraction(1)


def two_caps_per_pack(stream: Stream, m: int, books: int, total: int, lo: int, hi: int, c1: int,
                      c2: int) -> tuple[list[int], list[int], list[int]]:
    """(w, c1, c2) with P proportional to prod C(m, w_b) C(w_b, j_b) j_b! (exact), lo <= w_b <= hi,
    c1_b, c2_b in {0, 1}, sums total, C1, C2: repeatedly (w, j) by 5.7's divide-and-conquer
    (`PairTable.draw`) on the ways C(m, w) C(w, j) z_j (z_0 = z_1 = q, z_2 = p, z = p / q the
    `overlap_tilt`), then, n2 the packs with j_b = 2, accepted iff `big_integers(max a)` < a(n2) with
    a(t) = K(t) q^t p^(T - t), T = min(C1, C2), the max over max(0, C - B) <= t <= T; then the packs
    with j_b = 1 holding S1's ticket: the first C1 - n2 entries of `permutation(stream, n1)` index
    them among those packs in pack order."""
    z = overlap_tilt(c1, c2, books)
    p, q = z.numerator, z.denominator
    ways = {(w, j): n * (p if j == 2 else q) for (w, j), n in pair_ways(m, lo, hi, 2).items()}
    table = PairTable(m, books, total, lo, hi, c1 + c2, 2, ways)
    top_t = min(c1, c2)
    accept = {t: colourings(c1, c2, t) * q**t * p**(top_t - t)
              for t in range(max(0, c1 + c2 - books), top_t + 1)}
    top = max(accept.values())
    while True:
        w, j = table.draw(stream)
        both = j.count(2)
        if big_integers(stream, top, 1)[0] < accept.get(both, 0):
            break
    js = np.asarray(j)
    first, second = (js == 2).astype(np.int64), (js == 2).astype(np.int64)
    ones = np.flatnonzero(js == 1)
    order = permutation(stream, ones.size)
    first[ones[order[:c1 - both]]] = 1
    second[ones[order[c1 - both:]]] = 1
    return w, first.tolist(), second.tolist()


def _labels(rules: Rules, tiers: frozenset[int]) -> np.ndarray:
    index = np.arange(len(rules.counts), dtype=np.int16)
    keep = np.isin(index, list(tiers))
    return np.repeat(index[keep], np.asarray(rules.counts)[keep])


def arrange_two_caps(stream: Stream, rules: Rules) -> np.ndarray:
    """The exact draw of 5.9 as (books, m) tier indices: (w, c1, c2) by `two_caps_per_pack`; S1's tiers
    (their indices in tier order, each its count) permuted by `permutation(stream, C1)`, then S2's by
    `permutation(stream, C2)`, then the other winners' by `permutation(stream, W - C)`; pack b holds
    the next c1_b of S1, the next c2_b of S2, the next w_b - c1_b - c2_b others, then losers, put in a
    uniform order (`composition.ordered`)."""
    (s1, _), (s2, _) = rules.caps
    winners = sum(rules.counts[1:])
    first, second = _labels(rules, s1), _labels(rules, s2)
    others = _labels(rules, frozenset(range(1, len(rules.counts))) - s1 - s2)
    for field, held in (("caps[0]", first.size), ("caps[1]", second.size)):
        # enough, with the bounds it checks: some (w, j) then holds both caps (docs/randomness.md 5.9)
        possible(rules.books, winners, rules.lo, rules.hi, held, 1, field)
    w, c1, c2 = two_caps_per_pack(stream, rules.m, rules.books, winners, rules.lo, rules.hi, first.size,
                                  second.size)
    content = np.zeros((rules.books, rules.m), dtype=np.int16)
    col = np.arange(rules.m)[None, :]
    a, b, ws = np.asarray(c1)[:, None], np.asarray(c2)[:, None], np.asarray(w)[:, None]
    content[col < a] = first[permutation(stream, first.size)]  # row-major: pack by pack
    content[(col >= a) & (col < a + b)] = second[permutation(stream, second.size)]
    content[(col >= a + b) & (col < ws)] = others[permutation(stream, others.size)]
    return ordered(stream, rules, content, spaced=False)
