"""The claims ledger (docs/back-office.md, section 4): an SQLite file the tool owns, in WAL mode,
keyed by (run id, barcode number), one transaction (BEGIN IMMEDIATE) per claim.

`attempts` holds every claim presented at a desk with a ledger, paid or refused, with its reason: its
`claim_no` is the claim number. `paid` holds one row per paid ticket, its primary key (run_id,
barcode), with the number of the claim that paid it. Both rows of a payment are written in one
transaction, so a claim killed at any moment (SIGKILL included) left either both or neither; two
desks claiming one ticket at once are serialised by SQLite's write lock, and the second finds the
first's row and is answered with when and where it was paid. Every attempt row carries the ledger's
hash chain (chain.py) up to it; the last row's is the ledger's head, the anchor a back office keeps
outside the ledger (schema version 2; version 1 had none, and rows removed from its end left no trace).
"""

from __future__ import annotations

import dataclasses
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from poolgen.backoffice import owned
from poolgen.backoffice.chain import GENESIS, head_text, link, problems
from poolgen.interrupts import deferred, forget_kept, kept, pause_point

CLAIMS = owned.Kind("claims ledger", 2, (
    "CREATE TABLE attempts (claim_no INTEGER PRIMARY KEY NOT NULL, at TEXT NOT NULL, run_id TEXT NOT NULL, "
    "barcode TEXT NOT NULL, desk TEXT NOT NULL, clerk TEXT NOT NULL, outcome TEXT NOT NULL, "
    "reason TEXT NOT NULL, chain TEXT NOT NULL)",
    "CREATE TABLE paid (run_id TEXT NOT NULL, barcode TEXT NOT NULL, virn TEXT NOT NULL, "
    "claim_no INTEGER NOT NULL UNIQUE "
    "REFERENCES attempts (claim_no), at TEXT NOT NULL, desk TEXT NOT NULL, clerk TEXT NOT NULL, "
    "tier TEXT NOT NULL, prize_cents INTEGER NOT NULL CHECK (prize_cents > 0), "
    "free INTEGER NOT NULL CHECK (free IN (0, 1)), PRIMARY KEY (run_id, barcode)) WITHOUT ROWID",
))


_PAID = "run_id, barcode, virn, claim_no, at, desk, clerk, tier, prize_cents, free"
Row = tuple[int, str, str, str, str, str, str, str, str]  # an attempt: claim_no .. reason, then chain


def hashed(attempt: Row, payment: Payment | None) -> list[str | int]:
    """The fields an attempt row's chain covers: claim_no, at, run_id, barcode, desk, clerk, outcome and
    reason, then, for an attempt paid, its payment's virn, tier, prize_cents and free (0 or 1)."""
    fields: list[str | int] = list(attempt[:8])
    if payment is not None:
        fields += [payment.virn, payment.tier, payment.prize_cents, int(payment.free)]
    return fields


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
    def __init__(self, path: Path, *, create: bool = True, read_only: bool = False) -> None:
        """Open (with `create`, make if absent) a claims ledger; `read_only`: to read only, nothing
        written (docs/back-office.md, section 4)."""
        self.path = Path(path)
        self.db = owned.connect(self.path, CLAIMS, create=create, read_only=read_only)
        self.recorded = 0  # claims this process recorded
        self.head = ""  # the ledger's head after this process's last claim ("" before one)

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
                no = self._attempt(db, a, outcome, reason, None)
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
                       f"clerk {first.clerk}" + (f", under run {first.run_id}" if first.run_id != a.run_id
                                                 else ""))
                no = self._attempt(db, a, "already paid", why, None)
                with deferred():
                    owned.commit(db, self.path, CLAIMS)
                    self._kept(no, f"a second claim of {a.barcode}: already paid")
                return False, first, no
            no = self._attempt(db, a, "paid", "", (virn, tier, prize_cents, free))
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

    def _attempt(self, db: sqlite3.Connection, a: Attempt, outcome: str, reason: str,
                 paid: tuple[str, str, int, bool] | None) -> int:
        """Insert the attempt (in the caller's write transaction) as the next claim number, its chain
        linked to the last row's; its claim number."""
        last = db.execute("SELECT claim_no, chain FROM attempts ORDER BY claim_no DESC LIMIT 1").fetchone()
        if last is None:
            no, previous = 1, GENESIS
        else:
            n, stored = owned.typed(last, "claim_no, chain", "it")
            no, previous = n + 1, bytes.fromhex(stored) if _is_hex(stored) else GENESIS
        row = (no, a.at, a.run_id, a.barcode, a.desk, a.clerk, outcome, reason)
        payment = None if paid is None else Payment(a.run_id, a.barcode, paid[0], no, a.at, a.desk, a.clerk,
                                                    paid[1], paid[2], paid[3])
        chain = link(previous, hashed((*row, ""), payment))
        db.execute("INSERT INTO attempts VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", (*row, chain.hex()))
        self.head = head_text(no, chain)
        return no

    @staticmethod
    def _paid(db: sqlite3.Connection, run_id: str, barcode: str) -> Payment | None:
        """The ticket's payment under this run, else its first under any other run of the ledger: a
        barcode names one ticket of its game (docs/validation.md, section 2), and the runs of one
        order (the order in one run and again in cuts from its seed, docs/randomness.md 4b) hold the
        same tickets, so a ticket paid under one of them is paid. The other runs are found by a
        skip-scan of the primary key (one lookup per run id in the ledger, not a scan of its rows)."""
        row = db.execute(f"SELECT {_PAID} FROM paid WHERE run_id = ? AND barcode = ?",
                         (run_id, barcode)).fetchone()
        if row is None:
            row = db.execute(
                "WITH RECURSIVE runs (id) AS (SELECT MIN(run_id) FROM paid UNION ALL SELECT "
                "(SELECT MIN(run_id) FROM paid WHERE run_id > runs.id) FROM runs WHERE runs.id IS NOT NULL) "
                f"SELECT {_PAID} FROM paid WHERE run_id IN (SELECT id FROM runs WHERE id IS NOT NULL) "
                "AND barcode = ? ORDER BY claim_no LIMIT 1", (barcode,)).fetchone()
        if row is None:
            return None
        first = _payment(row)
        # when, where and by whom as its attempt row says (the chain covers it, not the payment's copy)
        said = db.execute("SELECT at, desk, clerk FROM attempts WHERE claim_no = ? AND outcome = 'paid'",
                          (first.claim_no,)).fetchone()
        if said is None:
            return first
        at, desk, clerk = owned.typed(said, "at, desk, clerk", "ttt")
        return dataclasses.replace(first, at=at, desk=desk, clerk=clerk)

    @owned.guarded(CLAIMS)
    def payments(self, run_id: str | None = None) -> list[Payment]:
        rows = self.db.execute(f"SELECT {_PAID} FROM paid ORDER BY claim_no").fetchall()
        return [_payment(r) for r in rows if run_id is None or r[0] == run_id]

    @owned.guarded(CLAIMS)
    def snapshot(self) -> tuple[list[Row], list[Payment]]:
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
    def attempts(self) -> list[Row]:
        return [tuple(r) for r in self.db.execute(
            "SELECT claim_no, at, run_id, barcode, desk, clerk, outcome, reason, chain FROM attempts "
            "ORDER BY claim_no")]


def _is_hex(text: object) -> bool:
    """A stored chain value as the tool writes it (a row edited by hand may hold anything: the next row
    then links to the genesis value, and the reconciliation names the break)."""
    return isinstance(text, str) and len(text) == 64 and all(c in "0123456789abcdef" for c in text)


def chain_problems(path: Path, attempts: list[Row], payments: list[Payment],
                   head: tuple[int, bytes] | None) -> tuple[str, list[str]]:
    """A ledger's head recomputed from its rows, and its chain's problems (chain.problems); a paid
    attempt's chain covers its `paid` row (a payment edited or removed breaks it)."""
    paid = {p.claim_no: p for p in payments}
    rows = [(a[0], hashed(a, paid.get(a[0]) if a[6] == "paid" else None), a[8]) for a in attempts]
    return problems(path, rows, head)
