"""Step 8's tests of the printed book numbers (docs/statistics.md 1c): which books hold the pool's top
prizes, by the number printed on them, not by their place in print order.

Book numbers are a second order beside print order: the order's book slots are numbered by one
permutation (or a book key's HMAC ranks, docs/validation.md section 2), so under an honest run the
ranks of a pool's book numbers among themselves are a uniform permutation of 0..B-1, independent of
what the books hold. A generator that shuffles honestly in print order but numbers the books so that
the top prizes' books get low numbers, high numbers or numbers ending in one digit passes every
position test; an accomplice told the pattern buys those books. Group j is the books holding the
pool's j highest prize amounts, for j = 1 up to the first group of TOP_MIN tickets (or every winner:
audit/stats/positions.py's top prizes), so the top prize alone, then with the next amount, and so on.
For the k distinct books of a group, r the ranks of their numbers among the pool's B book numbers:

  - smallest: P(min r >= x) = C(B - x, k) / C(B, k), exact, one-sided;
  - largest:  P(max r <= y) = C(y + 1, k) / C(B, k), exact, one-sided;
  - one last digit: x_d of the k books end in decimal digit d, n_d of the pool's B do; X_d is
    hypergeometric (B, n_d, k) and p = min(1, 10 min_d P(X_d >= x_d)) (exact, Bonferroni over the
    ten digits: conservative), small when the top prizes' books crowd into one last digit.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from audit.stats.laws import hypergeom_pmf
from audit.stats.positions import cents, top_group
from audit.stats.tests import Finding, distinct_values, extreme_position

__all__ = ["book_number_findings"]


def book_number_findings(prize: np.ndarray, book: np.ndarray, per_book: int) -> list[Finding]:
    """The top prizes' books by their printed numbers; `book` is the pool's book column in print order
    (step 3 proves each book's rows contiguous and carrying one number). Group k is the books holding
    the k highest amounts, for k = 1 up to the first group of TOP_MIN tickets (or every winner)."""
    win = prize > 0
    if not win.any() or per_book <= 0 or len(prize) % per_book:
        return []
    numbers = book[::per_book].astype(np.int64)
    books = len(numbers)
    rank = np.empty(books, dtype=np.int64)
    rank[np.argsort(numbers, kind="stable")] = np.arange(books)
    ordered = np.sort(numbers)
    digit = numbers % 10
    amounts, _, counts = distinct_values(prize[win])
    group = top_group([(int(a), int(c)) for a, c in zip(amounts, counts, strict=True)])
    found: list[Finding | None] = []
    for k in range(1, len(group) + 1):
        held = np.unique(np.flatnonzero(np.isin(prize, group[:k])) // per_book)
        ranks = rank[held]
        name = (f"books of the top prizes ({cents(group[0])}" + (f" to {cents(group[k - 1])}" if k > 1
                else "") + f"; {len(held):,} of {books:,} books) by printed book number")
        for smallest in (True, False):
            f = extreme_position(f"{name}: {'smallest' if smallest else 'largest'}", ranks, books,
                                 smallest=smallest)
            if f is not None:
                x = int(ranks.min() if smallest else ranks.max())
                f = replace(f, figures=f"{'smallest' if smallest else 'largest'} of {len(held):,} is book "
                            f"{int(ordered[x])} (rank {x:,} of the pool's {books:,} book numbers)",
                            method=f.method.replace("C(N", "C(B"))
            found.append(f)
        found.append(_one_digit(f"{name}: one last digit", digit, held))
    return [f for f in found if f is not None]


def _one_digit(name: str, digit: np.ndarray, held: np.ndarray) -> Finding | None:
    """The k books `held` crowded into one last digit: for each digit d, x_d of them end in d and X_d is
    hypergeometric (B books, n_d of them ending in d, k drawn); p = min(1, 10 min_d P(X_d >= x_d))."""
    books, k = len(digit), len(held)
    best: tuple[float, int, int, int] | None = None
    for d in range(10):
        x = int((digit[held] == d).sum())
        if x == 0:
            continue
        n_d = int((digit == d).sum())
        tail = float(hypergeom_pmf(books, n_d, k)[x:].sum())
        if best is None or tail < best[0]:
            best = (tail, d, x, n_d)
    if best is None:
        return None
    tail, d, x, n_d = best
    return Finding(name, "exact: 10 min_d P(X_d >= x_d), X_d hypergeometric (B, n_d, k)",
                   f"{x} of {k:,} end in {d} ({n_d:,} of the pool's {books:,} books do)", min(1.0, 10 * tail))
