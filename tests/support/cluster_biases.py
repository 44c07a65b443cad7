"""An insider's gathering of prizes into few books (step 8's "...: in fewest books", audit/stats/numbers.py;
docs/statistics.md 1c): the tickets paying a prize of at least `at_least` are moved, `per` to a book, into
books chosen with the insider's coin, each swapped with a lower winner of the book it joins, so every book
keeps its winners and the prizes stay spread over print order. A confederate handed those books (by a
number no test can read, section 6) collects the prizes at once; a player who sees one claimed from a
book buys the rest of it. The ticket ids that follow from the new order are the caller's to recompute."""

from __future__ import annotations

import numpy as np
import polars as pl


def prizes_gathered(table: pl.DataFrame, per_book: int, at_least: int, per: int,
                    rng: np.random.Generator) -> pl.DataFrame:
    """The tickets paying `at_least` or more, `per` to a book: the books are some of those already holding
    one (chosen by `rng`), and each ticket moved in takes the place of a lower winner there."""
    prize = table["prize_cents"].to_numpy()
    order = np.arange(table.height)
    rows = np.flatnonzero(prize >= at_least)
    books = rng.permutation(np.unique(rows // per_book))[: -(-len(rows) // per)]
    chosen = set(books.tolist())
    movers = [int(r) for r in rows if r // per_book not in chosen]
    for b in books:
        book = range(b * per_book, (b + 1) * per_book)
        have = int((prize[book.start:book.stop] >= at_least).sum())
        lower = [q for q in rng.permutation(book) if 0 < prize[q] < at_least]
        while have < per and movers and lower:
            a, q = movers.pop(), lower.pop()
            order[a], order[q] = order[q], order[a]
            have += 1
    return table[order]
