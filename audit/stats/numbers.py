"""Step 8's tests of the printed numbers (docs/statistics.md 1c): which books hold the pool's top
prizes, by the number printed on them, not by their place in print order; and the last digit of the
top prizes' ticket numbers within their books.

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

The ticket number within the book (position mod B tickets a book, printed with the book number) is
tested by tenth and by its extremes elsewhere (audit/stats/books.py, top.py); neither sees the top
prizes kept to ticket numbers 7, 17 and 27 of their books, which a clerk who sells a book in order can
pull. So, per group, its t tickets by the last digit of their ticket number: the same test, X_d
hypergeometric (N tickets, n_d of them with a ticket number ending in d, t drawn); and x of them the
first or last ticket of their book (both extremes taken, which the extremes' tests cannot see):
p = P(X >= x), X hypergeometric (N tickets, 2 N / B of them first or last, t drawn), exact.

And per group, how few books its t tickets take: K = the distinct books holding them; under a uniform
shuffle they are a uniform t-subset of the N = B m positions (m tickets a book), so K is the number of
books t draws without replacement touch, P(K <= k) exact by the chain over the draws (the r-th draw,
j books touched so far, opens a new book with probability (N - j m) / (N - r)); one-sided: the top
prizes gathered into few books, which a confederate given those books (by a number no test can read:
docs/statistics.md section 6) collects at once. The same for each amount below the groups held by
LEVEL_MIN tickets up to as many as the pool has books: "prize level $A (t tickets): in fewest books"
(more tickets than books touch nearly every book, and the chain would cost t x B).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from audit.stats.laws import hypergeom_pmf
from audit.stats.positions import cents, top_group
from audit.stats.tests import Finding, distinct_values, extreme_position

__all__ = ["LEVEL_MIN", "few_books", "one_digit", "printed_number_findings"]

LEVEL_MIN = 20  # an amount below the top groups is tested for few books from this many tickets (to B)


def printed_number_findings(prize: np.ndarray, book: np.ndarray, per_book: int,
                            sign: str = "$") -> list[Finding]:
    """The top prizes' books by their printed numbers, and their tickets by the last digit of their ticket
    number within the book (position mod per_book); `book` is the pool's book column in print order
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
    ticket_digit = np.arange(len(prize)) % per_book % 10  # the printed ticket number's last digit
    ticket_among = np.bincount(ticket_digit, minlength=10)  # once for every group
    amounts, _, counts = distinct_values(prize[win])
    group = top_group([(int(a), int(c)) for a, c in zip(amounts, counts, strict=True)])
    found: list[Finding | None] = []
    for k in range(1, len(group) + 1):
        rows = np.flatnonzero(prize >= group[k - 1])  # group[:k]'s tickets, in print order
        held = np.unique(rows // per_book)
        ranks = rank[held]
        name = (f"books of the top prizes ({cents(group[0], sign)}"
                + (f" to {cents(group[k - 1], sign)}" if k > 1 else "")
                + f"; {len(held):,} of {books:,} books) by printed book number")
        for smallest in (True, False):
            f = extreme_position(f"{name}: {'smallest' if smallest else 'largest'}", ranks, books,
                                 smallest=smallest)
            if f is not None:
                x = int(ranks.min() if smallest else ranks.max())
                f = replace(f, figures=f"{'smallest' if smallest else 'largest'} of {len(held):,} is book "
                            f"{int(ordered[x])} (rank {x:,} of the pool's {books:,} book numbers)",
                            method=f.method.replace("C(N", "C(B"))
            found.append(f)
        found.append(one_digit(f"{name}: one last digit", digit, held, "books"))
        name = (f"top prizes ({cents(group[0], sign)}" + (f" to {cents(group[k - 1], sign)}" if k > 1 else "")
                + f"; {len(rows):,} tickets) by ticket number within the book: one last digit")
        found.append(one_digit(name, ticket_digit, rows, "tickets", ticket_among))
        ends = name.replace(": one last digit", ": first or last ticket")
        found.append(_at_the_ends(ends, rows, len(prize), per_book))
        few = name.split(" by ticket number")[0] + ": in fewest books"
        found.append(few_books(few, len(held), len(rows), books, per_book))
    for amount, count in zip(amounts, counts, strict=True):
        if int(amount) not in group and LEVEL_MIN <= count <= books:
            touched = len(np.unique(np.flatnonzero(prize == amount) // per_book))
            name = f"prize level {cents(int(amount), sign)} ({int(count):,} tickets): in fewest books"
            found.append(few_books(name, touched, int(count), books, per_book))
    return [f for f in found if f is not None]


def _at_the_ends(name: str, rows: np.ndarray, tickets: int, per_book: int) -> Finding | None:
    """The t tickets `rows` kept to the first and last ticket of their books: x of them there, X
    hypergeometric (N tickets, the 2 N / B first and last of the books, t drawn); p = P(X >= x)."""
    if per_book < 3:  # every ticket is a first or a last one
        return None
    ends = 2 * (tickets // per_book)
    x = int(np.isin(rows % per_book, (0, per_book - 1)).sum())
    p = float(hypergeom_pmf(tickets, ends, len(rows))[x:].sum())
    return Finding(name, "exact: P(X >= x), X hypergeometric (N, 2 N / B, t)",
                   f"{x} of {len(rows):,} are a book's first or last ticket ({ends:,} of the pool's "
                   f"{tickets:,} tickets are)", min(1.0, p))


def few_books(name: str, k: int, t: int, books: int, per_book: int, unit: str = "books") -> Finding | None:
    """The t tickets of a group in k books: p = P(K <= k), K the books t uniform draws without replacement
    from books x per_book positions touch (exact: the chain over the draws, in floating point). Any
    partition of the positions into `books` classes of per_book each is the same law (`unit` names them:
    ticket numbers, residues of the serial)."""
    n = books * per_book
    if t < 2 or per_book < 2:
        return None
    width = min(t, books) + 1
    touched = np.zeros(width)
    touched[1] = 1.0  # after the first draw, one book
    j = np.arange(width)
    for r in range(1, t):
        new = np.clip(n - j * per_book, 0, None) / (n - r)
        touched = np.concatenate(([0.0], touched[:-1] * new[:-1])) + touched * (1.0 - new)
    expected = float((j * touched).sum())
    return Finding(name, f"exact: P(K <= k), K the {unit} t uniformly placed tickets take",
                   f"{t:,} tickets in {k:,} {unit} ({expected:,.1f} expected of the pool's {books:,})",
                   float(min(1.0, touched[: k + 1].sum())))


def one_digit(name: str, digit: np.ndarray, held: np.ndarray, unit: str,
              among: np.ndarray | None = None) -> Finding | None:
    """The k `held` of the pool's `unit` (books or tickets) crowded into one last digit: for each digit d,
    x_d of them end in d and X_d is hypergeometric (all n, n_d of them ending in d, k drawn);
    p = min(1, 10 min_d P(X_d >= x_d)). `among`: np.bincount(digit, minlength=10), if already counted."""
    books, k = len(digit), len(held)
    within = np.bincount(digit[held], minlength=10)
    among = np.bincount(digit, minlength=10) if among is None else among
    best: tuple[float, int, int, int] | None = None
    for d in range(10):
        x = int(within[d])
        if x == 0:
            continue
        n_d = int(among[d])
        tail = float(hypergeom_pmf(books, n_d, k)[x:].sum())
        if best is None or tail < best[0]:
            best = (tail, d, x, n_d)
    if best is None:
        return None
    tail, d, x, n_d = best
    whole = "B" if unit == "books" else "N"
    return Finding(name, f"exact: 10 min_d P(X_d >= x_d), X_d hypergeometric ({whole}, n_d, k)",
                   f"{x} of {k:,} end in {d} ({n_d:,} of the pool's {books:,} {unit} do)",
                   min(1.0, 10 * tail))
