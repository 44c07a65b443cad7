"""The exact tail of 1f's sparse levels (audit/stats/exact_tenths.py, docs/statistics.md 1f): the books
holding a level fall in the tenths as a multivariate hypergeometric draw; the tail summed part by part,
each part's term rounded up, is never below the tail counted over every placement, and within the
rounding of it; the p-values it gives hold their level over every placement."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from math import comb

import numpy as np
import pytest
from scipy.stats import chi2

from audit.stats.exact_tenths import GRID, holding_by_tenth, tenths_tail


def _x2(sizes: np.ndarray, chosen: tuple[int, ...]) -> tuple[float, np.ndarray]:
    books, k = int(sizes.sum()), len(chosen)
    mean, var = k / books, k / books * (1 - k / books)
    group = np.arange(books) * len(sizes) // books
    s = np.bincount(group[list(chosen)], minlength=len(sizes))
    term = (books - 1) / books * (np.arange(k + 1)[None, :] - sizes[:, None] * mean) ** 2 / (sizes[:, None]
                                                                                            * var)
    return float(term[np.arange(len(sizes)), s].sum()), term


@pytest.mark.parametrize("books,parts,k", [(9, 3, 4), (11, 3, 5), (10, 4, 3)])
def test_the_tail_part_by_part_is_the_tail_over_every_placement_rounded_up(books, parts, k):
    sizes = np.bincount(np.arange(books) * parts // books)
    every = [_x2(sizes, c)[0] for c in combinations(range(books), k)]
    term = _x2(sizes, tuple(range(k)))[1]
    for x in sorted(set(np.round(every, 9).tolist())):
        exact = sum(v >= x - 1e-9 for v in every) / len(every)
        tail = tenths_tail(sizes, k, x, term)
        rounded = sum(v >= x * (1 - len(sizes) / GRID) - 1e-9 for v in every) / len(every)
        assert exact - 1e-12 <= tail <= rounded + 1e-12, x  # float sums: 1e-12


def test_the_p_values_of_the_books_holding_a_level_hold_their_level_over_every_placement():
    """20 books holding a level among 22, two parts: each of the 231 placements' p, P(p' <= p) <= p."""
    ps = []
    for out in combinations(range(22), 2):
        held = np.ones(22, dtype=np.int64)
        held[list(out)] = 0
        f = holding_by_tenth("level", held)
        assert f is not None
        ps.append(f.p)
    p = np.array(ps)
    assert len(p) == 231 and all((p <= q).mean() <= q + 1e-12 for q in p)


def test_a_sparse_levels_exact_tail_is_heavier_than_the_chi_squares_where_that_ran_above_nominal():
    """100 books holding a level among 2,500, 10 parts of 250: at X2 = 39.34 (the chi-square's 1e-5) the
    exact tail is 1.65e-5 to within the rounding (the chi-square ran 1.6 to 1.8 times nominal there)."""
    sizes = np.full(10, 250)
    x2, term = _x2(sizes, tuple(range(100)))
    tail = tenths_tail(sizes, 100, 39.34, term)
    assert chi2.sf(39.34, 9) == pytest.approx(1e-5, rel=1e-3)
    assert 1.6e-5 < tail < 1.8e-5


def test_a_level_held_by_every_book_or_of_fewer_than_20_tickets_is_not_tested():
    assert holding_by_tenth("level", np.ones(50, dtype=np.int64)) is None
    assert holding_by_tenth("level", np.r_[np.ones(19, dtype=np.int64), np.zeros(81, dtype=np.int64)]) is None
    f = holding_by_tenth("level", np.r_[np.full(10, 2), np.zeros(90, dtype=np.int64)])  # 20 tickets
    assert f is not None and f.figures == "X2 = 11.00, df = 1, 10 books"
    assert f.method == ("permutation chi-square of the books holding it per part, 2 parts of the packs, "
                        "exact tail")
    assert f.p == pytest.approx(2 * comb(50, 10) / comb(100, 10), rel=1e-6)  # all 10 in one part of 50


@pytest.mark.filterwarnings("error")
def test_a_level_held_in_each_parts_exact_share_has_x2_zero_and_p_one():
    """26 of 46 books, 13 in each half: every part holds exactly its share, X2 = 0. In floats (s - n_g
    k / B) left 1.1e-30, whose grid step made every term overflow the int64 cast ("invalid value
    encountered in cast") and p come out of garbage bins; the deviations are exact integers now."""
    held = np.zeros(46, dtype=np.int64)
    held[np.arange(26) * 46 // 26] = 1
    f = holding_by_tenth("level", held)
    assert f is not None and (f.figures, f.p) == ("X2 = 0.00, df = 1, 26 books", 1.0)


@pytest.mark.filterwarnings("error")
def test_the_tail_at_an_x2_far_below_every_term_counts_every_nonzero_placement():
    """3 of 9 books, 3 parts of 3: at x2 = 1e-30 a term's steps (term / (x2 / 1000)) are far beyond
    int64; any term reaching x2 reaches it, so the steps are capped at the grid before the cast, and
    the tail is P(X2 > 0): every placement but the 27 of one book a part, of 84."""
    sizes = np.array([3, 3, 3])
    term = _x2(sizes, (0, 1, 2))[1]
    assert tenths_tail(sizes, 3, 1e-30, term) == pytest.approx(57 / 84, abs=1e-12)


def _books_holding(books: int, held: list[int]) -> np.ndarray:
    y = np.zeros(books, dtype=np.int64)
    y[held] = 1
    return y


def test_a_full_pools_tail_matches_exact_fractions_to_1e_12_at_two_parts():
    """1,000 books (a full Happy Holidays pool), 20 holding a level of 20 tickets: two parts of 500. 15 in
    the first part: X2 reaches the observed only at 15 or more, or 5 or fewer, in the first part (4 away
    from the mean gives 16/25 of it, far below the grid's rounding); all 20 there: only 20 or 0. The
    tail is then those hypergeometric chances in exact fractions. Differences of log-factorials near
    ln(1000!) lose about 1e-12 of each weight, and a tail taken as 1 minus the weights below x2 lost
    1e-12 absolute: 1.8e-6 was off by 5e-7, relative."""
    whole = comb(1000, 20)
    for first, tail in ((15, [s for s in range(21) if abs(s - 10) >= 5]), (20, [0, 20])):
        exact = Fraction(sum(comb(500, s) * comb(500, 20 - s) for s in tail), whole)
        held = list(range(first)) + list(range(500, 520 - first))
        found = holding_by_tenth("x", _books_holding(1000, held))
        assert found is not None and found.figures.endswith("df = 1, 20 books")
        assert found.p == pytest.approx(float(exact), rel=1e-12, abs=0), (found.p, float(exact))


def test_a_full_pools_tail_far_below_1e_12_is_the_exact_fraction():
    """1,000 books in 10 parts of 100, the 100 books holding a level of 100 tickets all in the first part:
    only the 10 placements of all 100 in one part reach that X2 (99 and 1 give 0.98 of it), so p = 10 /
    C(1000, 100), about 1e-138; the tail taken as 1 minus the rest said about 1e-12."""
    found = holding_by_tenth("x", _books_holding(1000, list(range(100))))
    assert found is not None and found.figures.endswith("df = 9, 100 books")
    assert found.p == pytest.approx(float(Fraction(10, comb(1000, 100))), rel=1e-12, abs=0)
