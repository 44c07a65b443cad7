"""The claims ledger (docs/back-office.md, section 4): an SQLite file the tool owns, in WAL mode,
keyed by (run id, barcode number), one transaction (BEGIN IMMEDIATE) per claim.

`attempts` holds every claim presented at a desk with a ledger, paid or refused, with its reason: its
`claim_no` is the claim number. `paid` holds one row per paid ticket, its primary key (run_id,
barcode), with the number of the claim that paid it. Both rows of a payment are written in one
transaction, so a claim killed at any moment (SIGKILL included) left either both or neither; two
desks claiming one ticket at once are serialised by SQLite's write lock, and the second finds the
first's row and is answered with when and where it was paid.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from poolgen.backoffice import owned
from poolgen.interrupts import deferred, forget_kept, kept, pause_point

CLAIMS = owned.Kind("claims ledger", 1, (
    "CREATE TABLE attempts (claim_no INTEGER PRIMARY KEY NOT NULL, at TEXT NOT NULL, run_id TEXT NOT NULL, "
    "barcode TEXT NOT NULL, desk TEXT NOT NULL, clerk TEXT NOT NULL, outcome TEXT NOT NULL, "
    "reason TEXT NOT NULL)",
    "CREATE TABLE paid (run_id TEXT NOT NULL, barcode TEXT NOT NULL, virn TEXT NOT NULL, "
    "claim_no INTEGER NOT NULL UNIQUE "
    "REFERENCES attempts (claim_no), at TEXT NOT NULL, desk TEXT NOT NULL, clerk TEXT NOT NULL, "
    "tier TEXT NOT NULL, prize_cents INTEGER NOT NULL CHECK (prize_cents > 0), "
    "free INTEGER NOT NULL CHECK (free IN (0, 1)), PRIMARY KEY (run_id, barcode)) WITHOUT ROWID",
))


_PAID = "run_id, barcode, virn, claim_no, at, desk, clerk, tier, prize_cents, free"


@dataclass(frozen=True)
class Payment:
    """A paid claim as the ledger holds it."""

    run_id: str
    barcode: str
    virn: str
    claim_no: int
    at: str
    desk: str
    clerk: str
    tier: str
    prize_cents: int
    free: bool


def _payment(row: tuple[Any, ...]) -> Payment:
    r = owned.typed(row, _PAID, "tttittttii")
    return Payment(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], bool(r[9]))


@dataclass(frozen=True)
class Attempt:
    run_id: str
    barcode: str
    at: str
    desk: str
    clerk: str


class ClaimsLedger:
    def __init__(self, path: Path, *, create: bool = True) -> None:
        """Open (with `create`, make if absent) a claims ledger."""
        self.path = Path(path)
        self.db = owned.connect(self.path, CLAIMS, create=create)
        self.recorded = 0  # claims this process recorded

    def close(self) -> None:
        self.db.close()

    def _kept(self, no: int, what: str) -> None:
        """What an interrupt from now on says was recorded: this claim, or how many and the last."""
        self.recorded += 1
        forget_kept()
        if self.recorded == 1:
            kept(f"claim no. {no} ({what}) in the ledger {self.path}")
        else:
            kept(f"{self.recorded:,} claims, the last claim no. {no} ({what}), in the ledger {self.path}")

    @owned.guarded(CLAIMS)
    def refuse(self, a: Attempt, outcome: str, reason: str) -> int:
        """Record a refused claim; its claim number."""
        with deferred():  # the commit and what an interrupt then says go together
            with owned.transaction(self.db, self.path, CLAIMS) as db:
                no = self._attempt(db, a, outcome, reason)
            self._kept(no, f"a refused claim of {a.barcode}: {outcome}")
        return no

    @owned.guarded(CLAIMS)
    def pay(self, a: Attempt, virn: str, tier: str, prize_cents: int,
            free: bool) -> tuple[bool, Payment, int]:
        """Pay the ticket unless it was paid: (True, this payment, its claim number) or (False, the first
        payment, the claim number of this refused attempt)."""
        db = self.db
        owned.begin(db, self.path, CLAIMS)
        try:
            first = self._paid(db, a.run_id, a.barcode)
            if first is not None:
                why = (f"paid by claim no. {first.claim_no} at {first.at}, desk {first.desk}, "
                       f"clerk {first.clerk}")
                no = self._attempt(db, a, "already paid", why)
                with deferred():
                    owned.commit(db, self.path, CLAIMS)
                    self._kept(no, f"a second claim of {a.barcode}: already paid")
                return False, first, no
            no = self._attempt(db, a, "paid", "")
            db.execute("INSERT INTO paid VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (a.run_id, a.barcode, virn, no, a.at, a.desk, a.clerk, tier, prize_cents, int(free)))
            pause_point("claim-written")  # the interrupt tests stop the process here, before COMMIT
            with deferred():  # the commit and what an interrupt then says go together
                owned.commit(db, self.path, CLAIMS)
                self._kept(no, f"the payment of {a.barcode}")
        except BaseException:
            owned.rollback(db)
            raise
        paid = Payment(a.run_id, a.barcode, virn, no, a.at, a.desk, a.clerk, tier, prize_cents, free)
        return True, paid, no

    @staticmethod
    def _attempt(db: sqlite3.Connection, a: Attempt, outcome: str, reason: str) -> int:
        cur = db.execute("INSERT INTO attempts (at, run_id, barcode, desk, clerk, outcome, reason) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?)", (a.at, a.run_id, a.barcode, a.desk, a.clerk,
                                                          outcome, reason))
        assert cur.lastrowid is not None  # an INSERT into a rowid table
        return cur.lastrowid

    @staticmethod
    def _paid(db: sqlite3.Connection, run_id: str, barcode: str) -> Payment | None:
        row = db.execute(f"SELECT {_PAID} FROM paid WHERE run_id = ? AND barcode = ?",
                         (run_id, barcode)).fetchone()
        return None if row is None else _payment(row)

    @owned.guarded(CLAIMS)
    def payments(self, run_id: str | None = None) -> list[Payment]:
        rows = self.db.execute(f"SELECT {_PAID} FROM paid ORDER BY claim_no").fetchall()
        return [_payment(r) for r in rows if run_id is None or r[0] == run_id]

    @owned.guarded(CLAIMS)
    def snapshot(self) -> tuple[list[tuple[int, str, str, str, str, str, str, str]], list[Payment]]:
        """Every attempt and every payment, read in one transaction: a desk paying meanwhile (WAL lets it)
        is in both or in neither."""
        self.db.execute("BEGIN")
        try:
            attempts = self.attempts()
            pause_point("ledger-read")  # a test pays a ticket here, between the two reads
            payments = self.payments()
        finally:
            owned.rollback(self.db)  # a read: nothing to commit
        return attempts, payments

    @owned.guarded(CLAIMS)
    def attempts(self) -> list[tuple[int, str, str, str, str, str, str, str]]:
        return [tuple(r) for r in self.db.execute(
            "SELECT claim_no, at, run_id, barcode, desk, clerk, outcome, reason FROM attempts "
            "ORDER BY claim_no")]
