"""Step 8's tests of what every book holds by its printed number (audit/stats/book_order.py,
docs/statistics.md 1f): an insider who moves whole books in print order so that the books with the
fewest winners carry the pool's highest numbers, or the books richest in $2s one range of numbers (one
retailer's), leaves every position and top-prize test as an honest pool's; the tenths of the book
numbers' order refuse it, named. Small Happy Holidays pools (3,000 tickets in books of 30,
test_false_failure_rate's variant)."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
from scipy.stats import chi2, kruskal

from audit.checklist import Step
from audit.stats.book_order import BY_NUMBER, book_order_findings
from audit.stats.step import holm, pool_alpha
from audit.verify import VerifyRequest, verify_run
from poolgen.run.build import build_pool
from tests.support.book_order_biases import fewest_winners_numbered_last, level_in_number_range
from tests.support.reseal import reseal_insider_pool, signed_first_pool
from tests.support.stats import judge, small_spec

SEED = hashlib.sha256(b"poolgen/tests/insider-book-order/0").digest()
WINNERS = f"winners {BY_NUMBER}"
TWOS = f"prize level $2 (235 tickets) {BY_NUMBER}"
WINDOWS = "most in consecutive"  # 1g's tests, which see a narrow range of numbers too


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    spec = small_spec(tmp_path_factory.mktemp("book-order"))
    pool = spec.pools[0]
    return spec, pool, build_pool(spec, pool, SEED)


def _refused_before(s) -> list[str]:
    """What Holm refuses of the pool's tests without those of 1f and 1g: step 8 before them."""
    return [j.finding.name for j in holm([j.finding for j in s.judged if BY_NUMBER not in j.finding.name
                                          and WINDOWS not in j.finding.name], pool_alpha(1)) if j.rejected]


def test_books_with_the_fewest_winners_numbered_last_are_refused_by_the_winners_per_book_by_number(small):
    spec, pool, table = small
    honest, _ = judge(spec, pool, table, SEED)
    assert not honest.failed
    biased = fewest_winners_numbered_last(table, 30, 0.2)
    assert biased["book"].to_list() == table["book"].to_list()  # every slot keeps its seed's number
    assert sorted(biased["prize_cents"].to_list()) == sorted(table["prize_cents"].to_list())
    s, r = judge(spec, pool, biased, SEED)
    assert not r.failed and _refused_before(s) == []  # no test before 1f saw it
    failed = {j.finding.name: j.finding for j in s.failed}
    assert set(failed) == {WINNERS, f"prize level $1 (594 tickets) {BY_NUMBER}"}
    assert failed[WINNERS].p < 1e-6
    assert failed[WINNERS].method == ("permutation chi-square of the held count per part, 10 parts of "
                                      "the packs")


def test_books_richest_in_one_level_numbered_in_one_range_are_refused_by_that_level_by_number(small):
    spec, pool, table = small
    s, r = judge(spec, pool, level_in_number_range(table, 30, 200, 0.2, 0.4), SEED)
    assert not r.failed and _refused_before(s) == []
    failed = {j.finding.name: j.finding for j in s.failed}
    assert set(failed) == {TWOS, f"prize level $2 (235 tickets): {WINDOWS} books by printed book number"}
    assert failed[TWOS].p < 1e-8


def test_the_tests_by_number_are_the_formulas_of_the_contract(small):
    """X2 = (B - 1) / B sum_g (S_g - n_g mean)^2 / (n_g var) over the tenths of the books taken in the
    order of their numbers, and Kruskal-Wallis of the books' values across the tenths (scipy's)."""
    _, _, table = small
    prize = table["prize_cents"].to_numpy()
    book = np.repeat(np.arange(100)[::-1] * 7 + 3, 30)  # numbers falling along print order
    found = {f.name: f for f in book_order_findings(prize, book, 30)}
    assert list(found) == [WINNERS, f"prize level $5 (41 tickets) {BY_NUMBER}", TWOS,
                           f"prize level $1 (594 tickets) {BY_NUMBER}", f"prize value {BY_NUMBER}"]
    # the $100s and $20s (5 tickets each): too few for two parts of 10, not made; the $5s (at most 200
    # tickets): the books holding them, with the exact tail (test_exact_tenths.py)
    assert found[f"prize level $5 (41 tickets) {BY_NUMBER}"].method == (
        "permutation chi-square of the books holding it per part, 4 parts of the packs, exact tail")
    per_book = prize.reshape(100, 30)[::-1]  # in the order of the numbers
    tenth = np.arange(100) // 10
    for name, x in ((WINNERS, (per_book > 0).sum(axis=1)), (TWOS, (per_book == 200).sum(axis=1))):
        s = np.bincount(tenth, weights=x)
        x2 = 99 / 100 * float(((s - 10 * x.mean()) ** 2 / (10 * x.var())).sum())
        assert found[name].figures == f"X2 = {x2:.2f}, df = 9"
        assert found[name].p == pytest.approx(chi2.sf(x2, 9), rel=1e-9)
    value = per_book.sum(axis=1)
    h = kruskal(*[value[tenth == g] for g in range(10)]).statistic
    assert found[f"prize value {BY_NUMBER}"].figures == f"H = {h:.1f}, df = 9"


def test_the_tests_by_number_hold_their_level_on_the_permutations_of_one_pools_numbers(small):
    """Their null is exactly a uniform permutation of the books' numbers given what the books hold:
    2,000 of them, each test's p at most 0.05 and 0.01 no more often than that allows (a uniform p
    exceeds 0.065 and 0.017 of 2,000 with probability below 0.001)."""
    _, _, table = small
    prize = table["prize_cents"].to_numpy()
    rng = np.random.default_rng(5)  # the null's draws, not a pool's
    ps: dict[str, list[float]] = {}
    for _ in range(2000):
        for f in book_order_findings(prize, np.repeat(rng.permutation(100), 30), 30):
            ps.setdefault(f.name, []).append(f.p)
    assert len(ps) == 5 and all(len(v) == 2000 for v in ps.values())
    for name, v in ps.items():
        p = np.array(v)
        assert (p <= 0.05).mean() <= 0.065 and (p <= 0.01).mean() <= 0.017, name


def test_honest_pools_fail_the_tests_by_number_within_the_design(tmp_path):
    """200 small honest pools (seeds of their own), each a one-pool run: at most 6 fail step 8 (the 1%
    design's allowance, as test_false_failure_rate), none by a test of 1f, and no test of 1f has p at most
    0.05 in more than 22 of them."""
    spec = small_spec(tmp_path)
    pool = spec.pools[0]
    failing, low = 0, dict.fromkeys([WINNERS, TWOS], 0)
    for i in range(200):
        seed = hashlib.sha256(b"poolgen/tests/book-order-honest/%d" % i).digest()
        s, r = judge(spec, pool, build_pool(spec, pool, seed), seed)
        failing += bool(s.failed or r.failed)
        assert not [j for j in s.failed if BY_NUMBER in j.finding.name]
        for j in s.judged:
            if BY_NUMBER in j.finding.name and j.finding.p <= 0.05:
                low[j.finding.name] = low.get(j.finding.name, 0) + 1
    assert failing <= 6
    assert max(low.values()) <= 22, low


def test_a_re_signed_run_with_its_books_moved_by_number_fails_step_8_alone(tmp_path):
    spec = small_spec(tmp_path)
    run, public, signer = signed_first_pool(spec, SEED, tmp_path)
    assert verify_run(VerifyRequest(run=run, public_key=public)).failed == []
    reseal_insider_pool(run, spec, spec.pools[0].id, SEED, signer,
                        lambda table: level_in_number_range(table, 30, 200, 0.2, 0.4))
    report = verify_run(VerifyRequest(run=run, public_key=public))
    assert report.failed == [Step.STATISTICS]
    reasons = next(s for s in report.steps if s.step == Step.STATISTICS).reasons
    assert any(r.startswith(f"pool p1: {TWOS} (") for r in reasons), reasons
