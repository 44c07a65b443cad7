"""The eInstant sales ledger (`poolgen sales`, poolgen/backoffice/sales.py): shares sold once each, in
serial order, by concurrent sellers in separate processes; voids, closing, and a share's claim. The run
is the conftest's `einstant` (one pool of 2,000 shares)."""

from __future__ import annotations

import json
import subprocess
import sys

from poolgen.backoffice.sales import SalesLedger
from poolgen.backoffice.vouched import open_signed, open_vouched
from tests.support.cli import invoke
from tests.support.ledger_heads import printed_heads, sales_heads, split_heads

SELLER = """
import sys
from poolgen.backoffice.sales import SalesLedger
from poolgen.backoffice.vouched import open_signed
book = SalesLedger(sys.argv[2], open_signed(sys.argv[1], sys.argv[5], "seller"))
got = [book.sell("d1.00", "web", f"seller{sys.argv[3]}").serial for _ in range(int(sys.argv[4]))]
print(" ".join(map(str, got)))
"""


def test_1000_shares_sold_by_8_concurrent_sellers_are_each_sold_once_in_serial_order(einstant, tmp_path):
    ledger = tmp_path / "sales.sqlite"
    cmd = [sys.executable, "-c", SELLER, str(einstant["folder"]), str(ledger)]
    procs = [subprocess.Popen([*cmd, str(i), "125", str(einstant["public"])], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for i in range(8)]
    outs = [p.communicate(timeout=300) for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    per_seller = [[int(x) for x in out.split()] for out, _ in outs]
    assert all(s == sorted(s) for s in per_seller)  # each seller's shares come in serial order
    assert sorted(x for s in per_seller for x in s) == list(range(1, 1001))
    book = SalesLedger(ledger, open_vouched(einstant["folder"]))
    try:
        sales = book.sales()
        assert [s.serial for s in sales] == list(range(1, 1001))  # sale numbers follow serial order
        assert [s.sale_no for s in sales] == list(range(1, 1001))
        assert book.pools()["d1.00"] == (2000, 1001, None)
    finally:
        book.close()
    assert ledger.stat().st_mode & 0o777 == 0o600


def _sales(einstant, *args):
    return invoke("sales", *args[:1], einstant["folder"], "--public-key", einstant["public"], *args[1:])


def test_sell_void_claim_close(einstant, tmp_path):
    ledger = tmp_path / "sales.sqlite"
    sell = ("sell", "--ledger", ledger, "--pool", "d1.00", "--channel", "web", "--player", "p-1")
    first = _sales(einstant, *sell, "--json")
    assert first.exit_code == 0 and json.loads(first.output)["ticket"] == "d1.00-0000001"
    prizes = einstant["prizes"]
    winner = next(i for i, p in enumerate(prizes, start=1) if p > 0)
    for _ in range(winner - 1):
        assert _sales(einstant, *sell).exit_code == 0
    paid = _sales(einstant, "claim", f"d1.00-{winner:07d}", "--ledger", ledger)
    p = prizes[winner - 1]
    assert paid.exit_code == 0
    assert paid.stdout.startswith(f"d1.00-{winner:07d}: prize ${p // 100:,}.{p % 100:02d} to player p-1 "
                                  "- paid at ")
    again = _sales(einstant, "claim", f"d1.00-{winner:07d}", "--ledger", ledger)
    assert again.exit_code == 1
    assert again.output.startswith(f"refused: pool d1.00: share {winner}: already paid at ")
    unsold = _sales(einstant, "claim", f"d1.00-{winner + 1:07d}", "--ledger", ledger)
    assert (unsold.exit_code, unsold.output) == (
        1, f"refused: pool d1.00: share {winner + 1} was never sold; nothing to pay\n")
    assert _sales(einstant, *sell).exit_code == 0
    voided = _sales(einstant, "void", f"d1.00-{winner + 1:07d}", "--ledger", ledger, "--reason", "FAULT-1")
    assert voided.exit_code == 0 and voided.output.startswith(f"voided d1.00-{winner + 1:07d}: sale no. ")
    after = _sales(einstant, "claim", f"d1.00-{winner + 1:07d}", "--ledger", ledger)
    assert after.exit_code == 1 and "its sale was voided at" in after.output
    nxt = _sales(einstant, *sell, "--json")
    assert json.loads(nxt.output)["serial"] == winner + 2  # a voided share is never sold again
    closed = _sales(einstant, "close", "--ledger", ledger, "--pool", "d1.00")
    assert (closed.exit_code, closed.stdout.endswith(f": {winner + 2:,} share(s) sold, {2000 - winner - 2:,} "
                                                     "never sold\n")) == (0, True)
    assert closed.stderr == f"ledger {ledger}: closings head {sales_heads(ledger)['closings']}\n"
    refused = _sales(einstant, *sell)
    assert refused.exit_code == 1 and refused.output.startswith("refused: pool d1.00: closed at ")
    assert refused.output.endswith("; no sale after close\n")
    book = SalesLedger(ledger, open_vouched(einstant["folder"]))
    try:
        assert len(book.sales()) == winner + 2
    finally:
        book.close()
    report = _sales(einstant, "report", "--ledger", ledger, "--json")
    levels = json.loads(report.output)["levels"]
    assert sum(lv["sold"] for lv in levels) == sum(x > 0 for x in prizes[:winner + 2])
    assert sum(lv["remaining"] for lv in levels) == sum(x > 0 for x in prizes[winner + 2:])
    closing = json.loads(_sales(einstant, "report", "--ledger", ledger, "--closing", "--json").output)
    assert closing["paid_cents"] == p and closing["sales_cents"] == (winner + 1) * 100


def test_a_share_id_with_look_alike_digits_is_refused(einstant, tmp_path):
    result = _sales(einstant, "claim", "d1.00-000000\u0661", "--ledger", tmp_path / "s.sqlite")
    assert result.exit_code == 2 and result.stderr == (
        "poolgen: error: share 'd1.00-000000\\u0661': not a share's ticket id POOL-NNNNNNN (ASCII digits)\n")


def test_the_sales_reconciliation_names_a_forged_payment_and_a_share_sold_out_of_order(einstant, tmp_path):
    import sqlite3  # noqa: PLC0415  # only this test edits a ledger behind the tool's back

    ledger = tmp_path / "sales.sqlite"
    prizes = einstant["prizes"]
    winner = next(i for i, p in enumerate(prizes, start=1) if p > 0)
    book = SalesLedger(ledger, open_signed(einstant["folder"], einstant["public"], "test"))
    try:
        for _ in range(winner + 1):
            book.sell("d1.00", "web", "p")
        book.claim("d1.00", winner)
    finally:
        book.close()
    honest = _sales(einstant, "reconcile", "--ledger", ledger)
    p = prizes[winner - 1]
    assert (honest.exit_code, split_heads(honest.output)) == (
        0, (f"1 paid share(s), ${p // 100:,}.{p % 100:02d}: the ledger reconciles with the run, its "
            "manifest's signature verified\n",
            printed_heads(ledger)))
    db = sqlite3.connect(ledger)
    claimed = db.execute("SELECT claimed_at FROM sales WHERE serial = ?", (winner,)).fetchone()[0]
    db.execute("UPDATE sales SET prize_cents = 99999900 WHERE serial = ?", (winner,))
    db.execute("UPDATE sales SET sale_no = 1000 WHERE serial = 1")
    db.commit()
    db.close()
    forged = _sales(einstant, "reconcile", "--ledger", ledger)
    assert forged.exit_code == 1
    assert split_heads(forged.output)[0].splitlines() == [
        "problem: pool d1.00: sale numbers do not rise with serials (a share sold out of serial order)",
        f"problem: d1.00-{winner:07d}: paid $999,999.00, but its prize is ${p // 100:,}.{p % 100:02d}",
        f"problem: d1.00-{winner:07d}: its sale records $999,999.00 paid at {claimed}, its payment no. 1 "
        f"${p // 100:,}.{p % 100:02d} at {claimed}",  # the payment row keeps what was paid
        f"problem: {ledger}: sale no. 2: its chain is not the one its rows give (a row edited, inserted or "
        "removed by hand)",  # sales are chained (schema version 4): sale no. 1 renumbered
        "1 paid share(s), $999,999.00: 4 problem(s); the ledger does not reconcile"]


def test_a_sales_reconciliation_without_the_public_key_says_the_signature_was_not_checked(einstant, tmp_path):
    ledger = tmp_path / "sales.sqlite"
    assert _sales(einstant, "sell", "--ledger", ledger, "--pool", "d1.00", "--channel", "web",
                  "--player", "p").exit_code == 0
    unchecked = invoke("sales", "reconcile", einstant["folder"], "--ledger", ledger)
    assert (unchecked.exit_code, split_heads(unchecked.output)[0]) == (
        0, "0 paid share(s), $0.00: the ledger reconciles with the run, whose manifest's signature was NOT "
           "checked (give --public-key)\n")
    doc = json.loads(invoke("sales", "reconcile", einstant["folder"], "--ledger", ledger, "--json").output)
    assert doc["signature_checked"] is False
    checked = _sales(einstant, "reconcile", "--ledger", ledger, "--json")
    assert json.loads(checked.output)["signature_checked"] is True
