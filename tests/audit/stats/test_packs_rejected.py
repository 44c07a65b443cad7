"""audit's reading of docs/randomness.md 5.13 (`rejected_alone`: which pools the generator draws by
rejection from the exact draw of some of their caps and spacing rules, for step 8's message) agrees with
the generator's (`exactly_rejected`) from the manifest's counts alone: on Happy Holidays books on both
sides of the rule's bound, and on random small pools."""

from __future__ import annotations

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from audit.read.manifest import Tier
from audit.read.specs.packs import PackCap, PackRules, PackSpacing
from audit.stats.packs import rejected_alone
from poolgen.run.packs import Rules
from poolgen.run.packs.rejected import exactly_rejected

IDS = ["lose", "5", "20", "100"]
PRIZES = [0, 500, 2000, 10000]


def _both(m: int, counts: list[int], caps: list[tuple[tuple[str, ...], int]],
          spacing: list[tuple[tuple[str, ...], int]], lo: int | None = None,
          hi: int | None = None) -> tuple[bool, bool]:
    """(audit's reading, the generator's) of one pool of the rules."""
    tiers = tuple(Tier(i, p, c) for i, p, c in zip(IDS[1:], PRIZES[1:], counts[1:], strict=True))
    audit_rules = PackRules(min_winners=lo, max_winners=hi,
                            caps=tuple(PackCap(f"packs.caps[{k}]", most, named)
                                       for k, (named, most) in enumerate(caps)),
                            spacing=tuple(PackSpacing(f"packs.spacing[{k}]", d, named)
                                          for k, (named, d) in enumerate(spacing)))
    rules = Rules(m=m, books=sum(counts) // m, counts=tuple(counts), prizes=tuple(PRIZES), lo=lo or 0,
                  hi=m if hi is None else hi, min_cents=None,
                  caps=tuple((frozenset(IDS.index(t) for t in named), k) for named, k in caps),
                  spacing=tuple((frozenset(IDS.index(t) for t in named), d) for named, d in spacing))
    return rejected_alone(audit_rules, tiers, m, sum(counts)), exactly_rejected(rules)


@pytest.mark.parametrize(("caps", "spacing", "bounds", "drawn"), [
    ([(("100",), 1)], [(("20", "100"), 2), (("20",), 3)], (80, 110), True),  # 5.9's base, the $20 rule left
    ([(("20",), 2)], [(("100",), 2)], (80, 110), True),  # 5.7's base, 450^2 / T = 0.675 left
    ([(("20",), 2)], [(("100",), 10)], (80, 110), False),  # either left out costs more than 4: the chain
    ([(("100",), 1), (("20",), 1), (("5",), 14)], [], (80, 110), True),  # 5.9's base, the $5 cap left: 1.19
    ([(("100",), 1), (("20",), 2), (("20", "100"), 2)], [], (80, 110), False),  # a cap of two on 950: 143
    ([(("100",), 1)], [(("20", "100"), 2)], (80, 110), False),  # 5.9's own
    ([(("100",), 2), (("20",), 2)], [], (None, None), False),  # 5.10's kind
])
def test_audit_reads_caps_and_spacing_rules_as_5_13_where_the_generator_does(caps, spacing, bounds, drawn):
    counts = [300_000 - 4_100 - 500 - 450, 4_100, 500, 450]
    assert _both(300, counts, caps, spacing, *bounds) == (drawn, drawn)


SETS = st.sets(st.sampled_from(IDS[1:]), min_size=1).map(lambda s: tuple(sorted(s)))


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 6), st.integers(1, 5), st.lists(st.integers(0, 6), min_size=3, max_size=3),
       st.lists(st.tuples(SETS, st.integers(1, 3)), max_size=3),
       st.lists(st.tuples(SETS, st.integers(2, 4)), max_size=3), st.booleans())
def test_audit_and_the_generator_read_random_pools_alike(m, books, winners, caps, spacing, bounded):
    counts = [m * books - sum(winners), *winners]
    if counts[0] < 0:
        counts = [0, *(w * m * books // max(1, sum(winners)) for w in winners)]
        counts[0] = m * books - sum(counts[1:])
    lo, hi = (1, m - 1) if bounded else (None, None)
    audit_reads, generator_reads = _both(m, counts, caps, spacing, lo, hi)
    event(f"5.13: {generator_reads}")
    assert audit_reads == generator_reads
