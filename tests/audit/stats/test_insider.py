"""Step 8 where an insider would look (issue 23): the run-level exact tests of the top tiers
(audit/stats/top.py), positions within a book, prize value per book (audit/stats/books.py) and every
layout spot a contract promises says nothing (audit/stats/styles/).

Small Happy Holidays pools (3,000 tickets in books of 30: test_false_failure_rate's variant) biased as
an insider would, each refused by the test made for it, named, with an exact p-value; the exact
formulas checked against enumeration; honest small pools pass."""

from __future__ import annotations

import hashlib
import itertools
import math
from fractions import Fraction

import numpy as np
import polars as pl
import pytest

from audit.stats.books import uniform_null
from audit.stats.step import ALPHA, ALPHA_RUN, holm, pool_alpha, pool_statistics, run_statistics
from audit.stats.tests import Finding
from audit.stats.top import START_WEIGHT, TopLevels, top_findings
from poolgen.run.build import build_pool
from tests.support.stats import Entry, small_spec

SEED = hashlib.sha256(b"poolgen/tests/insider").digest()


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    spec = small_spec(tmp_path_factory.mktemp("insider"))
    pool = spec.pools[0]
    return spec, pool, build_pool(spec, pool, SEED)


def judge(small, table: pl.DataFrame):
    spec, pool, _ = small
    s = pool_statistics(table, Entry(pool, SEED), rules=spec.id, kind=spec.kind,
                        per_book=spec.tickets_per_book, pools=1, play=spec.play.document())
    return s, run_statistics([s.top], 1)


def swapped(table: pl.DataFrame, a: np.ndarray, b: np.ndarray) -> pl.DataFrame:
    order = np.arange(table.height)
    order[a], order[b] = b, a
    return table[order]


def test_the_honest_small_pool_passes_every_test(small):
    s, r = judge(small, small[2])
    assert not s.failed and not r.failed
    names = [j.finding.name for j in r.judged]
    assert names[:4] == [f"top prize of each pool ($100): {what}, pools combined" for what in (
        "smallest position in its pool", "largest position in its pool",
        "smallest ticket number within its book", "largest ticket number within its book")]
    assert len(names) == 12 and names[8].startswith("top 3 prize amounts of each pool ($100 to $5)")
    assert r.alpha == ALPHA_RUN and s.alpha == pool_alpha(1) == ALPHA - ALPHA_RUN
    assert {"winners by tenth of the ticket number within the book (0..29)",
            "prize value per book of 30: 100 books"} <= {j.finding.name for j in s.judged}


def test_top_prizes_kept_out_of_the_first_fifth_are_refused_by_the_exact_run_level_test(small):
    table = small[2]
    prize = table["prize_cents"].to_numpy()
    top = np.flatnonzero(prize[:600] >= 500)  # the pool's three highest amounts: $100, $20, $5
    losers = np.flatnonzero(prize == 0)
    biased = swapped(table, top, losers[losers >= 600][: len(top)])
    _, r = judge(small, biased)
    failed = {j.finding.name: j for j in r.judged if j.rejected}
    test = "top 3 prize amounts of each pool ($100 to $5): smallest position in its pool, pools combined"
    assert list(failed) == [test]
    f = failed[test].finding
    x = int(np.flatnonzero(biased["prize_cents"].to_numpy() >= 500).min())
    assert x >= 600 and f.figures == f"51 tickets over 1 pool; earliest at {100 * x / 3000:.2f}% of pool p1"
    assert f.method == "exact: P(U >= u) = prod C(N_p - ceil(u N_p), t_p)/C(N_p, t_p)"
    assert f.p == pytest.approx(math.comb(3000 - x, 51) / math.comb(3000, 51), rel=1e-9)
    assert f.p < 0.8 ** 51


def test_top_prizes_parked_at_the_end_of_each_book_are_refused_by_ticket_number(small):
    table = small[2]
    prize = table["prize_cents"].to_numpy()
    number = np.arange(table.height) % 30
    top = np.flatnonzero((prize >= 500) & (number < 27))
    losers = np.flatnonzero((prize == 0) & (number >= 27))
    s, r = judge(small, swapped(table, top, losers[:: len(losers) // len(top)][: len(top)]))
    failed = {j.finding.name: j.finding for j in r.judged if j.rejected}
    test = ("top 3 prize amounts of each pool ($100 to $5): smallest ticket number within its book, "
            "pools combined")
    assert test in failed
    assert failed[test].figures == "51 tickets over 1 pool; smallest ticket number 27 of 0..29"
    assert failed[test].p == pytest.approx(math.comb(300, 51) / math.comb(3000, 51), rel=1e-9)


def test_a_leak_in_spot_3_is_refused_by_spot_3s_test(small):
    """Every loser shows its highest amount in play_spot_3 (swapped with the spot that held it: the
    same six amounts, so the same prize)."""
    spec, _, table = small
    area = spec.play.document()["areas"][0]
    cents = np.array([p["cents"] for p in area["prizes"]])
    spots = np.stack([table[f"play_spot_{j}"].to_numpy() for j in range(6)], axis=1).astype(np.int64)
    best = (cents[spots] * 64 + spots).argmax(axis=1)
    rows = np.flatnonzero(table["prize_cents"].to_numpy() == 0)
    held = spots[rows, best[rows]]
    spots[rows, best[rows]] = spots[rows, 3]
    spots[rows, 3] = held
    leaky = table.with_columns(*(pl.Series(f"play_spot_{j}", spots[:, j], dtype=pl.UInt8) for j in range(6)))
    s, _ = judge(small, leaky)
    failed = {j.finding.name: j.finding for j in s.failed}
    assert failed["play_spot_3 (one scratched spot) against win/lose"].p < 1e-10


def test_winners_at_one_ticket_number_are_refused_by_the_within_book_test(small):
    """Winners moved out of ticket numbers 10..19 of every book (the middle, which neither extreme of
    the top prizes' ticket numbers sees)."""
    table = small[2]
    win = (table["prize_cents"] > 0).to_numpy()
    number = np.arange(table.height) % 30
    middle = np.flatnonzero(win & (number >= 10) & (number < 20))[:400]
    losers = np.flatnonzero(~win & ((number < 10) | (number >= 20)))
    s, _ = judge(small, swapped(table, middle, losers[:: len(losers) // len(middle)][: len(middle)]))
    failed = {j.finding.name: j.finding for j in s.failed}
    assert failed["winners by tenth of the ticket number within the book (0..29)"].p < 1e-10


def test_rich_books_are_refused_by_the_prize_value_test(small):
    """Every prize of $2 or more gathered into the first books (their losers and $1s sent back)."""
    table = small[2]
    prize = table["prize_cents"].to_numpy()
    rich = np.flatnonzero(prize >= 200)
    poor = np.flatnonzero(prize < 200)
    late, early = rich[rich >= len(rich)], poor[poor < len(rich)]
    assert len(late) == len(early)
    s, _ = judge(small, swapped(table, late, early))
    failed = {j.finding.name: j.finding for j in s.failed}
    assert failed["prize value per book of 30: 100 books"].p < 1e-10


@pytest.mark.parametrize("sizes", [((7, 2), (5, 1)), ((6, 3),), ((8, 1), (4, 2), (6, 1))])
def test_the_run_level_formulas_are_the_exact_distribution(sizes):
    """Enumerate every placement of t_p tickets among N_p positions in each pool (books of 2; a pool
    of odd size ends with a part book): each test's p-value is the share of placements whose statistic
    is at least as extreme (start: the smallest relative position at least as large; end: the largest
    (position + 1) / N_p at most as large; within books: the smallest ticket number at least, the
    largest at most, as observed)."""
    names = [f"top prize of each pool ($1): {w}, pools combined" for w in (
        "smallest position in its pool", "largest position in its pool",
        "smallest ticket number within its book", "largest ticket number within its book")]
    every = list(itertools.product(*[itertools.combinations(range(n), t) for n, t in sizes]))

    def statistic(choice) -> tuple[Fraction, Fraction, int, int]:  # each: larger is more extreme
        return (min(Fraction(min(c), n) for (n, _), c in zip(sizes, choice, strict=True)),
                -max(Fraction(max(c) + 1, n) for (n, _), c in zip(sizes, choice, strict=True)),
                min(x % 2 for c in choice for x in c), -max(x % 2 for c in choice for x in c))

    values = [statistic(c) for c in every]
    for i in range(0, len(every), max(1, len(every) // 25)):
        tops = [TopLevels(f"p{k}", n, 2, ((100, np.array(c)),))
                for k, ((n, _), c) in enumerate(zip(sizes, every[i], strict=True))]
        found = {f.name: f for f, _ in top_findings(tops)}
        for d, name in enumerate(names):
            share = sum(v[d] >= values[i][d] for v in values) / len(values)
            assert found[name].p == pytest.approx(share, rel=1e-9), (name, every[i])


def test_weighted_holm_holds_each_test_to_its_share():
    found = [Finding(str(i), "", "", p) for i, p in enumerate([0.001, 0.0009, 0.5])]
    judged = holm(found, 0.006, [START_WEIGHT, 1.0, 1.0])
    assert [j.threshold for j in judged] == pytest.approx([0.006 * 6 / 8, 0.006 / 2, 0.006])
    assert [j.rejected for j in judged] == [True, True, False]
    equal = holm(found, 0.01)
    assert [j.threshold for j in equal] == pytest.approx([0.01 / 2, 0.01 / 3, 0.01])


def test_the_book_tests_take_their_expected_distribution_as_an_input():
    null = uniform_null(3000, 880, 30)
    assert null.winners_pmf.sum() == pytest.approx(1.0) and len(null.ticket_share) == 30
    assert float((np.arange(31) * null.winners_pmf).sum()) == pytest.approx(8.8)


def test_the_run_level_p_values_are_exact_to_1e_12_on_full_size_pools():
    """The run-level formulas (docs/statistics.md 1a: exact) on two pools of 300,000 and 1,000,000 tickets
    in books of 250: each p equals the product of the exact ratios of binomials to 1e-12 (differences of
    lgamma near N! lost 1.5e-9, which a third engine summing integers saw)."""
    pools = [("p1", 300_000, np.array([97_431, 180_002, 201_777, 250_000, 299_998])),
             ("p2", 1_000_000, np.array([412_345, 512_346, 700_000, 812_301, 999_001, 999_299]))]
    tops = [TopLevels(p, n, 250, ((10000, pos),)) for p, n, pos in pools]
    found = {f.name.split(": ")[1]: f.p for f, _ in top_findings(tops)}
    u = min(Fraction(int(pos.min()), n) for _, n, pos in pools)
    v = max(Fraction(int(pos.max()) + 1, n) for _, n, pos in pools)
    x = min(int((pos % 250).min()) for _, _, pos in pools)
    y = max(int((pos % 250).max()) for _, _, pos in pools)

    def product(room) -> float:
        return float(math.prod(Fraction(math.comb(room(n), len(pos)), math.comb(n, len(pos)))
                               for _, n, pos in pools))

    assert found["smallest position in its pool, pools combined"] == pytest.approx(
        product(lambda n: n - math.ceil(u * n)), rel=1e-12)
    assert found["largest position in its pool, pools combined"] == pytest.approx(
        product(lambda n: math.floor(v * n)), rel=1e-12)
    assert found["smallest ticket number within its book, pools combined"] == pytest.approx(
        product(lambda n: n // 250 * (250 - x)), rel=1e-12)
    assert found["largest ticket number within its book, pools combined"] == pytest.approx(
        product(lambda n: n // 250 * (y + 1)), rel=1e-12)
