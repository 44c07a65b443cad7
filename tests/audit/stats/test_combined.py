"""Step 8's pools' tests combined across a run (audit/stats/combined.py, docs/statistics.md 1d): Fisher's
combination of each test's p-values over the pools that made it, held to ALPHA_COMBINED; the run's 1%
still adds up; honest runs give it uniform-ish p-values; and a layout leak spread thinly over every pool
of a run, below each pool's threshold, is refused by it, in memory and in a re-signed run through
`verify_run` (step 8 the only failed step, by the combined test alone)."""

from __future__ import annotations

import hashlib
import math
from datetime import UTC, datetime

import numpy as np
import pytest

from audit.checklist import Step
from audit.stats.combined import combined_findings, combined_key
from audit.stats.step import (
    ALPHA,
    ALPHA_COMBINED,
    ALPHA_RUN,
    pool_alpha,
    run_statistics,
)
from audit.stats.tests import Finding
from audit.verify import VerifyRequest, verify_run
from poolgen.run.generate import GenerateRequest, generate
from poolgen.run.signing import Signer, new_key_pair
from tests.support.order_leaks import judged_order, reseal_every_pool, spot_3_leak
from tests.support.stats import small_spec

SPOT_3 = "play_spot_3 (one scratched spot) against win/lose"


def plain(judged) -> int:
    """The tests of `judged` but 1h's by the barcode's check digits and 1k's (a small pool's books' highest
    prizes make two classes or one: made in some pools only)."""
    return sum(not any(w in j.finding.name for w in ("barcode check digits", "the book's highest prize"))
               for j in judged)


def found(name: str, p: float) -> Finding:
    return Finding(name, "m", "f", p)


def test_fisher_is_minus_twice_the_sum_of_log_p_against_chi_square_with_2k_df():
    """Two pools at p = 0.1: X = -4 ln 0.1 = 9.2103, and a chi-square with 4 df has the tail
    e^(-x/2) (1 + x/2) = 0.01 x (1 + 2 ln 10) = 0.056052; three at 0.5, 0.2, 0.05: 6 df,
    e^(-x/2) (1 + x/2 + x^2/8) with x / 2 = ln 200."""
    (two,) = combined_findings([[found("a", 0.1)], [found("a", 0.1)]])
    assert two.name == "a: 2 pools combined"
    assert two.figures.startswith("-2 sum ln p = 9.21, df = 4, smallest pool p = 0.1")
    assert two.p == pytest.approx(0.01 * (1 + 2 * math.log(10)), rel=1e-12)
    (three,) = combined_findings([[found("a", 0.5)], [found("a", 0.2)], [found("a", 0.05)]])
    h = math.log(200)
    assert three.p == pytest.approx(math.exp(-h) * (1 + h + h * h / 2), rel=1e-12)


def test_pools_all_at_p_1_combine_to_x_0_not_minus_0():
    """ln 1 = 0 in every pool: X = -2 x 0 is -0.0 in floating point, printed "-0.00" (seen since the exact
    position tests give p = 1 exactly when the group may fall anywhere); X is 0."""
    (both,) = combined_findings([[found("a", 1.0)], [found("a", 1.0)]])
    assert both.figures == "-2 sum ln p = 0.00, df = 4, smallest pool p = 1"
    assert both.p == 1.0


def test_only_a_test_made_once_in_each_of_two_or_more_pools_is_combined():
    pools = [[found("both", 0.3), found("one", 0.01), found("twice", 0.5), found("twice", 0.5)],
             [found("both", 0.4), found("twice", 0.5), found("last", 0.2)],
             [found("last", 0.0)]]
    combined = combined_findings(pools)
    assert [f.name for f in combined] == ["both: 2 pools combined", "last: 2 pools combined"]
    assert combined[1].p == 0.0  # a pool's p of 0 (an exact test's extreme): the combination's too


def test_the_book_number_tests_combine_whatever_count_of_books_the_pools_drew():
    """1c's names carry the drawn count of the top prizes' books; the pools combine under "k"."""
    name = "books of the top prizes ($100 to $20; {} of 1,000 books) by printed book number: smallest"
    combined = combined_findings([[found(name.format(9), 0.2)], [found(name.format(10), 0.3)],
                                  [found(name.format("1,000"), 0.4)]])
    assert [f.name for f in combined] == [name.format("k") + ": 3 pools combined"]
    assert combined_key("winners per book of 30: histogram (12 of 100 books)") == \
        "winners per book of 30: histogram (12 of 100 books)"  # no ";": not a book number test's


def test_the_runs_one_percent_still_adds_up_with_the_combined_share():
    """One pool: no test can be combined, the pool keeps 0.4%; two or more: 0.2% over the pools."""
    assert ALPHA_RUN + pool_alpha(1) == ALPHA
    for pools in (2, 6, 16, 64):
        assert ALPHA_RUN + ALPHA_COMBINED + pools * pool_alpha(pools) == pytest.approx(ALPHA, rel=1e-12)
    assert pool_alpha(6) == pytest.approx(0.002 / 6)


def test_on_honest_runs_the_combined_p_values_are_uniform_or_conservative(tmp_path):
    """30 honest runs of 6 small pools: no run fails the combined tests, and their p-values (Fisher of
    valid, partly conservative p-values: conservative) are at most 0.05 in at most 7% of cases, at most
    0.01 in at most 2%, with a mean of at least 0.45."""
    spec = small_spec(tmp_path)
    ps, names, made = [], set(), 0
    for i in range(30):
        stats, combined = judged_order(spec, f"honest-{i}", 6)
        assert not combined.failed, [(j.finding.name, j.finding.p) for j in combined.failed]
        # every pool made the same tests, each combined (but 1h's check digits and 1k's: not made where their
        # top-coding leaves one class, and their classes may differ from pool to pool)
        assert len({plain(s.judged) for s in stats}) == 1 and plain(combined.judged) == plain(stats[0].judged)
        ps += [j.finding.p for j in combined.judged]
        names |= {j.finding.name for j in combined.judged}
        made += len(combined.judged)
    p = np.array(ps)
    assert len(p) == made
    assert np.mean(p <= 0.05) <= 0.07 and np.mean(p <= 0.01) <= 0.02 and p.mean() >= 0.45, \
        (np.mean(p <= 0.05), np.mean(p <= 0.01), p.mean())
    assert f"{SPOT_3}: 6 pools combined" in names


def test_a_leak_on_8_percent_of_each_of_16_pools_is_refused_combined_though_no_pool_alone(tmp_path):
    """The red team's case: 8% of every pool's losers show their highest amount in spot 3; no pool of
    the 16 is refused at its own level, the combined spot-3 test is, at p below 1e-8."""
    stats, combined = judged_order(small_spec(tmp_path), "leak", 16, 0.08)
    assert [s.pool for s in stats if s.failed] == []
    failed = {j.finding.name: j.finding.p for j in combined.failed}
    assert list(failed) == [f"{SPOT_3}: 16 pools combined"] and failed[f"{SPOT_3}: 16 pools combined"] < 1e-8
    assert not run_statistics([s.top for s in stats if s.top], 16).failed  # nor the top tiers


def test_a_re_signed_run_whose_every_pool_leaks_a_little_fails_step_8_by_the_combined_test(tmp_path):
    """A signed run of the small game's 6 pools; an insider rewrites every pool file with 8% of its losers
    leaking in spot 3 and signs again: verify fails step 8 alone, for one reason, the combined test."""
    spec = small_spec(tmp_path)
    keys = new_key_pair(tmp_path / "keys")
    signer = Signer.from_file(keys.private)
    seed = hashlib.sha256(b"poolgen/tests/order-leaks").digest()
    request = GenerateRequest(spec, seed, now=datetime(2026, 1, 2, tzinfo=UTC), out=tmp_path / "runs",
                              run_id="hh", signature=signer.manifest_entry())
    run = generate(request, finish=signer.sign_run).folder
    assert len(spec.pools) == 6 and verify_run(VerifyRequest(run=run, public_key=keys.public)).failed == []
    area = next(a for a in spec.play.document()["areas"] if a["id"] == "play")
    reseal_every_pool(run, lambda i, t: spot_3_leak(t, area, 0.08, np.random.default_rng(i)), signer)
    report = verify_run(VerifyRequest(run=run, public_key=keys.public))
    assert report.failed == [Step.STATISTICS]
    reasons = next(s for s in report.steps if s.step == Step.STATISTICS).reasons
    assert len(reasons) == 1 and reasons[0].startswith(f"run: {SPOT_3}: 6 pools combined (Fisher's"), reasons
