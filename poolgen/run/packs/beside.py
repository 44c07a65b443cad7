"""The exact draw of a cap of one beside a second rule (docs/randomness.md, 5.9), with or without
winners bounds, and no other composition parameter: "at most one $100 and at most one $20 per pack",
"at most one $100 and at most two $20-or-more", "at most one $100, and no $20 or $100 back to back",
"at most one $200-or-more per block, and the $40 to $50 shares never back to back".

B packs of m tickets, W winners; the cap of one on winning tiers S1 (C1 tickets); the second rule on
winning tiers S2 (a cap of k, or a spacing rule of distance d with a cap of k on S2 or none), S1 apart
from S2 or inside it; T = S2 apart, S2 minus S1 inside (C2 tickets). Per pack: winners w_b, c1_b in
{0, 1} of S1, c2_b of T. A valid sequence is, per pack, the places of T's tickets (apart, d = 1 for a
cap: apart(m, c2_b, d)), of the other winners, and of S1's ticket among the winning places outside S2
(C(w_b - c2_b, c1_b)); inside, the places of S2's j_b = c1_b + c2_b tickets, of the other winners, and
which of the j_b is S1's (C(j_b, c1_b)); then the tiers over each group's places (constants). So

    P(w, c1, c2) proportional to prod_b f(w_b, c1_b, c2_b),  the same f for every pack

on the allowed values. The marginal of c1 is a sum over (w, c2) of a product symmetric in the packs,
so it is the same for every c1 with the same multiset of values: every C1-subset of packs (5.6's
argument): `permutation(stream, B)` picks it. Given c1, (w, c2) is drawn by 5.7's two-dimensional
divide-and-conquer with two tables, f0 = f(., 0, .) for packs without S1's ticket and f1 = f(., 1, .)
(`holding_one`) for those with one, tilted by `mixed_pair_tilt`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache, partial
from typing import NamedTuple

import numpy as np

from poolgen.rng import Stream, Weights, big_integers, permutation, row_permutations
from poolgen.run.packs.capped import TILT_ROUNDS, horner, largest, pair_ways, possible
from poolgen.run.packs.composition import TILT_BITS, Rules, in_tiers, ordered
from poolgen.run.packs.spaced import spaced_order

__all__ = ["Pair", "arrange_beside", "beside_per_pack", "beside_tilt", "exactly_beside", "holding_one",
           "mixed_pair_tilt", "one_and_other"]

Ways = dict[tuple[int, int], int]


class Pair(NamedTuple):
    """How 5.9 reads a pool's rules: the cap of one (`one`, its index; tiers S1), the second rule's
    tiers other than S1 (`others`, T: S2 itself when S1 and S2 are disjoint, S2 minus S1 when S1 lies
    inside S2), its `distance` (1 for a cap), its k (at most k tickets of S2 a pack) and its field."""

    one: int
    others: frozenset[int]
    nested: bool
    distance: int
    k: int
    field: str


def _placed(inner: frozenset[int], outer: frozenset[int]) -> bool | None:
    """Whether S1 = inner lies inside S2 = outer (True), apart from it (False), or neither (None)."""
    if not inner & outer:
        return False
    return True if inner < outer else None


@lru_cache(maxsize=256)  # pure: small pools are drawn thousands of times under the same rules
def one_and_other(rules: Rules) -> Pair | None:
    """How 5.9 applies, or None: no value floor, no losers in a rule; either two caps, one of them of
    one on tiers S1 apart from or inside the other's S2 (the first such), and no spacing rule; or one
    spacing rule on S2, a cap of one on tiers S1 apart from or inside S2, and at most one more cap, on
    exactly S2."""
    if rules.min_cents is not None or any(0 in tiers for tiers, _ in (*rules.caps, *rules.spacing)):
        return None
    if len(rules.caps) == 2 and not rules.spacing:
        for one in (0, 1):
            (s1, k1), (s2, k2) = rules.caps[one], rules.caps[1 - one]
            nested = _placed(s1, s2)
            if k1 == 1 and nested is not None:
                return Pair(one, s2 - s1, nested, 1, k2, f"caps[{1 - one}]")
        return None
    if len(rules.spacing) != 1 or not 1 <= len(rules.caps) <= 2:
        return None
    spaced, d = rules.spacing[0]
    ones = [i for i, (tiers, k) in enumerate(rules.caps) if k == 1 and tiers != spaced
            and _placed(tiers, spaced) is not None]
    own = [k for tiers, k in rules.caps if tiers == spaced]
    if len(ones) != 1 or len(ones) + len(own) != len(rules.caps):
        return None
    s1 = rules.caps[ones[0]][0]
    fit = (rules.m - 1) // d + 1
    k = min([fit, *own])
    return Pair(ones[0], spaced - s1, s1 < spaced, d, k, "spacing[0]" if k == fit else f"caps[{1 - ones[0]}]")


def exactly_beside(rules: Rules) -> bool:
    """Whether 5.9 applies (`one_and_other`)."""
    return one_and_other(rules) is not None


def _mean_above(polys: list[tuple[int, list[int], list[int]]], u: int, *, target: int) -> bool:
    """Whether sum_t n_t A_t(u) / Z_t(u) > target for (n_t, Z_t, A_t) in polys (exact: both sides
    times prod Z_t)."""
    zs = [horner(z, u) for _, z, _ in polys]
    prod = 1
    for z in zs:
        prod *= z
    lhs = 0
    for i, (n, _, a) in enumerate(polys):
        rest = 1
        for j, z in enumerate(zs):
            if j != i:
                rest *= z
        lhs += n * horner(a, u) * rest
    return lhs > target * prod


def mixed_pair_tilt(tables: list[tuple[int, Ways]], total: int, lo: int, hi: int, held: int,
                    k: int) -> tuple[int, int]:
    """(u, v), the tilt x = u / 2**TILT_BITS, y = v / 2**TILT_BITS of pair weights ways_t(w, c) x^w y^c
    used by n_t packs each (`tables`: (n_t, ways_t), sum n_t = B, pairs lo <= w <= hi, c <= k):
    starting from v = 2**TILT_BITS, TILT_ROUNDS times, u the largest whole number in [1, 2**62) with
    the packs' mean w at most total / B given v (sum_t n_t E_t[w] <= total), then v the largest with
    their mean c at most held / B given u; in exact integers: E_t[w] = A_t / Z_t, Z_t = sum of
    ways_t(w, c) u^(w - lo) v^c 2^(TILT_BITS (hi - w + k - c)), A_t the same sum weighted by w (by c
    for v). With one table it is `capped.pair_tilt`. Only the speed depends on it."""
    t = TILT_BITS
    used = [(n, ways) for n, ways in tables if n]
    v, u = 1 << t, 1
    for _ in range(TILT_ROUNDS):
        ys = [v**c << (t * (k - c)) for c in range(k + 1)]  # powers once a round, not per pair
        by_w = []
        for n, ways in used:
            z = [0] * (hi - lo + 1)
            for (w, c), f in ways.items():
                z[w - lo] += f * ys[c]
            z = [zw << (t * (hi - w)) for w, zw in zip(range(lo, hi + 1), z, strict=True)]
            by_w.append((n, z, [w * zw for w, zw in zip(range(lo, hi + 1), z, strict=True)]))
        u = largest(partial(_mean_above, by_w, target=total))
        xs = [u**(w - lo) << (t * (hi - w)) for w in range(lo, hi + 1)]
        by_c = []
        for n, ways in used:
            z = [0] * (k + 1)
            for (w, c), f in ways.items():
                z[c] += f * xs[w - lo]
            z = [zc << (t * (k - c)) for c, zc in enumerate(z)]
            by_c.append((n, z, [c * zc for c, zc in enumerate(z)]))
        v = largest(partial(_mean_above, by_c, target=held))
    return u, v


def holding_one(f0: Ways, nested: bool) -> Ways:
    """f(., 1, .) from f(., 0, .) (pairs (w, c), c the tickets of T): S1 apart from S2, a pack holding
    S1's ticket chooses its place among its w - c winning places outside S2, f1(w, c) = (w - c) f0(w, c)
    (pairs with w = c dropped); S1 inside S2, its c + 1 tickets of S2 are placed as S2's are and S1's
    is one of them, f1(w, c) = (c + 1) f0(w, c + 1) (pairs without (w, c + 1) in f0 dropped)."""
    if nested:
        return {(w, c - 1): n * c for (w, c), n in f0.items() if c > 0}
    return {(w, c): n * (w - c) for (w, c), n in f0.items() if w > c}


@lru_cache(maxsize=64)
def beside_tilt(m: int, books: int, total: int, lo: int, hi: int, first: int, second: int, k: int,
                distance: int, nested: bool = False) -> tuple[int, int]:
    """The tilt (u, v) of 5.9: `mixed_pair_tilt` of f0 = `pair_ways(m, lo, hi, k, distance)` for
    B - C1 packs and f1 = `holding_one(f0, nested)` for C1 (remembered: small pools are drawn thousands
    of times with the same figures)."""
    f0 = pair_ways(m, lo, hi, k, distance)
    return mixed_pair_tilt([(books - first, f0), (first, holding_one(f0, nested))], total, lo, hi, second, k)


@lru_cache(maxsize=64)
def _beside_table(m: int, books: int, total: int, lo: int, hi: int, first: int, second: int, k: int,
                  distance: int, nested: bool, i: int, holding: Callable[[Ways, bool], Ways],
                  ) -> tuple[np.ndarray, dict[tuple[int, int], int], list[int], Weights, int]:
    """`beside_per_pack`'s table of f_i tilted (f0 = f(., 0, .), f1 = `holding`(f0) = f(., 1, .)): its
    pairs (in order), each pair's place, the weights, the table drawing by them and the largest weight
    (pure: remembered, as `beside_tilt`; `holding` in the key, so a replaced factor makes its own)."""
    f0 = pair_ways(m, lo, hi, k, distance)
    f = holding(f0, nested) if i else f0
    u, v = beside_tilt(m, books, total, lo, hi, first, second, k, distance, nested)
    t = TILT_BITS
    xs = [u**w << (t * (hi - w)) for w in range(hi + 1)]  # powers once, not per pair
    ys = [v**c << (t * (k - c)) for c in range(k + 1)]
    pairs = list(f)
    weight = [f[w, c] * xs[w] * ys[c] for w, c in pairs]
    grid = np.array(pairs, dtype=np.int64).reshape(-1, 2)
    grid.flags.writeable = False  # remembered: read only
    return grid, {p: j for j, p in enumerate(pairs)}, weight, Weights(weight), max(weight)


def beside_per_pack(stream: Stream, m: int, books: int, total: int, lo: int, hi: int, first: int,
                    second: int, k: int, distance: int = 1,
                    nested: bool = False) -> tuple[list[int], list[int], list[int]]:
    """(w, c1, c2) with P proportional to prod f(w_b, c1_b, c2_b) (exact), lo <= w_b <= hi, c1_b in
    {0, 1}, c2_b the pack's tickets of T (c2_b <= k, or c1_b + c2_b <= k when S1 lies inside S2:
    `nested`), sums total, `first` (C1) and `second` (C2): c1 from the first C1 entries of
    `permutation(stream, B)`; then repeatedly, with f0 = f(., 0, .) and f1 = f(., 1, .) tilted by
    `mixed_pair_tilt` (q_i(w, c) = f_i(w, c) u^w v^c 2^(TILT_BITS (hi - w + k - c))), one
    `choices` of the pairs of the packs 0..B-2 with c1_b = 1 from q1 (in pack order), one of those with
    c1_b = 0 from q0; the last pack's pair the rest, accepted iff allowed and
    `big_integers(max q)` < q(its pair), q its table; else again."""
    c1 = np.zeros(books, dtype=np.int64)
    c1[permutation(stream, books)[:first]] = 1
    flags = c1.tolist()
    figures = (m, books, total, lo, hi, first, second, k, distance, nested)
    # a table no pack uses may be empty (f1 without winners); f1 is made by the `holding_one` in force
    tables = {i: _beside_table(*figures, i, holding_one) for i in range(2) if i in flags}
    ones, zeros = np.flatnonzero(c1[:-1] == 1), np.flatnonzero(c1[:-1] == 0)
    _, at_last, weight_last, _, top_last = tables[flags[-1]]
    w, c2 = np.zeros(books, dtype=np.int64), np.zeros(books, dtype=np.int64)
    while True:
        for rows, i in ((ones, 1), (zeros, 0)):
            if rows.size:
                grid, _, _, table, _ = tables[i]
                drawn = grid[table.choices(stream, rows.size)]
                w[rows], c2[rows] = drawn[:, 0], drawn[:, 1]
        last = (total - int(w[:-1].sum()), second - int(c2[:-1].sum()))
        if last in at_last and big_integers(stream, top_last, 1)[0] < weight_last[at_last[last]]:
            w[-1], c2[-1] = last
            return w.tolist(), flags, c2.tolist()


@lru_cache(maxsize=256)
def _labels(rules: Rules, tiers: frozenset[int]) -> np.ndarray:
    """The tier index of each of the pool's tickets of `tiers`, in tier order (remembered: read only)."""
    index = np.arange(len(rules.counts), dtype=np.int16)
    keep = in_tiers(rules, tiers)
    labels = np.repeat(index[keep], np.asarray(rules.counts)[keep])
    labels.flags.writeable = False
    return labels


def arrange_beside(stream: Stream, rules: Rules) -> np.ndarray:
    """The exact draw of 5.9 as (books, m) tier indices: (w, c1, c2) by `beside_per_pack`; T's tiers
    (their indices in tier order, each its count) permuted by `permutation(stream, C2)`, then S1's by
    `permutation(stream, C1)`, then the other winners' by `permutation(stream, W - C1 - C2)`; pack b
    holds the next c2_b of T, the next c1_b of S1, the next w_b - c1_b - c2_b others, then losers, put
    in a uniform order (`composition.ordered`) under two caps, by `spaced.spaced_order` under a
    spacing rule (its spaced tickets the pack's c2_b, or with S1 inside S2 its c2_b + c1_b first ones,
    put in a uniform order first by `_shuffled_heads`)."""
    pair = one_and_other(rules)
    assert pair is not None
    s1 = rules.caps[pair.one][0]
    winners = sum(rules.counts[1:])
    first, second = _labels(rules, s1), _labels(rules, pair.others)
    others = _labels(rules, frozenset(range(1, len(rules.counts))) - s1 - pair.others)
    # enough: whenever both hold, some (w, c1, c2) is allowed (docs/randomness.md 5.9)
    possible(rules.books, winners, rules.lo, rules.hi, first.size, 1, f"caps[{pair.one}]")
    held = second.size + (first.size if pair.nested else 0)
    possible(rules.books, winners, rules.lo, rules.hi, held, pair.k, pair.field)
    w, c1, c2 = beside_per_pack(stream, rules.m, rules.books, winners, rules.lo, rules.hi, first.size,
                                second.size, pair.k, pair.distance, pair.nested)
    content = np.zeros((rules.books, rules.m), dtype=np.int16)
    col = np.arange(rules.m)[None, :]
    b, a, ws = np.asarray(c2)[:, None], np.asarray(c1)[:, None], np.asarray(w)[:, None]
    content[col < b] = second[permutation(stream, second.size)]  # row-major: pack by pack
    content[(col >= b) & (col < a + b)] = first[permutation(stream, first.size)]
    content[(col >= a + b) & (col < ws)] = others[permutation(stream, others.size)]
    if pair.distance == 1:
        return ordered(stream, rules, content, spaced=False)
    if not pair.nested:
        return spaced_order(stream, content, np.asarray(c2), pair.distance)
    heads = np.asarray(c1) + np.asarray(c2)
    return spaced_order(stream, _shuffled_heads(stream, content, heads), heads, pair.distance)


def _shuffled_heads(stream: Stream, content: np.ndarray, heads: np.ndarray) -> np.ndarray:
    """`content` with the first heads[b] entries of each row in a uniform order: with
    p = `row_permutations(stream, B, m)`, the entries of row b of p below heads[b], in order, are a
    uniform permutation sigma of range(heads[b]), and the row's i-th entry is the one that was its
    sigma(i)-th (new[i] = old[sigma(i)])."""
    books, m = content.shape
    p = row_permutations(stream, books, m)
    sigma = p[p < heads[:, None]]  # row-major: each row's permutation of range(heads[b])
    start = np.repeat(np.arange(books) * m, heads)
    rank = np.arange(heads.sum()) - np.repeat(np.cumsum(heads) - heads, heads)
    out = content.copy().reshape(-1)
    out[start + rank] = content.reshape(-1)[start + sigma]
    return out.reshape(books, m)
