"""Step 8's "...: in fewest books" (audit/stats/numbers.py, docs/statistics.md 1c): an insider who gathers
the top prizes (or a prize level) into few books, each book keeping its winners and the prizes their
spread over print order, so that a confederate handed those books collects them at once. Before this
test only side effects saw it (the extremes of print order, when few books are left); the test is the
exact law of how many books t uniformly placed tickets take. Small Happy Holidays pools (3,000 tickets in
books of 30, test_false_failure_rate's variant), a synthetic pool for a level, and a re-signed run."""

from __future__ import annotations

import hashlib
import itertools
import math

import numpy as np
import pytest

from audit.checklist import Step
from audit.stats.numbers import printed_number_findings
from audit.verify import VerifyRequest, verify_run
from poolgen.run.build import build_pool
from tests.support.cluster_biases import prizes_gathered
from tests.support.reseal import reseal_insider_pool, signed_first_pool
from tests.support.stats import judge, small_spec

SEED = hashlib.sha256(b"poolgen/tests/insider-clusters").digest()
TOP = "top prizes ($100 to $5; 51 tickets): in fewest books"


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    spec = small_spec(tmp_path_factory.mktemp("clusters"))
    pool = spec.pools[0]
    return spec, pool, build_pool(spec, pool, SEED)


@pytest.mark.parametrize("books,per_book,t", [(4, 3, 3), (5, 2, 4), (3, 4, 5), (2, 5, 6), (6, 2, 3)])
def test_the_fewest_books_p_value_is_the_exact_law_over_every_placement(books, per_book, t):
    """Every t-subset of the positions, the top prize (t tickets) placed there: p = P(K <= k) exactly."""
    n = books * per_book
    taken = {}
    for held in itertools.combinations(range(n), t):
        k = len({q // per_book for q in held})
        taken[k] = taken.get(k, 0) + 1
    for held in itertools.combinations(range(n), t):
        prize = np.zeros(n, dtype=np.int64)
        prize[list(held)] = 100
        k = len({q // per_book for q in held})
        f = next(f for f in printed_number_findings(prize, np.repeat(np.arange(books), per_book), per_book)
                 if f.name.endswith("in fewest books"))
        assert f.p == pytest.approx(sum(v for j, v in taken.items() if j <= k) / math.comb(n, t), rel=1e-12)
        assert f.name == f"top prizes ($1; {t} tickets): in fewest books"


def test_the_top_prizes_two_to_a_book_are_refused_by_the_fewest_books_test(small):
    spec, pool, table = small
    honest, r = judge(spec, pool, table, SEED)
    assert not honest.failed and not r.failed
    f = next(j.finding for j in honest.judged if j.finding.name == TOP)
    assert f.figures.startswith("51 tickets in ") and f.p > 0.01
    biased = prizes_gathered(table, 30, 500, 2, np.random.default_rng(1))
    winners = (biased["prize_cents"].to_numpy().reshape(100, 30) > 0).sum(axis=1)
    assert winners.tolist() == (table["prize_cents"].to_numpy().reshape(100, 30) > 0).sum(axis=1).tolist()
    s, r = judge(spec, pool, biased, SEED)
    failed = {j.finding.name: j.finding for j in s.failed}
    assert TOP in failed and all(name.endswith("in fewest books") for name in failed)
    mean = 100 * (1 - math.comb(2970, 51) / math.comb(3000, 51))  # E K: each book is missed with that chance
    assert failed[TOP].figures == f"51 tickets in 26 books ({mean:.1f} expected of the pool's 100)"
    assert failed[TOP].p < 1e-6


def test_a_level_below_the_top_groups_gathered_three_to_a_book_is_refused():
    """200 books of 10: 60 tickets of $50 (the top group), 90 of $2 (a level below it, at most as many
    tickets as books), 600 of $1; the $2s then put three to a book in 30 books, on losers' places."""
    books = np.repeat(np.arange(200), 10)
    prize = np.random.default_rng(5).permutation(np.repeat([5000, 200, 100, 0], [60, 90, 600, 1250]))
    found = {f.name: f for f in printed_number_findings(prize, books, 10)}
    level = "prize level $2 (90 tickets): in fewest books"
    assert found[level].p > 0.001 and "prize level $1 (600 tickets): in fewest books" not in found
    gathered = np.where(prize == 200, 0, prize)
    for b in range(0, 180, 6):  # 30 books, three of their losers' places each
        gathered[b * 10 + np.flatnonzero(gathered[b * 10:b * 10 + 10] == 0)[:3]] = 200
    assert (gathered == 200).sum() == 90 and (gathered == 0).sum() == 1250
    f = {f.name: f for f in printed_number_findings(gathered, books, 10)}[level]
    mean = 200 * (1 - math.comb(1990, 90) / math.comb(2000, 90))
    assert f.figures == f"90 tickets in 30 books ({mean:.1f} expected of the pool's 200)"
    assert f.p < 1e-20


def test_a_re_signed_run_with_the_top_prizes_gathered_fails_step_8_alone(tmp_path):
    spec = small_spec(tmp_path)
    run, public, signer = signed_first_pool(spec, SEED, tmp_path)
    assert verify_run(VerifyRequest(run=run, public_key=public)).failed == []
    reseal_insider_pool(run, spec, spec.pools[0].id, SEED, signer,
                        lambda table: prizes_gathered(table, 30, 500, 3, np.random.default_rng(3)))
    report = verify_run(VerifyRequest(run=run, public_key=public))
    assert report.failed == [Step.STATISTICS]
    reasons = next(s for s in report.steps if s.step == Step.STATISTICS).reasons
    assert any(TOP in r for r in reasons), reasons
