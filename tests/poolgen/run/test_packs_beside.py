"""The exact draw of a cap of one beside a second rule (poolgen/run/packs/beside.py, docs/randomness.md
5.9): two caps, or a cap of one beside a spacing rule on other tiers, on pools small enough to count
every valid sequence by brute force (every order of every pack checked against the rules; not the
formula the sampler uses).

Compositions: a composition (every pack's count vector) weighs the number of valid sequences with it
(the product of each pack's valid orders); 2,000 draws compared with it by Pearson's chi-square (cells
pooled to at least 5 expected), and the packs holding the cap of one's ticket with the uniform
C1-subset the proof says they are. Sequences: on two pools of 3 packs of 3, 6,000 draws compared with
the uniform law over every valid sequence. The same comparison with the factor w - c2 of a pack holding
the cap of one's ticket left out must fail. Every draw meets every rule and keeps every count. The
seeds are fixed: the tests are deterministic, their p-values in the asserts' messages."""

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
from poolgen.run.packs import beside as beside_module
from poolgen.run.packs.beside import Pair, beside_per_pack, exactly_beside, mixed_pair_tilt, one_and_other
from poolgen.run.packs.capped import exactly_capped, pair_tilt, pair_ways, possible
from poolgen.run.packs.spaced import exactly_spaced
from tests.support import SEED_A
from tests.support.packs import exact_compositions, pack_ok, pooled_chisquare

DRAWS = 2000
SEQUENCE_DRAWS = 6000
A, B, D, AB = frozenset({1}), frozenset({2}), frozenset({3}), frozenset({1, 2})


def _rules(m: int, books: int, counts: tuple[int, ...], caps: tuple[tuple[frozenset[int], int], ...],
           spacing: tuple[tuple[frozenset[int], int], ...] = (), lo: int = 0, hi: int | None = None) -> Rules:
    return Rules(m=m, books=books, counts=counts, prizes=(0, 100, 500, 200, 300)[:len(counts)], lo=lo,
                 hi=m if hi is None else hi, min_cents=None, caps=caps, spacing=spacing)


def _draws(case: str, rules: Rules, n: int) -> Iterator[np.ndarray]:
    stream = derive_stream(SEED_A, "poolgen/test", "beside", case)
    for _ in range(n):
        seq = arrange(stream, rules).reshape(rules.books, rules.m)
        assert np.bincount(seq.ravel(), minlength=len(rules.counts)).tolist() == list(rules.counts)
        assert all(pack_ok(rules, tuple(p.tolist())) for p in seq), seq
        yield seq


CASES = [
    ("at most one A and one B, 4 packs of 4", _rules(4, 4, (7, 3, 3, 3), ((A, 1), (B, 1)))),
    ("winners 1..3, at most one A and one B, 4 packs of 4", _rules(4, 4, (7, 3, 3, 3), ((A, 1), (B, 1)),
                                                                   lo=1, hi=3)),
    ("5 capped tickets in 3 packs (two hold both), 3 packs of 4", _rules(4, 3, (4, 3, 2, 3),
                                                                         ((A, 1), (B, 1)))),
    ("at most one of A or B and one D, 4 packs of 3", _rules(3, 4, (4, 1, 2, 3, 2),
                                                             ((frozenset({1, 2}), 1), (D, 1)))),
    ("no other winners, winners 0..2, 4 packs of 3", _rules(3, 4, (6, 3, 3), ((A, 1), (B, 1)), hi=2)),
    ("at most one A and two B, 3 packs of 6", _rules(6, 3, (10, 3, 4, 1), ((A, 1), (B, 2)))),
    ("at most two A and one B, winners 1..3, 4 packs of 4", _rules(4, 4, (8, 4, 3, 1), ((A, 2), (B, 1)),
                                                                    lo=1, hi=3)),
    ("B or D at least 2 apart, at most one A, 4 packs of 4", _rules(4, 4, (8, 3, 2, 3), ((A, 1),),
                                                                    ((frozenset({2, 3}), 2),))),
    ("B at least 2 apart and at most two, at most one A, winners 2..4, 3 packs of 6",
     _rules(6, 3, (9, 3, 4, 2), ((B, 2), (A, 1)), ((B, 2),), lo=2, hi=4)),
    ("B at least 2 apart, at most one A, seven D, 3 packs of 5", _rules(5, 3, (3, 2, 3, 7), ((A, 1),),
                                                                        ((B, 2),))),
    ("at most one A and two of A or B, 4 packs of 4", _rules(4, 4, (7, 3, 3, 3), ((A, 1), (AB, 2)))),
    ("at most three of A or B and one A, winners 1..3, 4 packs of 4", _rules(4, 4, (5, 3, 4, 4),
                                                                             ((AB, 3), (A, 1)), lo=1, hi=3)),
    ("A or B at least 2 apart, at most one A, 3 packs of 5", _rules(5, 3, (7, 3, 3, 2), ((A, 1),),
                                                                    ((AB, 2),))),
    ("A or B at least 2 apart, at most one A, winners 2..4, 3 packs of 6",
     _rules(6, 3, (8, 2, 4, 4), ((A, 1),), ((AB, 2),), lo=2, hi=4)),
    ("A or B at least 3 apart and at most two, at most one A, 4 packs of 5",
     _rules(5, 4, (10, 3, 3, 4), ((AB, 2), (A, 1)), ((AB, 3),))),
]


def _compositions(case: str, rules: Rules) -> tuple[Counter, Counter]:
    one = rules.caps[one_and_other(rules)[0]][0]  # type: ignore[index]
    k = len(rules.counts)
    seen: Counter = Counter()
    holding: Counter = Counter()
    for seq in _draws(case, rules, DRAWS):
        seen[tuple(tuple(np.bincount(p, minlength=k).tolist()) for p in seq)] += 1
        holding[tuple(np.flatnonzero(np.isin(seq, list(one)).any(axis=1)).tolist())] += 1
    return seen, holding


@pytest.mark.parametrize(("case", "rules"), CASES)
def test_compositions_follow_the_exact_constrained_distribution(case, rules):
    assert exactly_beside(rules) and not exactly_capped(rules) and not exactly_spaced(rules)
    seen, holding = _compositions(case, rules)
    weights = exact_compositions(rules)
    assert set(seen) <= set(weights)
    p = pooled_chisquare(seen, weights)
    assert p > 0.001, f"{case}: compositions, chi-square p = {p:.3g}"
    held = sum(rules.counts[t] for t in rules.caps[one_and_other(rules)[0]][0])
    subsets = list(itertools.combinations(range(rules.books), held))
    assert set(holding) <= set(subsets)
    if len(subsets) > 1:
        p = float(stats.chisquare([holding[s] for s in subsets]).pvalue)
        assert p > 0.001, f"{case}: packs holding the cap of one against a uniform {held}-subset, p = {p:.3g}"


def _without_the_factor(f0, nested):
    """`holding_one` with its factor (w - c2, or c2 + 1 nested) left out."""
    if nested:
        return {(w, c - 1): n for (w, c), n in f0.items() if c > 0}
    return {(w, c): n for (w, c), n in f0.items() if w > c}


@pytest.mark.parametrize("which", [0, 9, 10, 13])
def test_the_same_test_fails_without_the_factor_of_a_pack_holding_the_cap_of_one(monkeypatch, which):
    """With f(., 1, .) = f(., 0, .) (where S1's ticket fits) a pack holding the cap of one's ticket
    loses its w - c2 choices of place for it (or, S1 inside S2, its c2 + 1 among S2's places): too few
    packs hold it beside many other winners."""
    case, rules = CASES[which]
    monkeypatch.setattr(beside_module, "holding_one", _without_the_factor)
    p = pooled_chisquare(_compositions(case, rules)[0], exact_compositions(rules))
    assert p < 1e-6, f"{case} drawn without the factor: chi-square p = {p:.3g}"


@pytest.mark.parametrize(("case", "rules", "valid"), [
    ("at most one A and one B, 3 packs of 3", _rules(3, 3, (5, 2, 2), ((A, 1), (B, 1))), 432),
    ("B at least 2 apart, at most one A, 3 packs of 3", _rules(3, 3, (5, 2, 2), ((A, 1),), ((B, 2),)), 477),
    ("A or B at least 2 apart, at most one A, 3 packs of 3", _rules(3, 3, (5, 2, 2), ((A, 1),), ((AB, 2),)),
     147),
])
def test_whole_sequences_are_uniform_among_the_valid_ones(case, rules, valid):
    weights = exact_compositions(rules)
    assert sum(weights.values()) == valid  # of the 9! / (5! 2! 2!) = 756 orders of the pool
    seen = Counter(seq.tobytes() for seq in _draws(case, rules, SEQUENCE_DRAWS))
    assert len(seen) <= valid
    observed = [*seen.values(), *[0] * (valid - len(seen))]
    p = float(stats.chisquare(observed).pvalue)
    assert p > 0.001, f"{case}: {len(seen)} of {valid} sequences seen, chi-square p = {p:.3g}"


def test_the_mixed_tilt_with_one_table_is_the_pair_tilt():
    ways = pair_ways(300, 80, 110, 2)
    assert mixed_pair_tilt([(1000, ways)], 87_900, 80, 110, 950, 2) == pair_tilt(300, 1000, 87_900, 80, 110,
                                                                               950, 2)
    assert mixed_pair_tilt([(0, {}), (1000, ways)], 87_900, 80, 110, 950, 2) == pair_tilt(
        300, 1000, 87_900, 80, 110, 950, 2)


def test_a_full_size_pool():
    """1,000 packs of 300, 87,900 winners of which 450 of S1 and 500 of S2, winners 80..110: exact counts,
    with S2 capped at one and at least 10 apart."""
    stream = derive_stream(SEED_A, "poolgen/test", "beside", "full")
    for k, d in ((1, 1), (30, 10)):
        w, c1, c2 = beside_per_pack(stream, 300, 1000, 87_900, 80, 110, 450, 500, k, d)
        assert sum(w) == 87_900 and sum(c1) == 450 and sum(c2) == 500 and min(w) >= 80 and max(w) <= 110
        assert set(c1) == {0, 1} and max(c2) <= k


@pytest.mark.parametrize(("rules", "found"), [
    (_rules(4, 4, (7, 3, 3, 3), ((A, 1), (B, 1))), Pair(0, B, False, 1, 1, "caps[1]")),
    (_rules(4, 4, (7, 3, 3, 3), ((A, 2), (B, 1))), Pair(1, A, False, 1, 2, "caps[0]")),
    (_rules(4, 4, (7, 3, 3, 3), ((A, 1),), ((B, 2),)), Pair(0, B, False, 2, 2, "spacing[0]")),
    (_rules(6, 4, (7, 3, 3, 11), ((B, 2), (A, 1)), ((B, 2),)), Pair(1, B, False, 2, 2, "caps[0]")),
    (_rules(6, 4, (7, 3, 3, 11), ((B, 3), (A, 1)), ((B, 2),)), Pair(1, B, False, 2, 3, "spacing[0]")),
    (_rules(4, 4, (7, 3, 3, 3), ((AB, 1), (A, 1))), Pair(1, B, True, 1, 1, "caps[0]")),  # the inner one
    (_rules(4, 4, (7, 3, 3, 3), ((A, 1), (AB, 2))), Pair(0, B, True, 1, 2, "caps[1]")),
    (_rules(4, 4, (7, 3, 3, 3), ((A, 1),), ((AB, 2),)), Pair(0, B, True, 2, 2, "spacing[0]")),
    (_rules(6, 4, (7, 3, 3, 11), ((AB, 2), (A, 1)), ((AB, 2),)), Pair(1, B, True, 2, 2, "caps[0]")),
    (_rules(4, 4, (7, 3, 3, 3), ((A, 2), (B, 2))), None),  # no cap of one
    (_rules(4, 4, (7, 3, 3, 3), ((AB, 1), (frozenset({2, 3}), 1))), None),  # overlapping caps
    (_rules(4, 4, (7, 3, 3, 3), ((A, 1), (B, 1), (D, 1))), None),  # three caps
    (_rules(4, 4, (7, 3, 3, 3), ((A, 1), (B, 1)), ((D, 2),)), None),  # two caps beside a spacing rule
    (_rules(4, 4, (7, 3, 3, 3), ((AB, 1),), ((frozenset({2, 3}), 2),)), None),  # the cap across the spacing
    (_rules(4, 4, (7, 3, 3, 3), ((A, 1), (D, 1)), ((B, 2),)), None),  # the second cap on other tiers
    (_rules(4, 4, (7, 3, 3, 3), ((A, 1), (AB, 1)), ((AB, 2),)), Pair(0, B, True, 2, 1, "caps[1]")),  # moot
    (_rules(4, 4, (7, 3, 3, 3), ((A, 1),), ((B, 2), (D, 2))), None),  # two spacing rules
    (_rules(4, 4, (7, 3, 3, 3), ((frozenset({0, 1}), 1), (B, 1))), None),  # losers capped (no spec can)
    (Rules(m=4, books=4, counts=(7, 3, 3, 3), prizes=(0, 1, 5, 2), lo=0, hi=4, min_cents=200,
           caps=((A, 1), (B, 1)), spacing=()), None),  # a value floor
])
def test_what_the_exact_path_covers(rules, found):
    assert one_and_other(rules) == found
    assert exactly_beside(rules) is (found is not None)


@pytest.mark.parametrize(("rules", "short"), [
    (_rules(4, 2, (3, 3, 1, 1), ((A, 1), (B, 1))), ["caps[0]"]),  # 3 A in 2 packs of at most one
    (_rules(4, 4, (9, 1, 3, 3), ((A, 1), (B, 1)), lo=2), ["min_winners"]),  # 7 winners, 4 packs of 2 or more
    (_rules(4, 3, (6, 2, 3, 1), ((A, 1), (B, 1)), hi=1), ["max_winners"]),  # 6 winners, 3 packs of at most 1
    (_rules(4, 2, (2, 1, 5), ((A, 1),), ((B, 2),)), ["spacing[0]"]),  # 5 B, 2 packs of two 2 apart
])
def test_what_no_pool_allows_is_refused_not_drawn_forever(rules, short):
    """Each rule's own check (`capped.possible`) refuses these; see the next test for why no joint check
    is needed."""
    with pytest.raises(NoArrangement) as caught:
        arrange(derive_stream(SEED_A, "poolgen/test", "beside", "refused"), rules)
    assert caught.value.short == short


@pytest.mark.parametrize("nested", [False, True])
def test_the_rules_own_checks_leave_no_pool_without_an_arrangement(nested):
    """Whenever the bounds and each rule alone allow the counts (`capped.possible` for the cap of one's
    C1, and for S2's tickets with k, its cap or the most that fit d apart: C2 apart from S1, C1 + C2
    with S1 inside S2), some (w, c1, c2) is allowed with S1's tickets in the first C1 packs (any C1
    packs, by symmetry): every w within the bounds tried, for B <= 4 packs of m <= 5. A pack holds
    min(k, w_b - c1_b) tickets of T at most, apart; min(k, w_b) of S2, S1's among them, inside."""
    def allowed(*args: int) -> bool:
        try:
            possible(*args)
        except NoArrangement:
            return False
        return True

    for books, m in itertools.product(range(1, 5), range(1, 6)):
        for lo, hi, k in itertools.product(range(m + 1), range(m + 1), range(1, m + 1)):
            for total in range(books * lo, books * hi + 1):
                for first in range(min(books, total) + 1):
                    if not allowed(books, total, lo, hi, first, 1):
                        continue
                    most = None  # the most room of any allowed w: it does not depend on `second`
                    for second in range(min(total - first, books * k) + 1):
                        s2 = first + second if nested else second
                        if not allowed(books, total, lo, hi, s2, k):
                            continue
                        if most is None:
                            held = [1] * first + [0] * (books - first)
                            ws = [w for w in itertools.product(range(lo, hi + 1), repeat=books)
                                  if sum(w) == total and all(a >= c for a, c in zip(w, held, strict=True))]
                            gone = [0] * books if nested else held  # what S1 takes from a pack's room
                            most = max((sum(min(k, a - c) for a, c in zip(w, gone, strict=True)) for w in ws),
                                       default=-1)
                        assert most >= s2, (books, m, lo, hi, k, total, first, second)


@st.composite
def beside_rules(draw) -> Rules:
    """Small random pools with two caps, or a cap and a spacing rule, on random tier sets, that 5.9
    draws; the loader's bounds on winners hold (as `tests/poolgen/run/test_packs_properties.py` draws
    them). Whether 5.9 draws them depends on m and the rules alone, drawn first: most rules are not
    5.9's, and are rejected before the counts are drawn (m * books draws each)."""
    m, books, tiers = draw(st.integers(1, 7)), draw(st.integers(1, 5)), draw(st.integers(1, 4))
    sets = st.frozensets(st.integers(1, tiers), min_size=1)
    caps = tuple((draw(sets), draw(st.sampled_from([0, 1, 1, 2, 3])))
                 for _ in range(draw(st.integers(1, 2))))
    spacing = ((draw(sets), draw(st.integers(2, max(2, m)))),) if m >= 2 and draw(st.booleans()) else ()
    assume(exactly_beside(Rules(m=m, books=books, counts=(m * books,), prizes=(0,), lo=0, hi=m,
                                min_cents=None, caps=caps, spacing=spacing)))
    counts = [0] * (tiers + 1)
    for _ in range(m * books):
        counts[draw(st.integers(0, tiers))] += 1
    winners = m * books - counts[0]
    lo = draw(st.integers(0, winners // books))
    hi = draw(st.integers(max(lo, -(-winners // books)), m))
    return Rules(m=m, books=books, counts=tuple(counts), prizes=(0, *range(1, tiers + 1)), lo=lo, hi=hi,
                 min_cents=None, caps=caps, spacing=spacing)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(beside_rules(), st.integers(0, 2**32 - 1))
def test_any_pool_5_9_draws_has_its_counts_meets_its_rules_or_is_one_the_loader_refuses(r, which):
    assume(exactly_beside(r))
    label = ("poolgen/test", "beside", str(which))
    try:
        seq = arrange(derive_stream(SEED_A, *label), r)
    except NoArrangement:  # only counts the loader refuses: a rule's tickets more than its packs hold
        assert any(sum(r.counts[t] for t in ts) > r.books * k for ts, k in r.caps) or any(
            sum(r.counts[t] for t in ts) > r.books * ((r.m - 1) // d + 1) for ts, d in r.spacing)
        return
    assert np.bincount(seq, minlength=len(r.counts)).tolist() == list(r.counts)
    assert all(pack_ok(r, tuple(p.tolist())) for p in seq.reshape(r.books, r.m))
    assert arrange(derive_stream(SEED_A, *label), r).tolist() == seq.tolist()
