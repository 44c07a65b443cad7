"""The share of a pack's orders meeting several spacing rules (audit/stats/orders.py), which the pair
tests of docs/statistics.md 1b weigh compositions by: one rule's closed form, every order of a small
pack counted one by one under two rules sharing a tier, and the bound past which it is not counted."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from audit.read.manifest import Tier
from audit.read.specs.packs import PackRules, PackSpacing
from audit.stats.orders import CELLS, log_share
from audit.stats.pairs import pool_pairs


def test_one_rule_gives_apart_over_the_binomial():
    m, d = 30, 3
    table = log_share(m, [frozenset({0})], [d], [12])
    for c in range(13):
        room = m - max(c - 1, 0) * (d - 1)
        if room < c:
            assert table[c] == -math.inf, c
        else:
            assert table[c] == pytest.approx(math.log(math.comb(room, c) / math.comb(m, c)), abs=1e-11), c


def test_two_rules_sharing_a_tier_give_the_share_of_orders_counted_one_by_one():
    """Kinds {0}, {1} and {0, 1} (a tier named by both rules), rule 0 three apart, rule 1 two, packs of
    8: every count up to (3, 3, 2) against the distinct orders of its labels, each checked rule by rule."""
    m, distances = 8, [3, 2]
    kinds = [frozenset({0}), frozenset({1}), frozenset({0, 1})]
    table = log_share(m, kinds, distances, [3, 3, 2])
    assert table.shape == (4, 4, 3)
    fitted = 0
    for n in itertools.product(range(4), range(4), range(3)):
        labels = [0] * (m - sum(n)) + [1] * n[0] + [2] * n[1] + [3] * n[2]
        orders = set(itertools.permutations(labels))

        def meets(order: tuple[int, ...]) -> bool:
            for r, d in enumerate(distances):
                at = [p for p, k in enumerate(order) if k and r in kinds[k - 1]]
                if any(b - a < d for a, b in itertools.pairwise(at)):
                    return False
            return True

        good = sum(meets(o) for o in orders)
        if good == 0:
            assert table[n] == -math.inf, n
        else:
            fitted += 1
            assert table[n] == pytest.approx(math.log(good / len(orders)), abs=1e-11), n
    assert fitted == 34


def test_past_its_bound_the_count_is_refused_and_the_pair_tests_say_so():
    with pytest.raises(ValueError, match=f"8,242,408 cells, more than {CELLS:,}"):
        log_share(600, [frozenset({0}), frozenset({1}), frozenset({2})], [2, 2, 2], [100, 100, 100])
    # two packs of 600, each "a L b L c L" 50 times: every rule met, 100 of each kind in the pair
    pack = ["a", "lose", "b", "lose", "c", "lose"] * 50 + ["lose"] * 300
    tier = np.asarray(pack * 2)
    prize = np.where(tier == "lose", 0, 100).astype(np.int64)
    tiers = (Tier("lose", 0, 1 + 2 * 450), Tier("a", 100, 100), Tier("b", 100, 100), Tier("c", 100, 100))
    rules = PackRules(spacing=tuple(PackSpacing(f"packs.spacing[{i}]", 2, (t,)) for i, t in enumerate("abc")))
    assert pool_pairs("book", prize, tier, 600, rules, tiers, fewest=1) == (
        "3 spacing rules, up to 100, 100, 100 tickets of each kind in a pair of books: counting a book's "
        f"orders takes 8,242,408 cells, more than {CELLS:,} (audit/stats/orders.py)")


def _orders_counted_exactly(m: int, d0: int, d1: int, most: int) -> dict[tuple[int, int], int]:
    """N(n0, n1) in exact integers: sequences of m labels, n0 of kind {0} (rule 0, d0 apart), n1 of kind
    {1} (rule 1, d1 apart), the rest unspaced; the state the counts and the places since each kind's last."""
    table = {(0, 0, d0, d1): 1}
    for _ in range(m):
        new: dict[tuple[int, int, int, int], int] = {}
        for (a, b, g0, g1), v in table.items():
            for key, ok in (((a, b, min(g0 + 1, d0), min(g1 + 1, d1)), True),
                            ((a + 1, b, 1, min(g1 + 1, d1)), g0 == d0 and a < most),
                            ((a, b + 1, min(g0 + 1, d0), 1), g1 == d1 and b < most)):
                if ok:
                    new[key] = new.get(key, 0) + v
        table = new
    out: dict[tuple[int, int], int] = {}
    for (a, b, _, _), v in table.items():
        out[(a, b)] = out.get((a, b), 0) + v
    return out


def test_two_rules_on_packs_of_300_give_the_share_of_orders_of_exact_integers_to_1e_13():
    """Packs of 300 (Happy Holidays' books), rules 3 and 5 apart on two kinds, every count up to 8 each:
    h = N(n) (m - n0 - n1)! n0! n1! / m! in exact integers. The multinomial as differences of lgamma
    near ln(300!) was off by up to 5.8e-13 of h (2e-12 of a pair test's p); as logarithms of exact
    binomials, 1.8e-14."""
    m, d0, d1, most = 300, 3, 5, 8
    table = log_share(m, [frozenset({0}), frozenset({1})], [d0, d1], [most, most])
    counted = _orders_counted_exactly(m, d0, d1, most)
    assert len(counted) == 81
    for (a, b), n in counted.items():
        h = Fraction(n * math.factorial(a) * math.factorial(b) * math.factorial(m - a - b), math.factorial(m))
        assert table[a, b] == pytest.approx(math.log(h), rel=0, abs=1e-13), (a, b)
