"""Step 8's tests of the top prizes gathered where a confederate collects them (docs/statistics.md 1e):
close together in print order or serial order (a carton of consecutive books for a friendly retailer,
two cartons, a run of serials a colluding player buys), their books close together by printed book
number (a range of book numbers shipped to one retailer), their tickets on few ticket numbers within
the book (a clerk told the numbers: 7, 16, 25, ..., whose digits add to 7) or, for eInstants, on few
residues of the serial mod 1,000 (every 1,000th share) and one last digit of the serial (every tenth).

Group k is the tickets of the pool's k highest prize amounts, k = 1 up to the first group of TOP_MIN
tickets (or every winner), as in audit/stats/positions.py and numbers.py. Under a uniform shuffle a
group's t tickets are a uniform t-subset of the pool's N positions, and (printed) the ranks of its k
books' numbers a uniform k-subset of the pool's B ranks, whatever the books hold.

Close together: x_1 < ... < x_t the sorted places (positions, or book number ranks) among n, gaps
x_(i+1) - x_i, g = max(1, floor(n / (10 t))); C = the gaps at most g; p = P(C >= c), exact: J = t - 1 - C
the gaps above g; a given set of r gaps all above g are C(n - r g, t) of the C(n, t) subsets (take g
from each), so by inclusion and exclusion, with sum_(j <= m) (-1)^j C(r, j) = (-1)^m C(r - 1, m),

    P(J <= m) = 1 + sum_(r = m + 1 .. t - 1) (-1)^(r + m) C(r - 1, m) C(t - 1, r) C(n - r g, t) / C(n, t),

in exact integers, for 2 <= t <= MOST (a bigger group's levels are binned by tenth: positions.py). The
extremes (audit/stats/top.py) see one window only where it moves the smallest and
largest position together; these see any number of windows, each with a few of the group.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from audit.stats.laws import chi2_sf
from audit.stats.numbers import few_books, one_digit
from audit.stats.positions import cents, top_group
from audit.stats.tests import Finding, distinct_values

__all__ = ["PERIOD", "close_together", "gathered_findings", "per_number"]

PERIOD = 1000  # eInstants: the serial's residues mod PERIOD (every 1,000th share) are the classes
SCALE = 10  # a gap is close when at most n / (SCALE t): about a tenth of the mean gap
SPREAD = 250  # a group of t > B tickets is tested per ticket number from this many (per_number)
MOST = 500  # a group of more tickets is not tested close together (t big-integer terms of ~t log n bits)


def close_together(name: str, places: np.ndarray, n: int, unit: str) -> Finding | None:
    """The t distinct `places` (among 0..n-1) with more close gaps than chance: p = P(C >= c), exact."""
    x = np.unique(places)
    t = len(x)
    g = max(1, n // (SCALE * t)) if t else 0
    if t < 2 or t > MOST:
        return None
    c = int((np.diff(x) <= g).sum())
    m = t - 1 - c
    total = math.comb(n, t)
    tail = total + sum((-1) ** (r + m) * math.comb(r - 1, m) * math.comb(t - 1, r)
                       * math.comb(max(0, n - r * g), t) for r in range(m + 1, t))
    expected = float((t - 1) * (1 - Fraction(math.comb(n - g, t), total)))  # exact, then rounded once
    return Finding(name, "exact: P(C >= c), C the gaps of t uniform places at most g = n / (10 t) apart",
                   f"{c:,} of the {t - 1:,} gaps between consecutive {unit} at most {g:,} apart "
                   f"({expected:,.1f} expected)", float(min(1.0, max(0.0, float(Fraction(tail, total))))))


def per_number(name: str, numbers: np.ndarray, classes: int) -> Finding:
    """A group's t ticket numbers over the B of a book: X2 = sum_j (x_j - t / B)^2 / (t / B) against the
    chi-square with B - 1 df (upper tail). With t > B (at least one expected a number) and t >= SPREAD its
    tail is the law's to 1e-5 (measured: docs/statistics.md 1e); fewer tickets make it heavier."""
    e = len(numbers) / classes
    x = np.bincount(numbers, minlength=classes)
    x2 = float(((x - e) ** 2).sum() / e)
    return Finding(name, "chi-square: t tickets over the B ticket numbers, df B - 1",
                   f"X2 = {x2:.2f}, df = {classes - 1}; at most {int(x.max())} on one ticket number ({e:.2f} "
                   "expected)", chi2_sf(x2, classes - 1))


def gathered_findings(prize: np.ndarray, *, per_book: int | None, book: np.ndarray | None,
                      order: bool, sign: str = "$") -> list[Finding]:
    """The pool's top groups gathered (module docstring). `per_book` B for a printed game (ticket number
    = position mod B), None for an eInstant (serial = position + 1); `book` its book column in print
    order (the book number tests), None without; `order` False under pack parameters, whose packs are not
    a uniform shuffle: only the book number test, whose ranks are uniform whatever the books hold, is
    then made."""
    n = len(prize)
    win = prize > 0
    if not win.any():
        return []
    amounts, _, counts = distinct_values(prize[win])
    group = top_group([(int(a), int(c)) for a, c in zip(amounts, counts, strict=True)])
    rank = None
    if per_book and book is not None and n % per_book == 0:
        numbers = book[::per_book].astype(np.int64)
        rank = np.empty(len(numbers), dtype=np.int64)
        rank[np.argsort(numbers, kind="stable")] = np.arange(len(numbers))
    serial_digit = (np.arange(n) + 1) % 10 if order and not per_book else None  # once for every group
    serial_among = np.bincount(serial_digit, minlength=10) if serial_digit is not None else None
    found: list[Finding | None] = []
    for k in range(1, len(group) + 1):
        rows = np.flatnonzero(prize >= group[k - 1])  # group[:k]: every amount from group[k - 1] up
        t = len(rows)
        amounts_named = cents(group[0], sign) + (f" to {cents(group[k - 1], sign)}" if k > 1 else "")
        name = f"top prizes ({amounts_named}; {t:,} tickets)"
        if order:
            where = "print" if per_book else "serial"
            found.append(close_together(f"{name}: close together in {where} order", rows, n,
                                        "tickets" if per_book else "shares"))
        if rank is not None and per_book:
            held = rank[np.unique(rows // per_book)]
            found.append(close_together(f"books of the top prizes ({amounts_named}; {len(held):,} of "
                                        f"{len(rank):,} books) by printed book number: close together",
                                        held, len(rank), "book numbers"))
        if order and per_book and n % per_book == 0 and t <= per_book:
            used = len(np.unique(rows % per_book))
            found.append(few_books(f"{name} by ticket number within the book: in fewest ticket numbers",
                                   used, t, per_book, n // per_book, "ticket numbers"))
        elif order and per_book and n % per_book == 0 and t >= SPREAD:
            found.append(per_number(f"{name} by ticket number within the book: per ticket number",
                                    rows % per_book, per_book))
        if order and not per_book and n % PERIOD == 0 and t <= PERIOD:
            used = len(np.unique(rows % PERIOD))
            found.append(few_books(f"{name} by serial mod {PERIOD:,}: in fewest residues", used, t, PERIOD,
                                   n // PERIOD, "residues"))
        if serial_digit is not None:
            found.append(one_digit(f"{name} by serial: one last digit", serial_digit, rows, "shares",
                                   serial_among))
    return [f for f in found if f is not None]
