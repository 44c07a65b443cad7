"""Step 8's test functions (audit/stats/tests.py) against a second computation: enumeration for the
exact tests, scipy's contingency test for the chi-squares, a direct pair count for the AUC. Holm's rule
(audit/stats/step.py): test_step.py."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from scipy.stats import chi2, chi2_contingency

import audit.stats.tests as stats_tests
from audit.stats.books import block_findings
from audit.stats.tests import (
    SAMPLE,
    auc_classifier,
    distinct_values,
    extreme_position,
    independence,
    runs,
    split_mask,
)


@pytest.mark.parametrize(("n", "t"), [(8, 1), (8, 3), (10, 4), (12, 2)])
def test_extreme_positions_match_enumeration(n, t):
    subsets = list(itertools.combinations(range(n), t))
    for x in range(n - t + 1):
        want = Fraction(sum(min(s) >= x for s in subsets), len(subsets))
        got = extreme_position("g", np.array([x] + [n - 1] * (t - 1)), n, smallest=True).p  # min x, t tickets
        assert math.isclose(got, float(want), rel_tol=1e-9)
        want_max = Fraction(sum(max(s) <= n - 1 - x for s in subsets), len(subsets))
        got_max = extreme_position("g", np.array([0] * (t - 1) + [n - 1 - x]), n, smallest=False).p
        assert math.isclose(got_max, float(want_max), rel_tol=1e-9)


def test_top_prizes_out_of_the_first_fifth_is_0_8_to_the_t():
    n, t = 1_000_000, 50
    f = extreme_position("top", np.array([200_000] + [999_999] * (t - 1)), n, smallest=True)
    assert math.isclose(f.p, math.comb(n - 200_000, t) / math.comb(n, t), rel_tol=1e-9)
    assert f.p < 0.8**t
    assert f.figures == "smallest of 50 at position 200,000 (20.0% into the pool)"


def test_runs_mean_and_variance_are_the_permutation_moments():
    """The runs test's z uses the exact mean and variance of the number of runs over all orders."""
    n1, n0 = 4, 5
    counts = []
    for ones in itertools.combinations(range(n1 + n0), n1):
        seq = np.zeros(n1 + n0, dtype=bool)
        seq[list(ones)] = True
        counts.append(1 + int(np.count_nonzero(seq[1:] != seq[:-1])))
    n = n1 + n0
    assert math.isclose(np.mean(counts), 1 + 2 * n1 * n0 / n)
    assert math.isclose(np.var(counts), 2 * n1 * n0 * (2 * n1 * n0 - n) / (n * n * (n - 1)))


def test_runs_of_an_alternating_sequence_fail_and_of_blocks_fail():
    alternating = np.arange(200) % 2 == 0
    assert runs("r", alternating).p < 1e-20
    assert runs("r", np.repeat([True, False], 100)).p < 1e-20
    assert runs("r", np.arange(30) < 5) is None  # too few winners for the approximation


def test_independence_is_pearsons_chi_square_of_the_table():
    label = np.array([True] * 60 + [False] * 140)
    category = np.array([0, 1, 2, 3] * 50)
    table = np.array([np.bincount(category[label], minlength=4), np.bincount(category[~label], minlength=4)])
    x2, p, df, _ = chi2_contingency(table, correction=False)
    f = independence("i", label, category)
    assert f.figures == f"X2 = {x2:.2f}, df = {df}" and math.isclose(f.p, p, rel_tol=1e-9)


def test_independence_pools_rare_categories():
    label = np.arange(1000) % 3 == 0
    category = np.where(np.arange(1000) < 990, np.arange(1000) % 4, 9)  # 10 rows of category 9
    f = independence("i", label, category)
    assert f.method == "chi-square test of independence, 2 x 4, 2 rare categories pooled"


def _dispersion(win: np.ndarray, per_book: int):
    (f,) = [f for f in block_findings(win.astype(np.int64) * 100, "printed", per_book)[0]
            if f.name.endswith(": dispersion")]
    return f


def test_dispersion_is_the_blocks_by_win_lose_chi_square():
    """docs/statistics.md: to a factor (N - 1) / N, the chi-square of the books x win/lose table."""
    win = split_mask(3000, 99) & split_mask(3000, 98)
    per = win.reshape(100, 30).sum(axis=1)
    x2, _, df, _ = chi2_contingency(np.array([per, 30 - per]), correction=False)
    x2 *= 2999 / 3000
    f = _dispersion(win, 30)
    assert f.figures.startswith(f"X2 = {x2:.1f}, df = {df} (mean ")
    assert math.isclose(f.p, 2 * min(chi2.sf(x2, df), chi2.cdf(x2, df)), rel_tol=1e-9)
    alike = np.zeros((100, 30), dtype=bool)
    alike[:, :9] = True  # every book alike: too even
    assert _dispersion(alike.reshape(-1), 30).p < 1e-20


def test_auc_is_the_share_of_winner_loser_pairs_ranked_right():
    n = 4000
    row = np.arange(n)
    code = (row * 2654435761 % 97) % 5
    label = (code == 4) | ((row * 40503 % 11) == 0)  # code 4 always wins: a leak
    f = auc_classifier("a", label, [[code]], key=12345)
    train = split_mask(n, 12345)
    test = ~train
    # one categorical column: the fitted scores rank the codes as their training win rates do
    rate = {c: label[train & (code == c)].mean() for c in range(5)}
    winners, losers = code[test & label], code[test & ~label]
    pairs = sum((rate[a] > rate[b]) + 0.5 * (rate[a] == rate[b]) for a in winners for b in losers)
    assert f.figures.startswith(f"AUC = {pairs / (len(winners) * len(losers)):.4f}, z = ")
    assert f.p < 1e-10


def test_split_is_a_deterministic_half():
    a, b = split_mask(100_000, 7), split_mask(100_000, 7)
    assert (a == b).all() and abs(int(a.sum()) - 50_000) < 600
    assert (a != split_mask(100_000, 8)).any()


@pytest.mark.parametrize("tickets", [300_000, 1_000_000])
def test_the_extreme_positions_p_is_exact_to_1e_12_on_a_full_size_pool(tickets):
    """docs/statistics.md section 1 calls P(min >= x) = C(N - x, t) / C(N, t) exact: a third engine summing
    integers must find it to 1e-9. Differences of lgamma near N! lost that (1.5e-9 on a pool of 300,000)."""
    positions = np.array([97_431, 180_002, 201_777, 250_000, 299_998])
    x, y, t = int(positions.min()), int(positions.max()), len(positions)
    low = extreme_position("low", positions, tickets, smallest=True)
    high = extreme_position("high", positions, tickets, smallest=False)
    assert low is not None and high is not None
    exact_low = Fraction(math.comb(tickets - x, t), math.comb(tickets, t))
    exact_high = Fraction(math.comb(y + 1, t), math.comb(tickets, t))
    assert low.p == pytest.approx(float(exact_low), rel=1e-12)
    assert high.p == pytest.approx(float(exact_high), rel=1e-12)


def test_the_classifier_scores_a_set_the_same_whatever_order_its_columns_hold_it():
    """docs/statistics.md section 2: a set (a key number match area's WINNING NUMBERS) is multi-hot, so two
    rows holding the same numbers have the same features, the same score, and are tied in the AUC. Summing
    each row's coefficients in its columns' order broke such ties by rounding (a Double Take pool's p moved
    by 4e-9, which a third engine scoring the design matrix saw): reordering every row's set changes
    nothing."""
    rng = np.random.default_rng(5)
    n = 6000
    sets = np.stack([rng.choice(30, 3, replace=False) for _ in range(n)])
    spot = rng.integers(0, 5, n)
    label = rng.random(n) < 0.25 + 0.01 * (sets.min(axis=1) % 3)
    shuffled = np.stack([rng.permutation(row) for row in sets])
    plain = auc_classifier("a", label, [[sets[:, i] for i in range(3)], [spot]], key=77)
    moved = auc_classifier("a", label, [[shuffled[:, i] for i in range(3)], [spot]], key=77)
    assert plain is not None and moved is not None
    assert (moved.figures, moved.p) == (plain.figures, plain.p)


def test_the_classifier_ties_categories_whose_training_rows_are_alike():
    """Two categories with the same training rows (counts and wins) get the same coefficient in exact
    arithmetic, so their held-out rows tie (docs/statistics.md section 2: scores rounded to 9 decimals).
    Rounding noise in the fit broke the tie either way: swapping the two labels moved the AUC (11 of these
    40 cases), and a third engine's fit broke it otherwise. Now the swap changes nothing."""
    n, key = 3000, 4242
    train = split_mask(n, key)
    rng = np.random.default_rng(3)
    for _ in range(40):
        feat = rng.integers(0, int(rng.integers(4, 30)), n)
        win = rng.random(n) < 0.3
        rows = np.flatnonzero(train)
        ones, twos = rows[feat[rows] == 1], rows[feat[rows] == 2]
        m = min(len(ones), len(twos))
        feat[twos[m:]] = 0
        feat[ones[m:]] = 0
        win[twos[:m]] = win[ones[:m]]  # categories 1 and 2 alike in training
        swapped = np.where(feat == 1, 2, np.where(feat == 2, 1, feat))
        plain = auc_classifier("a", win, [[feat]], key)
        moved = auc_classifier("a", win, [[swapped]], key)
        assert plain is not None and moved is not None
        assert (moved.figures, moved.p) == (plain.figures, plain.p)


def _design_as_written(blocks):  # type: ignore[no-untyped-def]
    """_design's grouped form, row by row in Python ints: a row's columns (0, then each block's code
    offset by the codes before it), its pattern the rank of the number those columns are the digits
    of in base `width` (the intercept's the lowest)."""
    offsets, width = [], 1
    for block in blocks:
        codes = sorted(set(block[0].tolist()))
        offsets.append({c: width + i for i, c in enumerate(codes)})
        width += len(codes)
    columns = [(0, *(o[v] for o, v in zip(offsets, values, strict=True)))
               for values in zip(*(b[0].tolist() for b in blocks), strict=True)]
    keys = [sum(c * width ** j for j, c in enumerate(cols)) for cols in columns]
    present = sorted(set(keys))
    rank = {k: i for i, k in enumerate(present)}
    digits = [[k // width ** j % width for j in range(len(blocks) + 1)] for k in present]
    return digits, width, [rank[k] for k in keys]


@pytest.mark.parametrize("sizes", [(5,), (3, 7), (60,), (2, 4, 6), (9, 9, 9)])  # 28 ** 4 <= 2 ** 20
def test_the_design_of_one_column_blocks_groups_rows_by_their_columns(sizes):
    rng = np.random.default_rng(sum(sizes))
    blocks = [[rng.integers(10, 10 + k, 2_000).astype(np.uint8)] for k in sizes]
    index, width, row = stats_tests._design(blocks)
    digits, want_width, want_row = _design_as_written(blocks)
    assert index.tolist() == digits and width == want_width and row.tolist() == want_row


def test_the_design_of_many_patterns_or_a_set_is_every_rows_sorted_columns():
    rng = np.random.default_rng(5)
    wide = [[rng.integers(0, 120, 500)] for _ in range(3)]  # 361 ** 4 patterns: too many to count
    sets = [[rng.integers(0, 9, 500) for _ in range(3)], [rng.integers(0, 4, 500)]]
    for blocks in (wide, sets):
        index, width, row = stats_tests._design(blocks)
        offsets, columns = 1, [np.zeros(500, dtype=np.int64)]
        for block in blocks:
            codes = np.unique(np.concatenate(block))
            columns += [offsets + np.searchsorted(codes, c) for c in block]
            offsets += len(codes)
        assert width == offsets and row.tolist() == list(range(500))
        assert index.tolist() == np.sort(np.stack(columns, axis=1), axis=1).tolist()


def _distinct_cases() -> list[np.ndarray]:
    rng = np.random.default_rng(7)
    prizes = np.array([0, 1_500, 3_000, 7_500, 15_000_000])
    odd = np.full(SAMPLE + 10, 700, dtype=np.int64)
    odd[-1] = 701  # past the rows the step is guessed from: a step of 300,000 guessed, then disproved
    odd[-2] = 300_700
    return [
        rng.choice(prizes, 50_000),  # prize amounts in cents: a step of 1,500
        rng.choice(prizes, 50_000)[rng.choice(prizes, 50_000) > 0],  # the winners': from 1,500
        rng.integers(0, 40, 10_000).astype(np.uint8),  # codes
        rng.integers(-3, 40, 10_000) * 977 - 5,  # below 0, a step of 977
        rng.integers(-(1 << 40), 1 << 40, 5_000),  # no step: hashed
        np.array([-(1 << 63), (1 << 63) - 1, 0]),  # distances beyond int64
        rng.integers(0, 1 << 64, 3_000, dtype=np.uint64),  # beyond int64
        odd,
        np.full(9, -4),  # one value, below 0
        np.array([5], dtype=np.int16),
    ]


@pytest.mark.parametrize("case", range(10))
def test_distinct_values_are_numpys_unique_whatever_the_integers(case):
    """Stepped amounts, codes, values below 0, values with no step or beyond int64, a step the first rows
    suggest and a later row disproves: the distinct values (and their type), each row's index and the
    counts are np.unique's."""
    values = _distinct_cases()[case]
    distinct, inverse, counts = distinct_values(values)
    want, want_inverse, want_counts = np.unique(values, return_inverse=True, return_counts=True)
    assert distinct.dtype == values.dtype
    assert distinct.tolist() == want.tolist()
    assert inverse.tolist() == want_inverse.tolist()
    assert counts.tolist() == want_counts.tolist()
