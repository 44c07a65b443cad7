"""An eInstant sales ledger edited by hand: a pool's share count raised in the ledger sold shares the
pool does not have (a player paid for a share with no outcome), and the reconciliation did not see it.
The pool's size and price are the signed manifest's, never the ledger's. The run is the conftest's
`einstant` (one pool of 2,000 shares)."""

from __future__ import annotations

import json
import sqlite3

from tests.support.cli import invoke
from tests.support.ledger_heads import rechain_sales, split_heads


def _sell(einstant, ledger):
    return invoke("sales", "sell", einstant["folder"],
                  "--public-key", einstant["public"], "--ledger", ledger, "--pool", "d1.00", "--channel",
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
    assert (result.exit_code, split_heads(result.output)[0]) == (1, (
        "problem: pool d1.00: the ledger records 5,000 shares at $0.50; the run's pool has 2,000 at $1.00\n"
        "0 paid share(s), $0.00: 1 problem(s); the ledger does not reconcile\n"))


def _winner_sold_and_paid(einstant, ledger):
    prizes = einstant["prizes"]
    winner = next(i for i, p in enumerate(prizes, start=1) if p > 0)
    for _ in range(winner):
        assert _sell(einstant, ledger).exit_code == 0
    share = f"d1.00-{winner:07d}"
    assert invoke("sales", "claim", einstant["folder"],
                  "--public-key", einstant["public"], share, "--ledger", ledger).exit_code == 0
    return share, prizes[winner - 1]


def test_a_claim_cleared_by_hand_and_paid_again_does_not_reconcile(einstant, tmp_path):
    """The sale's row was the payment's only record: clearing its claimed_at let the share be paid a
    second time, and the ledger still reconciled."""
    ledger = tmp_path / "sales.sqlite"
    share, prize = _winner_sold_and_paid(einstant, ledger)
    _edit(ledger, "UPDATE sales SET claimed_at = NULL, prize_cents = NULL")
    again = invoke("sales", "claim", einstant["folder"],
                   "--public-key", einstant["public"], share, "--ledger", ledger)
    assert again.exit_code == 0  # the desk cannot know: the edit removed what it checks
    result = invoke("sales", "reconcile", einstant["folder"], "--ledger", ledger)
    cash = f"${prize // 100:,}.{prize % 100:02d}"
    assert (result.exit_code, split_heads(result.output)[0]) == (1, (
        f"problem: {share}: paid 2 times (payment nos. 1, 2)\n"
        f"1 paid share(s), {cash}: 1 problem(s); the ledger does not reconcile\n"))


def test_a_payment_row_removed_or_a_claim_cleared_does_not_reconcile(einstant, tmp_path):
    ledger = tmp_path / "sales.sqlite"
    share, _ = _winner_sold_and_paid(einstant, ledger)
    _edit(ledger, "UPDATE sales SET claimed_at = NULL, prize_cents = NULL")
    cleared = invoke("sales", "reconcile", einstant["folder"], "--ledger", ledger)
    assert (cleared.exit_code, cleared.output.splitlines()[0]) == (
        1, f"problem: {share}: payment no. 1 is recorded, but its sale shows no claim (cleared by hand)")
    ledger2 = tmp_path / "sales2.sqlite"
    share2, _ = _winner_sold_and_paid(einstant, ledger2)
    _edit(ledger2, "DELETE FROM payments")
    removed = invoke("sales", "reconcile", einstant["folder"], "--ledger", ledger2)
    assert (removed.exit_code, removed.output.splitlines()[0]) == (
        1, f"problem: {share2}: claimed, but no payment row records it (removed by hand)")


def test_a_share_claim_killed_before_its_commit_leaves_neither_record(einstant, tmp_path):
    """A payment is two writes (the sale's claim and its payments row): SIGKILL between them and the
    commit leaves neither, and the share is then paid once."""
    import os  # noqa: PLC0415  # only this test runs and kills a process
    import signal  # noqa: PLC0415
    import subprocess  # noqa: PLC0415
    import sys  # noqa: PLC0415
    import time  # noqa: PLC0415

    ledger = tmp_path / "sales.sqlite"
    prizes = einstant["prizes"]
    winner = next(i for i, p in enumerate(prizes, start=1) if p > 0)
    for _ in range(winner):
        assert _sell(einstant, ledger).exit_code == 0
    share, mark = f"d1.00-{winner:07d}", tmp_path / "paused"
    cmd = [sys.executable, "-m", "poolgen", "sales", "claim", str(einstant["folder"]), share, "--ledger",
           str(ledger), "--public-key", str(einstant["public"])]
    proc = subprocess.Popen(cmd, env={**os.environ, "POOLGEN_TEST_PAUSE": f"share-claim-written:60:{mark}"},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not mark.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert mark.exists()
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    db = sqlite3.connect(f"file:{ledger}?mode=ro", uri=True)
    try:
        assert db.execute("SELECT count(*) FROM payments").fetchone()[0] == 0
        assert db.execute("SELECT count(*) FROM sales WHERE claimed_at IS NOT NULL").fetchone()[0] == 0
    finally:
        db.close()
    paid = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert paid.returncode == 0 and " - paid at " in paid.stdout
    result = invoke("sales", "reconcile", einstant["folder"], "--ledger", ledger)
    assert result.exit_code == 0 and split_heads(result.output)[0].startswith("1 paid share(s), ")


def test_a_voided_sale_moved_past_the_pool_is_refused_by_the_closing_report(einstant, tmp_path):
    """The closing report reads a voided sale's prize by its serial: a serial edited past the pool was an
    IndexError traceback; it is one line naming the ledger and the first problem (the served sequence's,
    checked first: the shares sold are no longer serials 1 to n; reconcile names every problem)."""
    ledger = tmp_path / "sales.sqlite"
    assert _sell(einstant, ledger).exit_code == 0
    assert invoke("sales", "void", einstant["folder"],
                  "--public-key", einstant["public"], "d1.00-0000001", "--ledger", ledger, "--reason",
                  "R1").exit_code == 0
    _edit(ledger, "UPDATE sales SET serial = 9999")
    _edit(ledger, "UPDATE voids SET serial = 9999")
    rechain_sales(ledger)  # the chains have no key: whole again, so the closing report reads the rows
    result = invoke("sales", "report", einstant["folder"], "--ledger", ledger, "--closing")
    assert (result.exit_code, result.output) == (2, (
        f"poolgen: error: {ledger}: pool d1.00: the shares sold are not serials 1 to 1 in the pool's order; "
        "the ledger does not reconcile, so the figures would not add up (`poolgen sales reconcile` names "
        "each problem)\n"))


def test_the_closing_report_never_hides_a_paid_share_or_pays_an_amount_it_does_not_show(einstant, tmp_path):
    """The closing report counted payments from the sales rows alone: a paid share whose claim was cleared
    by hand (its payment row kept) was shown unclaimed and left out of the amount paid, and one whose
    amount was edited to $77.77 was in the amount paid but in no level's row (its own level showing it
    unclaimed). Now either is refused in one line, as the printed closing refuses a payment the game
    cannot hold; the reconciliation names each problem."""
    ledger = tmp_path / "sales.sqlite"
    share, prize = _winner_sold_and_paid(einstant, ledger)
    _edit(ledger, "UPDATE sales SET claimed_at = NULL, prize_cents = NULL")
    cleared = invoke("sales", "report", einstant["folder"], "--ledger", ledger, "--closing")
    assert (cleared.exit_code, cleared.output) == (2, (
        f"poolgen: error: {ledger}: {share}: payment no. 1 is recorded, but its sale shows no claim (cleared "
        "by hand); the ledger does not reconcile, so the figures would not add up (`poolgen sales reconcile` "
        "names each problem)\n"))
    ledger2 = tmp_path / "sales2.sqlite"
    share2, prize2 = _winner_sold_and_paid(einstant, ledger2)
    _edit(ledger2, "UPDATE sales SET prize_cents = 7777")
    _edit(ledger2, "UPDATE payments SET prize_cents = 7777")
    rechain_sales(ledger2)  # the chains have no key: whole again, so the closing report reads the rows
    moved = invoke("sales", "report", einstant["folder"], "--ledger", ledger2, "--closing", "--json")
    cash = f"${prize2 // 100:,}.{prize2 % 100:02d}"
    assert (moved.exit_code, moved.output) == (2, (
        f"poolgen: error: {ledger2}: {share2}: paid $77.77, but its prize is {cash}; the ledger does not "
        "reconcile, so the figures would not add up (`poolgen sales reconcile` names each problem)\n"))
