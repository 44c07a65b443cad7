"""The exact draw under one cap (poolgen/run/packs/capped.py, docs/randomness.md 5.6 and 5.7), on
pools small enough to count every valid sequence: 4 packs of 4 tickets, three tiers (9 losers, 4 of A,
3 of B), at most one B a pack, with and without winners bounds; B and A capped together on 6 packs of
3; at most two A a pack on 3 packs of 6, with and without winners bounds; at most two of A or B on
4 packs of 4.

A composition (A, B per pack) weighs the number of valid sequences with it: prod over packs of the
pack's arrangements, m! / (losers! a! b!), when each pack meets the rules. 2,000 draws from one DRBG
stream are compared with it by Pearson's chi-square (cells pooled to at least 5 expected), and the
capped packs alone with the uniform C-subset the proof says they are; every draw meets every rule and
keeps every count. The seed is fixed: the test is deterministic, its p-values in the asserts' messages."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import pytest
from scipy import stats

from poolgen.rng import derive_stream
from poolgen.run.packs import NoArrangement, Rules, arrange
from poolgen.run.packs.capped import capped_per_pack, exactly_capped, mixed_tilt, pairs_per_pack
from poolgen.run.packs.composition import tilt
from tests.support import SEED_A
from tests.support.packs import pooled_chisquare

DRAWS = 2000


def _rules(m: int, books: int, counts: tuple[int, ...], capped: frozenset[int], lo: int = 0,
           hi: int | None = None, most: int = 1) -> Rules:
    return Rules(m=m, books=books, counts=counts, prizes=(0, 100, 500), lo=lo, hi=m if hi is None else hi,
                 min_cents=None, caps=((capped, most),), spacing=())


def exact(rules: Rules) -> dict[tuple[tuple[int, int], ...], int]:
    """Composition -> number of valid sequences with it."""
    m = rules.m
    tiers, most = rules.caps[0]
    ways = {}
    for a in range(m + 1):
        for b in range(m + 1 - a):
            held = (a if 1 in tiers else 0) + (b if 2 in tiers else 0)
            ok = rules.lo <= a + b <= rules.hi and held <= most
            ways[(a, b)] = math.factorial(m) // (math.factorial(m - a - b) * math.factorial(a)
                                                 * math.factorial(b)) if ok else 0
    out = {}
    for comp in itertools.product(ways, repeat=rules.books):
        if (sum(c[0] for c in comp), sum(c[1] for c in comp)) == rules.counts[1:]:
            weight = math.prod(ways[c] for c in comp)
            if weight:
                out[comp] = weight
    return out


CASES = [
    ("at most one B a pack", _rules(4, 4, (9, 4, 3), frozenset({2}))),
    ("winners 1..2 and at most one B a pack", _rules(4, 4, (9, 4, 3), frozenset({2}), lo=1, hi=2)),
    ("at most one of A or B a pack, winners 0..3", _rules(3, 6, (13, 3, 2), frozenset({1, 2}), hi=3)),
    ("at most two A a pack (5.7)", _rules(6, 3, (10, 5, 3), frozenset({1}), most=2)),
    ("winners 2..4 and at most two A a pack (5.7)", _rules(6, 3, (10, 5, 3), frozenset({1}), lo=2, hi=4,
                                                         most=2)),
    ("at most two of A or B a pack (5.7)", _rules(4, 4, (9, 4, 3), frozenset({1, 2}), most=2)),
]


@pytest.mark.parametrize(("case", "rules"), CASES)
def test_compositions_follow_the_exact_constrained_distribution(case, rules):
    assert exactly_capped(rules)
    stream = derive_stream(SEED_A, "poolgen/test", "capped", case)
    seen: Counter = Counter()
    capped_sets: Counter = Counter()
    tiers = list(rules.caps[0][0])
    for _ in range(DRAWS):
        seq = arrange(stream, rules).reshape(rules.books, rules.m)
        assert np.bincount(seq.ravel(), minlength=3).tolist() == list(rules.counts)
        wins = (seq > 0).sum(axis=1)
        assert ((wins >= rules.lo) & (wins <= rules.hi)).all()
        assert (np.isin(seq, tiers).sum(axis=1) <= rules.caps[0][1]).all()
        seen[tuple((int((p == 1).sum()), int((p == 2).sum())) for p in seq)] += 1
        capped_sets[tuple(np.flatnonzero(np.isin(seq, tiers).any(axis=1)).tolist())] += 1
    weights = exact(rules)
    assert set(seen) <= set(weights)
    p = pooled_chisquare(seen, weights)
    assert p > 0.001, f"{case}: compositions, chi-square p = {p:.3g}"
    if rules.caps[0][1] > 1:
        return
    held = sum(rules.counts[t] for t in tiers)
    subsets = list(itertools.combinations(range(rules.books), held))
    assert set(capped_sets) <= set(subsets)
    p = float(stats.chisquare([capped_sets[s] for s in subsets]).pvalue)
    assert p > 0.001, f"{case}: capped packs against a uniform {held}-subset, chi-square p = {p:.3g}"


def test_the_tilt_without_capped_tickets_is_the_winners_tilt_and_capped_ones_lower_it():
    assert mixed_tilt(300, 1000, 87900, 80, 110, 0) == tilt(300, 1000, 87900, 80, 110)
    assert mixed_tilt(300, 1000, 87900, 80, 110, 450) < tilt(300, 1000, 87900, 80, 110)


def test_the_capped_packs_and_winners_of_a_full_size_pool():
    """1,000 packs of 300, 87,900 winners of which 450 capped (at most one a pack), or 950 (at most two),
    winners 80..110: exact counts."""
    stream = derive_stream(SEED_A, "poolgen/test", "capped", "full")
    w, c = capped_per_pack(stream, 300, 1000, 87_900, 80, 110, 450)
    assert sum(w) == 87_900 and sum(c) == 450 and min(w) >= 80 and max(w) <= 110
    assert set(c) == {0, 1}
    w, c = pairs_per_pack(stream, 300, 1000, 87_900, 80, 110, 950, 2)
    assert sum(w) == 87_900 and sum(c) == 950 and min(w) >= 80 and max(w) <= 110 and max(c) == 2


@pytest.mark.parametrize(("rules", "short"), [
    (_rules(4, 2, (1, 4, 3), frozenset({1})), ["caps[0]"]),  # 4 A in 2 packs of at most one
    (_rules(4, 4, (9, 4, 3), frozenset({2}), lo=2), ["min_winners"]),  # 7 winners, 4 packs of 2 or more
    (_rules(4, 4, (9, 4, 3), frozenset({1, 2}), hi=1, most=2), ["max_winners"]),
])
def test_what_no_pool_allows_is_refused_not_drawn_forever(rules, short):
    """The loader refuses these before anything is drawn; the sampler refuses them too (the property
    test's random rules reach it), where it would otherwise draw for ever."""
    with pytest.raises(NoArrangement) as caught:
        arrange(derive_stream(SEED_A, "poolgen/test", "capped", "refused"), rules)
    assert caught.value.short == short
