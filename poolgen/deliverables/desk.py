"""A reference validation desk (docs/validation.md, section 5): a claim (barcode number + validation
number) answered from a run's validation files, and, with a ledger, paid at most once.

The ledger is an SQLite file (standard library) with one row per paid ticket, the barcode number its
primary key; a payment is one `BEGIN IMMEDIATE` transaction, so two desks claiming the same ticket at
once are serialised by SQLite's write lock and the second finds the row and pays nothing.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from poolgen.deliverables.identity import BARCODE_DIGITS, is_valid
from poolgen.deliverables.validation import TIERS, ValidationError, ValidationFile, key_check
from poolgen.interrupts import kept
from poolgen.money import fmt_cents

_SCHEMA = ("CREATE TABLE IF NOT EXISTS claims (barcode TEXT PRIMARY KEY, run_id TEXT NOT NULL, "
           "prize_cents INTEGER NOT NULL, tier TEXT NOT NULL, paid_at TEXT NOT NULL)")


@dataclass(frozen=True)
class Answer:
    outcome: str  # "prize", "not a winner", "unknown ticket", "wrong validation number", "already paid",
    #               "not a barcode number"
    prize_cents: int = 0
    text: str = ""

    @property
    def pays(self) -> bool:
        return self.outcome == "prize"


class Desk:
    def __init__(self, run: Path, keys: dict[str, bytes | None], ledger: Path | None = None) -> None:
        self.files: dict[str, tuple[ValidationFile, bytes]] = {}
        for tier, name in TIERS.items():
            key = keys.get(tier)
            if key is None:
                continue
            path = Path(run) / name
            if not path.is_file():
                raise ValidationError(f"{path}: no {tier}-tier validation file in the run")
            vf = ValidationFile.read(path)
            if vf.head.get("key_check") != key_check(key):
                raise ValidationError(f"{path}: the {tier}-tier key given is not this file's key")
            self.files[tier] = (vf, key)
        if not self.files:
            raise ValidationError("give --validation-key and/or --high-validation-key")
        self.ledger = ledger

    def claim(self, barcode: str, virn: str) -> Answer:
        if len(barcode) != BARCODE_DIGITS or not is_valid(barcode):
            return Answer("not a barcode number", 0,
                          f"{barcode}: not a barcode number (its check digits fail)")
        run_id = next(iter(self.files.values()))[0].head["run_id"]
        found: dict[str, int] = {}
        for tier, (vf, key) in self.files.items():
            if not vf.is_known(key, run_id, barcode):
                return Answer("unknown ticket", 0, f"{barcode}: unknown ticket (not in run {run_id})")
            prize = vf.lookup(key, run_id, barcode, virn) if virn.isdigit() else None
            if prize is None:
                return Answer("wrong validation number", 0, f"{barcode}: wrong validation number")
            found[tier] = prize
        tier, prize = max(found.items(), key=lambda kv: kv[1])
        if prize == 0:
            where = "" if "high" in self.files else \
                " (high-tier prizes are validated only by the claim centre)"
            return Answer("not a winner", 0, f"{barcode}: not a winner{where}")
        if self.ledger is not None and not self._record(barcode, run_id, prize, tier):
            return Answer("already paid", prize, f"{barcode}: already paid; refusing a second claim")
        return Answer("prize", prize, f"{barcode}: prize {fmt_cents(prize)} ({tier} tier)"
                      + (" - paid, recorded in the ledger" if self.ledger is not None else ""))

    def _record(self, barcode: str, run_id: str, prize: int, tier: str) -> bool:
        """Record one payment; False if the ticket was already paid."""
        ledger = self.ledger
        assert ledger is not None  # a payment is recorded only with a ledger
        if not Path(ledger).exists():
            with contextlib.suppress(FileExistsError):  # a new ledger is private
                os.close(os.open(ledger, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        db = sqlite3.connect(ledger, timeout=60, isolation_level=None)
        try:
            db.execute("BEGIN IMMEDIATE")
            db.execute(_SCHEMA)
            try:
                db.execute("INSERT INTO claims VALUES (?, ?, ?, ?, ?)",
                           (barcode, run_id, prize, tier, datetime.now(UTC).isoformat(timespec="seconds")))
            except sqlite3.IntegrityError:
                db.execute("ROLLBACK")
                return False
            db.execute("COMMIT")
            kept(f"the payment of {barcode} in the ledger {self.ledger}")
            return True
        finally:
            db.close()
