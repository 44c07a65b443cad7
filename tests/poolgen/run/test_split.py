"""The split of an order's counts over its pools (docs/randomness.md 4b, poolgen/run/split.py): the
known answers, poolgen against audit's own draw, the counts' bounds, and the law of the round-ups
(exact enumeration over every permutation and u, and chi-square on the stream's draws)."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st
from make_split_vectors import lines
from scipy.special import chdtrc

from audit.steps.split import SplitOrder, split_table
from poolgen.rng import derive_stream
from poolgen.run.split import round_ups, split_counts, split_label, split_tier
from tests.support import SEED_A, VECTORS

VECTOR = re.compile(r"split\(sizes=([\d,]+); counts=([\d,]+)\) = (.*)")


def _vectors() -> list[tuple[list[int], list[int], list[list[int]]]]:
    out = []
    for line in (VECTORS / "split.txt").read_text().splitlines():
        if line.startswith("#"):
            continue
        m = VECTOR.fullmatch(line)
        assert m, line
        per_pool = [[int(x) for x in p.split()] for p in m.group(3).split(" | ")]
        out.append(([int(x) for x in m.group(1).split(",")], [int(x) for x in m.group(2).split(",")],
                    [list(row) for row in zip(*per_pool, strict=True)]))
    return out


def test_split_vectors_are_the_reference_implementations():
    """The file is what the stand-alone reference (written from the doc) prints, line for line."""
    assert [x for x in (VECTORS / "split.txt").read_text().splitlines() if not x.startswith("#")] == lines()


def test_poolgen_and_audit_draw_the_split_vectors():
    vectors = _vectors()
    assert len(vectors) == 3
    for sizes, counts, table in vectors:
        assert split_counts(SEED_A, "vectors", counts, sizes) == table
        split = SplitOrder(sum(sizes), sizes, [(f"t{i}", c) for i, c in enumerate(counts)])
        assert split_table(SEED_A, "vectors", split) == table
    assert vectors[0][2][0] == [1, 1, 0, 1, 0, 1]  # the tier of 4 over six pools: four of them get one


@settings(max_examples=60, deadline=None)
@given(sizes=st.lists(st.integers(1, 50), min_size=1, max_size=9),
       counts=st.lists(st.integers(0, 400), min_size=1, max_size=5), seed=st.binary(min_size=32, max_size=32))
def test_counts_add_up_to_the_order_and_stay_within_one_of_the_share(sizes, counts, seed):
    n = sum(sizes)
    table = split_counts(seed, "g", counts, sizes)
    for count, row in zip(counts, table, strict=True):
        assert sum(row) == count
        for s, got in zip(sizes, row, strict=True):
            assert count * s // n <= got <= -(-count * s // n)
    split = SplitOrder(n, sizes, [(str(i), c) for i, c in enumerate(counts)])
    assert split_table(seed, "g", split) == table  # audit's own draw agrees


def _law(rests: list[int], order: int) -> Counter[tuple[int, ...]]:
    """How often each set of round-ups occurs over every permutation and every u (all equally likely)."""
    law: Counter[tuple[int, ...]] = Counter()
    for visit in itertools.permutations(range(len(rests))):
        for u in range(order):
            law[tuple(round_ups(rests, order, list(visit), u))] += 1
    return law


def test_each_pool_rounds_up_with_its_fractional_part_exactly():
    """Exact enumeration: P(pool k rounds up) = r_k / N, exactly R pools every time."""
    for sizes, count in (([3, 3, 3, 2], 4), ([5, 5, 5, 5, 5, 3], 5), ([4, 4, 1], 2), ([7, 2, 2], 3)):
        n = sum(sizes)
        rests = [count * s % n for s in sizes]
        law = _law(rests, n)
        total = sum(law.values())
        assert {sum(ups) for ups in law} == {sum(rests) // n}
        for k, r in enumerate(rests):
            assert Fraction(sum(w for ups, w in law.items() if ups[k]), total) == Fraction(r, n), (sizes, k)


def test_equal_parts_round_up_a_uniform_subset():
    """Six equal pools, a tier of 4: each of the fifteen sets of four equally likely (exactly), where a
    fixed order (no permutation) would allow three."""
    law = _law([4] * 6, 6)
    assert len(law) == 15 and len(set(law.values())) == 1
    fixed = {tuple(round_ups([4] * 6, 6, list(range(6)), u)) for u in range(6)}
    assert fixed == {(1, 1, 0, 1, 1, 0), (1, 0, 1, 1, 0, 1), (0, 1, 1, 0, 1, 1)}


def test_the_streams_round_ups_follow_the_law_by_chi_square():
    """4,000 tiers drawn from one split stream: the sets of four of six equal pools uniform, and with a
    last pool of 3 among pools of 10 (rests 7, 7, 7, 7, 15 of 43) each pool as often as r_k / N says."""
    stream = derive_stream(SEED_A, *split_label("chi"))
    seen = Counter(tuple(split_tier(stream, 4, [600] * 6)) for _ in range(4000))
    assert len(seen) == 15
    stat = sum((c - 4000 / 15) ** 2 / (4000 / 15) for c in seen.values())
    assert chdtrc(14, stat) > 1e-3, seen
    floors = [1, 1, 1, 1, 0]  # 50 / 43 in each pool of 10, 15 / 43 in the last
    draws = (split_tier(stream, 5, [10, 10, 10, 10, 3]) for _ in range(4300))
    ups = Counter(tuple(c - f for c, f in zip(row, floors, strict=True)) for row in draws)
    assert set(ups) == {tuple(int(i == k) for i in range(5)) for k in range(5)}  # R = 1
    want = [700, 700, 700, 700, 1500]
    got = [ups[tuple(int(i == k) for i in range(5))] for k in range(5)]
    stat = sum((g - w) ** 2 / w for g, w in zip(got, want, strict=True))
    assert chdtrc(4, stat) > 1e-3, got


def test_a_tier_whose_shares_are_whole_draws_nothing():
    stream = derive_stream(SEED_A, *split_label("whole"))
    assert split_tier(stream, 30, [100, 100, 100]) == [10, 10, 10]
    assert stream.words(1).tolist() == derive_stream(SEED_A, *split_label("whole")).words(1).tolist()
