"""Uniformity under pack parameters (docs/randomness.md, section 5), on pools small enough to count
every valid sequence: 3 packs of 6 tickets, three tiers (10 losers, 5 of A at $1, 3 of B at $5).

For each case the exact distribution of the packs' compositions (how many of A and of B each pack
holds) is counted by enumeration: a composition's weight is the number of valid sequences that have
it (each pack's valid orders, multiplied). Draws from one DRBG stream are compared with it by
Pearson's chi-square (cells pooled to at least 5 expected); every draw must meet every parameter.
The seed is fixed, so the test is deterministic; its p-values are in the asserts' messages."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest

from poolgen.rng import derive_stream
from poolgen.run.packs import Rules, arrange
from poolgen.run.packs.composition import spacing_ok
from tests.support import SEED_A
from tests.support.packs import pooled_chisquare

M, BOOKS, COUNTS, PRIZES = 6, 3, (10, 5, 3), (0, 100, 500)
DRAWS = 2000


def _rules(**kw) -> Rules:
    base = dict(m=M, books=BOOKS, counts=COUNTS, prizes=PRIZES, lo=0, hi=M, min_cents=None, caps=(),
                spacing=())
    return Rules(**(base | kw))


def _pack_ok(rules: Rules, pack: tuple[int, ...]) -> bool:
    wins = sum(1 for t in pack if t)
    if not rules.lo <= wins <= rules.hi:
        return False
    if rules.min_cents is not None and sum(PRIZES[t] for t in pack) < rules.min_cents:
        return False
    if any(sum(1 for t in pack if t in tiers) > most for tiers, most in rules.caps):
        return False
    return bool(spacing_ok(rules, np.array([pack]))[0])


def exact(rules: Rules) -> dict[tuple[tuple[int, int], ...], int]:
    """Composition (A, B per pack) -> number of valid sequences with it."""
    orders: dict[tuple[int, int], int] = {}
    for a in range(M + 1):
        for b in range(M + 1 - a):
            packs = set(itertools.permutations((0,) * (M - a - b) + (1,) * a + (2,) * b))
            orders[(a, b)] = sum(1 for p in packs if _pack_ok(rules, p))
    out = {}
    for comp in itertools.product(orders, repeat=BOOKS):
        if (sum(c[0] for c in comp), sum(c[1] for c in comp)) == COUNTS[1:]:
            weight = int(np.prod([orders[c] for c in comp]))
            if weight:
                out[comp] = weight
    return out


def _chi_square(rules: Rules, label: str) -> float:
    stream = derive_stream(SEED_A, "poolgen/test", label)
    seen: Counter[tuple[tuple[int, int], ...]] = Counter()
    for _ in range(DRAWS):
        seq = arrange(stream, rules).reshape(BOOKS, M)
        assert all(_pack_ok(rules, tuple(int(t) for t in p)) for p in seq), seq
        assert np.bincount(seq.ravel(), minlength=3).tolist() == list(COUNTS)
        seen[tuple((int((p == 1).sum()), int((p == 2).sum())) for p in seq)] += 1
    weights = exact(rules)
    assert set(seen) <= set(weights)
    return pooled_chisquare(seen, weights)


@pytest.mark.parametrize(("case", "rules"), [
    ("winners 2..4 per pack (exact)", _rules(lo=2, hi=4)),
    ("at least $6 per pack, at most two B, B never back to back (chain)",
     _rules(min_cents=600, caps=((frozenset({2}), 2),), spacing=((frozenset({2}), 2),))),
    ("winners 2..4 and B at most 1 per pack (exact, 5.6)", _rules(lo=2, hi=4, caps=((frozenset({2}), 1),))),
])
def test_pack_compositions_follow_the_exact_constrained_distribution(case, rules):
    p = _chi_square(rules, case)
    assert p > 0.001, f"{case}: chi-square p = {p:.3g}"
