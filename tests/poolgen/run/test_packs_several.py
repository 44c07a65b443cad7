"""The exact draw under two or more spacing rules (poolgen/run/packs/several.py, docs/randomness.md 5.12),
on pools small enough to count every valid sequence by brute force (every pack's m-tuple of tiers
checked against every rule, not anything the sampler uses).

Compositions: a composition (each pack's count vector) weighs the number of valid sequences with it
(the product of each pack's valid orders); 2,000 draws compared with it by Pearson's chi-square (cells
pooled to at least 5 expected). Orders: every pack of those draws, given its count vector, against the
uniform law over that vector's valid orders (one chi-square over all vectors). Sequences: 4,000 draws of
a pool with few valid sequences against the uniform law over all of them. Every draw meets every rule
and keeps every count. The seeds are fixed: the tests are deterministic, their p-values in the asserts'
messages."""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from scipy import stats

from poolgen.rng import derive_stream
from poolgen.run.packs import NoArrangement, Rules, arrange
from poolgen.run.packs.beside import exactly_beside
from poolgen.run.packs.caps import exactly_caps
from poolgen.run.packs.composition import spacing_ok
from poolgen.run.packs.several import MAX_TRIES, exactly_several, primary
from poolgen.run.packs.spaced import exactly_spaced
from tests.support import SEED_A
from tests.support.packs import pooled_chisquare

DRAWS = 2000
SEQUENCE_DRAWS = 4000
A, B, D = frozenset({1}), frozenset({2}), frozenset({3})


def _rules(m: int, books: int, counts: tuple[int, ...], spacing: tuple[tuple[frozenset[int], int], ...],
           lo: int = 0, hi: int | None = None) -> Rules:
    return Rules(m=m, books=books, counts=counts, prizes=(0, 100, 500, 200)[: len(counts)], lo=lo,
                 hi=m if hi is None else hi, min_cents=None, caps=(), spacing=spacing)


def valid_packs(rules: Rules) -> dict[tuple[int, ...], list[tuple[int, ...]]]:
    """Count vector -> every order of a pack with it meeting the rules, by brute force."""
    out = defaultdict(list)
    for seq in itertools.product(range(len(rules.counts)), repeat=rules.m):
        if not rules.lo <= sum(1 for t in seq if t) <= rules.hi:
            continue
        if any(b - a < d for tiers, d in rules.spacing
               for a, b in itertools.pairwise([i for i, t in enumerate(seq) if t in tiers])):
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
    stream = derive_stream(SEED_A, "poolgen/test", "several", case)
    for _ in range(n):
        seq = arrange(stream, rules).reshape(rules.books, rules.m)
        assert np.bincount(seq.ravel(), minlength=len(rules.counts)).tolist() == list(rules.counts)
        wins = (seq > 0).sum(axis=1)
        assert ((wins >= rules.lo) & (wins <= rules.hi)).all()
        assert spacing_ok(rules, seq).all()
        yield seq


CASES = [
    ("A 2 apart, B 3 apart, 3 packs of 5", _rules(5, 3, (8, 4, 3), ((A, 2), (B, 3)))),
    ("A or B 2 apart, B 4 apart, 3 packs of 6", _rules(6, 3, (11, 4, 3), ((A | B, 2), (B, 4)))),
    ("A 2 apart, B 2 apart, winners 2..4, 3 packs of 6", _rules(6, 3, (11, 4, 3), ((A, 2), (B, 2)), 2, 4)),
    ("A, B and D 2, 2 and 3 apart, 3 packs of 4", _rules(4, 3, (7, 2, 2, 1), ((A, 2), (B, 2), (D, 3)))),
]


@pytest.mark.parametrize(("case", "rules"), CASES)
def test_compositions_and_orders_within_packs_follow_the_exact_constrained_law(case, rules):
    assert exactly_several(rules) and not exactly_spaced(rules) and not exactly_beside(rules)
    draws = list(_draws(case, rules, DRAWS))
    seen = Counter(tuple(tuple(np.bincount(p, minlength=len(rules.counts)).tolist()) for p in seq)
                   for seq in draws)
    weights = exact(rules)
    assert set(seen) <= set(weights)
    p = pooled_chisquare(seen, weights)
    assert p > 0.001, f"{case}: compositions, chi-square p = {p:.3g}"
    orders = valid_packs(rules)
    by_vector: dict[tuple[int, ...], Counter] = defaultdict(Counter)
    for pack in (tuple(p.tolist()) for seq in draws for p in seq):
        by_vector[tuple(pack.count(t) for t in range(len(rules.counts)))][pack] += 1
    chi, df = 0.0, 0
    for vector, counted in by_vector.items():
        allowed = orders[vector]
        assert set(counted) <= set(allowed)
        n = sum(counted.values())
        if len(allowed) > 1 and n >= 5 * len(allowed):  # each order expected at least 5 times
            chi += sum((counted[o] - n / len(allowed)) ** 2 / (n / len(allowed)) for o in allowed)
            df += len(allowed) - 1
    assert df > 0
    p = float(stats.chi2.sf(chi, df))
    assert p > 0.001, f"{case}: orders within packs given their vectors, chi-square p = {p:.3g} ({df} df)"


def test_whole_sequences_are_uniform_among_the_valid_ones():
    rules = _rules(3, 3, (4, 3, 2), ((A, 2), (B, 3)))
    weights = exact(rules)
    valid = sum(weights.values())
    assert valid == 522
    seen = Counter(seq.tobytes() for seq in _draws("sequences", rules, SEQUENCE_DRAWS))
    assert len(seen) <= valid
    observed = [*seen.values(), *[0] * (valid - len(seen))]
    p = float(stats.chisquare(observed).pvalue)
    assert p > 0.001, f"{len(seen)} of {valid} sequences seen, chi-square p = {p:.3g}"


# One pack of 13: four A at least 4 apart fit only at places 0, 4, 8 and 12; five B at least 2 apart
# then fit 9 ways among the 9 other places: 9 of the 13! / (4! 5! 4!) = 90,090 orders meet both rules,
# so the chain's rejection of uniform orders (10,000 a pack) gave up about one pool in e and refused it.
JUST_FITS = _rules(13, 1, (4, 4, 5), ((A, 4), (B, 2)))


def test_a_pack_that_just_fits_two_rules_is_drawn_not_refused():
    assert exactly_several(JUST_FITS) and primary(JUST_FITS) == 0
    for s in range(8):
        seq = arrange(derive_stream(SEED_A, "poolgen/test", "several", f"just fits {s}"), JUST_FITS)
        assert seq.tolist()[::4] == [1, 1, 1, 1]
        assert spacing_ok(JUST_FITS, seq.reshape(1, 13)).all()


@pytest.mark.parametrize(("rules", "exact_path"), [
    (_rules(5, 3, (8, 4, 3), ((A, 2), (B, 3))), True),
    (_rules(6, 3, (11, 4, 3), ((A, 2), (B, 2)), 2, 4), True),  # winners bounds beside them
    (_rules(300, 1000, (298_150, 500, 450), ((A, 2), (B, 3))), True),  # estimate exp(-0.83)
    (_rules(300, 1000, (298_150, 500, 450), ((A | B, 2), (B, 10))), True),  # exp(-3.008): at least exp(-4)
    (_rules(300, 1000, (298_000, 650, 450), ((A | B, 2), (B, 10))), False),  # 1,100^2 / 300,000: exp(-4.03)
    (_rules(5, 3, (8, 4, 3), ((A, 2),)), False),  # one rule: 5.8's
    (Rules(m=5, books=3, counts=(8, 4, 3), prizes=(0, 100, 500), lo=0, hi=5, min_cents=None,
           caps=((B, 1),), spacing=((A, 2), (B, 3))), False),  # a cap beside them: the chain's
    (Rules(m=5, books=3, counts=(8, 4, 3), prizes=(0, 100, 500), lo=0, hi=5, min_cents=200, caps=(),
           spacing=((A, 2), (B, 3))), False),  # a value floor
    (_rules(5, 3, (8, 4, 3), ((frozenset({0, 1}), 2), (B, 3))), False),  # losers spaced (no spec can say it)
])
def test_what_the_exact_path_covers(rules, exact_path):
    assert exactly_several(rules) is exact_path
    assert not exactly_caps(rules)


def test_the_primary_is_the_rule_a_uniform_order_breaks_most_the_first_of_equals():
    assert primary(_rules(300, 1000, (298_150, 500, 450), ((A, 2), (B, 3)))) == 1  # 450^2 x 2 > 500^2
    assert primary(_rules(5, 3, (9, 3, 3), ((A, 2), (B, 2)))) == 0


def test_what_no_pool_allows_is_refused_naming_the_rule_not_drawn_forever():
    with pytest.raises(NoArrangement) as caught:  # 4 B at least 4 apart in 2 packs of 4: the primary
        arrange(derive_stream(SEED_A, "poolgen/test", "several", "refused"),
                _rules(4, 2, (3, 1, 4), ((A, 2), (B, 4))))
    assert caught.value.short == ["spacing[1]"]
    # one pack of 5: two A at least 4 apart take places 0 and 4 (the primary alone allows it), and three
    # B at least 2 apart do not fit the places 1, 2, 3 left: every try breaks the second rule
    rules = _rules(5, 1, (0, 2, 3), ((A, 4), (B, 2)))
    assert exactly_several(rules) and primary(rules) == 0
    with pytest.raises(NoArrangement, match=f"no try of {MAX_TRIES:,} met every spacing rule") as caught:
        arrange(derive_stream(SEED_A, "poolgen/test", "several", "never"), rules)
    assert caught.value.short == ["spacing[1]"]


@st.composite
def several_rules(draw) -> Rules:
    """Small random pools (up to 3 packs of 4, three winning tiers) under two or three spacing rules on
    random tier sets (apart, overlapping or nested), distances 2 to 4, winners bounds or none."""
    m, books = draw(st.integers(2, 4)), draw(st.integers(1, 3))
    counts = [0] * 4
    for _ in range(m * books):
        counts[draw(st.integers(0, 3))] += 1
    sets = st.sets(st.integers(1, 3), min_size=1).map(frozenset)
    spacing = tuple((draw(sets), draw(st.integers(2, 4))) for _ in range(draw(st.integers(2, 3))))
    lo = draw(st.integers(0, m))
    hi = draw(st.integers(lo, m))
    return Rules(m=m, books=books, counts=tuple(counts), prizes=(0, 1, 2, 3), lo=lo, hi=hi, min_cents=None,
                 caps=(), spacing=spacing)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(several_rules(), st.integers(0, 2**32 - 1))
def test_any_pool_5_12_draws_meets_every_rule_and_only_pools_with_no_valid_sequence_are_refused(r, which):
    """Counted by brute force: the valid sequences V and those meeting the bounds and the primary rule
    V_p. No V: refused. A try accepted with probability |V| / |V_p| of at least 1%: drawn, keeping its
    counts and meeting every rule, the same again from the same stream."""
    assume(exactly_several(r))
    valid = sum(exact(r).values())
    proposed = sum(exact(replace(r, spacing=(r.spacing[primary(r)],))).values())
    assume(valid == 0 or 100 * valid >= proposed)
    label = ("poolgen/test", "several", str(which))
    event("refused" if valid == 0 else "drawn")
    if valid == 0:
        with pytest.raises(NoArrangement):
            arrange(derive_stream(SEED_A, *label), r)
        return
    seq = arrange(derive_stream(SEED_A, *label), r)
    assert np.bincount(seq, minlength=len(r.counts)).tolist() == list(r.counts)
    packs = seq.reshape(r.books, r.m)
    assert spacing_ok(r, packs).all() and ((packs > 0).sum(axis=1) >= r.lo).all()
    assert ((packs > 0).sum(axis=1) <= r.hi).all()
    assert arrange(derive_stream(SEED_A, *label), r).tolist() == seq.tolist()
