"""Step 8's tests of the prize amounts by patterns of the printed book and ticket numbers together
(audit/stats/residues.py, docs/statistics.md 1h): an insider who keeps a level to the tickets ending in
their book number's last digit, or to barcodes whose check digits end in 7, or moves it into the even
books, leaves every other test as an honest pool's; the residue tables refuse it, named. Small Happy
Holidays pools (3,000 tickets in books of 30, test_false_failure_rate's variant)."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
from scipy.stats import chi2_contingency

from audit.checklist import Step
from audit.stats.books import top_coded_classes
from audit.stats.residues import residue_findings
from audit.stats.step import holm, pool_alpha
from audit.verify import VerifyRequest, verify_run
from poolgen.deliverables.identity import barcode_numbers
from poolgen.pdf.report.statistics import withheld
from poolgen.run.build import build_pool
from tests.support.reseal import reseal_insider_pool, signed_first_pool
from tests.support.residue_biases import (
    check_digits_end_in,
    level_at_rows_of_their_books,
    level_into_books,
    ticket_ends_in_book_digit,
)
from tests.support.stats import judge, small_spec

SEED = hashlib.sha256(b"poolgen/tests/insider-residues/0").digest()
GAME = 465  # Happy Holidays' game number: the barcodes' first digits
BY_BOOK = "prize amounts by printed book number mod"
MINUS = "prize amounts by ticket number within the book minus printed book number mod 10"
CHECK = ("prize amounts by printed book number and ticket number: barcode check digits, (30 x book + ticket) "
         "mod 97")
NEW = (BY_BOOK, MINUS, CHECK)


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    spec = small_spec(tmp_path_factory.mktemp("residues"))
    pool = spec.pools[0]
    return spec, pool, build_pool(spec, pool, SEED)


def _refused_before(s) -> list[str]:
    """What Holm refuses of the pool's tests without those of 1h: step 8 before them."""
    return [j.finding.name for j in holm([j.finding for j in s.judged if not j.finding.name.startswith(NEW)],
                                         pool_alpha(1)) if j.rejected]


def _refused(spec, pool, table) -> dict[str, float]:
    s, r = judge(spec, pool, table, SEED)
    assert not r.failed and _refused_before(s) == []  # no test before 1h saw it
    return {j.finding.name: j.finding.p for j in s.failed}


def test_a_level_at_tickets_ending_in_their_books_digit_is_refused_by_ticket_minus_book_mod_10(small):
    spec, pool, table = small
    honest, _ = judge(spec, pool, table, SEED)
    assert not honest.failed
    biased = level_at_rows_of_their_books(table, 30, 200, ticket_ends_in_book_digit(table, 30),
                                          np.random.default_rng(1))
    assert (biased["book"] == table["book"]).all()  # moved within their books
    failed = _refused(spec, pool, biased)
    assert list(failed) == [MINUS] and failed[MINUS] < 1e-12


def test_a_level_at_barcodes_whose_check_digits_end_in_7_is_refused_by_the_check_digits(small):
    spec, pool, table = small
    biased = level_at_rows_of_their_books(table, 30, 200, check_digits_end_in(table, 30, GAME, 7),
                                          np.random.default_rng(2))
    failed = _refused(spec, pool, biased)
    assert list(failed) == [CHECK] and failed[CHECK] < 1e-12


def test_a_level_moved_into_the_even_books_is_refused_by_the_book_number_mod_2(small):
    spec, pool, table = small
    even = table["book"].to_numpy() % 2 == 0
    biased = level_into_books(table, 200, even, 60, np.random.default_rng(3))
    assert ((biased["prize_cents"] > 0).to_numpy().reshape(100, 30).sum(axis=1)
            == (table["prize_cents"] > 0).to_numpy().reshape(100, 30).sum(axis=1)).all()
    failed = _refused(spec, pool, biased)
    assert failed[f"{BY_BOOK} 2"] < 1e-8
    assert all(name.startswith(BY_BOOK) for name in failed)  # mod 4, 6, ... see even books too


def test_the_tables_are_pearsons_on_the_partitions_of_the_contract(small):
    """Each test is Pearson's chi-square (scipy's, no continuity correction) of its partition by the
    amounts top-coded to classes of at least 5 N / (the smallest part) tickets; the check digits' part is
    (30 x book + ticket) mod 97, which the barcode's check digits give one to one."""
    _, _, table = small
    prize = table["prize_cents"].to_numpy().astype(np.int64)
    book = table["book"].to_numpy().astype(np.int64)
    ticket = np.arange(3000) % 30
    parts = {**{f"{BY_BOOK} {k}": book % k for k in range(2, 11)}, MINUS: (ticket - book) % 10,
             CHECK: (30 * book + ticket) % 97}
    found = residue_findings(prize, book, 30)
    assert len(found) == 11
    amounts, inverse, counts = np.unique(prize, return_inverse=True, return_counts=True)
    for f, (name, part) in zip(found, parts.items(), strict=True):
        assert f.name == name and withheld(f.name, f.figures)  # the public edition withholds it
        sizes = np.bincount(part)
        sizes = sizes[sizes > 0]
        cls = top_coded_classes(counts, int(np.ceil(5 * 3000 / sizes.min())))[inverse]
        observed = np.zeros((part.max() + 1, cls.max() + 1))
        np.add.at(observed, (part, cls), 1)
        x2, p, df, _ = chi2_contingency(observed[observed.sum(axis=1) > 0], correction=False)
        assert f.figures == f"X2 = {x2:.1f}, df = {df:,}" and f.p == pytest.approx(p, rel=1e-9), name
    check = barcode_numbers(GAME, book, ticket) % 100
    residue = parts[CHECK]
    assert all(len(np.unique(check[residue == r])) == 1 for r in np.unique(residue))  # one to one
    assert len(np.unique(check)) == len(np.unique(residue))


def test_the_residue_tests_hold_their_level_on_the_permutations_of_one_pools_amounts(small):
    """Their null is exactly a uniform permutation of the pool's amounts over its positions, the book
    numbers fixed: 2,000 of them, each test's p at most 0.05 and 0.01 no more often than that allows (a
    uniform p is at most 0.05 in 140 of 2,000, or 0.01 in 38, with probability 6e-5 and 2e-4: over the 11
    tests, 0.3%)."""
    _, _, table = small
    prize = table["prize_cents"].to_numpy()
    book = table["book"].to_numpy()
    rng = np.random.default_rng(7)  # the null's draws, not a pool's
    ps = np.array([[f.p for f in residue_findings(rng.permutation(prize), book, 30)] for _ in range(2000)])
    assert ps.shape == (2000, 11)
    assert ((ps <= 0.05).sum(axis=0) < 140).all() and ((ps <= 0.01).sum(axis=0) < 38).all()


def test_honest_pools_fail_the_residue_tests_within_the_design(tmp_path):
    """200 small honest pools (seeds of their own), each a one-pool run: at most 6 fail step 8 (the 1%
    design's allowance, as test_false_failure_rate), and no test of 1h has p at most 0.05 in more than 22
    of them (a uniform p-value exceeds that with probability 0.001)."""
    spec = small_spec(tmp_path)
    pool = spec.pools[0]
    failing, low = 0, dict.fromkeys(NEW, 0)
    for i in range(200):
        seed = hashlib.sha256(b"poolgen/tests/residues-honest/%d" % i).digest()
        s, r = judge(spec, pool, build_pool(spec, pool, seed), seed)
        failing += bool(s.failed or r.failed)
        for j in s.judged:
            if j.finding.name.startswith(NEW) and j.finding.p <= 0.05:
                key = j.finding.name
                low[key] = low.get(key, 0) + 1
    assert failing <= 6
    assert max(low.values()) <= 22, low


def test_a_re_signed_run_with_a_level_at_its_books_digit_fails_step_8_alone(tmp_path):
    spec = small_spec(tmp_path)
    run, public, signer = signed_first_pool(spec, SEED, tmp_path)
    assert verify_run(VerifyRequest(run=run, public_key=public)).failed == []
    reseal_insider_pool(run, spec, spec.pools[0].id, SEED, signer,
                        lambda table: level_at_rows_of_their_books(
                            table, 30, 200, ticket_ends_in_book_digit(table, 30), np.random.default_rng(1)))
    report = verify_run(VerifyRequest(run=run, public_key=public))
    assert report.failed == [Step.STATISTICS]
    reasons = next(s for s in report.steps if s.step == Step.STATISTICS).reasons
    assert any(r.startswith(f"pool p1: {MINUS} (") for r in reasons), reasons
