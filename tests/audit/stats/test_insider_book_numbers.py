"""Step 8's printed number tests (audit/stats/numbers.py, docs/statistics.md 1c): an insider who
leaves the shuffle honest in print order but numbers the books so that those holding the top prizes
carry numbers an accomplice can be told (the pool's lowest; numbers ending in 7), or who keeps the top
prizes to ticket numbers 7, 17 and 27 of their books. Every other test sees an honest pool (or, for the
ticket numbers, nothing to refuse); the tests of section 1c refuse it, named, with an exact p-value.
Small Happy Holidays pools (3,000 tickets in books of 30, test_false_failure_rate's variant); the
formulas checked against every placement of a tiny pool."""

from __future__ import annotations

import hashlib
import itertools
import math

import numpy as np
import pytest

from audit.stats.numbers import printed_number_findings
from audit.stats.step import pool_statistics, run_statistics
from poolgen.run.build import build_pool
from tests.support.book_number_biases import (
    top_books_ending_in,
    top_books_numbered_low,
    top_prizes_at_book_ends,
    top_prizes_at_ticket_digit,
)
from tests.support.stats import Entry, small_spec

SEED = hashlib.sha256(b"poolgen/tests/insider-book-numbers").digest()
GROUP = "books of the top prizes ($100 to $20; 10 of 100 books) by printed book number"


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    spec = small_spec(tmp_path_factory.mktemp("book-numbers"))
    pool = spec.pools[0]
    return spec, pool, build_pool(spec, pool, SEED)


def judge(small, table):
    spec, pool, _ = small
    s = pool_statistics(table, Entry(pool, SEED), rules=spec.id, kind=spec.kind,
                        per_book=spec.tickets_per_book, pools=1, play=spec.play.document())
    return s, run_statistics([s.top], 1)


def _others_unchanged(honest, biased) -> None:
    """Every test but the book number tests gives the honest pool's figures: only the numbers moved."""
    keep = [(j.finding.name, j.finding.p) for j in honest.judged
            if "printed book number" not in j.finding.name]
    assert keep == [(j.finding.name, j.finding.p) for j in biased.judged
                    if "printed book number" not in j.finding.name]


def test_the_top_prizes_books_numbered_lowest_are_refused_by_the_book_number_test(small):
    table = small[2]
    honest, _ = judge(small, table)
    assert not honest.failed
    biased = top_books_numbered_low(table, 30, 2000)  # the books of the $20s and the $100s
    assert sorted(biased["book"].unique().to_list()) == sorted(table["book"].unique().to_list())
    s, r = judge(small, biased)
    _others_unchanged(honest, s)
    assert not r.failed
    failed = {j.finding.name: j.finding for j in s.failed}
    f = failed[f"{GROUP}: largest"]
    assert f.p == pytest.approx(1 / math.comb(100, 10), rel=1e-9)
    lowest = int(np.sort(table["book"].to_numpy()[::30])[9])
    assert f.figures == f"largest of 10 is book {lowest} (rank 9 of the pool's 100 book numbers)"
    assert f.method == "exact: P(max <= y) = C(y+1, t)/C(B, t)"


def test_the_top_prizes_books_ending_in_one_digit_are_refused_by_the_last_digit_test(small):
    table = small[2]
    honest, _ = judge(small, table)
    s, _ = judge(small, top_books_ending_in(table, 30, 2000, 7))
    _others_unchanged(honest, s)
    failed = {j.finding.name: j.finding for j in s.failed}
    f = failed[f"{GROUP}: one last digit"]
    numbers = table["book"].to_numpy()[::30]
    sevens = int((numbers % 10 == 7).sum())
    x = min(10, sevens)
    tail = sum(math.comb(sevens, i) * math.comb(100 - sevens, 10 - i)
               for i in range(x, 11)) / math.comb(100, 10)
    assert f.figures == f"{x} of 10 end in 7 ({sevens} of the pool's 100 books do)"
    assert f.p == pytest.approx(10 * tail, rel=1e-9) and f.p < 1e-6


def test_the_top_prizes_kept_to_ticket_numbers_ending_in_7_are_refused_by_their_last_digit(small):
    """The $20s and $100s moved to ticket numbers 7, 17 or 27 of their own books (swapped with a loser):
    the winners by tenth of the ticket number and the top prizes' smallest and largest ticket numbers
    do not see it; the last digit's test does."""
    table = small[2]
    s, r = judge(small, top_prizes_at_ticket_digit(table, 30, 2000, 7))
    assert not r.failed
    failed = {j.finding.name: j.finding for j in s.failed}
    test = "top prizes ($100 to $20; 10 tickets) by ticket number within the book: one last digit"
    assert test in failed and all(n.endswith(("within the book: one last digit", "in fewest ticket numbers"))
                                  for n in failed)  # on 2 of the 30 ticket numbers: also few (1e)
    f = failed[test]
    tail = 1 / math.comb(3000, 10) * math.comb(300, 10)  # all 10 among the 300 tickets numbered 7, 17, 27
    assert f.figures == "10 of 10 end in 7 (300 of the pool's 3,000 tickets do)"
    assert f.method == "exact: 10 min_d P(X_d >= x_d), X_d hypergeometric (N, n_d, k)"
    assert f.p == pytest.approx(10 * tail, rel=1e-9)


def test_the_top_prizes_at_the_first_or_last_ticket_of_their_books_are_refused(small):
    """The $20s and $100s moved to ticket 0 or 29 of their own books: both extremes of the ticket number
    are taken, so the run-level book start and end tests see nothing; the ends' test does."""
    s, r = judge(small, top_prizes_at_book_ends(small[2], 30, 2000))
    assert not r.failed
    failed = {j.finding.name: j.finding for j in s.failed}
    test = "top prizes ($100 to $20; 10 tickets) by ticket number within the book: first or last ticket"
    ends = ("first or last ticket", "one last digit", "fewest ticket numbers")  # 0, 29: 2 of 30 numbers (1e)
    assert test in failed and all(n.endswith(ends) for n in failed)
    f = failed[test]
    assert f.figures == "10 of 10 are a book's first or last ticket (200 of the pool's 3,000 tickets are)"
    assert f.p == pytest.approx(math.comb(200, 10) / math.comb(3000, 10), rel=1e-9)


@pytest.mark.parametrize("books,k", [(7, 2), (8, 3), (12, 4)])
def test_the_book_number_tests_are_exact_or_conservative_over_every_placement(books, k):
    """Books of one ticket, the top prize (k tickets) in every k-subset of them, the numbers a fixed
    scramble: P(p <= p_observed) is p itself for the smallest and largest tests, at most p for the
    last digit's (Bonferroni over ten digits)."""
    numbers = np.array([(37 * b + 11) % 97 for b in range(books)])
    results = []
    for held in itertools.combinations(range(books), k):
        prize = np.zeros(books, dtype=np.int64)
        prize[list(held)] = 100
        found = printed_number_findings(prize, numbers, 1)
        results.append({("ticket digit" if "ticket number" in f.name else f.name.rsplit(": ", 1)[1]): f.p
                        for f in found})
    total = len(results)
    for test in ("smallest", "largest", "one last digit", "ticket digit"):
        ps = np.array([r[test] for r in results])
        for p in set(ps.tolist()):
            share = float((ps <= p + 1e-12).sum()) / total
            if test in ("one last digit", "ticket digit"):
                assert share <= p + 1e-9
            else:
                assert share == pytest.approx(p, rel=1e-9)
