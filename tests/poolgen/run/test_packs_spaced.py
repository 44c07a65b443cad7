"""The exact draw under one spacing rule (poolgen/run/packs/spaced.py, docs/randomness.md 5.8), on pools
small enough to count every valid sequence by brute force (every pack's m-tuple of tiers checked
against the rules, not the formula the sampler uses).

Compositions: a composition (A, B per pack) weighs the number of valid sequences with it (the product
of each pack's valid orders); 2,000 draws compared with it by Pearson's chi-square (cells pooled to at
least 5 expected). Sequences: on two pools of 3 packs of 4 (408 and 672 valid sequences), 4,000 draws
compared with the uniform law over every valid sequence. Every draw meets every rule and keeps every
count. The seeds are fixed: the tests are deterministic, their p-values in the asserts' messages."""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict

import numpy as np
import pytest
from scipy import stats

from poolgen.rng import derive_stream
from poolgen.run.packs import NoArrangement, Rules, arrange
from poolgen.run.packs.capped import apart, exactly_capped
from poolgen.run.packs.composition import spacing_ok
from poolgen.run.packs.spaced import exactly_spaced
from tests.support import SEED_A
from tests.support.packs import pooled_chisquare

DRAWS = 2000
SEQUENCE_DRAWS = 4000


def _rules(m: int, books: int, counts: tuple[int, ...], spaced: frozenset[int], d: int, lo: int = 0,
           hi: int | None = None, cap: int | None = None) -> Rules:
    return Rules(m=m, books=books, counts=counts, prizes=(0, 100, 500), lo=lo, hi=m if hi is None else hi,
                 min_cents=None, caps=() if cap is None else ((spaced, cap),), spacing=((spaced, d),))


def valid_packs(rules: Rules) -> dict[tuple[int, ...], list[tuple[int, ...]]]:
    """Count vector -> every order of a pack with it meeting the rules, by brute force."""
    (tiers, d), = rules.spacing
    out = defaultdict(list)
    for seq in itertools.product(range(len(rules.counts)), repeat=rules.m):
        at = [i for i, t in enumerate(seq) if t in tiers]
        if any(b - a < d for a, b in itertools.pairwise(at)):
            continue
        if not rules.lo <= sum(1 for t in seq if t) <= rules.hi:
            continue
        if any(len(at) > most for _, most in rules.caps):
            continue
        out[tuple(seq.count(t) for t in range(len(rules.counts)))].append(seq)
    return out


def exact(rules: Rules) -> dict[tuple[tuple[int, ...], ...], int]:
    """Composition (count vectors of the packs) -> number of valid sequences with it."""
    packs = valid_packs(rules)
    out = {}
    for comp in itertools.product(packs, repeat=rules.books):
        if tuple(map(sum, zip(*comp, strict=True))) == rules.counts:
            out[comp] = int(np.prod([len(packs[c]) for c in comp]))
    return out


def _draws(case: str, rules: Rules, n: int):
    stream = derive_stream(SEED_A, "poolgen/test", "spaced", case)
    tiers = list(rules.spacing[0][0])
    for _ in range(n):
        seq = arrange(stream, rules).reshape(rules.books, rules.m)
        assert np.bincount(seq.ravel(), minlength=len(rules.counts)).tolist() == list(rules.counts)
        wins = (seq > 0).sum(axis=1)
        assert ((wins >= rules.lo) & (wins <= rules.hi)).all()
        assert spacing_ok(rules, seq).all()
        assert all((np.isin(seq, tiers).sum(axis=1) <= most).all() for _, most in rules.caps)
        yield seq


CASES = [
    ("B at least 3 apart, 3 packs of 5", _rules(5, 3, (8, 4, 3), frozenset({2}), 3)),
    ("A or B at least 2 apart, 5 packs of 4", _rules(4, 5, (13, 4, 3), frozenset({1, 2}), 2)),
    ("A at least 2 apart and at most two a pack, 3 packs of 6", _rules(6, 3, (11, 4, 3), frozenset({1}), 2,
                                                                      cap=2)),
    ("B at least 4 apart (one a pack), 4 packs of 4", _rules(4, 4, (9, 4, 3), frozenset({2}), 4)),
    ("A at least 3 apart, winners 2..4, 3 packs of 6", _rules(6, 3, (11, 4, 3), frozenset({1}), 3, lo=2,
                                                             hi=4)),
]


@pytest.mark.parametrize(("case", "rules"), CASES)
def test_compositions_follow_the_exact_constrained_distribution(case, rules):
    assert exactly_spaced(rules) and not exactly_capped(rules)
    seen = Counter(tuple(tuple(np.bincount(p, minlength=3).tolist()) for p in seq)
                   for seq in _draws(case, rules, DRAWS))
    weights = exact(rules)
    assert set(seen) <= set(weights)
    p = pooled_chisquare(seen, weights)
    assert p > 0.001, f"{case}: compositions, chi-square p = {p:.3g}"


@pytest.mark.parametrize(("case", "rules", "valid"), [
    ("B at least 3 apart, 3 packs of 4", _rules(4, 3, (7, 1, 4), frozenset({2}), 3), 408),
    ("B at least 3 apart, winners 1..2, 3 packs of 4", _rules(4, 3, (8, 1, 3), frozenset({2}), 3, lo=1, hi=2),
     672),
])
def test_whole_sequences_are_uniform_among_the_valid_ones(case, rules, valid):
    weights = exact(rules)
    assert sum(weights.values()) == valid
    seen = Counter(seq.tobytes() for seq in _draws(case, rules, SEQUENCE_DRAWS))
    assert len(seen) <= valid
    observed = [*seen.values(), *[0] * (valid - len(seen))]
    p = float(stats.chisquare(observed).pvalue)
    assert p > 0.001, f"{case}: {len(seen)} of {valid} sequences seen, chi-square p = {p:.3g}"


def test_the_ways_to_space_a_pack_are_counted_by_the_formula():
    for m, c, d in itertools.product(range(1, 8), range(5), range(1, 5)):
        brute = sum(1 for at in itertools.combinations(range(m), c)
                    if all(b - a >= d for a, b in itertools.pairwise(at)))
        assert apart(m, c, d) == brute, (m, c, d)


@pytest.mark.parametrize(("rules", "exact_path"), [
    (_rules(4, 4, (9, 4, 3), frozenset({2}), 2), True),
    (_rules(4, 4, (9, 4, 3), frozenset({2}), 2, cap=1), True),
    (Rules(m=4, books=4, counts=(9, 4, 3), prizes=(0, 100, 500), lo=0, hi=4, min_cents=None,
           caps=((frozenset({1}), 1),), spacing=((frozenset({2}), 2),)), False),  # a cap on other tiers
    (Rules(m=4, books=4, counts=(9, 4, 3), prizes=(0, 100, 500), lo=0, hi=4, min_cents=200, caps=(),
           spacing=((frozenset({2}), 2),)), False),  # a value floor
    (Rules(m=4, books=4, counts=(9, 4, 3), prizes=(0, 100, 500), lo=0, hi=4, min_cents=None, caps=(),
           spacing=((frozenset({2}), 2), (frozenset({1}), 2))), False),  # two rules
    (_rules(4, 4, (9, 4, 3), frozenset({0, 2}), 2), False),  # losers spaced (no spec can say it)
])
def test_what_the_exact_path_covers(rules, exact_path):
    assert exactly_spaced(rules) is exact_path


@pytest.mark.parametrize(("rules", "short"), [
    (_rules(4, 2, (1, 3, 4), frozenset({2}), 4), ["spacing[0]"]),  # 4 B in 2 packs of one
    (_rules(6, 2, (5, 2, 5), frozenset({2}), 2, cap=2), ["caps[0]"]),  # 3 fit 2 apart, the cap says 2
    (_rules(4, 4, (9, 4, 3), frozenset({2}), 2, lo=2), ["min_winners"]),  # 7 winners, 4 packs of 2 or more
])
def test_what_no_pool_allows_is_refused_not_drawn_forever(rules, short):
    with pytest.raises(NoArrangement) as caught:
        arrange(derive_stream(SEED_A, "poolgen/test", "spaced", "refused"), rules)
    assert caught.value.short == short
