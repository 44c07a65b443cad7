"""`withdrawn` (poolgen/backoffice/book_reports.py): prizes in returned and stolen books, per level. A books
ledger serves the runs of one order per game number (docs/back-office.md, section 8), so one ledger may
hold two games' books, and only the run's own game's books are read against its pool files. The run is
the conftest's `office` (a small Happy Holidays order)."""

from __future__ import annotations

from collections import Counter

import polars as pl

from poolgen.backoffice import owned
from poolgen.backoffice.book_reports import withdrawn
from poolgen.backoffice.books import BOOKS, PRINTED, BooksLedger, Move, now_text
from poolgen.backoffice.vouched import open_signed


def _books_with_prizes(office, n: int) -> list[str]:
    """The first `n` books (GGG-BBBBBBB) of the run holding a prize, in ticket order."""
    books = office["rows"].filter(pl.col("prize_cents") > 0)["ticket"].str.slice(0, 11).unique(
        maintain_order=True)
    assert books.len() >= n
    return books.head(n).to_list()


def test_withdrawn_reads_only_the_run_games_books_of_a_ledger_holding_two_games(office, tmp_path):
    """Book `stolen` of the run's game is stolen; book `other` of another game, whose number is that of a
    book of the run holding prizes, is returned. Only the stolen book's prizes are out of reach: read by
    its number alone, the other game's book made the run's book of that number returned too."""
    run = open_signed(office["folder"], office["public"], "the test")
    stolen, same_number = _books_with_prizes(office, 2)
    game = stolen[:3]
    other = ("358" if game != "358" else "465") + same_number[3:]
    ledger = BooksLedger(tmp_path / "books.sqlite")
    try:
        ledger.move(run, "stolen", [stolen], "ann", "R1")
        with owned.recorded(ledger.db, ledger.path, BOOKS):  # the ledger's other game, as its own run records
            ledger._insert("another-game", Move(0, now_text(None), other, PRINTED, "returned", "ann", "R2"))
    finally:
        ledger.close()
    rows = office["rows"].filter(pl.col("ticket").str.starts_with(stolen + "-") & (pl.col("prize_cents") > 0))
    want = Counter((int(cents), tier == "free")
                   for tier, cents in rows.select("tier", "prize_cents").iter_rows())
    assert sum(want.values()) == rows.height > 0
    got = withdrawn(run, tmp_path / "books.sqlite", [])
    assert got == {level: (0, n) for level, n in want.items()}
