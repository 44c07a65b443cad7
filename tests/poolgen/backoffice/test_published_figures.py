"""Prizes remaining and the closing report add up whatever the ledgers hold: a ticket paid at two desks
with separate ledgers is one prize gone, not two (the public table showed a top prize fewer than the
game still held); a ledger holding a payment the game cannot hold (an amount it has no prize of, more
prizes of a level than it has) draws no table with negative figures. The run is the conftest's."""

from __future__ import annotations

import json
import shutil
import sqlite3

import polars as pl

from tests.support.cli import invoke, one_line
from tests.support.ledger_heads import ledger_head


def _pay(office, ledger, tier, nth):
    b, v, *_ = office["rows"].filter(pl.col("tier") == tier).row(nth)
    result = invoke("validate", office["folder"],
                    "--public-key", office["public"], b, v, "--validation-key", office["root"] / "low.key",
                    "--high-validation-key", office["root"] / "high.key", "--index-dir", office["index"],
                    "--ledger", ledger)
    assert result.exit_code == 0, result.output


def _level(doc, prize):
    return next(lv for lv in doc["levels"] if lv["prize"] == prize)


def test_a_ticket_paid_at_two_desks_is_one_prize_gone(office, tmp_path):
    a, b = tmp_path / "a.sqlite", tmp_path / "b.sqlite"
    _pay(office, a, "100", 3)
    _pay(office, b, "100", 3)  # the same ticket at a second desk with its own ledger
    _pay(office, b, "5", 30)
    total = office["rows"].filter(pl.col("tier") == "100").height
    both = ("--ledger", a, "--ledger", b)
    report = json.loads(invoke("claims", "report", office["folder"], *both, "--json").output)
    assert (_level(report, "$100.00")["paid"], _level(report, "$100.00")["remaining"]) == (1, total - 1)
    close = json.loads(invoke("claims", "close", office["folder"], *both, "--json").output)
    hundred = _level(close, "$100.00")
    assert (hundred["paid"], hundred["unclaimed"]) == (1, total - 1)
    assert hundred["unclaimed_cents"] == (total - 1) * 10000
    assert close["paid_cents"] == 10500
    assert close["unclaimed_cents"] == close["designed_prizes_cents"] - 10500
    text = invoke("claims", "report", office["folder"], *both).output.splitlines()
    assert text[2].split() == ["$100.00", str(total), "1", str(total - 1)]


def test_a_payment_the_game_cannot_hold_draws_no_table(office, tmp_path):
    ledger = tmp_path / "claims.sqlite"
    _pay(office, ledger, "5", 31)
    forged = tmp_path / "forged.sqlite"
    shutil.copy(ledger, forged)
    db = sqlite3.connect(forged)
    db.execute("UPDATE paid SET prize_cents = 777")
    db.commit()
    db.close()
    _, chain = ledger_head(forged).split(":")  # re-chained, as the clerk who edits can (the closing
    db = sqlite3.connect(forged)                # report refuses a broken chain first)
    db.execute("UPDATE attempts SET chain = ? WHERE claim_no = 1", (chain,))
    db.commit()
    db.close()
    for command in ("report", "close"):
        result = invoke("claims", command, office["folder"], "--ledger", forged)
        one_line(result, "poolgen", "the ledgers hold 1 payment of $7.77, a prize the game does not hold; "
                                    "the figures would not add up (`poolgen claims reconcile` names each "
                                    "payment)")
        assert result.stdout == ""
