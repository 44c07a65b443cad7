"""Step 8's tests of what every book holds against the order of the printed book numbers (docs/statistics.md
1f): winners, each prize level and prize value per book, the books taken in the order of their printed
numbers and cut into tenths.

Book numbers are a second order beside print order (audit/stats/numbers.py): under an honest run the ranks
of a pool's B book numbers among themselves are a uniform permutation of 0..B-1, independent of what the
books hold (one permutation of the order's book slots from the seed, or a book key's HMAC ranks), whatever
the shuffle and whatever the pack parameters. numbers.py and gathered.py read the books of the top prizes
by their numbers; nothing else did, so an insider who left print order honest and numbered the books by
what they hold below the top prizes (the books richest in $2s in one range of numbers, which the warehouse
ships to one retailer; the books with the fewest winners numbered last, so the end of the game pays less)
passed every test. Given the books' contents their order by number is a uniform permutation, which is the
permutation null of the chain's tenth-of-packs tests (audit/stats/pack_laws.py `by_tenth_of_packs`, the
permutation chi-square; `kruskal` across the tenths), so their null holds here exactly without any
assumption on the contents. A level of at most EXACT_MAX tickets is tested by the books holding it, with
that null's exact tail (audit/stats/exact_tenths.py): the chi-square's runs up to 1.8 times nominal at 1e-5
for such sparse levels (docs/statistics.md 1f):

  - winners per book by printed book number, in tenths: x_b = the winners of book b;
  - prize level $A (n tickets) per book by printed book number, in tenths: x_b = book b's tickets paying
    $A, for every amount paid (highest first; a level whose per-book counts equal the winners' is not
    tested twice); a level of at most EXACT_MAX tickets: x_b = 1 where book b holds one, exact tail;
  - prize value per book by printed book number, in tenths: Kruskal-Wallis of the books' values across the
    ten parts, two-sided where resolved (as the chain's prize value per book by tenth of the books).
"""

from __future__ import annotations

import numpy as np

from audit.stats.exact_tenths import EXACT_MAX, holding_by_tenth
from audit.stats.pack_laws import PARTS, by_tenth_of_packs, kruskal
from audit.stats.positions import cents
from audit.stats.tests import Finding

__all__ = ["BY_NUMBER", "book_order_findings"]

BY_NUMBER = "per book by printed book number, in tenths"


def book_order_findings(prize: np.ndarray, book: np.ndarray, per_book: int, sign: str = "$") -> list[Finding]:
    """The books' winners, prize levels and values by tenth of their printed numbers' order; `book` is the
    pool's book column in print order (step 3 proves each book's rows contiguous under one number, no
    number twice)."""
    if per_book <= 0 or len(prize) % per_book or not (prize > 0).any():
        return []
    books = len(prize) // per_book
    order = np.argsort(book[::per_book].astype(np.int64), kind="stable")  # books by printed number
    amounts = prize.reshape(books, per_book)[order]
    wins = (amounts > 0).sum(axis=1).astype(np.int64)
    found: list[Finding | None] = [by_tenth_of_packs(f"winners {BY_NUMBER}", wins)]
    tested = {wins.tobytes()}  # the same counts are one statistic: Holm would count them twice
    levels, counts = np.unique(prize[prize > 0], return_counts=True)
    for amount, count in sorted(zip(levels.tolist(), counts.tolist(), strict=True), reverse=True):
        held = (amounts == amount).sum(axis=1).astype(np.int64)
        if held.tobytes() in tested:
            continue
        tested.add(held.tobytes())
        level = f"prize level {cents(int(amount), sign)} ({int(count):,} tickets)"
        found.append(holding_by_tenth(f"{level} {BY_NUMBER}", held) if count <= EXACT_MAX
                     else by_tenth_of_packs(f"{level} {BY_NUMBER}", held))
    parts = min(PARTS, books)
    found.append(kruskal(f"prize value {BY_NUMBER}", amounts.sum(axis=1),
                         np.arange(books) * parts // books))
    return [f for f in found if f is not None]
