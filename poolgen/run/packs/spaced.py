"""The exact draw under one spacing rule (docs/randomness.md, 5.8), with or without winners bounds and
a cap on the same tiers, and no other composition parameter: "the $100 tickets of a pack at least 10
apart".

B packs of m tickets, W winners, C tickets of the spaced tiers S (all winners), every two of them in
one pack at least d apart in print order (`composition.spacing_ok` works pack by pack: nothing is
required between packs). A valid sequence is: per pack its winners w_b and spaced tickets c_b, the
places of the c_b spaced tickets (apart(m, c_b, d) = C(m - (c_b - 1)(d - 1), c_b) ways), those of the
other w_b - c_b winners among the other m - c_b places (C(m - c_b, w_b - c_b) ways), then the
spaced tiers in order over the C spaced places and the other winners' tiers over the other W - C (the
same for every (w, c)). So

    P(w, c) proportional to prod apart(m, c_b, d) C(m - c_b, w_b - c_b),  lo <= w_b <= hi,
        c_b <= min(k, w_b) where they fit, sum w = W, sum c = C,

5.7's law with apart(m, c, d) for C(m, c); it is drawn by 5.7's two-dimensional divide-and-conquer
(`capped.pairs_per_pack` with `distance`). Each pack's order is then drawn directly (`spaced_order`):
the spaced places a uniform choice among the apart(m, c_b, d) (a uniform c_b-subset y of the first
m - (c_b - 1)(d - 1) places, the i-th smallest moved on by i (d - 1)), the pack's other tickets in a
uniform order over the other places.
"""

from __future__ import annotations

import numpy as np

from poolgen.rng import Stream, row_permutations
from poolgen.run.packs.capped import dealt, pairs_per_pack, possible
from poolgen.run.packs.chain import NoArrangement
from poolgen.run.packs.composition import Rules, in_tiers, ordered_within

__all__ = ["ORDER_ROUNDS", "arrange_spaced", "chain_orders", "exactly_spaced", "spaced_order"]

ORDER_ROUNDS = 10_000  # uniform orders a chain's pack is given by rejection before it is drawn directly


def exactly_spaced(rules: Rules) -> bool:
    """Whether 5.8 applies: one spacing rule on winning tiers, beside winners bounds and a cap on the
    same tiers at most."""
    if len(rules.spacing) != 1 or rules.min_cents is not None or len(rules.caps) > 1:
        return False
    tiers = rules.spacing[0][0]
    return 0 not in tiers and all(capped == tiers for capped, _ in rules.caps)


def spaced_order(stream: Stream, content: np.ndarray, spaced: np.ndarray, distance: int) -> np.ndarray:
    """Each pack (a row of `content`: its c_b spaced tickets first, then the rest) in a uniform order
    among those keeping its spaced tickets `distance` apart: with p = `row_permutations(stream, B, m)`,
    the first c_b entries of row b of p below r_b = m - (c_b - 1)(d - 1) (a uniform c_b-subset of
    range(r_b)), sorted, the i-th moved on by i (d - 1), are the spaced places, filled with the
    spaced tickets in content order; with q = `row_permutations(stream, B, m)`, the entries of row b of
    q below m - c_b, in order, are a uniform permutation pi of range(m - c_b): the j-th other place
    (in print order) takes the pack's other ticket pi(j)."""
    books, m = content.shape
    c = spaced.astype(np.int64)
    room = np.where(c > 0, m - (c - 1) * (distance - 1), 0)
    p = row_permutations(stream, books, m)
    below = p < room[:, None]
    take = below & (np.cumsum(below, axis=1) <= c[:, None])
    rows = np.repeat(np.arange(books), c)
    keys = np.sort(rows * m + p[take])  # row by row, ascending
    rank = np.arange(keys.size) - np.repeat(np.cumsum(c) - c, c)
    places = keys - rows * m + rank * (distance - 1)
    out = np.empty_like(content)
    is_spaced = np.zeros((books, m), dtype=bool)
    is_spaced[rows, places] = True
    col = np.arange(m)[None, :]
    out[is_spaced] = content[col < c[:, None]]  # row-major: each pack's spaced places ascending
    q = row_permutations(stream, books, m)
    rest = m - c
    pi = q[q < rest[:, None]]  # row-major: each pack's permutation of range(m - c_b)
    others = content[col >= c[:, None]]
    out[~is_spaced] = others[np.repeat(np.cumsum(rest) - rest, rest) + pi]
    return out


def arrange_spaced(stream: Stream, rules: Rules) -> np.ndarray:
    """The exact draw of 5.8 as (books, m) tier indices: (w, c) by `capped.pairs_per_pack` with the
    rule's distance (c_b at most the cap, if any, and at most (m - 1) // d + 1, the most that fit);
    the spaced tiers (S's indices in tier order, each its count) permuted by `permutation(stream, C)`,
    the other winners' tiers by `permutation(stream, W - C)`; pack b holds the next c_b spaced, then
    the next w_b - c_b other winners, then losers, put in order by `spaced_order`."""
    tiers, distance = rules.spacing[0]
    fit = (rules.m - 1) // distance + 1
    most = min([fit, *(k for _, k in rules.caps)])
    index = np.arange(len(rules.counts), dtype=np.int16)
    counts = np.asarray(rules.counts)
    is_spaced = in_tiers(rules, tiers)
    spaced_labels = np.repeat(index[is_spaced], counts[is_spaced])
    other_labels = np.repeat(index[1:][~is_spaced[1:]], counts[1:][~is_spaced[1:]])
    winners = int(counts[1:].sum())
    possible(rules.books, winners, rules.lo, rules.hi, spaced_labels.size, most,
             "spacing[0]" if most == fit else "caps[0]")
    w, c = pairs_per_pack(stream, rules.m, rules.books, winners, rules.lo, rules.hi, spaced_labels.size,
                          most, distance)
    content = dealt(stream, rules, w, c, spaced_labels, other_labels)
    return spaced_order(stream, content, np.asarray(c), distance)


def chain_orders(stream: Stream, rules: Rules, content: np.ndarray) -> np.ndarray:
    """The chain's packs (rows of `content`, each of which has an order meeting the spacing rules) in
    order (docs/randomness.md 5.3, step 4): `ordered`'s rejection for at most ORDER_ROUNDS redraws;
    the packs still breaking a rule then, under one spacing rule, drawn directly (their tickets in a
    uniform order, the spaced ones moved stably to the front, put in order by `spaced_order`: uniform
    among the allowed orders given the pack's content, as the rejection's accepted order is), in pack
    order; under several rules, NoArrangement naming `spacing` (no direct draw of several is known).
    A pack accepting one order in C(m, c) would otherwise never be drawn (a pool hung)."""
    out, bad = ordered_within(stream, rules, content, ORDER_ROUNDS)
    if not bad.size:
        return out
    if len(rules.spacing) > 1:
        raise NoArrangement(f"{bad.size:,} pack(s) (pack {int(bad[0]) + 1:,} first) had no order meeting "
                            f"the spacing rules in {ORDER_ROUNDS:,} uniform orders: too many of their "
                            "tickets for several rules", ["spacing"])
    (tiers, distance), = rules.spacing
    rows = np.take_along_axis(content[bad], row_permutations(stream, bad.size, rules.m), axis=1)
    inset = np.isin(rows, list(tiers))
    front = np.take_along_axis(rows, np.argsort(~inset, axis=1, kind="stable"), axis=1)
    out[bad] = spaced_order(stream, front, inset.sum(axis=1), distance)
    return out
