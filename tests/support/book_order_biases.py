"""An insider's books moved whole in print order so that what they hold follows their printed numbers
(step 8's tests by printed book number, audit/stats/book_order.py; docs/statistics.md 1f): each book slot
keeps the number the seed gives it, every book keeps its tickets in their order, and only which book sits
at which slot is the insider's. The numbers are a uniform permutation of the slots, so the books land
all over print order and no position test sees them; the book numbers now read like a price list to
whoever ships or buys books by number."""

from __future__ import annotations

import numpy as np
import polars as pl


def _moved(table: pl.DataFrame, per_book: int, chosen: np.ndarray, ranks: np.ndarray) -> pl.DataFrame:
    """`table` with the books `chosen` (in that order) moved to the slots whose book numbers have the
    ranks `ranks` (in that order), the other books keeping their print order over the other slots."""
    books = table.height // per_book
    rank_of_slot = np.empty(books, dtype=np.int64)
    rank_of_slot[np.argsort(table["book"].to_numpy()[::per_book], kind="stable")] = np.arange(books)
    slot_of_rank = np.argsort(rank_of_slot, kind="stable")
    at = np.full(books, -1, dtype=np.int64)  # at[slot] = the book put there
    at[slot_of_rank[ranks]] = chosen
    at[at < 0] = np.setdiff1d(np.arange(books), chosen)  # both ascending: print order kept
    rows = (at[:, None] * per_book + np.arange(per_book)).ravel()
    return table[rows].with_columns(table["book"])  # the numbers stay with their slots


def fewest_winners_numbered_last(table: pl.DataFrame, per_book: int, share: float) -> pl.DataFrame:
    """The `share` of books with the fewest winners moved to the slots with the pool's highest book
    numbers (fewest last): books shipped in the order of their numbers pay less at the end of the game."""
    books = table.height // per_book
    wins = (table["prize_cents"].to_numpy() > 0).reshape(books, per_book).sum(axis=1)
    k = int(books * share)
    chosen = np.argsort(wins, kind="stable")[:k]
    return _moved(table, per_book, chosen, np.arange(books - 1, books - 1 - k, -1))


def level_in_number_range(table: pl.DataFrame, per_book: int, amount: int, share: float,
                          start: float) -> pl.DataFrame:
    """The `share` of books holding the most tickets of `amount` cents moved to the slots whose book
    numbers are one range of ranks, from `start` (a share of the books) on: the range one retailer gets."""
    books = table.height // per_book
    held = (table["prize_cents"].to_numpy() == amount).reshape(books, per_book).sum(axis=1)
    k = int(books * share)
    chosen = np.argsort(-held, kind="stable")[:k]
    first = int(books * start)
    return _moved(table, per_book, chosen, np.arange(first, first + k))


def level_into_carton(table: pl.DataFrame, per_book: int, amount: int, moved: int, first: int,
                      books: int) -> pl.DataFrame:
    """`moved` tickets of `amount` cents from outside books first..first + books - 1 of print order (one
    carton) moved in, each swapped with a lower winner there, both spread evenly (over the pool, over the
    carton), so every book keeps its winners: a carton of richer books for one retailer."""
    prize = table["prize_cents"].to_numpy()
    order = np.arange(table.height)
    lo, hi = first * per_book, (first + books) * per_book
    rows = np.flatnonzero(prize == amount)
    outside = rows[(rows < lo) | (rows >= hi)]
    outside = outside[np.linspace(0, len(outside) - 1, moved).astype(np.int64)]  # spread over the pool
    lower = np.flatnonzero((prize > 0) & (prize < amount))
    inside = lower[(lower >= lo) & (lower < hi)]
    inside = inside[np.linspace(0, len(inside) - 1, moved).astype(np.int64)]  # spread over the carton
    for a, q in zip(outside, inside, strict=False):
        order[a], order[q] = order[q], order[a]
    return table[order]
