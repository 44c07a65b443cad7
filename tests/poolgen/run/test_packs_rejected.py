"""The exact draw of caps and spacing rules together by rejection (poolgen/run/packs/rejected.py,
docs/randomness.md 5.13), on pools small enough to count every valid sequence by brute force (every
pack's m-tuple of tiers checked against every rule, nothing the sampler uses).

Compositions: a composition (each pack's count vector) weighs the number of valid sequences with it;
2,000 draws compared with it by Pearson's chi-square (cells pooled to at least 5 expected). Sequences:
4,000 draws of a pool with few valid sequences against the uniform law over all of them. Every draw
meets every rule and keeps every count. The seeds are fixed: the tests are deterministic."""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from scipy import stats

from poolgen.rng import derive_stream
from poolgen.run.packs import NoArrangement, Rules, arrange
from poolgen.run.packs.composition import spacing_ok
from poolgen.run.packs.rejected import (
    _base_draw,
    _restricted,
    arrange_rejected,
    base_of,
    exactly_rejected,
    left_out,
    rejected_kind,
)
from tests.support import SEED_A
from tests.support.packs import pooled_chisquare

DRAWS = 2000
SEQUENCE_DRAWS = 4000
A, B, D = frozenset({1}), frozenset({2}), frozenset({3})


def _rules(m: int, books: int, counts: tuple[int, ...], caps=(), spacing=(), lo: int = 0,
           hi: int | None = None) -> Rules:
    return Rules(m=m, books=books, counts=counts, prizes=(0, 100, 500, 200)[: len(counts)], lo=lo,
                 hi=m if hi is None else hi, min_cents=None, caps=tuple(caps), spacing=tuple(spacing))


def _fits(rules: Rules, seq: tuple[int, ...]) -> bool:
    if not rules.lo <= sum(1 for t in seq if t) <= rules.hi:
        return False
    if any(sum(t in tiers for t in seq) > k for tiers, k in rules.caps):
        return False
    return not any(b - a < d for tiers, d in rules.spacing
                   for a, b in itertools.pairwise([i for i, t in enumerate(seq) if t in tiers]))


def valid_packs(rules: Rules) -> dict[tuple[int, ...], list[tuple[int, ...]]]:
    """Count vector -> every order of a pack with it meeting every rule, by brute force."""
    out = defaultdict(list)
    for seq in itertools.product(range(len(rules.counts)), repeat=rules.m):
        if _fits(rules, seq):
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


def _meets(rules: Rules, seq: np.ndarray) -> None:
    assert np.bincount(seq.ravel(), minlength=len(rules.counts)).tolist() == list(rules.counts)
    wins = (seq > 0).sum(axis=1)
    assert ((wins >= rules.lo) & (wins <= rules.hi)).all()
    assert spacing_ok(rules, seq).all()
    for tiers, k in rules.caps:
        assert (np.isin(seq, list(tiers)).sum(axis=1) <= k).all()


def _draws(case: str, rules: Rules, n: int):
    stream = derive_stream(SEED_A, "poolgen/test", "rejected", case)
    for _ in range(n):
        seq = arrange(stream, rules).reshape(rules.books, rules.m)
        _meets(rules, seq)
        yield seq


def _compositions(draws, rules: Rules) -> Counter:
    return Counter(tuple(tuple(np.bincount(p, minlength=len(rules.counts)).tolist()) for p in seq)
                   for seq in draws)


CASES = [  # (case, rules, the base's rules as a mask: caps first, then spacing rules)
    ("B at most 1, A 3 apart, A or B 2 apart (5.9 inside, rejecting A's rule), 3 packs of 6",
     _rules(6, 3, (10, 5, 3), caps=[(B, 1)], spacing=[(A, 3), (A | B, 2)]), 0b101),
    ("winners 2..4, A at most 2, B 2 apart (5.7, rejecting B's rule), 3 packs of 6",
     _rules(6, 3, (10, 5, 3), caps=[(A, 2)], spacing=[(B, 2)], lo=2, hi=4), 0b01),
    ("winners 1..3, A and B at most 1, D at most 2 (5.9, rejecting D's cap), 4 packs of 4",
     _rules(4, 4, (8, 3, 2, 3), caps=[(A, 1), (B, 1), (D, 2)], lo=1, hi=3), 0b011),
    ("A or B at most 2, B or D at most 2 (overlapping: 5.7, rejecting the second), 4 packs of 4",
     _rules(4, 4, (8, 3, 2, 3), caps=[(A | B, 2), (B | D, 2)]), 0b01),
    ("A at most 2, B 2 apart, D 3 apart (5.7, rejecting both rules), 3 packs of 5",
     _rules(5, 3, (9, 3, 2, 1), caps=[(A, 2)], spacing=[(B, 2), (D, 3)]), 0b001),
]


@pytest.mark.parametrize(("case", "rules", "mask"), CASES)
def test_compositions_follow_the_exact_constrained_law(case, rules, mask):
    assert rejected_kind(rules) and exactly_rejected(rules) and base_of(rules)[0] == mask
    seen = _compositions(_draws(case, rules, DRAWS), rules)
    weights = exact(rules)
    assert set(seen) <= set(weights)
    p = pooled_chisquare(seen, weights)
    assert p > 0.001, f"{case}: compositions, chi-square p = {p:.3g}"


def test_the_base_alone_kept_where_its_packs_fit_is_not_the_law_the_test_can_tell():
    """The test above has power: the base's draw with the left-out rule not applied (every try kept) fails
    it, though every composition it draws has valid orders (a pack's B are what the rule binds: the more,
    the fewer its valid orders), and follows the base's own law."""
    case, rules, mask = CASES[1]
    stream = derive_stream(SEED_A, "poolgen/test", "rejected", "base alone")
    base = _restricted(rules, mask)
    seen = _compositions((_base_draw(stream, base) for _ in range(DRAWS)), rules)
    assert set(seen) <= set(exact(rules))
    assert pooled_chisquare(seen, exact(base)) > 0.001
    p = pooled_chisquare(seen, exact(rules))
    assert p < 1e-20, f"{case}: the base alone, chi-square p = {p:.3g}"


def test_whole_sequences_are_uniform_among_the_valid_ones():
    rules = _rules(3, 3, (4, 3, 2), caps=[(B, 1)], spacing=[(A, 2), (A | B, 2)])
    assert exactly_rejected(rules)
    weights = exact(rules)
    valid = sum(weights.values())
    assert valid == 72
    seen = Counter(seq.tobytes() for seq in _draws("sequences", rules, SEQUENCE_DRAWS))
    assert len(seen) == valid
    counts = np.array(list(seen.values()))
    p = float(stats.chisquare(counts).pvalue)
    assert p > 0.001, f"whole sequences, chi-square p = {p:.3g}"


def test_the_rule_takes_left_out_rules_costing_at_most_four_and_no_more():
    # 100 packs of 100 (T = 10,000): A at most two (100 of them), B never back to back (C_B of them). The
    # base is A's cap (5.7); B's rule left out costs C_B^2 / T: 4 at C_B = 200, 4.0401 at 201 (the chain).
    def rules(b: int) -> Rules:
        return _rules(100, 100, (10_000 - 100 - b, 100, b), caps=[(A, 2)], spacing=[(B, 2)])
    assert base_of(rules(200)) == (0b01, Fraction(4)) and exactly_rejected(rules(200))
    assert left_out(rules(200)) == ["spacing[0]"]
    assert base_of(rules(201))[1] == Fraction(201 ** 2, 10_000) and not exactly_rejected(rules(201))
    # a cap of k left out costs C^(k + 1) / (B^k (k + 1)!): the cap's 100 at most two, 100^3 / (100^2 6)
    assert base_of(replace(rules(0), counts=(9_800, 100, 100)))[1] == 1


def test_what_5_13_takes_and_leaves():
    capped_spacing = _rules(6, 3, (10, 5, 3), caps=[(A, 1)], spacing=[(A | B, 2)])  # 5.9's
    floor = replace(CASES[0][1], min_cents=100)
    several = _rules(6, 3, (10, 5, 3), spacing=[(A, 2), (B, 2)])  # 5.12's
    caps = _rules(4, 4, (8, 3, 2, 3), caps=[(A, 2), (B, 2), (D, 1)])  # 5.10's kind (disjoint, no bounds)
    assert not any(rejected_kind(r) for r in (capped_spacing, floor, several, caps))
    assert all(rejected_kind(r) for _, r, _ in CASES)


def test_a_try_none_of_which_is_kept_returns_none_after_its_tries():
    rules = CASES[4][1]
    packs, tries = arrange_rejected(derive_stream(SEED_A, "poolgen/test", "rejected", "few"), rules, most=1)
    assert packs is None and tries == 1  # this stream's first try breaks a left-out spacing rule
    stream = derive_stream(SEED_A, "poolgen/test", "rejected", "count")
    took = [arrange_rejected(stream, rules)[1] for _ in range(200)]
    assert max(took) > 1  # the left-out rules reject some tries


def test_a_base_no_pool_allows_is_refused_naming_the_pools_own_rule():
    # D at most one a pack, 5 of them in 4 packs: the base (5.9: A at most 1 beside D at most 1) refuses
    # its caps[1], which is the pool's caps[2]
    rules = _rules(4, 4, (7, 2, 2, 5), caps=[(A, 1), (B, 2), (D, 1)], lo=1, hi=4)
    assert exactly_rejected(rules) and left_out(rules) == ["caps[1]"]
    with pytest.raises(NoArrangement, match=r"caps\[2\]") as caught:
        arrange(derive_stream(SEED_A, "poolgen/test", "rejected", "refused"), rules)
    assert caught.value.short == ["caps[2]"]


@st.composite
def caps_and_spacing(draw) -> Rules:
    """Small random pools (up to 3 packs of 4, three winning tiers, about half the tickets losers) under
    one or two caps (at most 1 to m) and one or two spacing rules (distances 2 to 4) on random tier sets,
    loose winners bounds or none."""
    m, books = draw(st.integers(2, 4)), draw(st.integers(1, 3))
    counts = [0] * 4
    for _ in range(m * books):
        counts[max(0, draw(st.integers(0, 5)) - 2)] += 1  # half the tickets losers, as most pools
    sets = st.sets(st.integers(1, 3), min_size=1).map(frozenset)
    caps = tuple((draw(sets), draw(st.integers(1, m))) for _ in range(draw(st.integers(1, 2))))
    spacing = tuple((draw(sets), draw(st.integers(2, 4))) for _ in range(draw(st.integers(1, 2))))
    lo = draw(st.integers(0, 1))
    hi = draw(st.integers(max(lo, m - 1), m))
    return Rules(m=m, books=books, counts=tuple(counts), prizes=(0, 1, 2, 3), lo=lo, hi=hi, min_cents=None,
                 caps=caps, spacing=spacing)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(caps_and_spacing(), st.integers(0, 2**32 - 1))
def test_any_pool_5_13_draws_meets_every_rule_and_only_pools_with_no_valid_sequence_are_refused(r, which):
    """Counted by brute force: the valid sequences V and those meeting the base's rules V_M. No V_M:
    refused at once; a try kept with probability |V| / |V_M| of at least 1%: drawn, keeping its counts
    and meeting every rule. (No V but some V_M: 10,000 tries, then the chain, which refuses: slow, left
    to the test above of a base no pool allows.)"""
    assume(exactly_rejected(r))
    valid = sum(exact(r).values())
    proposed = sum(exact(_restricted(r, base_of(r)[0])).values())
    assume(proposed == 0 or 100 * valid >= proposed)
    event("refused" if proposed == 0 else "drawn")
    stream = derive_stream(SEED_A, "poolgen/test", "rejected", str(which))
    if proposed == 0:
        with pytest.raises(NoArrangement):
            arrange(stream, r)
        return
    _meets(r, arrange(stream, r).reshape(r.books, r.m))


def test_more_than_eight_caps_and_spacing_rules_go_to_the_chain_not_5_13s_subset_search():
    """5.13 searches every subset of the rules for its base (2^r - 1 of them): past MOST_RULES = 8 rules
    it is not 5.13's kind (the chain draws the pool, randomness.md 5.13), as audit's `rejected_alone`
    and the third engine read it; at 8 the search still runs (review12: 20 caps took `check` 58 s)."""
    caps8 = [(A, 1)] * 7 + [(B, 2)]
    eight = _rules(6, 40, (180, 20, 20, 20), caps=caps8, spacing=())
    nine = _rules(6, 40, (180, 20, 20, 20), caps=caps8, spacing=((D, 2),))
    assert rejected_kind(replace(eight, spacing=((D, 2),), caps=tuple(caps8[1:]))) is True
    assert rejected_kind(nine) is False
    assert exactly_rejected(nine) is False
