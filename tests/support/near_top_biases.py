"""An insider's prize level placed with the top prizes (step 8's "in the books of the top prizes" and
"beside a top prize", audit/stats/near_top.py; docs/statistics.md 1i). A top prize claimed marks its book:
a retailer who sees it claimed buys the rest of the book, a clerk selling the book in order sells the
next ticket to a friend. Each move keeps every book's winners: a ticket of the level moved from a book
holding no top prize takes the place of a lower winner, which goes where the level's ticket was; a
ticket moved within its own book only changes places there. The identity columns (book and ticket numbers,
barcodes) stay in print order: only what each place holds is the insider's."""

from __future__ import annotations

import numpy as np
import polars as pl

IDENTITY = ("position", "ticket", "book", "ticket_no", "serial", "barcode")


def _reordered(table: pl.DataFrame, order: np.ndarray) -> pl.DataFrame:
    return table[order].with_columns(table[c] for c in IDENTITY if c in table.columns)


def _top(prize: np.ndarray, per_book: int, at_least: int) -> tuple[np.ndarray, np.ndarray]:
    top = prize >= at_least
    books = top.reshape(-1, per_book).any(axis=1)
    return top, books


def level_into_top_books(table: pl.DataFrame, per_book: int, at_least: int, amount: int, moved: int,
                         rng: np.random.Generator) -> pl.DataFrame:
    """`moved` tickets paying `amount` cents, from books holding no prize of `at_least` or more, into books
    holding one (chosen by `rng`, one ticket a book while there are books), each swapped with a lower
    winner of the book it joins."""
    prize = table["prize_cents"].to_numpy()
    order = np.arange(table.height)
    top, books = _top(prize, per_book, at_least)
    movers = [int(r) for r in rng.permutation(np.flatnonzero(prize == amount)) if not books[r // per_book]]
    done = 0
    while done < moved and movers:
        before = done
        for b in rng.permutation(np.flatnonzero(books)):
            lower = [q for q in range(b * per_book, (b + 1) * per_book) if 0 < prize[order[q]] < amount]
            if done == moved or not movers or not lower:
                continue
            a, q = movers.pop(), int(rng.choice(lower))
            order[a], order[q] = order[q], order[a]
            done += 1
        if done == before:
            break
    assert done == moved, f"only {done} of {moved} moved"
    return _reordered(table, order)


def level_beside_top(table: pl.DataFrame, per_book: int, at_least: int, amount: int, moved: int,
                     rng: np.random.Generator) -> pl.DataFrame:
    """`moved` tickets paying `amount` cents put next to a prize of `at_least` or more in its book (the
    ticket after it, else before it): one of the book's own if it holds one elsewhere (the two swap places),
    else one from a book holding no top prize, where the place next to the top prize holds a lower winner
    (the two swap)."""
    prize = table["prize_cents"].to_numpy()
    order = np.arange(table.height)
    top, books = _top(prize, per_book, at_least)
    outside = [int(r) for r in rng.permutation(np.flatnonzero(prize == amount)) if not books[r // per_book]]
    done = 0
    for t in rng.permutation(np.flatnonzero(top)):
        if done == moved:
            break
        b = t // per_book
        places = [q for q in (t + 1, t - 1) if q // per_book == b and not top[q]]
        taken = {q for q in places if prize[order[q]] == amount}
        own = [q for q in range(b * per_book, (b + 1) * per_book)
               if prize[order[q]] == amount and q not in places and not _beside(top, q, per_book)]
        for q in places:
            if q in taken:
                continue
            if own:
                a = own.pop()
            elif outside and 0 < prize[order[q]] < amount:
                a = outside.pop()
            else:
                continue
            order[a], order[q] = order[q], order[a]
            done += 1
            break
    assert done == moved, f"only {done} of {moved} moved"
    return _reordered(table, order)


def _beside(top: np.ndarray, q: int, per_book: int) -> bool:
    b = q // per_book
    return any(0 <= r < len(top) and r // per_book == b and top[r] for r in (q - 1, q + 1))
