"""Step 8's tests of a prize level placed with the top prizes (docs/statistics.md 1i): in the books that
hold one, or beside one in its book.

A top prize claimed (or seen by the clerk who sells the book in order) marks its book: a retailer or a
friend who then buys the rest of that book, or the ticket after it, collects what an insider put there. 1c's
`in fewest books` sees a level packed into few books, 1g a level crowded into consecutive books; a level
moved into the books already holding a top prize, one ticket to a book, does neither: 100 of a full Wild
Side pool's 395 $50s moved into the 256 books of its $100-and-up prizes (each swapped with a lower winner
there, so every book keeps its winners) passed step 8 at p 7.2e-4. So, in a printed pool whose print order
is a uniform shuffle (no pack parameters, the uniform BookNull), with the top prizes the tickets of the
pool's top groups (audit/stats/positions.py `top_group`: its amounts from the highest until they hold 50
tickets), t of them:

  F = the N - t places not holding a top prize;
  in the books: S = the places of F in the books holding a top prize;
  beside: S = the places of F next to a top prize in the same book (its ticket number one above or below);
  for each prize amount $A below the top groups held by c >= LEVEL_MIN tickets, x = its tickets in S;
  p = P(X >= x), X hypergeometric (F places, c of them $A, |S| drawn): one-sided.

Under a uniform shuffle, given where the top prizes are, the other tickets are a uniform permutation over
F, so the level's c tickets are a uniform c-subset of F and their count in S (fixed by the top prizes'
places alone) is X exactly.
"""

from __future__ import annotations

import numpy as np

from audit.stats.laws import hypergeom_pmf
from audit.stats.positions import cents, top_group
from audit.stats.tests import Finding, distinct_values

__all__ = ["LEVEL_MIN", "near_top_findings", "near_top_places"]

LEVEL_MIN = 20  # a level below the top groups is tested from this many tickets (as 1g's windows)
METHOD = ("exact: P(X >= x), X hypergeometric (the N - t places holding no top prize, the level's c tickets, "
          "the S places tested drawn)")


def near_top_places(top: np.ndarray, per_book: int) -> tuple[np.ndarray, np.ndarray]:
    """The places holding no top prize (`top`, in print order) in a book holding one, and those next to one
    in the same book."""
    n = len(top)
    books = top.reshape(n // per_book, per_book).any(axis=1)
    in_books = np.repeat(books, per_book) & ~top
    ticket = np.arange(n) % per_book
    beside = np.zeros(n, dtype=bool)
    beside[:-1] |= top[1:] & (ticket[:-1] != per_book - 1)  # the ticket before a top prize, same book
    beside[1:] |= top[:-1] & (ticket[1:] != 0)  # the ticket after it
    return in_books, beside & ~top


def near_top_findings(prize: np.ndarray, per_book: int | None, order: bool, sign: str = "$") -> list[Finding]:
    """Each level below the top groups of LEVEL_MIN tickets or more: its tickets in the books holding a
    top prize, and beside one in its book, against the hypergeometric law (module docstring). A printed pool
    whose print order is a uniform shuffle (`order`) only; none when the top groups hold every winner."""
    n = len(prize)
    win = prize > 0
    if not order or not per_book or n % per_book or not win.any():
        return []
    amounts, _, counts = distinct_values(prize[win])
    levels = sorted(zip(amounts.tolist(), counts.tolist(), strict=True), reverse=True)
    group = top_group([(int(a), int(c)) for a, c in levels])
    top = prize >= group[-1]  # the group: every amount from its lowest up
    free = n - int(top.sum())
    in_books, beside = near_top_places(top, per_book)
    held = int(top.reshape(n // per_book, per_book).any(axis=1).sum())
    tops = f"{cents(min(group), sign)} and up" if len(group) > 1 else cents(group[0], sign)
    found = []
    for amount, count in levels:
        if int(amount) in group or count < LEVEL_MIN:
            continue
        level = prize == amount
        name = f"prize level {cents(int(amount), sign)} ({int(count):,} tickets)"
        tests = ((in_books, f"in the books of the top prizes ({tops})",
                  f"in the {held:,} books holding a top prize"),
                 (beside, f"beside a top prize ({tops}) in its book", "beside a top prize"))
        for where, test, place in tests:
            size, x, c = int(where.sum()), int((level & where).sum()), int(count)
            p = min(1.0, float(hypergeom_pmf(free, c, size)[x:].sum()))
            found.append(Finding(f"{name}: {test}", METHOD,
                                 f"{x:,} of {c:,} {place} ({c * size / free:,.1f} expected; "
                                 f"{size:,} of the {free:,} places holding no top prize)", p))
    return found
