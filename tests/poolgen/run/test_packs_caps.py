"""The exact draw under several caps alone (poolgen/run/packs/caps.py, docs/randomness.md 5.10), on pools
small enough to count every valid sequence by brute force (every m-tuple of tiers of a pack checked
against the rules, `tests.support.packs.exact_compositions`; not the formula the sampler uses).

Compositions: 2,000 draws' compositions (every pack's count vector) against the number of valid
sequences with each, by Pearson's chi-square (cells pooled to at least 5 expected); the same test with
the acceptance ratio left out (the proposal alone) must fail. Sequences: draws against the uniform law
over every valid sequence of a tiny pool. Which rules 5.10 takes, and that 5.6, 5.7, 5.9 and the chain
keep theirs. Every draw meets every cap and keeps every count. Seeds fixed: deterministic tests, their
p-values in the asserts' messages."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from scipy import stats

from poolgen.rng import derive_stream
from poolgen.run.packs import NoArrangement, Rules, arrange
from poolgen.run.packs import caps as caps_module
from poolgen.run.packs.beside import exactly_beside
from poolgen.run.packs.capped import exactly_capped
from poolgen.run.packs.caps import arrange_caps, caps_alone, caps_per_pack, exactly_caps, overlap
from poolgen.run.packs.spaced import exactly_spaced
from tests.support import SEED_A
from tests.support.packs import exact_compositions, pack_ok, pooled_chisquare

DRAWS = 2000
A, B, D, E = frozenset({1}), frozenset({2}), frozenset({3}), frozenset({4})


def _rules(m: int, books: int, counts: tuple[int, ...], caps: tuple[tuple[frozenset[int], int], ...],
           spacing: tuple[tuple[frozenset[int], int], ...] = (), lo: int = 0, hi: int | None = None,
           floor: int | None = None) -> Rules:
    return Rules(m=m, books=books, counts=counts, prizes=(0, 100, 500, 200, 300)[:len(counts)], lo=lo,
                 hi=m if hi is None else hi, min_cents=floor, caps=caps, spacing=spacing)


def _draws(case: str, rules: Rules, n: int, direct: bool = False) -> Iterator[np.ndarray]:
    stream = derive_stream(SEED_A, "poolgen/test", "caps", case)
    for _ in range(n):
        seq = arrange_caps(stream, rules) if direct else arrange(stream, rules)
        seq = seq.reshape(rules.books, rules.m)
        assert np.bincount(seq.ravel(), minlength=len(rules.counts)).tolist() == list(rules.counts)
        assert all(pack_ok(rules, tuple(p.tolist())) for p in seq), seq
        yield seq


# (case, rules, through the dispatcher): the first is 5.9's (dispatched there), the third and the last
# have their caps' tickets more than half the pool (the chain's): drawn by 5.10 directly
CASES = [
    ("at most one A and one B, 4 packs of 4", _rules(4, 4, (7, 3, 3, 3), ((A, 1), (B, 1))), False),
    ("at most two A and two B, 3 packs of 6", _rules(6, 3, (9, 4, 3, 2), ((A, 2), (B, 2))), True),
    ("at most two A and two B, 4 packs of 3", _rules(3, 4, (4, 4, 4), ((A, 2), (B, 2))), False),  # dense
    ("at most one A, one B, two D, 4 packs of 4", _rules(4, 4, (8, 3, 2, 3), ((A, 1), (B, 1), (D, 2))), True),
    ("at most two of A or B, one D, one E, 3 packs of 5",
     _rules(5, 3, (8, 2, 2, 2, 1), ((frozenset({1, 2}), 2), (D, 1), (E, 1))), True),
    ("at most three A and three B, 3 packs of 5", _rules(5, 3, (3, 6, 6), ((A, 3), (B, 3))), False),  # dense
]


# the densest case accepts about one try in 60 when drawn by 5.10: fewer draws (its compositions are few)
FEWER = {"at most three A and three B, 3 packs of 5": 800}


def _compositions(case: str, rules: Rules, direct: bool) -> Counter:
    k = len(rules.counts)
    return Counter(tuple(tuple(np.bincount(p, minlength=k).tolist()) for p in seq)
                   for seq in _draws(case, rules, FEWER.get(case, DRAWS), direct))


@pytest.mark.parametrize(("case", "rules", "dispatched"), CASES)
def test_compositions_follow_the_exact_constrained_distribution(case, rules, dispatched):
    assert exactly_caps(rules) is dispatched
    seen = _compositions(case, rules, not dispatched)
    weights = exact_compositions(rules)
    assert set(seen) <= set(weights)
    p = pooled_chisquare(seen, weights)
    assert p > 0.001, f"{case}: compositions, chi-square p = {p:.3g}"


def _fits(m: int, c: list[list[int]]) -> tuple[int, int]:
    """Every try whose packs hold their caps' tickets accepted (the ratio left out): the proposal given
    that the packs fit."""
    return int(all(sum(col) <= m for col in zip(*c, strict=True))), 1


@pytest.mark.parametrize("which", [2, 5])
def test_the_same_test_fails_without_the_acceptance_ratio(monkeypatch, which):
    """The caps drawn independently (the proposal) and kept when they fit: too many packs hold
    tickets of both caps."""
    case, rules, dispatched = CASES[which]
    monkeypatch.setattr(caps_module, "_ratio", _fits)
    p = pooled_chisquare(_compositions(case, rules, not dispatched), exact_compositions(rules))
    assert p < 1e-6, f"{case} drawn without the acceptance ratio: chi-square p = {p:.3g}"


@pytest.mark.parametrize(("case", "rules", "valid", "dispatched"), [
    ("at most one A, one B, one D, 3 packs of 3", _rules(3, 3, (5, 2, 1, 1), ((A, 1), (B, 1), (D, 1))), 1134,
     True),
    ("at most two A and two B, 3 packs of 3", _rules(3, 3, (3, 3, 3), ((A, 2), (B, 2))), 1566, False),
])
def test_whole_sequences_are_uniform_among_the_valid_ones(case, rules, valid, dispatched):
    assert exactly_caps(rules) is dispatched
    assert sum(exact_compositions(rules).values()) == valid
    seen = Counter(seq.tobytes() for seq in _draws(case, rules, 5 * valid, not dispatched))  # 5 expected each
    assert len(seen) <= valid
    observed = [*seen.values(), *[0] * (valid - len(seen))]
    p = float(stats.chisquare(observed).pvalue)
    assert p > 0.001, f"{case}: {len(seen)} of {valid} sequences seen, chi-square p = {p:.3g}"


def test_a_full_size_pool():
    """1,000 packs of 300: 450 tickets at most two a pack beside 500 at most two and 100 at most one
    (estimated acceptance exp(-1.07))."""
    stream = derive_stream(SEED_A, "poolgen/test", "caps", "full")
    c = caps_per_pack(stream, 300, 1000, [450, 500, 100], [2, 2, 1])
    assert [sum(x) for x in c] == [450, 500, 100] and [max(x) for x in c] == [2, 2, 1]
    assert [len(x) for x in c] == [1000] * 3


# the rules 5.10 takes, and where each other goes (5.6/5.7, 5.8, 5.9 or the chain: None)
@pytest.mark.parametrize(("rules", "path"), [
    (_rules(4, 4, (7, 3, 3, 3), ((A, 2), (B, 2))), "5.10"),  # two caps of more than one
    (_rules(4, 4, (8, 3, 3, 2), ((A, 1), (B, 1), (D, 1))), "5.10"),  # three caps
    (_rules(4, 4, (8, 3, 3, 2), ((frozenset({1, 2}), 2), (D, 3))), "5.10"),
    (_rules(4, 4, (7, 3, 3, 3), ((A, 1), (B, 1))), "5.9"),  # a cap of one beside another: 5.9's
    (_rules(4, 4, (7, 3, 3, 3), ((A, 1), (B, 2))), "5.9"),
    (_rules(4, 4, (7, 3, 3, 3), ((A, 2),)), "5.7"),  # one cap
    (_rules(4, 4, (7, 3, 3, 3), ((A, 2), (B, 2)), lo=1), None),  # winners bounds
    (_rules(4, 4, (7, 3, 3, 3), ((A, 2), (B, 2)), hi=3), None),
    (_rules(4, 4, (7, 3, 3, 3), ((A, 2), (B, 2)), floor=200), None),  # a value floor
    (_rules(4, 4, (7, 3, 3, 3), ((A, 2), (B, 2)), ((D, 2),)), None),  # a spacing rule
    (_rules(4, 4, (7, 3, 3, 3), ((frozenset({1, 2}), 2), (frozenset({2, 3}), 2))), None),  # across
    (_rules(4, 4, (7, 3, 3, 3), ((frozenset({1, 2}), 2), (B, 2))), None),  # nested, both of two
    (_rules(4, 4, (7, 3, 3, 3), ((frozenset({0, 1}), 2), (B, 2))), None),  # losers capped (no spec can)
    (_rules(20, 10, (124, 30, 46), ((A, 3), (B, 5))), "5.10"),  # 10 x 1,380 = 69 x 200: the estimate's floor
    (_rules(20, 10, (125, 33, 42), ((A, 4), (B, 5))), None),  # 10 x 1,386 > 69 x 200: the chain
    (_rules(10, 10, (50, 27, 23), ((A, 3), (B, 3))), "5.10"),  # 2 x 50 = 100: half the pool, at most
    (_rules(10, 10, (49, 28, 23), ((A, 3), (B, 3))), None),  # 2 x 51 > 100: too dense, the chain
])
def test_what_the_new_draw_covers_and_where_the_rest_still_goes(rules, path):
    found = ("5.6" if rules.caps[0][1] == 1 else "5.7") if exactly_capped(rules) else (
        "5.8" if exactly_spaced(rules) else "5.9" if exactly_beside(rules) else
        "5.10" if exactly_caps(rules) else None)
    assert found == path
    assert exactly_caps(rules) is (path == "5.10")
    if path is None and caps_alone(rules):
        pairs, total = overlap(rules)
        assert 10 * pairs > 69 * total or 2 * sum(rules.counts[1:]) > total


def test_the_dispatcher_draws_5_10_with_exactly_its_draws():
    rules = CASES[3][1]
    a = arrange(derive_stream(SEED_A, "poolgen/test", "caps", "same"), rules)
    b = arrange_caps(derive_stream(SEED_A, "poolgen/test", "caps", "same"), rules).reshape(-1)
    assert a.tolist() == b.tolist()


def test_what_no_pool_allows_is_refused_not_drawn_forever():
    rules = _rules(6, 2, (7, 1, 3, 1), ((A, 2), (B, 1), (D, 1)))  # 3 B in 2 packs of at most one
    assert exactly_caps(rules)
    with pytest.raises(NoArrangement) as caught:
        arrange(derive_stream(SEED_A, "poolgen/test", "caps", "refused"), rules)
    assert caught.value.short == ["caps[1]"]


@st.composite
def caps_rules(draw) -> Rules:
    """Small random pools with two or three caps on disjoint random tier sets, any `at_most`."""
    m, books, tiers = draw(st.integers(1, 7)), draw(st.integers(1, 5)), draw(st.integers(2, 5))
    counts = [0] * (tiers + 1)
    for _ in range(m * books):
        counts[draw(st.integers(0, tiers))] += 1
    order = draw(st.permutations(range(1, tiers + 1)))
    r = draw(st.integers(2, min(3, tiers)))
    cuts = sorted(draw(st.lists(st.integers(1, tiers - 1), min_size=r - 1, max_size=r - 1, unique=True)))
    sets = [frozenset(order[a:b]) for a, b in itertools.pairwise([0, *cuts, tiers])]
    caps = tuple((s, draw(st.integers(0, m + 1))) for s in sets)
    return Rules(m=m, books=books, counts=tuple(counts), prizes=(0, *range(1, tiers + 1)), lo=0, hi=m,
                 min_cents=None, caps=caps, spacing=())


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(caps_rules(), st.integers(0, 2**32 - 1))
def test_any_pool_5_10_draws_keeps_its_counts_and_meets_every_cap(r, which):
    assume(exactly_caps(r))
    label = ("poolgen/test", "caps", str(which))
    try:
        seq = arrange(derive_stream(SEED_A, *label), r)
    except NoArrangement:  # only counts the loader refuses: a cap's tickets more than its packs hold
        assert any(sum(r.counts[t] for t in ts) > r.books * k for ts, k in r.caps)
        return
    assert np.bincount(seq, minlength=len(r.counts)).tolist() == list(r.counts)
    assert all(pack_ok(r, tuple(p.tolist())) for p in seq.reshape(r.books, r.m))
    assert arrange(derive_stream(SEED_A, *label), r).tolist() == seq.tolist()
