"""An insider's tell on the ticket before a winner (step 8's "against the next ticket's prize",
audit/stats/next_ticket.py; docs/statistics.md 1j): the losers' layouts are exchanged among the losers so
that the losers just before the winners of some prize amounts show a chosen feature (a spot's symbol, a
first reveal that is a loss) as often as there are such losers. A clerk or a retailer who sees such a
loser scratched (or a buyer shown an eInstant share's play) buys the next ticket. No prize moves and every
layout is still one the losers' tier was drawn from: the losers' layouts as a multiset, so every test of
a layout against its own ticket's win, is unchanged."""

from __future__ import annotations

import numpy as np
import polars as pl

STRUCTURE = ("position", "ticket", "book", "ticket_no", "serial", "barcode", "tier", "prize_cents")


def layout_columns(table: pl.DataFrame) -> list[str]:
    """Every column but the ticket's identity and its prize: what a layout holds (and its salt)."""
    return [c for c in table.columns if c not in STRUCTURE]


def tell_before(table: pl.DataFrame, tell: np.ndarray, amounts: tuple[int, ...] | None, most: int | None,
                rng: np.random.Generator) -> pl.DataFrame:
    """The table with the layouts of its losers exchanged so that up to `most` (all, None) of the losers
    just before a ticket paying one of `amounts` (any winner, None) show the `tell` (a mask over the rows,
    true on the losers that show it), each swapped with a loser showing it from elsewhere."""
    prize = table["prize_cents"].to_numpy()
    lose = prize == 0
    following = np.zeros(len(prize), dtype=bool)
    following[:-1] = prize[1:] > 0 if amounts is None else np.isin(prize[1:], amounts)
    target = lose & following
    want = rng.permutation(np.flatnonzero(target & ~tell))  # before a winner, no tell yet
    spare = rng.permutation(np.flatnonzero(lose & tell & ~target))  # the tell, before no such winner
    k = min(len(want), len(spare)) if most is None else min(len(want), len(spare), most)
    order = np.arange(len(prize))
    order[want[:k]], order[spare[:k]] = spare[:k], want[:k]
    moved = table[order]
    return table.with_columns(moved[c] for c in layout_columns(table))


def tell_in_books(table: pl.DataFrame, tell: np.ndarray, per_book: int, amounts: tuple[int, ...],
                  rng: np.random.Generator) -> pl.DataFrame:
    """The table with the layouts of its losers exchanged so that the first loser (in print order) of every
    book holding a ticket paying one of `amounts` shows the `tell`, each swapped with a loser showing it
    from elsewhere: a clerk who sees a book's first loser scratched keeps the rest of the book."""
    prize = table["prize_cents"].to_numpy()
    lose = prize == 0
    books = len(prize) // per_book
    held = np.isin(prize[: books * per_book], amounts).reshape(books, per_book).any(axis=1)
    losing = lose[: books * per_book].reshape(books, per_book)
    first = (np.arange(books) * per_book + losing.argmax(axis=1))[held & losing.any(axis=1)]
    target = np.zeros(len(prize), dtype=bool)
    target[first] = True
    want = rng.permutation(np.flatnonzero(target & ~tell))
    spare = rng.permutation(np.flatnonzero(lose & tell & ~target))
    k = min(len(want), len(spare))
    order = np.arange(len(prize))
    order[want[:k]], order[spare[:k]] = spare[:k], want[:k]
    moved = table[order]
    return table.with_columns(moved[c] for c in layout_columns(table))
