"""Step 8's run-level test of the top prizes in the same book of print order across a run's pools
(audit/stats/slots.py, docs/statistics.md 1a): an insider who puts a top prize in book 18 of print order
of every pool (the carton that goes the same way in each) moved none of 1a's tests, nor any pool's; the
book holding the group in the most pools refuses it. The law is checked against every placement of tiny
runs, and honest runs fail it no more than the design allows."""

from __future__ import annotations

import hashlib
import itertools

import numpy as np
import pytest

from audit.stats.slots import same_book_finding, tail_at_least
from audit.stats.step import ALPHA_RUN, holm, run_statistics
from audit.stats.top import top_findings, top_levels
from poolgen.run.build import build_pool
from tests.support.stats import small_spec

SAME = "the same book of print order in the most pools"


def _pools(tmp_path, tag: str, moved: bool):
    """Six small Happy Holidays pools (100 books of 30); `moved`: in each, book 17 of print order swapped
    whole with a book holding a $100 (every book keeps its tickets and their order)."""
    spec = small_spec(tmp_path)
    tops = []
    for i, pool in enumerate(spec.pools[:6]):
        seed = hashlib.sha256(f"poolgen/tests/same-book/{tag}/{i}".encode()).digest()
        prize = build_pool(spec, pool, seed)["prize_cents"].to_numpy().copy()
        if moved:
            books = prize.reshape(100, 30)
            rich = int(np.flatnonzero((books == prize.max()).any(axis=1))[0])
            books[[17, rich]] = books[[rich, 17]]
            prize = books.ravel()
        tops.append(top_levels(prize, pool.id, 30))
    return tops


def test_a_top_prize_in_book_18_of_every_pool_is_refused_by_the_same_book_test(tmp_path):
    honest = run_statistics(_pools(tmp_path, "a", False), 6)
    assert not honest.failed
    tops = _pools(tmp_path, "a", True)
    weighted = top_findings(tops)
    before = holm([f for f, _ in weighted if SAME not in f.name], ALPHA_RUN,
                  [w for f, w in weighted if SAME not in f.name])
    assert not any(j.rejected for j in before)
    r = run_statistics(tops, 6)
    assert [j.finding.name for j in r.failed] == [
        f"top prize of each pool ($100): {SAME}, pools combined",
        f"top 2 prize amounts of each pool ($100 to $20): {SAME}, pools combined"]
    f = r.failed[0].finding
    assert f.figures == "6 pools hold it; book 18 of print order holds it in 6 of them"
    q = [len(np.unique(t.levels[0][1] // 30)) / 100 for t in tops]
    assert f.p == pytest.approx(100 * float(np.prod(q)), rel=1e-9) and f.p < 2e-6


def test_the_poisson_binomial_tail_is_the_sum_over_every_outcome():
    q = [0.1, 0.5, 0.25, 0.9]
    for x in range(6):
        brute = sum(float(np.prod([qi if o else 1 - qi for qi, o in zip(q, out, strict=True)]))
                    for out in itertools.product((0, 1), repeat=4) if sum(out) >= x)
        assert tail_at_least(q, x) == pytest.approx(brute, rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("books,held", [((4, 4, 4), (1, 2, 1)), ((3, 4, 5), (1, 1, 2)), ((4, 4), (2, 2))])
def test_the_same_book_test_is_valid_over_every_placement_of_tiny_runs(books, held):
    """Every choice of the books holding the group in each pool (K_p of B_p, books of 2): P(p <= p_observed)
    is at most p."""
    ps = []
    choices = [list(itertools.combinations(range(b), k)) for b, k in zip(books, held, strict=True)]
    for chosen in itertools.product(*choices):
        groups = [(2 * b, 2, np.array(sorted(2 * s for s in c))) for b, c in zip(books, chosen, strict=True)]
        f = same_book_finding("g", groups)
        assert f is not None
        ps.append(f.p)
    p = np.array(ps)
    for x in sorted(set(ps)):
        assert (p <= x + 1e-12).mean() <= x + 1e-12


def test_no_same_book_test_for_one_pool_an_einstant_or_books_of_two_sizes():
    one = np.array([5, 70])
    assert same_book_finding("g", [(100, 10, one)]) is None
    assert same_book_finding("g", [(100, 10, one), (100, 10, np.zeros(0, np.int64))]) is None
    assert same_book_finding("g", [(100, None, one), (100, None, one)]) is None
    assert same_book_finding("g", [(100, 10, one), (100, 20, one)]) is None
    assert same_book_finding("g", [(100, 10, one), (105, 10, one)]) is None  # a short last book
    f = same_book_finding("g", [(100, 10, one), (100, 10, one)])
    assert f is not None and f.figures == "2 pools hold it; book 1 of print order holds it in 2 of them"
    assert f.p == pytest.approx(10 * 0.2 * 0.2, rel=1e-12)


def test_honest_runs_of_six_small_pools_fail_the_run_level_tests_within_their_share(tmp_path):
    """200 honest runs of six small pools (seeds of their own): the run-level tests (ALPHA_RUN, 0.6%) fail
    at most 4 (0.6% of 200 is 1.2: 4 or more has probability 0.03), none by the same book."""
    spec = small_spec(tmp_path)
    failing = by = 0
    for r in range(200):
        seeds = [hashlib.sha256(f"poolgen/tests/same-book-honest/{r}/{i}".encode()).digest()
                 for i in range(6)]
        tops = [top_levels(build_pool(spec, pool, seed)["prize_cents"].to_numpy(), pool.id, 30)
                for seed, pool in zip(seeds, spec.pools[:6], strict=True)]
        s = run_statistics(tops, 6)
        failing += bool(s.failed)
        by += any(SAME in j.finding.name for j in s.failed)
    assert failing <= 4 and by == 0
