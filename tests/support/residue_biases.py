"""An insider's tells by a pattern of the printed book and ticket numbers together (step 8's tests by book
number mod k, ticket number minus book number mod 10 and the barcode's check digits, audit/stats/
residues.py; docs/statistics.md 1h): a level kept to the tickets whose ticket number ends in its book
number's last digit, or whose barcode's check digits end in 7 (moved within their own book, so every book
keeps its winners, value and order of numbers), or moved into the even books (each ticket swapped with a
lower winner there, so every book keeps its winners). A clerk reads both numbers off the outside of the
book; nothing under the latex is needed. The book numbers stay with their slots (the seed's): the caller
recomputes the other identity columns from the new order (reseal.reseal_insider_pool)."""

from __future__ import annotations

import numpy as np
import polars as pl

from poolgen.deliverables.identity import barcode_numbers


def ticket_ends_in_book_digit(table: pl.DataFrame, per_book: int) -> np.ndarray:
    """The rows whose ticket number (position mod per_book) ends in its book number's last digit."""
    book = table["book"].to_numpy().astype(np.int64)
    return np.arange(table.height) % per_book % 10 == book % 10


def check_digits_end_in(table: pl.DataFrame, per_book: int, game: int, digit: int) -> np.ndarray:
    """The rows whose barcode number's two check digits end in `digit` (poolgen's barcode)."""
    book = table["book"].to_numpy().astype(np.int64)
    numbers = barcode_numbers(game, book, np.arange(table.height) % per_book)
    return np.asarray(numbers, dtype=np.int64) % 10 == digit


def level_at_rows_of_their_books(table: pl.DataFrame, per_book: int, cents: int, favoured: np.ndarray,
                                 rng: np.random.Generator) -> pl.DataFrame:
    """Every ticket paying exactly `cents` not at a `favoured` row moved to a favoured row of its own book
    holding a loser (chosen with the insider's coin `rng`), where one is left."""
    prize = table["prize_cents"].to_numpy()
    order = np.arange(table.height)
    for row in np.flatnonzero((prize == cents) & ~favoured):
        start = row - row % per_book
        book = slice(start, start + per_book)
        there = np.flatnonzero(favoured[book] & (prize[order[book]] == 0)) + start
        if len(there):
            q = int(there[int(rng.integers(len(there)))])
            order[row], order[q] = order[q], order[row]
    return table[order]


def level_into_books(table: pl.DataFrame, cents: int, chosen: np.ndarray, moved: int,
                     rng: np.random.Generator) -> pl.DataFrame:
    """`moved` tickets paying `cents` outside the `chosen` rows (the rows of the chosen books) each
    swapped with a lower winner inside them (both picked with the insider's coin `rng`): every book keeps
    its winners, the chosen books hold more of the level. Every slot keeps its book number."""
    prize = table["prize_cents"].to_numpy()
    order = np.arange(table.height)
    out = rng.permutation(np.flatnonzero((prize == cents) & ~chosen))[:moved]
    lower = rng.permutation(np.flatnonzero((prize > 0) & (prize < cents) & chosen))[:moved]
    assert len(out) == len(lower) == moved
    order[out], order[lower] = lower, out.copy()
    return table[order].with_columns(table["book"])
