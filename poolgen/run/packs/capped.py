"""The exact draw under one cap (docs/randomness.md, 5.6 and 5.7), with or without winners bounds, and
no other composition parameter: "at most one $100 per pack", "at most two $20 per pack".

B packs of m tickets, W winners, C tickets of the capped tiers S (all winners), winners per pack in
[lo, hi]. A valid sequence is: per pack its winners w_b and capped tickets c_b in {0, 1}, which of
its tickets win (C(m, w_b) ways) and which of those are capped (C(w_b, c_b) = w_b^c_b ways), then the
capped tiers in order over the C capped places (C! / prod n_t! ways, t in S) and the other winners'
tiers over the other W - C (the same for every (w, c)). So

    P(w, c) proportional to prod C(m, w_b) w_b^c_b,  lo <= w_b <= hi, sum w = W, c in {0,1}^B, sum c = C.

Its marginal P(c) is the sum over w, a symmetric function of c: every c with sum C has the same
multiset of values (C ones), so the same weight: the capped packs are a uniform C-subset. Given c,
w is drawn by probabilistic divide-and-conquer as in 5.2 with two weight tables, q0(w) = C(m, w) x^w
for packs without a capped ticket and q1(w) = w q0(w) for packs with one, x the tilt (`mixed_tilt`)
that only sets the speed.

A cap of k > 1 (5.7): the same law with C(w_b, c_b) for w_b^c_b and c_b in 0..k, where the multisets
of c differ; (w_b, c_b) is then drawn as a pair by two-dimensional divide-and-conquer, weights
C(m, w) C(w, c) x^w y^c (`pair_tilt`), the last pack's pair the rest (`pairs_per_pack`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache

import numpy as np

from poolgen.rng import Stream, Weights, big_integers, permutation
from poolgen.run.packs.chain import NoArrangement
from poolgen.run.packs.composition import TILT_BITS, Rules, in_tiers, ordered

__all__ = ["apart", "arrange_capped", "capped_per_pack", "dealt", "exactly_capped", "mixed_tilt", "pair_tilt",
           "pair_ways", "pairs_per_pack", "PairTable", "possible"]

TILT_ROUNDS = 4  # rounds of the two bisections of `pair_tilt`


def exactly_capped(rules: Rules) -> bool:
    """Whether 5.6 or 5.7 applies: one cap, beside winners bounds at most."""
    return len(rules.caps) == 1 and rules.min_cents is None and not rules.spacing


@lru_cache(maxsize=64)
def mixed_tilt(m: int, books: int, total: int, lo: int, hi: int, capped: int) -> Fraction:
    """x = u / 2**TILT_BITS, u the largest whole number in [1, 2**62) with the mean winners a pack,
    (capped E1 + (books - capped) E0) / books, at most total / books (E0, E1 the means of q0 and q1 on
    [lo, hi]): bisection in exact integer arithmetic, as `composition.tilt`. Only the speed depends on
    it. With S_j = sum over w of w^j C(m, w) u^(w - lo) 2^(TILT_BITS (hi - w)), E0 = S1 / S0 and
    E1 = S2 / S1, so the mean exceeds total / books iff capped S2 S0 + (books - capped) S1^2 >
    total S1 S0."""
    coef = [[w**j * math.comb(m, w) << (TILT_BITS * (hi - w)) for w in range(lo, hi + 1)] for j in range(3)]

    def above(u: int) -> bool:
        s = []
        for row in coef:  # Horner's rule, highest power first
            acc = 0
            for c in reversed(row):
                acc = acc * u + c
            s.append(acc)
        return capped * s[2] * s[0] + (books - capped) * s[1] * s[1] > total * s[1] * s[0]

    low, high = 1, 1 << 62
    if above(low):
        return Fraction(1, 1 << TILT_BITS)
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (low, mid) if above(mid) else (mid, high)
    return Fraction(low, 1 << TILT_BITS)


def capped_per_pack(stream: Stream, m: int, books: int, total: int, lo: int, hi: int,
                    capped: int) -> tuple[list[int], list[int]]:
    """(w, c) with P proportional to prod C(m, w_b) w_b^c_b (exact): c a uniform C-subset (the first
    `capped` entries of `permutation(stream, books)` are the capped packs), then w by
    divide-and-conquer: packs 0..B-2 drawn independently, those with c_b = 1 from q1 in pack order
    (one `choices` of their number), then those with c_b = 0 from q0; w_{B-1} the rest, accepted iff
    lo <= w_{B-1} <= hi and `big_integers(max q)` < q(w_{B-1}), q its pack's table; else w again."""
    c = np.zeros(books, dtype=np.int64)
    c[permutation(stream, books)[:capped]] = 1
    flags = c.tolist()
    if books * lo == total or books * hi == total:
        return [total // books] * books, flags
    tables, top, drawn = _capped_tables(m, books, total, lo, hi, capped)
    first = c[:-1]
    ones, zeros = np.flatnonzero(first == 1), np.flatnonzero(first == 0)
    last = flags[-1]
    while True:
        w = np.zeros(books, dtype=np.int64)
        w[ones] = lo + drawn[1].choices(stream, ones.size)
        w[zeros] = lo + drawn[0].choices(stream, zeros.size)
        rest = total - int(w[:-1].sum())
        if lo <= rest <= hi and big_integers(stream, top[last], 1)[0] < tables[last][rest - lo]:
            w[-1] = rest
            return w.tolist(), flags


@lru_cache(maxsize=64)
def _capped_tables(m: int, books: int, total: int, lo: int, hi: int,
                   capped: int) -> tuple[tuple[list[int], list[int]], list[int], list[Weights]]:
    """`capped_per_pack`'s tables q0 and q1, their largest weights and the tables drawing by them (pure:
    remembered, as `mixed_tilt`: small pools are drawn thousands of times with the same figures)."""
    x = mixed_tilt(m, books, total, lo, hi, capped)
    a, b = x.numerator, x.denominator
    q0 = [math.comb(m, w) * a**w * b**(hi - w) for w in range(lo, hi + 1)]
    tables = (q0, [w * q for w, q in zip(range(lo, hi + 1), q0, strict=True)])
    return tables, [max(t) for t in tables], [Weights(t) for t in tables]


def largest(above: Callable[[int], bool]) -> int:
    """The largest u in [1, 2**62) with above(u) false (1 if above(1)), by bisection; above turns true
    once as u grows (a tilted mean passing its target)."""
    low, high = 1, 1 << 62
    if above(low):
        return 1
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (low, mid) if above(mid) else (mid, high)
    return low


def horner(coef: list[int], u: int) -> int:
    """The polynomial sum coef[i] u^i, in exact integers."""
    acc = 0
    for c in reversed(coef):
        acc = acc * u + c
    return acc


def _bisect(coef: list[int]) -> int:
    """The largest u in [1, 2**62) at which the polynomial sum coef[i] u^i is not positive (1 if it
    is positive at 1): the polynomial's sign changes once, from - to +, as a tilted mean passes its
    target."""
    return largest(lambda u: horner(coef, u) > 0)


def apart(m: int, c: int, d: int) -> int:
    """The ways to place c tickets in a pack of m, every two at least d apart: C(m - (c-1)(d-1), c)
    (1 for c = 0, 0 when they do not fit); d = 1 is any c places, C(m, c)."""
    if c == 0:
        return 1
    room = m - (c - 1) * (d - 1)
    return math.comb(room, c) if room >= c else 0


def pair_ways(m: int, lo: int, hi: int, k: int, distance: int = 1) -> dict[tuple[int, int], int]:
    """The allowed pairs (w, c) of a pack, in order of w then c, and the ways to place them:
    apart(m, c, distance) C(m - c, w - c) (distance 1: C(m, c) C(m - c, w - c) = C(m, w) C(w, c)),
    on lo <= w <= hi, 0 <= c <= min(k, w) where the c tickets fit `distance` apart."""
    return {(w, c): apart(m, c, distance) * math.comb(m - c, w - c) for w in range(lo, hi + 1)
            for c in range(min(k, w) + 1) if apart(m, c, distance)}


def pair_tilt(m: int, books: int, total: int, lo: int, hi: int, capped: int, k: int,
              distance: int = 1, ways: dict[tuple[int, int], int] | None = None) -> tuple[int, int]:
    """(u, v), the tilt x = u / 2**TILT_BITS, y = v / 2**TILT_BITS of the pair weights
    ways(w, c) x^w y^c (`pair_ways`, or the `ways` given): starting from v = 2**TILT_BITS (y = 1),
    TILT_ROUNDS times, u the largest whole number in [1, 2**62) with the mean of w at most total / books
    given v, then v the largest with the mean of c at most capped / books given u (bisections in exact
    integer arithmetic). Only the speed depends on it."""
    t = TILT_BITS
    cs = range(k + 1)
    ways = pair_ways(m, lo, hi, k, distance) if ways is None else ways
    v = 1 << t
    u = 1
    for _ in range(TILT_ROUNDS):
        by_w = [(books * w - total) * sum(ways[w, c] * v**c << (t * (k - c)) for c in cs if (w, c) in ways)
                << (t * (hi - w)) for w in range(lo, hi + 1)]
        u = _bisect(by_w)
        by_c = [(books * c - capped) * sum(ways[w, c] * u**(w - lo) << (t * (hi - w))
                                           for w in range(max(lo, c), hi + 1) if (w, c) in ways)
                << (t * (k - c)) for c in cs]
        v = _bisect(by_c)
    return u, v


def pairs_per_pack(stream: Stream, m: int, books: int, total: int, lo: int, hi: int, capped: int,
                   k: int, distance: int = 1) -> tuple[list[int], list[int]]:
    """(w, c) with P proportional to prod ways(w_b, c_b) (`pair_ways`: C(m, w_b) C(w_b, c_b) for a cap,
    apart(m, c_b, distance) C(m - c_b, w_b - c_b) for a spacing rule), lo <= w_b <= hi, c_b <= k, sums
    total and capped (exact): the pairs of packs 0..B-2 drawn independently, one `choices` of B - 1
    from the pair weights (pairs in order of w, then c), the last pack's pair the rest, accepted iff
    allowed and `big_integers(max q)` < q(its pair); else again."""
    return _pair_table(m, books, total, lo, hi, capped, k, distance).draw(stream)


@lru_cache(maxsize=64)
def _pair_table(m: int, books: int, total: int, lo: int, hi: int, capped: int, k: int,
                distance: int) -> PairTable:
    """`pairs_per_pack`'s table (pure: remembered, as `mixed_tilt`)."""
    return PairTable(m, books, total, lo, hi, capped, k, pair_ways(m, lo, hi, k, distance))


class PairTable:
    """The tilted pair weights q(w, c) = ways(w, c) u^w v^c 2^(TILT_BITS (hi - w + k - c)) of 5.7's
    divide-and-conquer (`pair_tilt`), for any `ways` on pairs with lo <= w <= hi, c <= k."""

    def __init__(self, m: int, books: int, total: int, lo: int, hi: int, capped: int, k: int,
                 ways: dict[tuple[int, int], int]) -> None:
        u, v = pair_tilt(m, books, total, lo, hi, capped, k, ways=ways)
        t = TILT_BITS
        self.books, self.total, self.capped = books, total, capped
        pairs = list(ways)
        self.weight = [ways[w, c] * u**w * v**c << (t * (hi - w + k - c)) for w, c in pairs]
        self.at = {p: i for i, p in enumerate(pairs)}
        self.ws, self.cs = np.array([p[0] for p in pairs]), np.array([p[1] for p in pairs])
        self.top, self.table = max(self.weight), Weights(self.weight)

    def draw(self, stream: Stream) -> tuple[list[int], list[int]]:
        """(w, c) with P proportional to prod ways(w_b, c_b), sums total and capped: `choices` of B - 1
        pairs, the last the rest, accepted iff allowed and `big_integers(max q)` < q(last); else again."""
        while True:
            drawn = self.table.choices(stream, self.books - 1)
            last = (self.total - int(self.ws[drawn].sum()), self.capped - int(self.cs[drawn].sum()))
            if last in self.at and big_integers(stream, self.top, 1)[0] < self.weight[self.at[last]]:
                return [*self.ws[drawn].tolist(), last[0]], [*self.cs[drawn].tolist(), last[1]]


def possible(books: int, total: int, lo: int, hi: int, capped: int, k: int,
             field: str = "caps[0]") -> None:
    """NoArrangement unless some (w, c) is allowed: w within the bounds summing to `total`, and
    sum min(k, w_b) >= `capped` for the most even such w (the sum is concave in each w_b, so the
    most even w maximises it). Neither sampler would ever stop otherwise."""
    if not books * lo <= total <= books * hi:
        raise NoArrangement(f"{total} winners do not fit {books} packs of {lo} to {hi}",
                            ["min_winners" if total < books * lo else "max_winners"])
    q, r = divmod(total, books)
    if capped > r * min(k, q + 1) + (books - r) * min(k, q) or capped > total:
        raise NoArrangement(f"{capped} tickets of the {field} tiers do not fit {books} packs of at most {k}",
                            [field])


def arrange_capped(stream: Stream, rules: Rules) -> np.ndarray:
    """The exact draw of 5.6 (k = 1) or 5.7 as (books, m) tier indices: (w, c) by `capped_per_pack`
    or `pairs_per_pack`; the capped tiers (S's indices in tier order, each its count) permuted by
    `permutation(stream, C)`, the other winners' tiers likewise by `permutation(stream, W - C)`; pack b
    holds the next c_b capped, then the next w_b - c_b other winners, then losers, put in a uniform
    order (`composition.ordered`)."""
    tiers, most = rules.caps[0]
    index = np.arange(len(rules.counts), dtype=np.int16)
    counts = np.asarray(rules.counts)
    is_capped = in_tiers(rules, tiers)
    capped_labels = np.repeat(index[is_capped], counts[is_capped])
    other_labels = np.repeat(index[1:][~is_capped[1:]], counts[1:][~is_capped[1:]])
    winners = int(counts[1:].sum())
    possible(rules.books, winners, rules.lo, rules.hi, capped_labels.size, most)
    if most == 1:
        w, c = capped_per_pack(stream, rules.m, rules.books, winners, rules.lo, rules.hi, capped_labels.size)
    else:
        w, c = pairs_per_pack(stream, rules.m, rules.books, winners, rules.lo, rules.hi, capped_labels.size,
                              most)
    return ordered(stream, rules, dealt(stream, rules, w, c, capped_labels, other_labels), spaced=False)


def dealt(stream: Stream, rules: Rules, w: list[int], c: list[int], held: np.ndarray,
          others: np.ndarray) -> np.ndarray:
    """(books, m) tier indices: the held tiers (capped or spaced) and the other winners' tiers each in a
    uniform order (`permutation(stream, ...)`, held first), pack b taking the next c_b held tiers, then
    the next w_b - c_b others, then losers (5.6 step 4)."""
    held = held[permutation(stream, held.size)]
    others = others[permutation(stream, others.size)]
    content = np.zeros((rules.books, rules.m), dtype=np.int16)
    col = np.arange(rules.m)[None, :]
    wins, caps = np.asarray(w)[:, None], np.asarray(c)[:, None]
    content[col < caps] = held  # row-major: pack by pack, in pack order
    content[(col >= caps) & (col < wins)] = others
    return content
