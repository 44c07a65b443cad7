"""An insider's tells by ticket number within the book (step 8's "prize amounts by ticket number within
the book", audit/stats/books.py; docs/statistics.md section 1), or by an eInstant's serial ("prize amounts
by serial mod k", `winners_to_serials`): the ticket number is printed outside the
latex, and a clerk who sells each book in order, or a player who buys the tickets ending in 7, picks
them. Tickets are only exchanged within their own book, so every book keeps its winners and prize value,
and the tenths of the ticket numbers keep their share (7, 17, 27 and the even numbers are spread
over every tenth): the tests by tenth, per book and of runs see an honest pool. The ticket ids that
follow from the new order are the caller's to recompute (identity_columns)."""

from __future__ import annotations

import numpy as np
import polars as pl


def level_at_ticket_numbers(table: pl.DataFrame, per_book: int, cents: int, step: int, first: int,
                            rng: np.random.Generator) -> pl.DataFrame:
    """Every ticket paying exactly `cents` moved to a ticket number first, first + step, ... of its own
    book (swapped with a loser there, chosen with the insider's coin `rng`), where one is left: step 10
    and first 7 are the numbers ending in 7; step 3 in books of 30 puts one in every tenth of the book."""
    prize = table["prize_cents"].to_numpy()
    order = np.arange(table.height)
    for row in np.flatnonzero((prize == cents) & (order % per_book % step != first)):
        start = row - row % per_book
        there = [q for q in range(start + first, start + per_book, step) if prize[order[q]] == 0]
        if there:
            q = there[int(rng.integers(len(there)))]
            order[row], order[q] = order[q], order[row]
    return table[order]


def winners_to_even_ticket_numbers(table: pl.DataFrame, per_book: int, share: float,
                                   rng: np.random.Generator) -> pl.DataFrame:
    """In every book, pairs of a winner at an odd ticket number and a loser at an even one, each pair
    swapped with probability `share` (the insider's coin, not the pool's): even tickets win more."""
    prize = table["prize_cents"].to_numpy()
    order = np.arange(table.height)
    even = order % per_book % 2 == 0
    for start in range(0, table.height, per_book):
        book = slice(start, start + per_book)
        odd_winners = rng.permutation(np.flatnonzero((prize[book] > 0) & ~even[book]) + start)
        even_losers = rng.permutation(np.flatnonzero((prize[book] == 0) & even[book]) + start)
        for a, b in zip(odd_winners, even_losers, strict=False):
            if rng.random() < share:
                order[a], order[b] = b, a
    return table[order]


def winners_to_serials(table: pl.DataFrame, period: int, share: float,
                       rng: np.random.Generator) -> pl.DataFrame:
    """An eInstant pool (sold in serial order, serial = position + 1, which the buyer is told): pairs of a
    winner at a position not divisible by `period` and a loser at one that is, each swapped with
    probability `share`: a buyer who has counted the serials buys when the next one ends in 1 (period 10)."""
    prize = table["prize_cents"].to_numpy()
    order = np.arange(table.height)
    winners = rng.permutation(np.flatnonzero((prize > 0) & (order % period != 0)))
    losers = rng.permutation(np.flatnonzero((prize == 0) & (order % period == 0)))
    pairs = min(len(winners), len(losers))
    take = rng.random(pairs) < share
    a, b = winners[:pairs][take], losers[:pairs][take]
    order[a], order[b] = b, a.copy()
    return table[order]
