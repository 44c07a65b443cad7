"""Step 8's winners-per-pack test under pack parameters (audit/stats/packs.py): its reference
distribution, and its false-failure rate on pools drawn exactly by poolgen's sampler."""

from __future__ import annotations

import hashlib
import math
import re

import numpy as np
import pytest

from audit.read.manifest import Tier
from audit.read.specs.packs import PackCap, PackRules, PackSpacing
from audit.stats.packs import caps_alone, pack_block_findings, spaced_alone, winners_reference
from audit.stats.step import pool_statistics
from poolgen.loader import load_spec
from poolgen.rng import derive_stream
from poolgen.run.build import build_pool
from poolgen.run.packs import Rules
from poolgen.run.packs.composition import arrange_winners
from poolgen.run.packs.several import exactly_several
from tests.support import SEED_A, spec_path

M, BOOKS = 50, 40
COUNTS = (1400, 450, 150)  # 2,000 tickets: 600 winners, 15 per pack on average
# Happy Holidays cut to one pool of 3,000 tickets in books of 30 (every count about 1/600 of the order's)
SMALL = {"order_tickets = 1800000": "order_tickets = 3000", "pool_tickets = 300000": "pool_tickets = 3000",
         "last_ticket = 299": "last_ticket = 29", "count = 120000": "count = 200",
         "count = 236100": "count = 394", "count = 141000": "count = 235", "count = 24600": "count = 41",
         "count = 3000\n": "count = 5\n", "count = 2700": "count = 5"}


def test_the_reference_is_the_tilted_binomial_on_the_allowed_counts_with_the_pools_mean():
    q = winners_reference(M, BOOKS, 600, 12, 20)
    assert q.sum() == pytest.approx(1.0)
    assert (q[:12] == 0).all() and (q[21:] == 0).all()
    assert (np.arange(M + 1) * q).sum() == pytest.approx(15.0, abs=1e-9)
    ratio = q[13] / q[12] / (math.comb(M, 13) / math.comb(M, 12))  # the tilt x, the same at every step
    assert q[17] / q[16] / (math.comb(M, 17) / math.comb(M, 16)) == pytest.approx(ratio)


def test_false_failure_rate_on_1000_pools_drawn_exactly_is_within_the_design():
    """At the 1% level the test may fail about 1% of honest pools; at most 1.3% of 1,000 (the issue's
    bound) and it must not be silent either (some p-values below 10%)."""
    rules = Rules(m=M, books=BOOKS, counts=COUNTS, prizes=(0, 100, 500), lo=12, hi=20, min_cents=None,
                  caps=(), spacing=())
    audit_rules = PackRules(min_winners=12, max_winners=20)
    stream = derive_stream(SEED_A, "poolgen/test", "step 8 under packs")
    ps = []
    for _ in range(1000):
        win = arrange_winners(stream, rules).reshape(-1) > 0
        found, skipped = pack_block_findings(win.astype(np.int64), M, audit_rules)
        assert skipped == ["1 of the book tests: too few tickets to bin or rank"]  # one prize amount
        assert [f.name for f in found] == [
            "winners per book of 50: histogram of 40 books under the pack parameters (12..20)",
            "winners by place in their book (tenths)", "runs of winners and losers within each book"]
        ps.append(found[0].p)
    rate = float(np.mean(np.asarray(ps) <= 0.01))
    assert rate <= 0.013, rate
    assert np.mean(np.asarray(ps) <= 0.1) > 0.03


def test_the_chain_s_parameters_leave_the_packs_histograms_untested_and_say_why():
    cases = ((PackRules(min_prize_cents=500), 6),
             (PackRules(caps=(PackCap("packs.caps[0]", 2, ("100",)),
                              PackCap("packs.caps[1]", 2, ("20",)))), 8))
    for rules, made in cases:
        found, skipped = pack_block_findings(np.zeros(100, dtype=np.int64), 10, rules, (), np.full(100, "0"))
        assert found == [] and skipped[1:] == [
            "each tier per book given the rest of its pair of books: fewer than 20 pairs of books",
            f"{made} of the book tests: too few tickets to bin or rank"]
        assert skipped[:1] == [
            "winners per book: the game's pack parameters (a prize-value floor, two spacing rules, three "
            "caps, two caps 5.9 does not take, or a cap beside a spacing rule other than as 5.8 or 5.9 take "
            "it) are drawn by the chain of docs/randomness.md "
            "5.3: no closed-form law of the packs to test their histograms against, only their spread over "
            "the books and each tier given the rest of its pair of books (audit/stats/packs.py)"]
    with pytest.raises(ValueError, match="the pool's tier column is needed for its caps and spacing rules"):
        pack_block_findings(np.zeros(100, dtype=np.int64), 10, cases[1][0])


def test_several_caps_alone_are_read_as_5_10_or_the_chain_and_say_which():
    """Caps on "100" (3 tickets) and "20" (3) at most two a book of 10, 100 tickets: 5.10's rule holds
    (10 x 9 <= 69 x 100, 2 x 6 <= 100), so the message names 5.10 (its compositions tested against its
    law, tests/audit/stats/test_packs_caps.py); with 30 and 30 of them the caps hold more than half the
    pool and the chain's message stands."""
    rules = PackRules(caps=(PackCap("packs.caps[0]", 2, ("100",)), PackCap("packs.caps[1]", 2, ("20",))))
    for n, said in ((3, "drawn exactly by docs/randomness.md 5.10"), (30, "drawn by the chain")):
        tiers = (Tier("lose", 0, 100 - 2 * n), Tier("100", 10_000, n), Tier("20", 2_000, n))
        assert caps_alone(rules, tiers, 10, 100) is (n == 3)
        column = np.full(100, "lose")  # the tier column step 8 reads for caps
        _, skipped = pack_block_findings(np.zeros(100, dtype=np.int64), 10, rules, tiers, column)
        assert said in skipped[0], skipped
    winners = PackRules(min_winners=1, caps=rules.caps)
    tiers = (Tier("lose", 0, 94), Tier("100", 10_000, 3), Tier("20", 2_000, 3))
    assert not caps_alone(winners, tiers, 10, 100)
    assert not caps_alone(rules, (), 10, 100)  # counts unknown


class _Entry:
    """The fields of a manifest pool entry that step 8 reads."""

    def __init__(self, pool, seed: bytes) -> None:
        self.id = pool.id
        self.tiers = tuple(Tier(t.id, t.prize_cents, t.count) for t in pool.tiers)
        self.file_sha256 = hashlib.sha256(seed).hexdigest()  # any fixed digest: it keys the split


def test_step_8_fails_few_honest_pools_made_under_a_winners_minimum(tmp_path):
    """All of step 8 (Holm at 1%) on 200 small pools (100 packs of 30) made with 6..12 winners a pack:
    at most 6 fail (a test that truly fails 1% exceeds that with probability 0.0034). Measured on
    1,000 such pools: 0.9%; with every parameter: 0.9% (docs/randomness.md, 5.3)."""
    text = spec_path("happy_holidays").read_text()
    for old, new in SMALL.items():
        text = text.replace(old, new)
    text = re.sub(r"published_cost = \"[^\"]*\"\n", "", text)
    text = re.sub(r"\[published\].*?\]\n\n", "", text, flags=re.S)
    text = text.replace("[play]\n", "[packs]\nmin_winners = 6\nmax_winners = 12\n\n[play]\n")
    (tmp_path / "hh.toml").write_text(text)
    spec = load_spec(tmp_path / "hh.toml")
    pool, play = spec.pools[0], spec.play.document()
    failed = 0
    for i in range(200):
        seed = hashlib.sha256(b"poolgen/tests/packs-false-failures/%d" % i).digest()
        result = pool_statistics(build_pool(spec, pool, seed), _Entry(pool, seed), rules=spec.id,
                                 kind=spec.kind, per_book=30, pools=1, play=play,
                                 packs=PackRules(min_winners=6, max_winners=12))
        assert any(j.finding.name.startswith("winners per book of 30") for j in result.judged)
        failed += bool(result.failed)
    assert failed <= 6, failed


@pytest.mark.parametrize(("twenties", "spacing", "drawn"), [
    (500, ((("20",), 2), (("100",), 3)), True),  # 500^2 beside the primary 450^2 x 2: exp(-0.83)
    (500, ((("20", "100"), 2), (("100",), 10)), True),  # 950^2 beside 450^2 x 9: exp(-3.008)
    (650, ((("20", "100"), 2), (("100",), 10)), False),  # 1,100^2 beside 450^2 x 9: exp(-4.03), the chain
    (500, ((("20",), 2),), False),  # one rule: 5.8
    (500, ((("lose", "20"), 2), (("100",), 3)), False),  # the losers spaced (no spec can say it)
])
def test_audit_reads_several_spacing_rules_as_5_12_where_the_generator_does(twenties, spacing, drawn):
    """audit's reading of 5.12's rule (`spaced_alone`, for step 8's message) from the manifest's counts
    agrees with the generator's (`exactly_several`) on both sides of the estimate's bound."""
    tiers = (Tier("20", 2000, twenties), Tier("100", 10000, 450))
    ids = ["lose", "20", "100"]
    audit_rules = PackRules(spacing=tuple(PackSpacing(f"packs.spacing[{k}]", d, named)
                                          for k, (named, d) in enumerate(spacing)))
    rules = Rules(m=300, books=1000, counts=(300_000 - twenties - 450, twenties, 450),
                  prizes=(0, 2000, 10000), lo=0, hi=300, min_cents=None, caps=(),
                  spacing=tuple((frozenset(ids.index(t) for t in named), d) for named, d in spacing))
    assert spaced_alone(audit_rules, tiers, 300_000) is drawn
    assert exactly_several(rules) is drawn
