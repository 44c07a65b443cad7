"""The laws step 8 tests pack compositions against (audit/stats/pack_laws.py, docs/statistics.md 1b),
each checked against brute-force enumeration of every valid pack."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import pytest

from audit.stats.pack_laws import PARTS, Law, apart, conditional, kruskal, parts_expected


def _placements(m: int, c: int, d: int) -> list[tuple[int, ...]]:
    return [x for x in itertools.combinations(range(m), c)
            if all(b - a >= d for a, b in itertools.pairwise(x))]


def test_apart_counts_every_placement_of_c_tickets_d_apart():
    for m, c, d in itertools.product(range(1, 9), range(5), range(1, 5)):
        assert apart(m, c, d) == len(_placements(m, c, d)), (m, c, d)


def test_f_counts_the_packs_of_w_winners_c_of_them_held():
    """f(w, c) = the number of packs (a loser, a held winner or another winner at each place) with w
    winners, c of them held, the held ones d apart: brute force over every pack of m = 6."""
    m = 6
    for d, most in ((1, 2), (2, None), (3, 1)):
        law = Law(m, 1, 5, most, d)
        seen: Counter = Counter()
        for pack in itertools.product((0, 1, 2), repeat=m):  # 0 loser, 1 held, 2 other winner
            held = [i for i, t in enumerate(pack) if t == 1]
            if all(b - a >= d for a, b in itertools.pairwise(held)):
                seen[sum(t > 0 for t in pack), len(held)] += 1
        for w, c in itertools.product(range(m + 1), range(m + 1)):
            f = law.log_f(w, c)
            allowed = 1 <= w <= 5 and (most is None or c <= most)
            assert (f is not None) == (allowed and seen[w, c] > 0), (d, w, c)
            if f is not None:
                assert math.exp(f) == pytest.approx(seen[w, c]), (d, w, c)
        if d == 1:  # a cap: C(m, w) C(w, c)
            assert math.exp(law.log_f(4, 2)) == pytest.approx(math.comb(6, 4) * math.comb(4, 2))


def test_the_tilt_makes_the_expected_sum_the_observed_one():
    law = Law(30, 6, 12, 3, 1)
    groups = {0: 20, 1: 40, 2: 30, 3: 10}
    laws = conditional(groups, law.given_c, 900)
    assert sum(groups[g] * float((s * p).sum()) for g, (s, p) in laws.items()) == pytest.approx(900, abs=1e-6)
    support, p = laws[2]
    assert support.tolist() == list(range(6, 13)) and p.sum() == pytest.approx(1.0)
    ratio = [p[i + 1] / p[i] / (math.comb(28, support[i + 1] - 2) / math.comb(28, support[i] - 2))
             for i in range(len(p) - 1)]
    assert max(ratio) == pytest.approx(min(ratio))  # one tilt x at every step


def test_the_place_transform_makes_valid_placements_a_uniform_subset():
    """y_i = x_i - i (d - 1) maps the valid placements one to one onto the c-subsets of range(r),
    r = m - (c - 1)(d - 1): so each y part's expected count is c x its share of range(r)."""
    m, c, d = 11, 3, 3
    r = m - (c - 1) * (d - 1)
    ys = sorted(tuple(x - i * (d - 1) for i, x in enumerate(p)) for p in _placements(m, c, d))
    assert ys == list(itertools.combinations(range(r), c))
    counts = np.zeros(PARTS)
    for y in ys:
        for v in y:
            counts[v * PARTS // r] += 1
    assert parts_expected(np.array([r]), np.array([c])) == pytest.approx(counts / len(ys))
    twice = parts_expected(np.array([r, r, 4]), np.array([c, c, 1]))
    assert twice.sum() == pytest.approx(2 * c + 1)


def test_two_packs_of_equal_prizes_are_not_called_too_even():
    """Two packs of 10 held to exactly 2 winners, a $1 and a $2 in each (a pool of 20 a fuzzed spec made,
    about half its honest shuffles): H = 0, which the chi-square's lower tail gave p = 0 and step 8
    failed. The lower tail is tested only where the amounts resolve it, as the dispersion's is."""
    found = kruskal("prize value", np.array([100, 200, 100, 200]), np.array([0, 0, 1, 1]))
    assert found is not None
    assert found.method == ("Kruskal-Wallis on the prize amounts (mid-ranks, ties corrected), upper tail: "
                            "too few groups for the lower")
    assert found.p == 1.0
    many = kruskal("prize value", np.tile([100, 200], 400), np.repeat(np.arange(40), 20))
    assert many is not None and many.method.endswith("two-sided") and many.p < 1e-20  # still too even
