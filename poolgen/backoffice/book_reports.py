"""Prizes out of the public's reach (docs/back-office.md, section 8, "Reports with a books ledger"): per
prize level, the prizes of tickets not paid whose book is returned or stolen, read from the run's pool
files (each checked against the manifest's SHA-256 first). Counts per level only: no book, ticket or
pool leaves this module."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import polars as pl

from poolgen.backoffice import books as ledger_of_books
from poolgen.backoffice.books import BooksLedger, Row, book_of_barcode, check, open_checked, states_of
from poolgen.backoffice.claims import Payment
from poolgen.backoffice.errors import BackOfficeError, shown
from poolgen.backoffice.orders import Order
from poolgen.backoffice.reports import Withdrawn, runs_of
from poolgen.backoffice.vouched import Run, checked_pool_file
from poolgen.deliverables.identity import barcode_fields
from poolgen.errors import RunError

OUT = ("returned", "stolen")


def withdrawn(what: Run | Order, books: Path, payments: list[Payment]) -> Withdrawn:
    """Level (cents, free ticket) -> (prizes in returned books, in stolen books), over every run of the
    order, tickets paid left out (a payment made while its book was active stands, counted paid)."""
    ledger = open_checked(books)
    try:
        rows = ledger.rows()
    finally:
        ledger.close()
    runs = runs_of(what)
    game = f"{runs[0].game:03d}-" if runs[0].game is not None else ""
    out_books = {int(b[len(game):]): r[5] for b, r in states_of(rows).items()
                 if r[5] in OUT and b.startswith(game) and b[len(game):].isdigit()}
    if not out_books:
        return {}
    paid = {"-".join(barcode_fields(p.barcode)[:3]) for p in payments}
    wanted = (pl.col("prize_cents") > 0) & pl.col("book").is_in(list(out_books))
    counts: Counter[tuple[int, bool, str]] = Counter()
    for run in runs:
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


def paid_out_of_play(books: Path, payments: list[tuple[Path, Payment]]) -> list[str]:
    """The reconciliation's problems a books ledger shows (docs/back-office.md, section 8): the ledger's
    own (its checks without a head), and each payment made while its ticket's book was not activated or
    settled (its state after its last move at or before the payment's time), as a desk without --books
    pays it."""
    ledger = BooksLedger(books, create=False, read_only=True)
    try:
        rows = ledger.rows()
    finally:
        ledger.close()
    out = check(ledger.path, rows, None)[1]
    moves: dict[str, list[Row]] = {}
    for r in rows:
        moves.setdefault(r[3], []).append(r)
    for path, p in payments:
        book = book_of_barcode(p.barcode)
        before = [r for r in moves.get(book, []) if r[1] <= p.at]
        state = before[-1][5] if before else ledger_of_books.PRINTED
        if state not in ledger_of_books.CLAIMABLE:
            why = f"move no. {before[-1][0]} at {before[-1][1]}" if before else "no move recorded before it"
            out.append(f"{path}: claim no. {p.claim_no} ({p.barcode}): paid at {p.at} while its book {book} "
                       f"was {state if state in ledger_of_books.STATES else shown(state)} ({why}): not a "
                       "claimable ticket")
    return out
