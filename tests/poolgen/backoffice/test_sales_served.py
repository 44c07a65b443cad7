"""The sales reports count shares sold from the ledger's `pools` rows (`next_serial`), which are in no
chain (docs/back-office.md, sections 5 and 6). Before: an insider with write access to the ledger raised a
pool's `next_serial` by hand; `sales reconcile` checked only pools with a sale (a pool registered by its
closing alone passed), and `sales report` (with or without `--closing`) drew its figures from the edited
row, counting prizes in shares never sold as sold and unclaimed. The run is the conftest's `einstant`
(run `eh`, one pool d1.00 of 2,000 shares)."""

from __future__ import annotations

import sqlite3

from tests.support.cli import invoke


def _do(einstant, ledger, *args):
    result = invoke("sales", *args[:1], einstant["folder"], *args[1:], "--public-key", einstant["public"],
                    "--ledger", ledger)
    assert result.exit_code == 0, result.output
    return result


def _raise(ledger, to):
    db = sqlite3.connect(ledger)
    db.execute("UPDATE pools SET next_serial = ?", (to,))
    db.commit()
    db.close()


def _refusal(ledger, problem):
    return (2, f"poolgen: error: {ledger}: {problem}; the ledger does not reconcile, so the figures would "
               "not add up (`poolgen sales reconcile` names each problem)\n")


def test_a_pool_closed_unsold_whose_next_serial_is_raised_is_named_and_reported_from_no_more(
        einstant, tmp_path):
    ledger = tmp_path / "sales.sqlite"
    _do(einstant, ledger, "close", "--pool", "d1.00")  # registered by its closing: no sale
    _raise(ledger, 1001)
    problem = "pool d1.00: the shares sold are not serials 1 to 1,000 in the pool's order"
    result = invoke("sales", "reconcile", einstant["folder"], "--ledger", ledger)
    assert (result.exit_code, [x for x in result.output.splitlines() if x.startswith("problem: ")]) == (
        1, [f"problem: {problem}"])
    for closing in ((), ("--closing",)):
        report = invoke("sales", "report", "--ledger", ledger, "--run", einstant["folder"], *closing)
        assert (report.exit_code, report.stderr) == _refusal(ledger, problem)


def test_a_next_serial_raised_past_the_sales_is_reported_from_no_more(einstant, tmp_path):
    ledger = tmp_path / "sales.sqlite"
    for _ in range(3):
        _do(einstant, ledger, "sell", "--pool", "d1.00", "--channel", "web", "--player", "p1")
    honest = invoke("sales", "report", "--ledger", ledger, "--run", einstant["folder"], "--closing")
    assert honest.exit_code == 0, honest.output
    _raise(ledger, 1501)
    report = invoke("sales", "report", "--ledger", ledger, "--run", einstant["folder"], "--closing")
    assert (report.exit_code, report.stderr) == _refusal(
        ledger, "pool d1.00: the shares sold are not serials 1 to 1,500 in the pool's order")
