"""`poolgen sales upgrade`: a sales ledger of version 3 or 4 converted into a NEW ledger of version 5
(docs/back-office.md, section 5, "Converting a ledger of version 3 or 4").

The old ledger is read only (opened read-only, never rewritten), and converted only if it reconciles
with the run (its chains whole, every share, void and payment as `sales reconcile` checks them). The
new ledger holds the same rows: its pools and payments (their chains) as they were; a version 4
ledger's sales and voids with their chains as they were, a version 3 ledger's sales chained in
sale-number order and each voided sale's void a `voids` row chained in the order of its time (then sale
number); each closed pool's closing a `closings` row chained in the order of its time (then run id and
pool); a version 4 ledger's record of its own conversion from version 3 carried as conversion no. 1; and
this conversion's `conversions` row, chained after it (when, from which version and which file's
SHA-256, and the last sale, void, closing and payment numbers converted: rows up to those numbers were
chained at the conversion, not as they were written, if the old ledger did not chain them). The new
file is made 0600 under a temporary name beside NEW and renamed to it (never over a file,
owned.make): an interrupt leaves no NEW.
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from poolgen.backoffice import owned
from poolgen.backoffice.chain import GENESIS, link
from poolgen.backoffice.errors import BackOfficeError
from poolgen.backoffice.sales import SalesLedger, now_text
from poolgen.backoffice.sales_schema import CHAINED, SALES
from poolgen.backoffice.share_reports import reconcile_sales
from poolgen.backoffice.vouched import signed
from poolgen.files.read import file_sha256

_V3_SALES = ("run_id, pool, serial, sale_no, at, channel, player, voided_at, void_reason, claimed_at, "
             "prize_cents")
Row = tuple[Any, ...]
_PAID = "pay_no, run_id, pool, serial, at, prize_cents, chain"
_V4_CONVERSION = "at, from_version, from_sha256, last_sale_no, last_void_no, last_pay_no"


@dataclass
class Upgraded:
    sha256: str
    at: str
    version: int
    sales: int
    voids: int
    closings: int
    payments: int
    heads: dict[str, str] = field(default_factory=dict)



def _settled(old: Path) -> str:
    """The SHA-256 of OLD's bytes, refused while SQLite's -wal file beside it holds changes not in them."""
    wal = Path(f"{os.path.abspath(old)}-wal")
    if wal.exists() and wal.stat().st_size > 0:
        raise BackOfficeError(f"{old}: SQLite's {wal.name} file beside it holds changes not yet in it; open "
                              "it with the writer that made them (or sqlite3) to merge them, then convert")
    return file_sha256(old)


@dataclass
class _Rows:
    """The old ledger's rows, typed: pools, sales (by sale number; a version 4 ledger's with its chain),
    voids (version 4), payments, and a version 4 ledger's own conversion rows."""

    pools: list[Row]
    sales: list[Row]
    voids: list[Row]
    paid: list[Row]
    conversions: list[Row]


def _read(old: Path, book: SalesLedger) -> _Rows:
    db = book.db
    pools = [owned.typed(r, "run_id, pool, shares, price_cents, next_serial, closed_at", "ttiiiT")
             for r in db.execute("SELECT * FROM pools ORDER BY run_id, pool")]
    cols, kinds = (f"{_V3_SALES}, chain", "ttiitttTTTIt") if book.chained else (_V3_SALES, "ttiitttTTTI")
    sales = [owned.typed(r, cols, kinds) for r in db.execute(f"SELECT {cols} FROM sales ORDER BY sale_no")]
    voids = [owned.typed(r, "void_no, run_id, pool, serial, at, reason, chain", "ittittt")
             for r in db.execute("SELECT * FROM voids ORDER BY void_no")] if book.chained else []
    paid = [owned.typed(r, _PAID, "ittitit")
            for r in db.execute(f"SELECT {_PAID} FROM payments ORDER BY pay_no")]
    conversions = [owned.typed(r, _V4_CONVERSION, "titiii") for r in db.execute(
        f"SELECT {_V4_CONVERSION} FROM conversions")] if _has_conversions(db) else []
    for s in sales:
        if s[7] is not None and s[8] is None:
            raise BackOfficeError(f"{old}: sale no. {s[3]}: voided at {s[7]} with no reason recorded; not "
                                  "converting it")
    return _Rows(pools, sales, voids, paid, conversions)


def _other_runs(book: SalesLedger) -> dict[str, int]:
    """The rows (pools, sales, voids, payments) under a run id other than the book's run's, by run id."""
    out: dict[str, int] = {}
    for table in ("pools", "sales", *(("voids",) if book.chained else ()), "payments"):
        for run_id, n in book.db.execute(f"SELECT run_id, COUNT(*) FROM {table} WHERE run_id IS NOT ? "
                                         "GROUP BY run_id", (book.run.run_id,)):
            out[str(run_id)] = out.get(str(run_id), 0) + int(n)
    return out


def _has_conversions(db: sqlite3.Connection) -> bool:
    return db.execute("SELECT 1 FROM sqlite_master WHERE name = 'conversions'").fetchone() is not None


def upgrade(old: Path, new: Path, book: SalesLedger, now: datetime | None = None) -> Upgraded:
    """Convert `book` (the ledger at `old`, of version 3 or 4, opened read-only under a signed run) into
    a new ledger at `new`; its heads recomputed from the new file."""
    signed(book.run, "the sales ledger converts a ledger")
    if book.version == SALES.version:
        raise BackOfficeError(f"{old}: a sales ledger of version {book.version} already; nothing to convert")
    digest = _settled(old)
    rec = reconcile_sales(book.run, book, {})
    if not rec.ok:
        first = rec.problems[0]  # each names the ledger, or the pool or share within it
        first = first if first.startswith(f"{old}: ") else f"{old}: {first}"
        raise BackOfficeError(f"{first}; not converting a ledger that does not reconcile "
                              f"({len(rec.problems):,} problem(s): `poolgen sales reconcile` names each)")
    try:
        others = _other_runs(book)
        rows = _read(old, book)
    except owned.FAILURES as exc:
        raise owned.failure(old, SALES, exc) from None
    if others:  # reconciled for the run given alone: another run's rows would be converted unchecked
        ids = ", ".join(sorted(others))
        raise BackOfficeError(f"{old}: {sum(others.values()):,} row(s) under run(s) {ids}, "
                              f"not run {book.run.run_id}: the conversion reconciles the one run it is given "
                              "(--run) and converts no row it has not checked; not converting it")
    if _settled(old) != digest:
        raise BackOfficeError(f"{old}: changed while it was being converted (another program writes it); "
                              "nothing written: try again once it is left alone")
    there = f"{new}: a file is there; the conversion writes a new ledger, never over a file"
    if owned.check_place(new, SALES):
        raise BackOfficeError(there)
    done = Upgraded(digest, now_text(now), book.version, len(rows.sales), 0, 0, len(rows.paid))
    if not owned.make(new, SALES, lambda db: _write(db, rows, done), pause="sales-upgrade-written",
                      keep=True):
        raise BackOfficeError(there)
    made = SalesLedger(new, book.run, create=False, read_only=True)
    try:
        done.heads = made.chains({})[0]
    finally:
        made.close()
    return done


def _chained(db: sqlite3.Connection, table: str, rows: list[Row]) -> int:
    """`rows` (each the fields of `table`'s chain, its number first) inserted with their chains, linked
    from the table's last row; the last number."""
    last = db.execute(f"SELECT chain FROM {table} ORDER BY {CHAINED[table][0]} DESC LIMIT 1").fetchone()
    chain = GENESIS if last is None else bytes.fromhex(last[0])
    marks = ", ".join("?" * (len(CHAINED[table][1].split(", ")) + 1))
    for row in rows:
        chain = link(chain, row)
        db.execute(f"INSERT INTO {table} VALUES ({marks})", (*row, chain.hex()))
    return int(rows[-1][0]) if rows else 0


def _write(db: sqlite3.Connection, rows: _Rows, done: Upgraded) -> None:
    """The new ledger's rows, in the caller's transaction (owned.make)."""
    db.executemany("INSERT INTO pools VALUES (?, ?, ?, ?, ?, ?)", rows.pools)
    if done.version == 4:  # chained as written: carried with their chains
        db.executemany("INSERT INTO sales VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows.sales)
        db.executemany("INSERT INTO voids VALUES (?, ?, ?, ?, ?, ?, ?)", rows.voids)
        void_no = rows.voids[-1][0] if rows.voids else 0
    else:
        chain = GENESIS
        for s in rows.sales:  # run_id, pool, serial, sale_no, at, channel, player, ...
            chain = link(chain, (s[3], s[0], s[1], s[2], s[4], s[5], s[6]))
            db.execute("INSERT INTO sales VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", (*s, chain.hex()))
        voided = sorted((s for s in rows.sales if s[7] is not None), key=lambda s: (s[7], s[3]))
        void_no = _chained(db, "voids", [(n, s[0], s[1], s[2], s[7], s[8]) for n, s in enumerate(voided, 1)])
    closed = sorted((p for p in rows.pools if p[5] is not None), key=lambda p: (p[5], p[0], p[1]))
    close_no = _chained(db, "closings", [(n, p[0], p[1], p[5]) for n, p in enumerate(closed, 1)])
    db.executemany("INSERT INTO payments VALUES (?, ?, ?, ?, ?, ?, ?)", rows.paid)
    done.voids, done.closings = void_no, close_no
    earlier = [(n, c[0], c[1], c[2], c[3], c[4], 0, c[5]) for n, c in enumerate(rows.conversions, 1)]
    _chained(db, "conversions", [*earlier, (len(earlier) + 1, done.at, done.version, done.sha256,
                                            rows.sales[-1][3] if rows.sales else 0, void_no, close_no,
                                            rows.paid[-1][0] if rows.paid else 0)])


def conversion(book: SalesLedger) -> str | None:
    """What a reader of a converted ledger is told (which of its rows were chained at a conversion, not
    as they were written), or None."""
    try:
        if not _has_conversions(book.db):
            return None
        if book.version == SALES.version:
            cols = "at, from_version, from_sha256, last_sale_no, last_void_no, last_close_no"
            rows = [owned.typed(r, cols, "titiii") for r in book.db.execute(
                f"SELECT {cols} FROM conversions ORDER BY conv_no")]
        else:
            rows = [(*owned.typed(r, _V4_CONVERSION, "titiii")[:5], 0) for r in book.db.execute(
                f"SELECT {_V4_CONVERSION} FROM conversions")]
    except owned.FAILURES as exc:  # a value edited to another kind, a damaged page: one line
        raise owned.failure(book.path, SALES, exc) from None
    if not rows and book.version != SALES.version:
        return (f"note: {book.path}: a ledger converted from version 3 whose conversions table holds no row "
                "(its record removed by hand): which of its rows were chained at the conversion is unknown")
    return "; ".join(f"note: {book.path}: converted at {r[0]} from a sales ledger of version {r[1]} (SHA-256 "
                     f"{r[2]}): {chained_then(r[1], r[3], r[4], r[5])}" for r in rows) or None


def chained_then(version: int, sale_no: int, void_no: int, close_no: int) -> str:
    """The rows a conversion from `version` chained (the chains the old ledger lacked)."""
    parts = [f"sales 1 to {sale_no}", f"voids 1 to {void_no}"] if version == 3 else []
    parts += [f"closings 1 to {close_no}"] if close_no else []
    if not parts:
        return "no row was chained at the conversion (the ledger had closed no pool)"
    listed = ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1]
    return f"{listed} were chained at the conversion, not as they were written"
