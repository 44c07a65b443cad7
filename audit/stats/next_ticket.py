"""Step 8's tests of a losing ticket's layout against the next ticket's prize (docs/statistics.md 1j).

A clerk who sells a book in order sees each ticket scratched; a buyer of an eInstant sees his share's play
and can buy the next serial at once. A loser whose layout hints that the next ticket wins (a symbol, a
decoy, a first reveal that is a loss, shown before a winner more often than chance) tells them to buy the
next one. An insider makes that tell without moving a prize or drawing a layout no loser could have: he
exchanges the losers' layouts among the losers. The losers' layouts as a multiset are then unchanged, and
with them every test of a layout against its own ticket's win (section 2).

For each chi-square feature of section 2 (a column and what it shows, codes below 0 left out), and for an
eInstant each of a losing share's columns its style lists, over the rows i whose ticket loses, whose feature
holds a code and which have a next ticket (i + 1 < N): the feature's values grouped in code order, a group
closing as soon as it holds at least n / GROUPS rows (what is left joins the last group), by the next ticket's
prize amount (the losers' 0 among them), top-coded from the highest down to classes of at least MIN_EXPECTED n
/ (the fewest rows of a group) rows, so every cell expects at least MIN_EXPECTED and a class needs no more
than MIN_EXPECTED x GROUPS rows (the top prizes of a pool have a class of their own, however many values the
feature has); Pearson's chi-square, E = r_k c_l / n, df (K - 1)(L - 1), upper tail. Every style draws a
ticket's layout from its tier's distribution independently of where the ticket lies (the neighbour rule aside:
section 1j), so a loser's feature is independent of the next ticket's prize given the pool's order: the test's
null, whatever the order's own law (a uniform shuffle or pack parameters).

1k, a printed game's: the same table of the first and of the last loser of each whole book (the tickets a
clerk selling the book from either end sees first) against the highest prize of its book: a loser that
tells a clerk to keep the rest of the book.
"""

from __future__ import annotations

import math

import numpy as np

from audit.stats.books import top_coded_classes
from audit.stats.laws import chi2_sf
from audit.stats.tests import MIN_EXPECTED, Finding, distinct_values

__all__ = ["GROUPS", "NextTickets", "book_finding", "book_name", "groups", "loser_finding",
           "next_ticket_finding", "next_ticket_name"]

SUFFIX = " against win/lose"
GROUPS = 20  # a group of values holds at least 1 / GROUPS of the rows: classes of at most 5 x 20 = 100 rows


def groups(sizes: np.ndarray, least: float) -> np.ndarray:
    """Each value's group (values in code order, `sizes` their rows): a group closes as soon as it holds
    `least` rows; what is left after the last closed group joins it (one group if none closes)."""
    group = np.zeros(len(sizes), dtype=np.int64)
    k, held = 0, 0
    for i, size in enumerate(sizes):
        group[i] = k
        held += int(size)
        if held >= least:
            k, held = k + 1, 0
    if held and k:  # an unclosed last group joins the one before it
        group[group == k] = k - 1
    return group


def _what(feature: str) -> str:
    """Section 2's name less its ` against win/lose` (and a comma before it), wherever it stands: a match_n
    area with multipliers names a spot `... against win/lose among tickets whose spot j shows an amount`."""
    return feature.replace("," + SUFFIX if "," + SUFFIX in feature else SUFFIX, "", 1)


def next_ticket_name(feature: str, kind: str) -> str:
    """The test's name from its feature's (section 2's `... against win/lose`)."""
    what = _what(feature)
    order = "print order" if kind == "printed" else "serial order"
    return f"{what}, on a losing ticket, against the next ticket's prize ({order})"


def next_ticket_finding(name: str, prize: np.ndarray, codes: np.ndarray,
                        each: bool = False) -> Finding | None:
    """The test of one feature (`codes`, one a row, below 0: no code) over a pool's `prize` in print
    (serial) order. None when no loser with a code has a next ticket, when fewer than two groups of values
    remain or when the top-coding leaves one class (as when the next tickets all lose)."""
    rows = np.flatnonzero((prize[:-1] == 0) & (codes[:-1] >= 0))
    return loser_finding(name, codes[rows], prize[rows + 1], "next ticket's amount",
                         "losers with a next ticket", each=each)


class NextTickets:
    """next_ticket_finding for many features of one pool: the losers with a next ticket and the next
    tickets' amounts counted once (a feature with a code on every such loser, as most are, reuses them)."""

    def __init__(self, prize: np.ndarray) -> None:
        self.prize = prize
        self.rows = np.flatnonzero(prize[:-1] == 0)
        _, self.inverse, self.counts = distinct_values(prize[self.rows + 1])

    def finding(self, name: str, codes: np.ndarray, each: bool = False) -> Finding | None:
        mine = codes[self.rows]
        if len(mine) and int(mine.min()) < 0:
            return next_ticket_finding(name, self.prize, codes, each)
        return loser_finding(name, mine, self.prize[self.rows + 1], "next ticket's amount",
                             "losers with a next ticket", (self.inverse, self.counts), each=each)


def book_name(feature: str) -> str:
    """1k's name of a feature (section 2's `... against win/lose`)."""
    return f"{_what(feature)}, on the first and last loser of each book, " \
           "against the book's highest prize"


def book_finding(name: str, prize: np.ndarray, codes: np.ndarray, per_book: int,
                 each: bool = False) -> Finding | None:
    """1k: the feature of the first and of the last loser of each whole book (print order; one row where
    they are one ticket; a row without a code left out) against the highest prize of its book."""
    books = len(prize) // per_book
    if books < 1 or per_book < 2:
        return None
    lose = (prize[: books * per_book] == 0).reshape(books, per_book)
    held = lose.any(axis=1)
    start = np.arange(books) * per_book
    first = (start + lose.argmax(axis=1))[held]
    last = (start + per_book - 1 - lose[:, ::-1].argmax(axis=1))[held]
    rows = np.unique(np.concatenate([first, last]))
    rows = rows[codes[rows] >= 0]
    top = prize[: books * per_book].reshape(books, per_book).max(axis=1)
    return loser_finding(name, codes[rows], top[rows // per_book], "book's highest prize",
                         "first and last losers of the books", each=each)


JOINT = 1 << 20  # the most cells of a codes x amounts table counted before it is grouped


def _by_code(codes: np.ndarray, inverse: np.ndarray,
             amounts: int) -> tuple[np.ndarray, int, np.ndarray | None, np.ndarray]:
    """(each distinct code's row count, in code order; how many distinct codes; the distinct codes x
    amounts table of row counts, or None where it would have more than JOINT cells; each row's code
    index, or an empty array where the table was counted straight from the codes). Codes from 0 with a
    table of every code up to the largest of at most JOINT cells are counted straight into it and the
    codes no row holds dropped; others are found first (distinct_values)."""
    lo, hi = (int(codes.min()), int(codes.max())) if codes.dtype.kind in "iu" else (-1, 0)
    if lo >= 0 and (hi + 1) * amounts <= JOINT:
        cells = codes.astype(np.intp, copy=False) * amounts + inverse
        full = np.bincount(cells, minlength=(hi + 1) * amounts).reshape(hi + 1, amounts)
        rows = full.sum(axis=1)
        held = np.flatnonzero(rows)
        return rows[held], len(held), full[held], codes[:0]
    values, value, sizes = distinct_values(codes)
    if len(sizes) * amounts > JOINT:
        return sizes, len(values), None, value
    joint = np.bincount(value * amounts + inverse, minlength=len(sizes) * amounts)
    return sizes, len(values), joint.reshape(len(sizes), amounts), value


def _observed(joint: np.ndarray | None, value: np.ndarray, inverse: np.ndarray, bins: np.ndarray,
              cls: np.ndarray, k: int, kinds: int) -> np.ndarray:
    """The k x kinds table of each row's group (`bins` of its code) by its amount's class (`cls`): the
    codes x amounts table's cells summed by group and class, or without one each row's group and class
    looked up (`value`, `inverse`) and counted."""
    if joint is None:
        return np.bincount(bins[value] * kinds + cls[inverse], minlength=k * kinds).reshape(k, kinds)
    observed = np.zeros((k, kinds), dtype=np.int64)
    rows, amounts = joint.shape
    np.add.at(observed, (np.repeat(bins, amounts), np.tile(cls, rows)), joint.ravel())
    return observed


def loser_finding(name: str, codes: np.ndarray, amount: np.ndarray, what: str, rows: str,
                  counted: tuple[np.ndarray, np.ndarray] | None = None, *,
                  each: bool = False) -> Finding | None:
    """The table of the losers' feature values (`codes`, grouped in code order; with `each`, each value a
    group of its own however few rows hold it: 1l's poker hands) by the amount each is tested against
    (top-coded classes; `counted`, distinct_values' inverse and counts of `amount` if made already); None
    when no row is tested, fewer than two groups remain or the top-coding leaves
    one class (as when every amount is one)."""
    nxt = amount
    n = len(nxt)
    if not n:
        return None
    inverse, counts = distinct_values(nxt)[1:] if counted is None else counted
    sizes, distinct, joint, value = _by_code(codes, inverse, len(counts))  # in code order
    bins = np.arange(len(sizes)) if each else groups(sizes, n / GROUPS)
    k = int(bins.max()) + 1
    if k < 2:
        return None
    size = np.zeros(k, dtype=np.int64)
    np.add.at(size, bins, sizes)  # each group's rows
    least = math.ceil(MIN_EXPECTED * n / int(size.min()))
    cls = top_coded_classes(counts, least)
    kinds = int(cls.max()) + 1
    if kinds < 2:
        return None
    observed = _observed(joint, value, inverse, bins, cls, k, kinds)
    totals = np.bincount(cls, weights=counts, minlength=kinds)
    expected = size[:, None] * totals[None, :] / n
    x2 = float(((observed - expected) ** 2 / expected).sum())
    df = (k - 1) * (kinds - 1)
    grouped = f" ({distinct} values in code order)" if k < distinct else ""
    method = (f"chi-square test of independence, {k} groups of values{grouped} x {kinds} classes of the "
              f"{what}, top-coded to classes of at least {least:,} tickets")
    return Finding(name, method, f"X2 = {x2:.1f}, df = {df:,}; {n:,} {rows}",
                   float(min(1.0, chi2_sf(x2, df))))
