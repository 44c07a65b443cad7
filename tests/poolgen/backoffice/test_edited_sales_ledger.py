"""An eInstant sales ledger edited by hand: a pool's share count raised in the ledger sold shares the
pool does not have (a player paid for a share with no outcome), and the reconciliation did not see it.
The pool's size and price are the signed manifest's, never the ledger's. The run is the conftest's
`einstant` (one pool of 2,000 shares)."""

from __future__ import annotations

import json
import sqlite3

from tests.support.cli import invoke


def _sell(einstant, ledger):
    return invoke("sales", "sell", einstant["folder"], "--ledger", ledger, "--pool", "d1.00", "--channel",
                  "web", "--player", "p1", "--json")


def _edit(ledger, sql):
    db = sqlite3.connect(ledger)
    db.execute(sql)
    db.commit()
    db.close()


def test_a_share_count_raised_in_the_ledger_sells_no_share_the_pool_lacks(einstant, tmp_path):
    ledger = tmp_path / "sales.sqlite"
    assert _sell(einstant, ledger).exit_code == 0
    _edit(ledger, "UPDATE pools SET shares = 5000, next_serial = 2001")
    result = _sell(einstant, ledger)
    assert (result.exit_code, json.loads(result.output)["reason"]) == (
        1, "pool d1.00: sold out (all 2,000 shares sold)")


def test_a_pool_entry_edited_in_the_ledger_does_not_reconcile(einstant, tmp_path):
    ledger = tmp_path / "sales.sqlite"
    assert _sell(einstant, ledger).exit_code == 0
    _edit(ledger, "UPDATE pools SET shares = 5000, price_cents = 50")
    result = invoke("sales", "reconcile", einstant["folder"], "--ledger", ledger)
    assert (result.exit_code, result.output) == (1, (
        "problem: pool d1.00: the ledger records 5,000 shares at $0.50; the run's pool has 2,000 at $1.00\n"
        "0 paid share(s), $0.00: 1 problem(s); the ledger does not reconcile\n"))
