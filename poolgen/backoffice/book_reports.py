"""Prizes out of the public's reach (docs/back-office.md, section 8, "Reports with a books ledger"): per
prize level, the prizes of tickets not paid whose book is returned or stolen, read from the run's pool
files (each checked against the manifest's SHA-256 first). Counts per level only: no book, ticket or
pool leaves this module."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import polars as pl

from poolgen.backoffice.books import open_checked, states_of
from poolgen.backoffice.claims import Payment
from poolgen.backoffice.errors import BackOfficeError
from poolgen.backoffice.reports import Withdrawn
from poolgen.backoffice.sales import checked_pool_file
from poolgen.backoffice.vouched import Run
from poolgen.errors import RunError

OUT = ("returned", "stolen")


def withdrawn(run: Run, books: Path, payments: list[Payment]) -> Withdrawn:
    """Level (cents, free ticket) -> (prizes in returned books, in stolen books), tickets paid left out
    (a payment made while its book was active stands, counted paid)."""
    ledger = open_checked(books)
    try:
        rows = ledger.rows()
    finally:
        ledger.close()
    game = f"{run.game:03d}-" if run.game is not None else ""
    out_books = {int(b[4:]): r[5] for b, r in states_of(rows).items()
                 if r[5] in OUT and b.startswith(game) and b[4:].isdigit()}
    paid = {f"{p.barcode[:3]}-{p.barcode[3:10]}-{p.barcode[10:13]}" for p in payments}
    if not out_books:
        return {}
    wanted = (pl.col("prize_cents") > 0) & pl.col("book").is_in(list(out_books))
    counts: Counter[tuple[int, bool, str]] = Counter()
    for entry in run.folder.parsed.pools:
        checked_pool_file(run, entry.id)
        try:
            prizes = run.folder.collect(
                entry.id, lambda lf: lf.select("ticket", "book", "tier", "prize_cents").filter(wanted))
        except RunError as exc:
            raise BackOfficeError(str(exc)) from None
        for ticket, book, tier, cents in prizes.iter_rows():
            if ticket not in paid:
                counts[(int(cents), tier in run.free_tiers, out_books[int(book)])] += 1
    levels = {(c, f) for c, f, _ in counts}
    return {lv: (counts[(*lv, "returned")], counts[(*lv, "stolen")]) for lv in levels}
