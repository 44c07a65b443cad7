"""audit/stats/books.py: the dispersion of winners per block tests its lower tail only where the
chi-square law resolves it (docs/statistics.md section 1)."""

from __future__ import annotations

import numpy as np

from audit.stats.books import PERIODS, block_findings, lower_tail_resolved, top_coded_classes
from audit.stats.laws import hypergeom_pmf
from audit.stats.tests import MIN_EXPECTED


def _dispersion_p(per_block: list[int], size: int = 1_000) -> tuple[str, float]:
    prize = np.zeros(len(per_block) * size, dtype=np.int64)
    for b, w in enumerate(per_block):
        prize[b * size: b * size + w] = 500
    found, _ = block_findings(prize, "einstant", None)
    (f,) = [f for f in found if f.name.startswith("winners per block of 1,000 shares: dispersion")]
    return f.method, f.p


def test_two_blocks_with_equal_winners_are_not_called_too_even():
    """Two blocks of 1,000 shares with 347 winners each happen about once in 27 honest pools (the
    hypergeometric's mode); the chi-square's lower tail gave them p = 6e-14, and step 8 failed 4% of
    small honest eInstant pools. With two blocks only the upper tail is tested."""
    pmf = hypergeom_pmf(2_000, 694, 1_000)
    assert 0.035 < pmf[347] < 0.04
    test, p = _dispersion_p([347, 347])
    assert test == "index of dispersion (sum (x - mean)^2 / var, upper tail: too few blocks for the lower)"
    assert p > 0.999
    assert _dispersion_p([290, 404])[1] < 1e-6  # the upper tail is still tested


def test_many_blocks_exactly_alike_still_fail_as_too_even():
    test, p = _dispersion_p([347] * 40)
    assert test == "index of dispersion (sum (x - mean)^2 / var, two-sided)"
    assert p < 1e-20


def test_the_lower_tail_is_tested_from_the_blocks_and_variance_the_contract_gives():
    """docs/statistics.md: tested iff the ball of X2 <= the 1e-4 quantile holds >= 100 lattice cells."""
    assert [min(k for k in range(2, 100) if lower_tail_resolved(k, v)) for v in (2.5, 11.0, 113.0, 300.0)] \
        == [12, 8, 6, 5]
    assert not lower_tail_resolved(2, 1e6)
    assert lower_tail_resolved(3, 1e6)


def _kruskal(per_book: list[list[int]], size: int) -> tuple[str, float]:
    prize = np.zeros(len(per_book) * size, dtype=np.int64)
    for b, amounts in enumerate(per_book):
        prize[b * size: b * size + len(amounts)] = amounts
    found, _ = block_findings(prize, "printed", size)
    (f,) = [f for f in found if f.name.startswith(f"prize value per book of {size}")]
    return f.method, f.p


def test_two_books_with_equal_prizes_are_not_called_too_even():
    """Two books of 10, one $5 winner each (a split pool of 20 tickets): H = 0, which the chi-square's
    lower tail gave p = 0, and step 8 failed an honest pool a fuzzed spec made. As for the dispersion,
    the lower tail is tested only where the winners per book resolve it."""
    test, p = _kruskal([[500], [500]], 10)
    assert test == ("Kruskal-Wallis on the prize amounts (mid-ranks, ties corrected), upper tail: too few "
                    "books for the lower")
    assert p == 1.0
    assert _kruskal([[500] * 9, []], 10)[1] < 1e-3  # the upper tail is still tested


def test_many_books_of_exactly_equal_prizes_still_fail_as_too_even():
    test, p = _kruskal([[500] * 30] * 40, 100)
    assert test == "Kruskal-Wallis on the prize amounts (mid-ranks, ties corrected), two-sided"
    assert p < 1e-20


def test_a_histogram_bin_expecting_exactly_five_closes():
    """docs/statistics.md section 1: counts pooled until a bin expects at least 5. 15 books of one ticket, 5
    winners: the bins expect 10 and exactly 5 (5 / 15 of 15 books), so two bins and a test, as exact
    arithmetic has it; the pmf's rounding (4.9999...) had left one bin and no test."""
    prize = np.zeros(15, dtype=np.int64)
    prize[[1, 4, 6, 9, 13]] = 100
    names = [f.name for f in block_findings(prize, "printed", 1)[0]]
    assert "winners per book of 1: histogram of 15 books" in names


def test_each_amounts_by_serial_table_is_its_own_crosstab():
    """The nine "prize amounts by serial mod k" tables fill one array in turn: each X2 is the one of its
    own table, counted here serial by serial (a cell left from the table before would change it)."""
    rng = np.random.default_rng(28)
    n = 10_007  # no k of 2..10 divides it: every table leaves rows out
    prize = rng.choice([0, 0, 0, 100, 200, 500, 1_000, 5_000, 100_000], size=n).astype(np.int64)
    prize[::7] = 200  # a pattern for some periods to see
    found, _ = block_findings(prize, "einstant", None)
    x2 = {f.name: f.figures for f in found if f.name.startswith("prize amounts by serial mod ")}
    assert len(x2) == len(PERIODS)
    amounts = sorted(set(prize.tolist()))
    for k in PERIODS:
        covered = n // k * k
        counts = np.array([int((prize[:covered] == a).sum()) for a in amounts])
        cls = top_coded_classes(counts, int(np.ceil(MIN_EXPECTED * k)))
        kinds = int(cls.max()) + 1
        observed = np.zeros((k, kinds))
        for i, v in enumerate(prize[:covered].tolist()):
            observed[i % k, cls[amounts.index(v)]] += 1
        expected = np.bincount(cls, weights=counts, minlength=kinds)[None, :] / k
        want = float(((observed - expected) ** 2 / expected).sum())
        name = f"prize amounts by serial mod {k}: {k} residues x {kinds} classes"
        assert x2[name] == f"X2 = {want:.1f}, df = {(k - 1) * (kinds - 1):,}"


def test_kruskal_wallis_is_scipys_h_whether_the_blocks_cover_the_pool_or_not():
    """The prize-value-per-block test reads the pool's distinct amounts once for every test when its
    blocks cover the pool, and its own otherwise: either way H is the one of the blocks' prizes."""
    from scipy.stats import kruskal

    rng = np.random.default_rng(36)
    for n in (6_000, 6_700):  # six whole blocks of 1,000; then 700 more left out
        prize = rng.choice([0, 0, 0, 0, 100, 200, 500, 2_000, 50_000], size=n).astype(np.int64)
        prize[:1_000:3] = 500  # a block richer than the others
        found, _ = block_findings(prize, "einstant", None)
        (f,) = [f for f in found if f.name == "prize value per block of 1,000 shares: 6 blocks"]
        h = kruskal(*prize[:6_000].reshape(6, 1_000)).statistic
        assert f.figures == f"H = {h:.1f}, df = 5"
