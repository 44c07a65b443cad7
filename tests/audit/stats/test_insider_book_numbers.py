"""Step 8's printed book number tests (audit/stats/numbers.py, docs/statistics.md 1c): an insider who
leaves the shuffle honest in print order but numbers the books so that those holding the top prizes
carry numbers an accomplice can be told (the pool's lowest; numbers ending in 7). Every position test
sees an honest pool; the book number tests refuse it, named, with an exact p-value. Small Happy
Holidays pools (3,000 tickets in books of 30, test_false_failure_rate's variant); the formulas checked
against every placement of a tiny pool."""

from __future__ import annotations

import hashlib
import itertools
import math

import numpy as np
import pytest

from audit.stats.numbers import book_number_findings
from audit.stats.step import pool_statistics, run_statistics
from poolgen.run.build import build_pool
from tests.support.book_number_biases import top_books_ending_in, top_books_numbered_low
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
        results.append({f.name.rsplit(": ", 1)[1]: f.p for f in book_number_findings(prize, numbers, 1)})
    total = len(results)
    for test in ("smallest", "largest", "one last digit"):
        ps = np.array([r[test] for r in results])
        for p in set(ps.tolist()):
            share = float((ps <= p + 1e-12).sum()) / total
            if test == "one last digit":
                assert share <= p + 1e-9
            else:
                assert share == pytest.approx(p, rel=1e-9)
