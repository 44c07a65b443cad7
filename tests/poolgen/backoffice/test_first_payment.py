"""A ticket paid in two ledgers is one prize claimed, at its first payment: the earliest by its time,
whatever order the ledgers are given in (docs/back-office.md, section 6). Kept in the order of
`--ledger`, the closing report counted a ticket at whichever payment's ledger came first, so with one of
its payments forged (an amount edited and the ledger re-chained, which the key-less checks pass) its
figures changed with the order of the arguments, and the reconciliation called the earlier payment the
second. The run is the conftest's `office`; the third engine (tests/third_engines/back_office.py) agrees."""

from __future__ import annotations

import json
import sqlite3

import polars as pl

from tests.support.cli import invoke
from tests.support.ledger_heads import link
from tests.third_engines import back_office


def _pay(office, ledger, desk):
    b, v, *_ = office["rows"].filter(pl.col("tier") == "5").row(9)
    result = invoke("validate", office["folder"], "--public-key", office["public"], b, v, "--validation-key",
                    office["root"] / "low.key", "--index-dir", office["index"], "--ledger", ledger,
                    "--desk", desk)
    assert result.exit_code == 0, result.output
    return b


def _forge(ledger, cents):
    """Claim no. 1's payment made `cents` and its chain computed again (the chain has no key)."""
    db = sqlite3.connect(ledger)
    row = db.execute("SELECT claim_no, at, run_id, barcode, desk, clerk, outcome, reason "
                     "FROM attempts").fetchone()
    virn, tier, free = db.execute("SELECT virn, tier, free FROM paid").fetchone()
    db.execute("UPDATE paid SET prize_cents = ?", (cents,))
    db.execute("UPDATE attempts SET chain = ?", (link("00" * 32, [*row, virn, tier, cents, free]),))
    db.commit()
    db.close()


def _close(office, *ledgers):
    more = [x for path in ledgers for x in ("--ledger", path)]
    done = invoke("claims", "close", office["folder"], *more, "--json")
    assert done.exit_code == 0, done.output
    return json.loads(done.stdout)


def _paid(report, label):
    return next(lv["paid"] for lv in report["levels"] if lv["prize"] == label)


def test_a_ticket_paid_in_two_ledgers_counts_at_its_earliest_payment_in_either_order(office, tmp_path):
    early, late = tmp_path / "early.sqlite", tmp_path / "late.sqlite"
    barcode = _pay(office, early, "d1")
    assert _pay(office, late, "d2") == barcode
    _forge(late, 200)  # the later payment says $2
    alone = _close(office, early)
    one, other = _close(office, late, early), _close(office, early, late)
    assert one == other
    assert (_paid(one, "$5.00"), _paid(one, "$2.00")) == (_paid(alone, "$5.00"), _paid(alone, "$2.00"))
    assert one["paid_cents"] == alone["paid_cents"]
    mine = back_office.closing([office["folder"]], [late, early])  # the third engine, from the doc alone
    assert {k: one[k] for k in mine} == mine
    at = sqlite3.connect(early).execute("SELECT at FROM paid").fetchone()[0]
    keys = ("--validation-key", office["root"] / "low.key")
    for order in ((late, early), (early, late)):
        more = [x for path in order for x in ("--ledger", path)]
        result = invoke("claims", "reconcile", office["folder"], *more, *keys)
        assert result.exit_code == 1
        assert [line for line in result.output.splitlines() if line.startswith("problem: ")] == [
            f"problem: {late}: claim no. 1 ({barcode}): paid twice (also {early}: claim no. 1 at {at})"]
