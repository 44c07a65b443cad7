"""Step 8's "prize amounts by ticket number within the book" (audit/stats/books.py, docs/statistics.md
section 1): an insider who keeps every book's winners and prize value and only exchanges tickets within
a book, so that some ticket numbers (printed outside the latex: 1, 4, 7, ... or those ending in 7)
hold a prize level below the top tiers, or more winners. The tenths of the ticket number, the per-book,
runs and top-tier tests see an honest pool; this test refuses it, named. Small Happy Holidays pools
(3,000 tickets in books of 30, test_false_failure_rate's variant), and a re-signed run through
`verify_run` (step 8 the only failed step)."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
from scipy.stats import chi2

from audit.checklist import Step
from audit.stats.books import block_findings, top_coded_classes
from audit.stats.pack_laws import top_coded
from audit.stats.tests import distinct_values
from audit.verify import VerifyRequest, verify_run
from poolgen.loader import load_spec
from poolgen.run.build import build_pool
from tests.support import small_einstant
from tests.support.reseal import reseal_insider_pool, signed_first_pool
from tests.support.stats import judge, small_spec
from tests.support.ticket_number_biases import (
    level_at_ticket_numbers,
    winners_to_even_ticket_numbers,
    winners_to_serials,
)

SEED = hashlib.sha256(b"poolgen/tests/insider-ticket-numbers").digest()
TEST = "prize amounts by ticket number within the book: 30 ticket numbers x 3 classes"


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    spec = small_spec(tmp_path_factory.mktemp("ticket-numbers"))
    pool = spec.pools[0]
    return spec, pool, build_pool(spec, pool, SEED)


def test_the_table_is_the_ticket_numbers_by_the_top_coded_amounts(small):
    """3,000 tickets: losers (2,120), $1 (594), $2 (235) and 51 of $5 to $100, which join the $2s (a class
    must hold 5 x 30 tickets): 30 x 3 cells, df 58, X2 Pearson's sum over them."""
    _, _, table = small
    prize = table["prize_cents"].cast(int).to_numpy()
    found = {f.name: f for f in block_findings(prize, "printed", 30)[0]}
    f = found[TEST]
    classes = np.where(prize >= 200, 2, np.where(prize > 0, 1, 0))
    observed = np.zeros((30, 3))
    np.add.at(observed, (np.arange(3000) % 30, classes), 1)
    expected = np.bincount(classes)[None, :] / 30
    x2 = float(((observed - expected) ** 2 / expected).sum())
    assert f.figures == f"X2 = {x2:.1f}, df = 58"
    assert f.method == "chi-square test of independence, amounts top-coded to classes of at least 150 tickets"
    assert f.p == pytest.approx(chi2.sf(x2, 58), rel=1e-9) and f.p > 0.01


def test_the_2_dollar_tickets_kept_to_ticket_numbers_1_4_7_are_refused_by_this_test_alone(small):
    """Every $2 ticket moved to ticket number 1, 4, ..., 28 of its own book (one in each tenth): each
    book keeps its winners and value; every other test stays above 1e-3, this one refuses it."""
    spec, pool, table = small
    honest, r = judge(spec, pool, table, SEED)
    assert not honest.failed and not r.failed
    biased = level_at_ticket_numbers(table, 30, 200, 3, 1, np.random.default_rng(1))
    prize = biased["prize_cents"].to_numpy()
    assert ((np.flatnonzero(prize == 200) % 30) % 3 == 1).mean() > 0.9
    assert (prize.reshape(100, 30) > 0).sum(axis=1).tolist() == \
        (table["prize_cents"].to_numpy().reshape(100, 30) > 0).sum(axis=1).tolist()
    s, r = judge(spec, pool, biased, SEED)
    assert not r.failed
    assert [j.finding.name for j in s.failed] == [TEST]
    assert s.failed[0].finding.p < 1e-6
    assert min(j.finding.p for j in s.judged if j.finding.name != TEST) > 1e-3


def test_winners_moved_to_even_ticket_numbers_are_refused_by_this_test(small):
    """One in five pairs (a winner at an odd ticket number, a loser at an even one) of every book swapped:
    the tenths and the runs do not refuse it; this test does."""
    spec, pool, table = small
    s, r = judge(spec, pool, winners_to_even_ticket_numbers(table, 30, 0.2, np.random.default_rng(2)), SEED)
    assert not r.failed
    assert [j.finding.name for j in s.failed] == [TEST]


def test_a_re_signed_run_with_a_level_kept_to_some_ticket_numbers_fails_step_8_alone(tmp_path):
    spec = small_spec(tmp_path)  # books of 30 (tests/support's small_happy_holidays has 10 of 300)
    run, public, signer = signed_first_pool(spec, SEED, tmp_path)
    assert verify_run(VerifyRequest(run=run, public_key=public)).failed == []
    reseal_insider_pool(run, spec, spec.pools[0].id, SEED, signer,
                        lambda table: level_at_ticket_numbers(table, 30, 200, 3, 1, np.random.default_rng(3)))
    report = verify_run(VerifyRequest(run=run, public_key=public))
    assert report.failed == [Step.STATISTICS]
    reasons = next(s for s in report.steps if s.step == Step.STATISTICS).reasons
    assert len(reasons) == 1 and TEST in reasons[0], reasons


def test_on_uniform_shuffles_its_p_values_are_uniform(small):
    """2,000 uniform shuffles of the small pool's amounts (the null exactly): p <= 0.05 about 100 times
    (70 to 130 allowed), p <= 0.01 at most 35 times, p <= 0.001 at most 8."""
    prize = small[2]["prize_cents"].cast(int).to_numpy()
    rng = np.random.default_rng(7)
    ps = np.array([next(f.p for f in block_findings(rng.permutation(prize), "printed", 30)[0]
                        if f.name == TEST) for _ in range(2000)])
    assert 70 <= (ps <= 0.05).sum() <= 130 and (ps <= 0.01).sum() <= 35 and (ps <= 0.001).sum() <= 8


def test_a_pool_of_fewer_than_5_b_winners_is_not_tested():
    """10 books of 300 with 878 winners: every amount top-codes into the losers' class; no table."""
    prize = np.zeros(3000, dtype=np.int64)
    prize[np.random.default_rng(0).choice(3000, 878, replace=False)] = 100
    names = [f.name for f in block_findings(prize, "printed", 300)[0]]
    assert not any(n.startswith("prize amounts by ticket number") for n in names)
    prize[:] = 0
    prize[:1500] = 100  # 1,500 winners and 1,500 losers: two classes of at least 5 x 300
    names = [f.name for f in block_findings(prize, "printed", 300)[0]]
    assert "prize amounts by ticket number within the book: 300 ticket numbers x 2 classes" in names


def test_an_einstants_winners_moved_to_serials_ending_in_1_are_refused_by_serial_mod_10(tmp_path):
    """Hand to Hand Tactics cut to 100,000 shares: one pair in five of (a winner at a position not
    divisible by 10, a loser at one that is) swapped, so serials ending in 1 win about 40% more often. The
    positions by tenth, blocks and runs do not refuse it; "prize amounts by serial mod 10" does, and the
    nine serial tests (mod 2 to 10) of the honest pool pass."""
    spec = load_spec(small_einstant(tmp_path, "hand_to_hand_tactics", 100_000))
    pool = spec.pools[0]
    table = build_pool(spec, pool, SEED)
    honest, r = judge(spec, pool, table, SEED)
    serial = [j.finding for j in honest.judged if j.finding.name.startswith("prize amounts by serial mod ")]
    names = [f.name.split(":")[0] for f in serial]
    assert names == [f"prize amounts by serial mod {k}" for k in range(2, 11)]
    assert not honest.failed and not r.failed
    biased = winners_to_serials(table, 10, 0.2, np.random.default_rng(4))
    win = biased["prize_cents"].to_numpy() > 0
    assert win[::10].mean() > 1.3 * table["prize_cents"].to_numpy()[::10].astype(bool).mean()
    s, r = judge(spec, pool, biased, SEED)
    assert not r.failed
    failed = [j.finding.name.split(":")[0] for j in s.failed]
    assert "prize amounts by serial mod 10" in failed
    assert all(name.startswith(("prize amounts by serial mod ", "runs")) for name in failed), failed


def test_the_classes_are_pack_laws_top_coding_of_the_amounts():
    """The table's classes (top-coded on the amounts' counts, once per table) are exactly
    pack_laws.top_coded's on the tickets, on 2,000 random pools of up to 8 amounts."""
    rng = np.random.default_rng(0)
    for _ in range(2000):
        values = np.sort(rng.choice(1000, rng.integers(1, 8), replace=False))
        amounts = rng.choice(values, rng.integers(1, 400), p=rng.dirichlet(np.ones(len(values)) * 0.5))
        least = int(rng.integers(1, 120))
        _, reference = np.unique(top_coded(amounts, least), return_inverse=True)
        _, inverse, counts = distinct_values(amounts)
        assert top_coded_classes(counts, least)[inverse].tolist() == reference.tolist()
