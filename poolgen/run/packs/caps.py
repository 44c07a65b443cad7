"""The exact draw under several caps and nothing else (docs/randomness.md, 5.10): two or more caps on
pairwise disjoint winning tier sets, any `at_most` each, no winners bounds, no value floor, no spacing
rule ("at most two $100 and at most two $20 per pack", "at most one $100, one $50, one $20").

B packs of m tickets (T = B m), caps i = 1..r on tiers S_i with C_i tickets in the pool and at most k_i
a pack. Per pack b, c_bi of S_i. A valid sequence is, per pack, which places hold S_1's tickets, which
S_2's, ..., (a multinomial m! / (prod_i c_bi! (m - s_b)!), s_b = sum_i c_bi), then the tiers over each
group's places and over the rest (constants). So

    P(c) proportional to prod_b m! / (prod_i c_bi! (m - s_b)!),  c_bi <= k_i, sum_b c_bi = C_i.

Proposal: each cap alone by 5.2's one-dimensional draw (`winners_per_pack` with lo = 0, hi = k_i,
total C_i), law proportional to prod_b C(m, c_bi), the caps independent. Target over proposal, per
pack, prod_{i >= 2} falling(m - s_b,i-1, c_bi) / falling(m, c_bi) (s_b,i = c_b1 + ... + c_bi), each
factor at most 1: accepted with exactly that probability (N / D in whole numbers), else all r again.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from poolgen.rng import Stream, big_integers, permutation
from poolgen.run.packs.beside import exactly_beside
from poolgen.run.packs.chain import NoArrangement
from poolgen.run.packs.composition import Rules, in_tiers, ordered, winners_per_pack

__all__ = ["LEAST_ACCEPTANCE", "acceptance", "arrange_caps", "caps_alone", "caps_per_pack", "exactly_caps",
           "overlap"]

# 5.10 is used iff sum_{i<j} C_i C_j / T <= 69 / 10, i.e. the estimated acceptance
# exp(-sum C_i C_j / T) is at least exp(-6.9), about 1.0e-3, and the caps' tickets are at most half the
# pool (where the estimate holds; denser pools accept far less often than it says); else the chain of 5.3.
LEAST_ACCEPTANCE = (69, 10)


def caps_alone(rules: Rules) -> bool:
    """Whether the composition parameters are two or more caps on pairwise disjoint winning tier sets
    and nothing else (no winners bounds, no value floor, no spacing rule)."""
    if rules.min_cents is not None or rules.spacing or rules.lo > 0 or rules.hi < rules.m:
        return False
    sets = [tiers for tiers, _ in rules.caps]
    return (len(sets) >= 2 and not any(0 in s for s in sets)
            and all(not a & b for a, b in itertools.combinations(sets, 2)))


def _held(rules: Rules) -> list[int]:
    return [sum(rules.counts[t] for t in tiers) for tiers, _ in rules.caps]


def overlap(rules: Rules) -> tuple[int, int]:
    """sum_{i<j} C_i C_j and T: the estimated acceptance of 5.10 is exp(-(the first) / T)."""
    held = _held(rules)
    return sum(a * b for a, b in itertools.combinations(held, 2)), sum(rules.counts)


def acceptance(rules: Rules) -> str:
    """The estimated acceptance of one try, exp(-sum_{i<j} C_i C_j / T), said (for messages only)."""
    pairs, total = overlap(rules)
    x = pairs / total
    return f"exp(-{x:.3g})" + (f" = {math.exp(-x):.2g}" if x < 700 else "")


def exactly_caps(rules: Rules) -> bool:
    """Whether 5.10 applies: caps alone (`caps_alone`), not a case 5.9 takes, an estimated acceptance of
    at least about 1e-3 (LEAST_ACCEPTANCE[1] sum_{i<j} C_i C_j <= LEAST_ACCEPTANCE[0] T) and
    2 sum_i C_i <= T."""
    if not caps_alone(rules) or exactly_beside(rules):
        return False
    pairs, total = overlap(rules)
    return LEAST_ACCEPTANCE[1] * pairs <= LEAST_ACCEPTANCE[0] * total and 2 * sum(_held(rules)) <= total


def _ratio(m: int, c: list[list[int]]) -> tuple[int, int]:
    """(N, D): N / D = prod_b prod_{i >= 2} falling(m - s_b,i-1, c_bi) / falling(m, c_bi) (N = 0 when a
    pack's caps do not fit its m tickets)."""
    num, den = 1, 1
    for counts in zip(*c, strict=True):
        s = counts[0]
        for ci in counts[1:]:
            if ci:
                num = num * math.perm(m - s, ci) if m - s >= ci else 0
                den *= math.perm(m, ci)
            s += ci
    return num, den


def caps_per_pack(stream: Stream, m: int, books: int, held: list[int], most: list[int]) -> list[list[int]]:
    """c[i][b], cap i's tickets in pack b, with P proportional to prod_b m! / (prod_i c_bi! (m - s_b)!),
    c_bi <= most[i], sum_b c_bi = held[i] (exact): repeatedly, for each cap in order
    `winners_per_pack(stream, m, books, held[i], 0, min(most[i], m))`, then (N, D) (`_ratio`) and
    accepted iff `big_integers(stream, D, 1)[0]` < N."""
    for i, (count, k) in enumerate(zip(held, most, strict=True)):
        if count > books * min(k, m):
            raise NoArrangement(f"{count} tickets of the caps[{i}] tiers do not fit {books} packs of at most "
                                f"{k}", [f"caps[{i}]"])
    while True:
        c = [winners_per_pack(stream, m, books, count, 0, min(k, m))
             for count, k in zip(held, most, strict=True)]
        num, den = _ratio(m, c)
        if big_integers(stream, den, 1)[0] < num:
            return c


def arrange_caps(stream: Stream, rules: Rules) -> np.ndarray:
    """The exact draw of 5.10 as (books, m) tier indices: c by `caps_per_pack`; each cap's tiers (their
    indices in tier order, each its count) permuted by `permutation(stream, C_i)`, in cap order, then
    the other tickets' tiers (losers included) by `permutation(stream, T - sum C_i)`; pack b holds the
    next c_b1 of S_1, ..., the next c_br of S_r, then the next m - s_b others, put in a uniform order
    (`composition.ordered`, unspaced)."""
    index = np.arange(len(rules.counts), dtype=np.int16)
    counts = np.asarray(rules.counts)
    groups = []
    for tiers, _ in rules.caps:
        keep = in_tiers(rules, tiers)
        groups.append(np.repeat(index[keep], counts[keep]))
    rest = ~in_tiers(rules, frozenset().union(*(t for t, _ in rules.caps)))
    c = caps_per_pack(stream, rules.m, rules.books, [g.size for g in groups], [k for _, k in rules.caps])
    groups.append(np.repeat(index[rest], counts[rest]))
    per = np.asarray(c, dtype=np.int64).T  # (books, r)
    ends = np.concatenate([np.cumsum(per, axis=1), np.full((rules.books, 1), rules.m)], axis=1)
    starts = ends - np.concatenate([per, (rules.m - per.sum(axis=1))[:, None]], axis=1)
    col = np.arange(rules.m)[None, :]
    content = np.zeros((rules.books, rules.m), dtype=np.int16)
    for g, labels in enumerate(groups):
        at = (col >= starts[:, g:g + 1]) & (col < ends[:, g:g + 1])
        content[at] = labels[permutation(stream, labels.size)]  # row-major: pack by pack
    return ordered(stream, rules, content, spaced=False)
