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
from dataclasses import dataclass

import numpy as np

from audit.stats.books import top_coded_classes
from audit.stats.laws import chi2_sf
from audit.stats.tests import MIN_EXPECTED, Finding, distinct_values

__all__ = ["GROUPS", "NextPrizes", "book_finding", "book_name", "groups", "loser_finding", "next_prizes",
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


def next_ticket_name(feature: str, kind: str) -> str:
    """The test's name from its feature's (section 2's `... against win/lose`)."""
    what = feature.removesuffix(SUFFIX).removesuffix(",")
    order = "print order" if kind == "printed" else "serial order"
    return f"{what}, on a losing ticket, against the next ticket's prize ({order})"


@dataclass(frozen=True)
class NextPrizes:
    """What 1j's test of every feature of a pool shares, made once (`next_prizes`): the losers that have a
    next ticket (`rows`, ascending), the pool's distinct amounts after its first ticket (`width` of them,
    ascending), each of those losers' next ticket's index among them (`index`) and their counts over those
    losers (`counts`, one an index)."""

    rows: np.ndarray
    index: np.ndarray
    width: int
    counts: np.ndarray


def next_prizes(prize: np.ndarray) -> NextPrizes:
    """The pool's (`prize`, in print or serial order) NextPrizes."""
    amounts, index, _ = distinct_values(prize[1:])
    rows = np.flatnonzero(prize[:-1] == 0)
    at = index[rows]
    return NextPrizes(rows, at, len(amounts), np.bincount(at, minlength=len(amounts)))


def next_ticket_finding(name: str, after: NextPrizes, codes: np.ndarray) -> Finding | None:
    """The test of one feature (`codes`, one a row, below 0: no code) over a pool's losers and their next
    tickets (`after`, from its prize in print or serial order). None when no loser with a code has a next
    ticket, when fewer than two groups of values remain or when the top-coding leaves one class (as when the
    next tickets all lose)."""
    head = codes[after.rows]
    coded = head >= 0
    if coded.all():  # every loser's feature holds a code: the amounts' counts are the pool's, made once
        return loser_finding(name, head, after.index, after.width, "next ticket's amount",
                             "losers with a next ticket", after.counts)
    return loser_finding(name, head[coded], after.index[coded], after.width, "next ticket's amount",
                         "losers with a next ticket")


def book_name(feature: str) -> str:
    """1k's name of a feature (section 2's `... against win/lose`)."""
    return f"{feature.removesuffix(SUFFIX).removesuffix(',')}, on the first and last loser of each book, " \
           "against the book's highest prize"


def book_finding(name: str, prize: np.ndarray, codes: np.ndarray, per_book: int) -> Finding | None:
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
    amounts, index, _ = distinct_values(top[rows // per_book])
    return loser_finding(name, codes[rows], index, len(amounts), "book's highest prize",
                         "first and last losers of the books")


def loser_finding(name: str, codes: np.ndarray, index: np.ndarray, width: int, what: str, rows: str,
                  counts: np.ndarray | None = None) -> Finding | None:
    """The table of the losers' feature values (`codes`, grouped in code order) by the amount each is
    tested against (`index`: its amount's index among `width` ascending amounts, top-coded classes of those
    the rows hold; `counts`: each index's rows, when known); None when no row is tested, fewer than two
    groups remain or the top-coding leaves one class (as when every amount is one)."""
    n = len(index)
    if not n:
        return None
    values, value, sizes = distinct_values(codes)  # in code order
    bins = groups(sizes, n / GROUPS)
    k = int(bins.max()) + 1
    if k < 2:
        return None
    size = np.zeros(k, dtype=np.int64)
    np.add.at(size, bins, sizes)  # each group's rows
    least = math.ceil(MIN_EXPECTED * n / int(size.min()))
    held = np.bincount(index, minlength=width) if counts is None else counts
    present = np.flatnonzero(held)  # the amounts the rows hold, ascending
    cls = top_coded_classes(held[present], least)
    kinds = int(cls.max()) + 1
    if kinds < 2:
        return None
    cell = np.zeros(width, dtype=np.intp)
    cell[present] = cls
    row = (bins * kinds)[value]
    row += cell[index]  # group x kinds + class
    observed = np.bincount(row, minlength=k * kinds).reshape(k, kinds)
    totals = np.bincount(cls, weights=held[present], minlength=kinds)
    expected = size[:, None] * totals[None, :] / n
    x2 = float(((observed - expected) ** 2 / expected).sum())
    df = (k - 1) * (kinds - 1)
    grouped = f" ({len(values)} values in code order)" if k < len(values) else ""
    method = (f"chi-square test of independence, {k} groups of values{grouped} x {kinds} classes of the "
              f"{what}, top-coded to classes of at least {least:,} tickets")
    return Finding(name, method, f"X2 = {x2:.1f}, df = {df:,}; {n:,} {rows}",
                   float(min(1.0, chi2_sf(x2, df))))
