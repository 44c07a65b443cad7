"""`poolgen sales upgrade`: a sales ledger of version 3 converted into a NEW ledger of version 4
(docs/back-office.md, section 5, "Converting a ledger of version 3").

The old ledger is read only (opened read-only, never rewritten), and converted only if it reconciles
with the run (its payments' chain whole, every share, void and payment as `sales reconcile` checks them).
The new ledger holds the same rows: its pools and payments (their chains) as they were, its sales
chained in sale-number order, each voided sale's void a `voids` row chained in the order of its time
(then sale number), and one `conversions` row naming when, from which version and which file's SHA-256,
and the last sale, void and payment numbers converted: rows up to those numbers were chained at the
conversion, not as they were written. The new file is made 0600 under a temporary name beside NEW and
renamed to it (never over a file): an interrupt leaves no NEW.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from poolgen.backoffice import owned
from poolgen.backoffice.chain import GENESIS, link
from poolgen.backoffice.errors import BackOfficeError
from poolgen.backoffice.sales import CONVERTED, SALES, SALES_3, SalesLedger, now_text
from poolgen.backoffice.share_reports import reconcile_sales
from poolgen.backoffice.vouched import signed
from poolgen.files.write import discard, fsync_folder, new_temporary, rename_new
from poolgen.interrupts import deferred, kept, pause_point

_V3_SALES = ("run_id, pool, serial, sale_no, at, channel, player, voided_at, void_reason, claimed_at, "
             "prize_cents")
Row = tuple[Any, ...]
_PAID = "pay_no, run_id, pool, serial, at, prize_cents, chain"


@dataclass
class Upgraded:
    sha256: str
    at: str
    sales: int
    voids: int
    payments: int
    heads: dict[str, str] = field(default_factory=dict)


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


def _settled(old: Path) -> str:
    """The SHA-256 of OLD's bytes, refused while SQLite's -wal file beside it holds changes not in them."""
    wal = Path(f"{os.path.abspath(old)}-wal")
    if wal.exists() and wal.stat().st_size > 0:
        raise BackOfficeError(f"{old}: SQLite's {wal.name} file beside it holds changes not yet in it; open "
                              "it with the writer that made them (or sqlite3) to merge them, then convert")
    return _sha256(old)


def _read(old: Path, book: SalesLedger) -> tuple[list[Row], list[Row], list[Row]]:
    """The old ledger's pools, sales (by sale number) and payments (by payment number), each typed."""
    db = book.db
    pools = [owned.typed(r, "run_id, pool, shares, price_cents, next_serial, closed_at", "ttiiiT")
             for r in db.execute("SELECT * FROM pools ORDER BY run_id, pool")]
    sales = [owned.typed(r, _V3_SALES, "ttiitttTTTI")
             for r in db.execute(f"SELECT {_V3_SALES} FROM sales ORDER BY sale_no")]
    paid = [owned.typed(r, _PAID, "ittitit")
            for r in db.execute(f"SELECT {_PAID} FROM payments ORDER BY pay_no")]
    for s in sales:
        if s[7] is not None and s[8] is None:
            raise BackOfficeError(f"{old}: sale no. {s[3]}: voided at {s[7]} with no reason recorded; not "
                                  "converting it")
    return pools, sales, paid


def upgrade(old: Path, new: Path, book: SalesLedger, now: datetime | None = None) -> Upgraded:
    """Convert `book` (the ledger at `old`, of version 3, opened read-only under a signed run) into a new
    ledger at `new`; its heads recomputed from the new file."""
    signed(book.run, "the sales ledger converts a ledger")
    if book.version != SALES_3.version:
        raise BackOfficeError(f"{old}: a sales ledger of version {book.version} already; nothing to convert")
    digest = _settled(old)
    rec = reconcile_sales(book.run, book, {})
    if not rec.ok:
        first = rec.problems[0]  # each names the ledger, or the pool or share within it
        first = first if first.startswith(f"{old}: ") else f"{old}: {first}"
        raise BackOfficeError(f"{first}; not converting a ledger that does not reconcile "
                              f"({len(rec.problems):,} problem(s): `poolgen sales reconcile` names each)")
    try:
        pools, sales, paid = _read(old, book)
    except owned.FAILURES as exc:
        raise owned._fail(old, SALES, exc) from None
    if _settled(old) != digest:
        raise BackOfficeError(f"{old}: changed while it was being converted (another program writes it); "
                              "nothing written: try again once it is left alone")
    if owned._check_place(new, SALES):
        raise BackOfficeError(f"{new}: a file is there; the conversion writes a new ledger, never over a "
                              "file")
    done = Upgraded(digest, now_text(now), len(sales), 0, len(paid))
    try:
        tmp, held = new_temporary(new, 0o600)
    except OSError as exc:
        raise BackOfficeError(f"{new}: cannot create the sales ledger: {exc.strerror or exc}") from None
    renamed = False
    try:
        done.voids = _write(tmp, pools, sales, paid, done, digest)
        pause_point("sales-upgrade-written")  # the interrupt tests stop the process here, before the rename
        with deferred():
            rename_new(tmp, new)
            renamed = True
            fsync_folder(Path(os.path.abspath(new)).parent)
            kept(new)
    except FileExistsError:
        raise BackOfficeError(f"{new}: a file is there; the conversion writes a new ledger, never over a "
                              "file") from None
    except owned.FAILURES as exc:
        raise owned._fail(new, SALES, exc) from None
    except OSError as exc:
        raise BackOfficeError(f"{new}: cannot create the sales ledger: {exc.strerror or exc}") from None
    finally:
        os.close(held)
        if not renamed:
            discard(tmp)
    made = SalesLedger(new, book.run, create=False, read_only=True)
    try:
        done.heads = made.chains({})[0]
    finally:
        made.close()
    return done


def _write(tmp: Path, pools: list[Row], sales: list[Row], paid: list[Row], done: Upgraded,
           digest: str) -> int:
    """The new ledger's rows into the temporary file, in one transaction; the number of void rows."""
    db = sqlite3.connect(owned.file_uri(tmp, "mode=rw"), uri=True, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode = MEMORY")  # no journal file beside it: it is discarded if cut
        db.execute("BEGIN")
        owned._stamp(db, CONVERTED)
        db.executemany("INSERT INTO pools VALUES (?, ?, ?, ?, ?, ?)", pools)
        chain = GENESIS
        for s in sales:  # run_id, pool, serial, sale_no, at, channel, player, ...
            chain = link(chain, (s[3], s[0], s[1], s[2], s[4], s[5], s[6]))
            db.execute("INSERT INTO sales VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", (*s, chain.hex()))
        chain, void_no = GENESIS, 0
        for s in sorted((s for s in sales if s[7] is not None), key=lambda s: (s[7], s[3])):
            void_no += 1
            row = (void_no, s[0], s[1], s[2], s[7], s[8])
            chain = link(chain, row)
            db.execute("INSERT INTO voids VALUES (?, ?, ?, ?, ?, ?, ?)", (*row, chain.hex()))
        db.executemany("INSERT INTO payments VALUES (?, ?, ?, ?, ?, ?, ?)", paid)
        db.execute("INSERT INTO conversions VALUES (?, ?, ?, ?, ?, ?)",
                   (done.at, SALES_3.version, digest, sales[-1][3] if sales else 0, void_no,
                    paid[-1][0] if paid else 0))
        db.execute("COMMIT")
    finally:
        db.close()
    return void_no


def conversion(book: SalesLedger) -> str | None:
    """What a reader of a converted ledger is told (its rows up to the conversion chained then), or None."""
    cols = "at, from_version, from_sha256, last_sale_no, last_void_no, last_pay_no"
    try:
        if not book.db.execute("SELECT 1 FROM sqlite_master WHERE name = 'conversions'").fetchone():
            return None
        rows = [owned.typed(r, cols, "titiii") for r in book.db.execute(f"SELECT {cols} FROM conversions")]
    except owned.FAILURES as exc:  # a value edited to another kind, a damaged page: one line
        raise owned._fail(book.path, SALES, exc) from None
    if not rows:
        return (f"note: {book.path}: a ledger converted from version 3 whose conversions table holds no row "
                "(its record removed by hand): which of its rows were chained at the conversion is unknown")
    return "; ".join(
        f"note: {book.path}: converted at {r[0]} from a sales ledger of version {r[1]} (SHA-256 {r[2]}): "
        f"sales 1 to {r[3]} and voids 1 to {r[4]} were chained at the conversion, not as they were written"
        for r in rows)
