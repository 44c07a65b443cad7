"""Step 8's tests of the prize amounts against patterns of the printed numbers that section 1's tables do
not name (docs/statistics.md 1h): a ticket's book number and ticket number are printed outside the latex,
and its barcode's two check digits are a function of both, so a clerk or an accomplice told a pattern of
them can pick the tickets that follow it:

  - prize amounts by printed book number mod k, k = 2..10 (even books, books ending in 7, books 0 mod 3):
    the top groups' books are tested by one last digit (audit/stats/numbers.py), but a level below them
    moved into such books, or a top group into books 0 mod 3, changed no figure;
  - prize amounts by ticket number within the book minus printed book number mod 10 (residue 0: the
    ticket number ends in its book number's last digit): a set of ticket numbers that differs from book
    to book, which the table by ticket number averages away;
  - prize amounts by the barcode's check digits: (30 x book number + ticket number) mod 97, whose residue
    the check digits CC = 98 - (N x 100 mod 97) of the barcode number N = game, book, ticket give one to
    one (docs/validation.md section 2: 1,000 = 30 mod 97), so the partition is the check digits' whatever
    the game number.

Each is the table of a partition of the tickets (R classes, of n_r tickets) by prize class (the amounts,
losers' 0 among them, top-coded so that every cell expects at least MIN_EXPECTED: each class of at least
MIN_EXPECTED x N / min_r n_r tickets), Pearson's chi-square with E = n_r c / N, df (R - 1)(L - 1), upper
tail. Under a uniform shuffle of print order the book numbers are fixed independently of it (one
permutation of the order's book slots, or a book key's), so each partition is fixed and the amounts fall
on it as a uniform permutation: the table's exact null, of which the chi-square is the usual limit. Made
only for such a pool (no pack parameters, the uniform BookNull): under pack parameters a book's tickets are
no uniform sample of the pool.
"""

from __future__ import annotations

import math

import numpy as np

from audit.stats.books import PERIODS, top_coded_classes
from audit.stats.laws import chi2_sf
from audit.stats.tests import MIN_EXPECTED, Finding, distinct_values

__all__ = ["CHECK_MODULUS", "LAST_DIGIT", "residue_findings"]

LAST_DIGIT = 10  # the ticket number minus the book number, mod this: a ticket ending in its book's digit
CHECK_MODULUS = 97  # the barcode's check digits (ISO/IEC 7064 MOD 97-10, docs/validation.md section 2)
BOOK_STEP = 1_000 % CHECK_MODULUS  # the book number's weight in the barcode number mod 97: 30


def amounts_by_class(amounts: tuple[np.ndarray, np.ndarray], row: np.ndarray, rows: int,
                     name: str) -> Finding | None:
    """The rows x L table of a partition of the tickets (`row`, 0 .. rows - 1) by prize class; `amounts`
    is the pool's (inverse, counts) of distinct_values. None when fewer than two rows hold tickets or the
    top-coding leaves one class. The name states no count of residues or classes (the method does): they
    follow the pool's book numbers, and a name is what 1d combines across pools."""
    inverse, counts = amounts
    sizes = np.bincount(row, minlength=rows)
    held = sizes > 0
    if held.sum() < 2:
        return None
    n = len(row)
    least = math.ceil(MIN_EXPECTED * n / int(sizes[held].min()))
    cls = top_coded_classes(counts, least)
    kinds = int(cls.max()) + 1
    if kinds < 2:
        return None
    observed = np.bincount(row * kinds + cls[inverse], minlength=rows * kinds).reshape(rows, kinds)[held]
    totals = np.bincount(cls, weights=counts, minlength=kinds)
    expected = sizes[held][:, None] * totals[None, :] / n
    x2 = float(((observed - expected) ** 2 / expected).sum())
    df = (int(held.sum()) - 1) * (kinds - 1)
    method = (f"chi-square test of independence, {int(held.sum())} residues x {kinds} classes, amounts "
              f"top-coded to classes of at least {least:,} tickets")
    return Finding(name, method, f"X2 = {x2:.1f}, df = {df:,}", float(min(1.0, chi2_sf(x2, df))))


def residue_findings(prize: np.ndarray, book: np.ndarray, per_book: int) -> list[Finding]:
    """The prize amounts by book number mod k (k = 2..10), by ticket number minus book number mod 10 and
    by the barcode's check digits; `book` is the pool's book column in print order, ticket number =
    position mod per_book (step 3). Only for a pool whose print order is a uniform shuffle."""
    if per_book <= 0 or len(prize) == 0 or not (prize > 0).any():
        return []
    amounts = distinct_values(prize)[1:]
    number = book.astype(np.int64)
    ticket = np.arange(len(prize), dtype=np.int64) % per_book
    found = [amounts_by_class(amounts, number % k, k, f"prize amounts by printed book number mod {k}")
             for k in PERIODS]
    found.append(amounts_by_class(amounts, (ticket - number) % LAST_DIGIT, LAST_DIGIT,
                                  "prize amounts by ticket number within the book minus printed book number "
                                  f"mod {LAST_DIGIT}"))
    found.append(amounts_by_class(amounts, (BOOK_STEP * number + ticket) % CHECK_MODULUS, CHECK_MODULUS,
                                  "prize amounts by printed book number and ticket number: barcode check "
                                  f"digits, (30 x book + ticket) mod {CHECK_MODULUS}"))
    return [f for f in found if f is not None]
