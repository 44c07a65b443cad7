"""The eInstant sales ledger (docs/back-office.md, section 5): a reference implementation for
acceptance tests and small operators, as the desk is; not an operator's central system.

An eInstant pool file is its serving order: share `serial` (1, 2, ...; the pool file's `serial`
column, ticket id `POOL-NNNNNNN`) is the row at position `serial - 1`. The ledger (an SQLite file the
tool owns, owned.py) holds one row per pool (its next serial, and when it was closed) and one per share
sold (sale number, time, channel, player reference, void, claim). Selling is one BEGIN IMMEDIATE
transaction that reads the pool's next serial and advances it, so concurrent sellers in separate
processes are serialised and never get the same share, and shares go in serial order. A voided sale's
share is retired, never sold again (its outcome may have been shown). A closed pool sells nothing
more. A share's claim is answered from the ledger (sold, not voided, not yet paid) and the pool file's
row, the pool file checked against the manifest first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from poolgen.backoffice import owned
from poolgen.backoffice.chain import GENESIS, head_text, link, problems
from poolgen.backoffice.errors import BackOfficeError
from poolgen.backoffice.sales_schema import CHAINED, CHAINS_OF, SALES, UNCHAINED
from poolgen.backoffice.vouched import Run, checked_pool_file, signed
from poolgen.errors import RunError
from poolgen.interrupts import pause_point

_SALE = "run_id, pool, serial, sale_no, at, channel, player, voided_at, claimed_at, prize_cents"
_SALE_KINDS = "ttiitttTTI"  # owned.typed: text, integers, and the nullable times and prize


class Refused(Exception):
    """A sale, void or claim the ledger refuses (exit 1): sold out, closed, not sold, already paid."""


@dataclass(frozen=True)
class Sale:
    run_id: str
    pool: str
    serial: int
    sale_no: int
    at: str
    channel: str
    player: str
    voided_at: str | None = None
    claimed_at: str | None = None
    prize_cents: int | None = None

    @property
    def ticket(self) -> str:
        return share_id(self.pool, self.serial)

    def to_json(self) -> dict[str, Any]:
        return {**self.__dict__, "ticket": self.ticket}


def share_id(pool: str, serial: int) -> str:
    """A share's ticket id, as its pool file's `ticket` column has it."""
    return f"{pool}-{serial:07d}"


def now_text(now: datetime | None = None) -> str:
    return (now or datetime.now(UTC)).isoformat(timespec="milliseconds").replace("+00:00", "Z")


RECORDS = "the sales ledger sells, voids, closes and pays"


class SalesLedger:
    """A run's sales ledger. Its reports read any run (`open_vouched`); what it records (a sale, a void,
    a closing, a payment) it records only for a `SignedRun` (`open_signed`: signature verified)."""

    def __init__(self, path: Path, run: Run, *, create: bool = True, read_only: bool = False) -> None:
        if run.kind != "einstant":
            raise BackOfficeError(f"{run.path}: a printed run; its tickets are claimed at the desk "
                                  "(`poolgen validate`)")
        self.path, self.run = Path(path), run
        self.db = owned.connect(self.path, SALES, create=create, read_only=read_only)  # section 4
        self.version = int(self.db.execute("PRAGMA user_version").fetchone()[0])
        self.head = ""  # the payments' head after this process's last payment ("" before one)
        self.heads: dict[str, str] = {}  # each chain's head after this process's last row of it

    @property
    def chained(self) -> bool:
        """Whether its sales and voids are chained (version 4 or 5); version 3 is read, never written."""
        return "sales" in CHAINS_OF[self.version]

    @property
    def closings_chained(self) -> bool:
        """Whether its pools' closings are chained rows (version 5); version 4 is read, never written."""
        return "closings" in CHAINS_OF[self.version]

    def _records(self) -> None:
        signed(self.run, RECORDS)  # reads any run; records only from a verified one (vouched.py)
        if self.version != SALES.version:
            raise BackOfficeError(f"{self.path}: a sales ledger of version {self.version} "
                                  f"({UNCHAINED[self.version]} in no chain): read, never written; convert "
                                  f"it into a new ledger of version {SALES.version} (`poolgen sales "
                                  "upgrade`)")

    def _link(self, table: str, fields: tuple[str | int, ...]) -> str:
        """The chain of `fields`, the next row of `table` (in the caller's write transaction), linked to the
        last row's (docs/back-office.md, section 5); a stored chain edited to anything but 64 hex digits
        links to the genesis value (the reconciliation names the break)."""
        number = CHAINED[table][0]
        last = self.db.execute(f"SELECT {number}, chain FROM {table} ORDER BY {number} DESC "
                               "LIMIT 1").fetchone()
        previous = GENESIS
        if last is not None:
            stored = owned.typed(last, f"{number}, chain", "it")[1]
            previous = bytes.fromhex(stored) if re.fullmatch(r"[0-9a-f]{64}", stored) else GENESIS
        chain = link(previous, fields)
        self.heads[table] = head_text(int(fields[0]), chain)
        return chain.hex()

    def close(self) -> None:
        self.db.close()

    def _pool(self, pool: str) -> tuple[int, int, str | None]:
        """(shares, next serial, closed at) of a pool, registered from the manifest on first use; its
        shares are the signed manifest's, never the ledger's copy (a hand edit would sell shares the
        pool does not have; the reconciliation names such an edit)."""
        entry = next((p for p in self.run.folder.parsed.pools if p.id == pool), None)
        if entry is None:
            known = ", ".join(p.id for p in self.run.folder.parsed.pools)
            raise BackOfficeError(f"{self.run.path}: no pool {pool!r} in this run (pools: {known})")
        row = self.db.execute("SELECT shares, next_serial, closed_at FROM pools "
                              "WHERE run_id = ? AND pool = ?", (self.run.run_id, pool)).fetchone()
        if row is None:
            # a ledger holds one order (docs/back-office.md, section 6), whose runs hold the same shares of a
            # pool: sold under a second run id, share 1 would be sold again
            other = self.also_under(pool)
            if other:
                raise BackOfficeError(f"{self.path}: pool {pool} is sold in this ledger under run "
                                      f"{other[0]}, which holds the same shares (a ledger holds one "
                                      f"order): selling it under run {self.run.run_id} too would sell each "
                                      "share twice")
            self.db.execute("INSERT INTO pools VALUES (?, ?, ?, ?, 1, NULL)",
                            (self.run.run_id, pool, entry.tickets, entry.price_cents))
            return entry.tickets, 1, None
        _, next_serial, closed_at = owned.typed(row, "shares, next_serial, closed_at", "iiT")
        return entry.tickets, next_serial, closed_at or self._closed(pool)

    @owned.guarded(SALES)
    def sell(self, pool: str, channel: str, player: str, now: datetime | None = None) -> Sale:
        """Sell the pool's next share: one transaction."""
        self._records()
        with owned.recorded(self.db, self.path, SALES) as note:
            db = self.db
            shares, serial, closed = self._pool(pool)
            if closed is not None:
                raise Refused(f"pool {pool}: closed at {closed}; no sale after close")
            if serial > shares:
                raise Refused(f"pool {pool}: sold out (all {shares:,} shares sold)")
            no = int(db.execute("SELECT COALESCE(MAX(sale_no), 0) + 1 FROM sales").fetchone()[0])
            sale = Sale(self.run.run_id, pool, serial, no, now_text(now), channel, player)
            chain = self._link("sales", (no, sale.run_id, pool, serial, sale.at, channel, player))
            db.execute("INSERT INTO sales (run_id, pool, serial, sale_no, at, channel, player, chain) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                       (sale.run_id, pool, serial, no, sale.at, channel, player, chain))
            db.execute("UPDATE pools SET next_serial = ? WHERE run_id = ? AND pool = ?",
                       (serial + 1, self.run.run_id, pool))
            note.append(f"sale no. {no} (share {serial} of pool {pool}) in the ledger {self.path}")
        return sale

    @owned.guarded(SALES)
    def get(self, pool: str, serial: int) -> Sale | None:
        row = self.db.execute(f"SELECT {_SALE} FROM sales WHERE run_id = ? AND pool = ? AND serial = ?",
                              (self.run.run_id, pool, serial)).fetchone()
        return None if row is None else Sale(*owned.typed(row, _SALE, _SALE_KINDS))

    @owned.guarded(SALES)
    def void(self, pool: str, serial: int, reason: str, now: datetime | None = None) -> Sale:
        self._records()
        with owned.recorded(self.db, self.path, SALES) as note:
            db = self.db
            sale = self.get(pool, serial)
            if sale is None:
                raise Refused(f"pool {pool}: share {serial} was never sold")
            voided = sale.voided_at or self._voided(pool, serial)
            if voided is not None:
                raise Refused(f"pool {pool}: share {serial}: sale no. {sale.sale_no} already voided at "
                              f"{voided}")
            if sale.claimed_at is not None:
                raise Refused(f"pool {pool}: share {serial}: its prize was paid at {sale.claimed_at}; "
                              "not voiding it")
            at = now_text(now)
            db.execute("UPDATE sales SET voided_at = ?, void_reason = ? WHERE run_id = ? AND pool = ? "
                       "AND serial = ?", (at, reason, self.run.run_id, pool, serial))
            no = int(db.execute("SELECT COALESCE(MAX(void_no), 0) + 1 FROM voids").fetchone()[0])
            row = (no, self.run.run_id, pool, serial, at, reason)
            db.execute("INSERT INTO voids VALUES (?, ?, ?, ?, ?, ?, ?)", (*row, self._link("voids", row)))
            note.append(f"the void of sale no. {sale.sale_no} in the ledger {self.path}")
        return Sale(**{**sale.__dict__, "voided_at": at})

    @owned.guarded(SALES)
    def close_pool(self, pool: str, now: datetime | None = None) -> tuple[str, int, int]:
        """Close the pool: (closed at, shares sold, shares never sold)."""
        self._records()
        with owned.recorded(self.db, self.path, SALES) as note:
            shares, serial, closed = self._pool(pool)
            if closed is not None:
                raise Refused(f"pool {pool}: already closed at {closed}")
            at = now_text(now)
            self.db.execute("UPDATE pools SET closed_at = ? WHERE run_id = ? AND pool = ?",
                            (at, self.run.run_id, pool))
            no = int(self.db.execute("SELECT COALESCE(MAX(close_no), 0) + 1 FROM closings").fetchone()[0])
            row = (no, self.run.run_id, pool, at)
            self.db.execute("INSERT INTO closings VALUES (?, ?, ?, ?, ?)",
                            (*row, self._link("closings", row)))
            note.append(f"the closing of pool {pool} in the ledger {self.path}")
        return at, serial - 1, shares - serial + 1

    @owned.guarded(SALES)
    def claim(self, pool: str, serial: int, now: datetime | None = None,
              player: str | None = None) -> tuple[Sale, int]:
        """Pay a sold share's prize once: (the sale, its prize in cents); given `player`, only to the
        share's buyer (share ids are sequential: anyone can name a share that is not theirs)."""
        self._records()
        prize = share_prize(self.run, pool, serial)
        with owned.recorded(self.db, self.path, SALES) as note:
            db = self.db
            sale = self.get(pool, serial)
            if sale is None:
                raise Refused(f"pool {pool}: share {serial} was never sold; nothing to pay")
            # the buyer first: "already paid" or "voided" would tell a stranger the share's outcome
            if player is not None and player != sale.player:
                raise Refused(f"pool {pool}: {sale.ticket}: sold to another player; not paying it")
            voided = sale.voided_at or self._voided(pool, serial)  # a void cleared from `sales` by hand
            if voided is not None:
                raise Refused(f"pool {pool}: share {serial}: its sale was voided at {voided}")
            if sale.claimed_at is not None:
                raise Refused(f"pool {pool}: share {serial}: already paid at {sale.claimed_at}")
            if prize == 0:
                return sale, 0
            at = now_text(now)
            db.execute("UPDATE sales SET claimed_at = ?, prize_cents = ? WHERE run_id = ? AND pool = ? "
                       "AND serial = ?", (at, prize, self.run.run_id, pool, serial))
            self._pay(pool, serial, at, prize)
            pause_point("share-claim-written")  # the interrupt tests stop the process here, before COMMIT
            note.append(f"the payment of share {serial} of pool {pool} in the ledger {self.path}")
        return Sale(**{**sale.__dict__, "claimed_at": at, "prize_cents": prize}), prize

    def _voided(self, pool: str, serial: int) -> str | None:
        """When the share's void row (version 4) says it was voided, or None."""
        if not self.chained:
            return None
        row = self.db.execute("SELECT at FROM voids WHERE run_id = ? AND pool = ? AND serial = ? ORDER BY "
                              "void_no LIMIT 1", (self.run.run_id, pool, serial)).fetchone()
        return None if row is None else str(row[0])

    def _closed(self, pool: str) -> str | None:
        """When the pool's closing row (version 5) says it was closed, or None: a closing cleared from
        `pools` by hand still closes it."""
        if not self.closings_chained:
            return None
        row = self.db.execute("SELECT at FROM closings WHERE run_id = ? AND pool = ? ORDER BY close_no "
                              "LIMIT 1", (self.run.run_id, pool)).fetchone()
        return None if row is None else str(row[0])

    def _pay(self, pool: str, serial: int, at: str, prize: int) -> None:
        """Insert the payment row (in the caller's write transaction) as the next payment number, its
        chain linked to the last row's (docs/back-office.md, section 5)."""
        no = int(self.db.execute("SELECT COALESCE(MAX(pay_no), 0) + 1 FROM payments").fetchone()[0])
        row = (no, self.run.run_id, pool, serial, at, prize)
        self.db.execute("INSERT INTO payments VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (*row, self._link("payments", row)))
        self.head = self.heads["payments"]

    @owned.guarded(SALES)
    def chain(self, head: tuple[int, bytes] | None) -> tuple[str, list[str]]:
        """The payments' head recomputed from their rows, and the chain's problems (chain.problems)."""
        heads, out = self.chains({} if head is None else {"payments": head})
        return heads["payments"], out

    @owned.guarded(SALES)
    def chains(self, heads: dict[str, tuple[int, bytes]]) -> tuple[dict[str, str], list[str]]:
        """Each chain's head recomputed from its rows (sales, voids, closings, payments and conversions; a
        ledger of version 4 its sales', voids' and payments', of version 3 its payments' only; also kept in
        `heads`), and every chain's problems (chain.problems), given the heads recorded before."""
        out: dict[str, str] = {}
        found: list[str] = []
        for table in CHAINS_OF[self.version]:
            number, cols = CHAINED[table]
            n = len(cols.split(", "))
            rows = self.db.execute(f"SELECT {cols}, chain FROM {table} ORDER BY {number}").fetchall()
            what = {"closings": "closing"}.get(table, table[:-1])  # "sale", "void", "payment", "conversion"
            name = "head" if table == "payments" else f"{table} head"
            out[table], broken = problems(self.path, ((r[0], r[:n], str(r[n])) for r in rows),
                                          heads.get(table), what, name)
            found += broken
        self.heads.update(out)
        return out, found

    @owned.guarded(SALES)
    def sales(self) -> list[Sale]:
        return [Sale(*owned.typed(r, _SALE, _SALE_KINDS)) for r in self.db.execute(
            f"SELECT {_SALE} FROM sales WHERE run_id = ? ORDER BY sale_no", (self.run.run_id,))]

    @owned.guarded(SALES)
    def payments(self) -> list[tuple[int, str, str, int, str, int]]:
        """Every payment row (pay_no, run_id, pool, serial, at, prize_cents) of every run, by number."""
        cols = "pay_no, run_id, pool, serial, at, prize_cents"
        return [owned.typed(r, cols, "ittiti") for r in
                self.db.execute(f"SELECT {cols} FROM payments ORDER BY pay_no")]

    @owned.guarded(SALES)
    def voids(self) -> list[tuple[int, str, str, int, str, str, str | None]]:
        """Every void row (void_no, run_id, pool, serial, at, reason; its sale's void_reason, a copy of
        the reason), every run's, by number (none in version 3)."""
        cols = "void_no, run_id, pool, serial, at, reason, void_reason"
        return [] if not self.chained else [owned.typed(r, cols, "ittittT") for r in self.db.execute(
            "SELECT v.void_no, v.run_id, v.pool, v.serial, v.at, v.reason, s.void_reason FROM voids AS v "
            "LEFT JOIN sales AS s USING (run_id, pool, serial) ORDER BY v.void_no")]

    @owned.guarded(SALES)
    def closings(self) -> list[tuple[int, str, str, str]]:
        """Every closing row (close_no, run_id, pool, at), every run's, by number (none before version 5)."""
        cols = "close_no, run_id, pool, at"
        return [] if not self.closings_chained else [owned.typed(r, cols, "ittt") for r in self.db.execute(
            f"SELECT {cols} FROM closings ORDER BY close_no")]

    @owned.guarded(SALES)
    def sold_under(self) -> dict[str, int]:
        """How many sales the ledger records under each run id, every run's (voided ones too)."""
        rows = self.db.execute("SELECT run_id, COUNT(*) FROM sales GROUP BY run_id ORDER BY run_id")
        return dict(owned.typed(r, "run_id, count", "ti") for r in rows)

    @owned.guarded(SALES)
    def also_under(self, pool: str) -> list[str]:
        """The other run ids the ledger registered pool `pool` under (a ledger holds one order: none)."""
        rows = self.db.execute("SELECT run_id FROM pools WHERE pool = ? AND run_id != ? ORDER BY run_id",
                               (pool, self.run.run_id))
        return [str(r[0]) for r in rows]

    @owned.guarded(SALES)
    def prices(self) -> dict[str, tuple[int, int]]:
        """Each registered pool's (shares, price in cents) as the ledger recorded them from the manifest."""
        rows = self.db.execute("SELECT pool, shares, price_cents FROM pools WHERE run_id = ?",
                               (self.run.run_id,))
        typed = (owned.typed(r, "pool, shares, price_cents", "tii") for r in rows)
        return {r[0]: (r[1], r[2]) for r in typed}

    @owned.guarded(SALES)
    def pools(self) -> dict[str, tuple[int, int, str | None]]:
        rows = self.db.execute("SELECT pool, shares, next_serial, closed_at FROM pools WHERE run_id = ?",
                               (self.run.run_id,))
        return {r[0]: tuple(r[1:]) for r in (owned.typed(r, "pool, shares, next_serial, closed_at", "tiiT")
                                             for r in rows)}


def share_prize(run: Run, pool: str, serial: int) -> int:
    """The prize of share `serial` (the pool file's row at that position), from a vouched pool file."""
    checked_pool_file(run, pool)
    entry = run.folder.entry(pool)
    if not 1 <= serial <= entry.tickets:
        raise BackOfficeError(f"share {serial}: pool {pool} has shares 1 to {entry.tickets:,}")
    try:
        rows = run.folder.rows(pool, [serial - 1])
    except RunError as exc:
        raise BackOfficeError(str(exc)) from None
    return int(rows["prize_cents"][0])
