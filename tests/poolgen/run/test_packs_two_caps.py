"""The exact draw under two caps of one a pack (poolgen/run/packs/two_caps.py, docs/randomness.md 5.9),
on pools small enough to count every valid sequence by brute force (every pack's count vector checked
against the rules, its orders counted as a multinomial; not the formula the sampler uses).

Compositions: a composition (every pack's count vector) weighs the number of valid sequences with it;
2,000 draws compared with it by Pearson's chi-square (cells pooled to at least 5 expected). Sequences:
on a pool of 3 packs of 3, 6,000 draws compared with the uniform law over every valid sequence. The
same comparison with the colourings K(t) left out of the sampler (the law of 5.7's merged cap, tilted)
must fail. Every draw meets every rule and keeps every count. The seeds are fixed: the tests are
deterministic, their p-values in the asserts' messages."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from poolgen.rng import derive_stream
from poolgen.run.packs import NoArrangement, Rules, arrange
from poolgen.run.packs import two_caps as two_caps_module
from poolgen.run.packs.capped import exactly_capped
from poolgen.run.packs.spaced import exactly_spaced
from poolgen.run.packs.two_caps import colourings, exactly_two_capped, overlap_tilt, two_caps_per_pack
from tests.support import SEED_A
from tests.support.packs import pooled_chisquare

DRAWS = 2000
SEQUENCE_DRAWS = 6000
A, B = frozenset({1}), frozenset({2})


def _rules(m: int, books: int, counts: tuple[int, ...], first: frozenset[int] = A, second: frozenset[int] = B,
           lo: int = 0, hi: int | None = None) -> Rules:
    return Rules(m=m, books=books, counts=counts, prizes=(0, 100, 500, 200, 300)[:len(counts)], lo=lo,
                 hi=m if hi is None else hi, min_cents=None, caps=((first, 1), (second, 1)), spacing=())


def _pack_ways(rules: Rules, pack: tuple[int, ...]) -> int:
    """The valid orders of a pack with these counts (0 if it breaks a rule)."""
    wins = sum(pack[1:])
    if not rules.lo <= wins <= rules.hi:
        return 0
    if any(sum(pack[t] for t in tiers) > most for tiers, most in rules.caps):
        return 0
    return math.factorial(rules.m) // math.prod(math.factorial(n) for n in pack)


def exact(rules: Rules) -> dict[tuple[tuple[int, ...], ...], int]:
    """Composition -> number of valid sequences with it, by enumeration."""
    tiers = len(rules.counts)
    packs = {v: _pack_ways(rules, v) for v in itertools.product(range(rules.m + 1), repeat=tiers)
             if sum(v) == rules.m}
    packs = {v: n for v, n in packs.items() if n}

    def walk(left: tuple[int, ...], k: int) -> Iterator[tuple[tuple[tuple[int, ...], ...], int]]:
        if k == 0:
            if not any(left):
                yield (), 1
            return
        for v, n in packs.items():
            rest = tuple(a - b for a, b in zip(left, v, strict=True))
            if min(rest) >= 0:
                for tail, ways in walk(rest, k - 1):
                    yield (v, *tail), n * ways

    return dict(walk(rules.counts, rules.books))


def _draws(case: str, rules: Rules, n: int) -> Iterator[np.ndarray]:
    stream = derive_stream(SEED_A, "poolgen/test", "two caps", case)
    for _ in range(n):
        seq = arrange(stream, rules).reshape(rules.books, rules.m)
        assert np.bincount(seq.ravel(), minlength=len(rules.counts)).tolist() == list(rules.counts)
        wins = (seq > 0).sum(axis=1)
        assert ((wins >= rules.lo) & (wins <= rules.hi)).all()
        assert all((np.isin(seq, list(tiers)).sum(axis=1) <= most).all() for tiers, most in rules.caps)
        yield seq


def _compositions(case: str, rules: Rules) -> Counter:
    k = len(rules.counts)
    return Counter(tuple(tuple(np.bincount(p, minlength=k).tolist()) for p in seq)
                   for seq in _draws(case, rules, DRAWS))


CASES = [
    ("at most one A and one B, 4 packs of 4", _rules(4, 4, (7, 3, 3, 3))),
    ("winners 1..3, at most one A and one B, 4 packs of 4", _rules(4, 4, (7, 3, 3, 3), lo=1, hi=3)),
    ("5 capped tickets in 3 packs (two hold both), 3 packs of 4", _rules(4, 3, (4, 3, 2, 3))),
    ("at most one of A or B and one D, 4 packs of 3", _rules(3, 4, (4, 1, 2, 3, 2), frozenset({1, 2}),
                                                             frozenset({3}))),
    ("no other winners, winners 0..2, 4 packs of 3", _rules(3, 4, (6, 3, 3), hi=2)),
    ("two A, two B, two D, 6 packs of 3", _rules(3, 6, (12, 2, 2, 2))),
    ("three A, three B, 6 packs of 2", _rules(2, 6, (6, 3, 3))),
]


@pytest.mark.parametrize(("case", "rules"), CASES)
def test_compositions_follow_the_exact_constrained_distribution(case, rules):
    assert exactly_two_capped(rules) and not exactly_capped(rules) and not exactly_spaced(rules)
    seen = _compositions(case, rules)
    weights = exact(rules)
    assert set(seen) <= set(weights)
    p = pooled_chisquare(seen, weights)
    assert p > 0.001, f"{case}: compositions, chi-square p = {p:.3g}"


def test_the_same_test_fails_when_the_colourings_are_left_out(monkeypatch):
    """Without K(n2) the sampler draws 5.7's law for one cap of two on A and B together (tilted):
    packs holding an A and a B lose their weight 2 and the colourings' count."""
    case, rules = CASES[6]
    monkeypatch.setattr(two_caps_module, "colourings", lambda c1, c2, both: 1)
    p = pooled_chisquare(_compositions(case, rules), exact(rules))
    assert p < 1e-6, f"{case} drawn without K: chi-square p = {p:.3g}"


def test_whole_sequences_are_uniform_among_the_valid_ones():
    rules = _rules(3, 3, (5, 2, 2))
    weights = exact(rules)
    valid = sum(weights.values())
    assert valid == 432  # of the 9! / (5! 2! 2!) = 756 orders of the pool
    seen = Counter(seq.tobytes() for seq in _draws("sequences", rules, SEQUENCE_DRAWS))
    assert len(seen) <= valid
    observed = [*seen.values(), *[0] * (valid - len(seen))]
    p = float(stats.chisquare(observed).pvalue)
    assert p > 0.001, f"{len(seen)} of {valid} sequences seen, chi-square p = {p:.3g}"


def test_the_colourings_are_counted():
    """K(t) against brute force: the orders of the C1 + C2 capped places (pack by pack, t packs
    holding two, in a fixed order of places) with at most one of each cap's tickets a pack."""
    for c1, c2 in itertools.product(range(5), repeat=2):
        for both in range(-1, 6):
            one = c1 + c2 - 2 * both
            if one < 0 or both < 0:
                assert colourings(c1, c2, both) == 0
                continue
            sizes = [2] * both + [1] * one
            brute = 0
            for seq in set(itertools.permutations((1,) * c1 + (2,) * c2)):
                at, ok = 0, True
                for size in sizes:
                    ok &= len(set(seq[at:at + size])) == size
                    at += size
                brute += ok
            assert colourings(c1, c2, both) == brute, (c1, c2, both)


def test_the_overlap_tilt():
    """z = K(t + 1) / K(t) at t = C1 C2 // B: 2 (C1 - t)(C2 - t) / ((C - 2t)(C - 2t - 1))."""
    assert overlap_tilt(450, 500, 1000) == Fraction(colourings(450, 500, 226), colourings(450, 500, 225))
    assert overlap_tilt(450, 500, 1000) == Fraction(2 * 225 * 275, 500 * 499)
    assert overlap_tilt(3, 2, 4) == Fraction(colourings(3, 2, 2), colourings(3, 2, 1))  # t = 6 // 4 = 1
    assert overlap_tilt(4, 4, 5) == Fraction(colourings(4, 4, 4), colourings(4, 4, 3))  # 16 // 5 lowered to 3
    assert overlap_tilt(0, 5, 10) == 1  # no t with both colourings


def test_a_full_size_pool():
    """1,000 packs of 300, 87,900 winners of which 450 and 500 capped, winners 80..110: exact counts."""
    stream = derive_stream(SEED_A, "poolgen/test", "two caps", "full")
    w, c1, c2 = two_caps_per_pack(stream, 300, 1000, 87_900, 80, 110, 450, 500)
    assert sum(w) == 87_900 and sum(c1) == 450 and sum(c2) == 500 and min(w) >= 80 and max(w) <= 110
    assert set(c1) == set(c2) == {0, 1}


@pytest.mark.parametrize(("rules", "exact_path"), [
    (_rules(4, 4, (7, 3, 3, 3)), True),
    (_rules(4, 4, (7, 3, 3, 3), lo=1, hi=3), True),
    (Rules(m=4, books=4, counts=(7, 3, 3, 3), prizes=(0, 1, 5, 2), lo=0, hi=4, min_cents=None,
           caps=((A, 1), (B, 2)), spacing=()), False),  # a cap of two
    (_rules(4, 4, (7, 3, 3, 3), frozenset({1, 2}), B), False),  # overlapping caps
    (Rules(m=4, books=4, counts=(7, 3, 3, 3), prizes=(0, 1, 5, 2), lo=0, hi=4, min_cents=None,
           caps=((A, 1), (B, 1), (frozenset({3}), 1)), spacing=()), False),  # three caps
    (Rules(m=4, books=4, counts=(7, 3, 3, 3), prizes=(0, 1, 5, 2), lo=0, hi=4, min_cents=200,
           caps=((A, 1), (B, 1)), spacing=()), False),  # a value floor
    (Rules(m=4, books=4, counts=(7, 3, 3, 3), prizes=(0, 1, 5, 2), lo=0, hi=4, min_cents=None,
           caps=((A, 1), (B, 1)), spacing=((B, 2),)), False),  # a spacing rule
    (_rules(4, 4, (7, 3, 3, 3), frozenset({0, 1})), False),  # losers capped (no spec can say it)
])
def test_what_the_exact_path_covers(rules, exact_path):
    assert exactly_two_capped(rules) is exact_path


@pytest.mark.parametrize(("rules", "short"), [
    (_rules(4, 2, (3, 3, 1, 1)), ["caps[0]"]),  # 3 A in 2 packs of at most one
    (_rules(4, 4, (9, 1, 3, 3), lo=2), ["min_winners"]),  # 7 winners, 4 packs of 2 or more
    (_rules(4, 3, (6, 2, 3, 1), hi=1), ["max_winners"]),  # 6 winners, 3 packs of at most 1
])
def test_what_no_pool_allows_is_refused_not_drawn_forever(rules, short):
    with pytest.raises(NoArrangement) as caught:
        arrange(derive_stream(SEED_A, "poolgen/test", "two caps", "refused"), rules)
    assert caught.value.short == short
