"""An insider's renumbering of a printed pool's books (step 8's book number tests, audit/stats/numbers.py;
docs/statistics.md 1c): the tickets stay where an honest shuffle put them, in print order, so every
position test sees an honest pool; only the printed book numbers are exchanged between the pool's
books (each still one of the order's numbers, no two books alike: step 3's bijection holds), so that
the books holding the top prizes carry numbers an accomplice can be told: the lowest of the pool, or
numbers ending in one digit. The ticket ids that follow from the numbers are the caller's to recompute
(bench/stats_power.py does, for a full verify)."""

from __future__ import annotations

import numpy as np
import polars as pl


def _renumbered(table: pl.DataFrame, per_book: int, numbers: np.ndarray) -> pl.DataFrame:
    """`table` with book b's rows numbered numbers[b]."""
    return table.with_columns(pl.Series("book", np.repeat(numbers, per_book), dtype=table["book"].dtype))


def _top_books(table: pl.DataFrame, per_book: int, at_least: int) -> np.ndarray:
    """The books holding a prize of `at_least` cents or more."""
    prize = table["prize_cents"].to_numpy()
    return np.unique(np.flatnonzero(prize >= at_least) // per_book)


def top_books_numbered_low(table: pl.DataFrame, per_book: int, at_least: int) -> pl.DataFrame:
    """The books holding a prize of `at_least` or more get the pool's lowest book numbers (swapped with
    the books that had them)."""
    numbers = table["book"].to_numpy()[::per_book].copy()
    top = _top_books(table, per_book, at_least)
    lowest = np.argsort(numbers, kind="stable")[: len(top)]
    give = [b for b in lowest if b not in set(top.tolist())]
    take = [b for b in top if b not in set(lowest.tolist())]
    numbers[give], numbers[take] = numbers[take], numbers[give].copy()
    return _renumbered(table, per_book, numbers)


def top_books_ending_in(table: pl.DataFrame, per_book: int, at_least: int, digit: int) -> pl.DataFrame:
    """As many books holding a prize of `at_least` or more as the pool has numbers ending in `digit` get
    those numbers (swapped with the books that had them)."""
    numbers = table["book"].to_numpy()[::per_book].copy()
    top = _top_books(table, per_book, at_least)
    ending = np.flatnonzero(numbers % 10 == digit)
    give = [b for b in ending if b not in set(top.tolist())]
    take = [b for b in top if numbers[b] % 10 != digit][: len(give)]
    give = give[: len(take)]
    numbers[give], numbers[take] = numbers[take], numbers[give].copy()
    return _renumbered(table, per_book, numbers)


def top_prizes_at_ticket_digit(table: pl.DataFrame, per_book: int, at_least: int, digit: int) -> pl.DataFrame:
    """Every prize of `at_least` or more moved to a ticket number ending in `digit` of its own book
    (swapped with a loser there; books and their winner counts unchanged): a clerk selling each book in
    order pulls tickets 7, 17, 27."""
    prize = table["prize_cents"].to_numpy()
    order = np.arange(table.height)
    number = order % per_book
    for row in np.flatnonzero((prize >= at_least) & (number % 10 != digit)):
        start = row - row % per_book
        there = [q for q in range(start, start + per_book)
                 if q % per_book % 10 == digit and prize[order[q]] == 0]
        if there:
            order[row], order[there[0]] = order[there[0]], order[row]
    return table[order]


def top_prizes_at_book_ends(table: pl.DataFrame, per_book: int, at_least: int) -> pl.DataFrame:
    """Every prize of `at_least` or more moved to the first or the last ticket of its own book (swapped
    with a loser there, the first tried first; books and their winner counts unchanged): both extremes
    of the ticket numbers are taken, so neither extreme's test sees it."""
    prize = table["prize_cents"].to_numpy()
    order = np.arange(table.height)
    for row in np.flatnonzero((prize >= at_least) & ~np.isin(order % per_book, (0, per_book - 1))):
        start = row - row % per_book
        there = [q for q in (start, start + per_book - 1) if prize[order[q]] == 0]
        if there:
            order[row], order[there[0]] = order[there[0]], order[row]
    return table[order]
