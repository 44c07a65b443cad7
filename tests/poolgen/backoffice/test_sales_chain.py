"""The sales ledger's sales and voids chained (docs/back-office.md, section 5, schema version 4): a void
cleared by hand and the share then claimed, a sale's player changed, a sale's time moved before the
pool's closing passed `sales reconcile` (with or without `--head`) while only payments were chained.
The chains are recomputed here from the doc with hashlib alone (tests/support/ledger_heads.py). The run
is the conftest's `einstant` (one pool of 2,000 shares)."""

from __future__ import annotations

import json
import sqlite3

from poolgen.backoffice.owned import APPLICATION_ID
from tests.support.cli import invoke
from tests.support.ledger_heads import link, printed_heads, rechain_sales, sales_heads, split_heads


def _do(einstant, ledger, *args):
    result = invoke("sales", *args[:1], einstant["folder"], *args[1:], "--public-key", einstant["public"],
                    "--ledger", ledger)
    assert result.exit_code == 0, result.output
    return result


def _sell(einstant, ledger, n, player="p1"):
    for _ in range(n):
        _do(einstant, ledger, "sell", "--pool", "d1.00", "--channel", "web", "--player", player)


def _edit(ledger, sql, *args):
    db = sqlite3.connect(ledger)
    db.execute(sql, args)
    db.commit()
    db.close()


def _reconcile(einstant, ledger, *more):
    return invoke("sales", "reconcile", einstant["folder"], "--ledger", ledger, *more)


def _winner(einstant):
    return next(i for i, p in enumerate(einstant["prizes"], start=1) if p > 0)


def test_an_honest_ledger_of_sales_voids_and_a_payment_reconciles_with_its_heads(einstant, tmp_path):
    ledger, winner = tmp_path / "sales.sqlite", _winner(einstant)
    _sell(einstant, ledger, winner + 2)
    _do(einstant, ledger, "void", f"d1.00-{winner + 1:07d}", "--reason", "R1")
    _do(einstant, ledger, "claim", f"d1.00-{winner:07d}")
    heads = sales_heads(ledger)
    assert [h.split(":")[0] for h in heads.values()] == [str(winner + 2), "1", "0", "0", "1"]
    result = _reconcile(einstant, ledger, *(x for k, h in heads.items() for x in ("--head", f"{k}={h}")))
    rest, printed = split_heads(result.output)
    assert (result.exit_code, rest.splitlines()[-1].startswith("1 paid share(s), ")) == (0, True)
    assert printed == printed_heads(ledger)
    assert rest.splitlines()[:-1] == [  # each head given, said to be checked
        f"ledger {ledger}: extends the {k} head given, {h}" for k, h in heads.items()]


def test_a_void_cleared_by_hand_is_neither_paid_nor_reconciled(einstant, tmp_path):
    """Before: `voided_at` set to NULL and the share claimed was paid, and reconcile passed."""
    ledger, winner = tmp_path / "sales.sqlite", _winner(einstant)
    _sell(einstant, ledger, winner)
    share = f"d1.00-{winner:07d}"
    _do(einstant, ledger, "void", share, "--reason", "R1")
    _edit(ledger, "UPDATE sales SET voided_at = NULL, void_reason = NULL")
    claim = invoke("sales", "claim", einstant["folder"], share, "--public-key", einstant["public"],
                   "--ledger", ledger)
    assert (claim.exit_code, claim.output.splitlines()[0].startswith(
        f"refused: pool d1.00: share {winner}: its sale was voided at ")) == (1, True), claim.output
    result = _reconcile(einstant, ledger)
    assert (result.exit_code, split_heads(result.output)[0].splitlines()[0]) == (
        1, f"problem: {share}: void no. 1 is recorded, but its sale shows no void (cleared by hand)")


def test_a_void_row_removed_with_its_sale_cleared_is_refused_against_a_voids_head(einstant, tmp_path):
    ledger, winner = tmp_path / "sales.sqlite", _winner(einstant)
    _sell(einstant, ledger, winner)
    share = f"d1.00-{winner:07d}"
    _do(einstant, ledger, "void", share, "--reason", "R1")
    head = sales_heads(ledger)["voids"]
    _edit(ledger, "UPDATE sales SET voided_at = NULL, void_reason = NULL")
    _edit(ledger, "DELETE FROM voids")
    _do(einstant, ledger, "claim", share)  # the desk cannot know; the head can
    result = _reconcile(einstant, ledger, "--head", f"voids={head}")
    assert (result.exit_code, split_heads(result.output)[0].splitlines()[0]) == (1, (
        f"problem: {ledger}: void no. 1 is missing (1 row removed from its end): the ledger no longer "
        f"extends its voids head {head}; a voided share whose void was removed can be paid"))


def test_a_sales_void_reason_edited_by_hand_is_named_against_its_void_row(einstant, tmp_path):
    """The doc: a sale's `void_reason` is a copy of its void row's `reason`, which reconcile compares with
    it. Before: only the time was compared, and a reason edited by hand reconciled."""
    ledger = tmp_path / "sales.sqlite"
    _sell(einstant, ledger, 2)
    _do(einstant, ledger, "void", "d1.00-0000002", "--reason", "R1")
    _edit(ledger, "UPDATE sales SET void_reason = 'EDITED' WHERE sale_no = 2")
    db = sqlite3.connect(ledger)
    at = db.execute("SELECT at FROM voids").fetchone()[0]
    db.close()
    result = _reconcile(einstant, ledger)
    assert (result.exit_code, split_heads(result.output)[0].splitlines()[0]) == (1, (
        f"problem: d1.00-0000002: its sale records a void at {at} for EDITED, its void no. 1 at {at} "
        "for R1"))


def test_a_void_removed_from_the_middle_and_rechained_leaves_a_gap_that_is_named(einstant, tmp_path):
    """The doc: a gap in a chain's numbers is a problem of its own (as the payments'). Before: the first of
    two voids removed, its sale's void cleared and the voids chained again reconciled, so its share could
    be paid (its outcome may have been shown)."""
    ledger = tmp_path / "sales.sqlite"
    _sell(einstant, ledger, 3)
    for share in ("d1.00-0000001", "d1.00-0000002"):
        _do(einstant, ledger, "void", share, "--reason", "R1")
    _edit(ledger, "UPDATE sales SET voided_at = NULL, void_reason = NULL WHERE sale_no = 1")
    _edit(ledger, "DELETE FROM voids WHERE void_no = 1")
    rechain_sales(ledger)
    result = _reconcile(einstant, ledger)
    assert (result.exit_code, split_heads(result.output)[0].splitlines()[0]) == (
        1, f"problem: {ledger}: void number 1 is missing (rows removed by hand)")


def test_void_rows_added_and_removed_by_hand_are_each_named(einstant, tmp_path):
    """Every void row problem of section 5 on one ledger: a gap, a share voided twice, a void removed
    with its sale still voided, a void of a share never sold, and the voids chain broken by them."""
    ledger = tmp_path / "sales.sqlite"
    _sell(einstant, ledger, 3)
    for share in ("d1.00-0000001", "d1.00-0000002"):
        _do(einstant, ledger, "void", share, "--reason", "R1")
    _edit(ledger, "DELETE FROM voids WHERE void_no = 2")
    _edit(ledger, "INSERT INTO voids VALUES (3, 'eh', 'd1.00', 1, '2026-12-03T00:00:00.000Z', 'R1', 'x')")
    _edit(ledger, "INSERT INTO voids VALUES (4, 'eh', 'd1.00', 1999, '2026-12-03T00:00:00.000Z', 'R1', 'x')")
    result = _reconcile(einstant, ledger)
    assert (result.exit_code, split_heads(result.output)[0].splitlines()[:-1]) == (1, [
        f"problem: {ledger}: void number 2 is missing (rows removed by hand)",
        "problem: d1.00-0000001: voided 2 times (void nos. 1, 3)",
        "problem: d1.00-0000002: voided, but no void row records it (removed by hand)",
        "problem: d1.00-0001999: void no. 4 of a share never sold",
        f"problem: {ledger}: void no. 3: its chain is not the one its rows give (a row edited, inserted or "
        "removed by hand)"])


def test_a_sales_player_changed_by_hand_breaks_its_chain(einstant, tmp_path):
    """Before: the share was paid to whoever claimed it with `--player` of the new reference."""
    ledger = tmp_path / "sales.sqlite"
    _sell(einstant, ledger, 3)
    _edit(ledger, "UPDATE sales SET player = 'thief' WHERE sale_no = 2")
    result = _reconcile(einstant, ledger)
    assert (result.exit_code, split_heads(result.output)[0].splitlines()[0]) == (1, (
        f"problem: {ledger}: sale no. 2: its chain is not the one its rows give (a row edited, inserted or "
        "removed by hand)"))
    report = invoke("sales", "report", einstant["folder"], "--ledger", ledger)
    assert (report.exit_code, report.output) == (2, (
        f"poolgen: error: {ledger}: sale no. 2: its chain is not the one its rows give (a row edited, "
        "inserted or removed by hand); the back office reports from no ledger whose chain breaks "
        "(`poolgen sales reconcile` names each problem)\n"))


def test_a_sales_time_moved_before_the_closing_breaks_its_chain_even_rechained_against_a_head(
        einstant, tmp_path):
    """Before: a sale made after the pool's closing, its time moved before it, passed reconcile."""
    ledger = tmp_path / "sales.sqlite"
    _sell(einstant, ledger, 2)
    head = sales_heads(ledger)["sales"]
    _edit(ledger, "UPDATE sales SET at = '2026-12-01T00:00:00.000Z' WHERE sale_no = 1")
    result = _reconcile(einstant, ledger)
    assert (result.exit_code, split_heads(result.output)[0].splitlines()[0]) == (1, (
        f"problem: {ledger}: sale no. 1: its chain is not the one its rows give (a row edited, inserted or "
        "removed by hand)"))
    rechain_sales(ledger)  # chained again from the doc, as anyone able to write the file can
    assert _reconcile(einstant, ledger).exit_code == 0
    against = _reconcile(einstant, ledger, "--head", f"sales={head}")
    assert (against.exit_code, split_heads(against.output)[0].splitlines()[0]) == (1, (
        f"problem: {ledger}: its sale no. 2 is not the row its sales head {head} named (rows removed from "
        "its end and sales recorded since, or rows edited): the ledger no longer extends that head"))


def _version_3(ledger):
    """A version 3 ledger in WAL mode, as the tool left one: share 1 of d1.00 sold."""
    from poolgen.backoffice.sales_schema import SALES_3  # noqa: PLC0415  # only these tests build version 3 ledgers

    db = sqlite3.connect(ledger)
    for sql in SALES_3.schema:
        db.execute(sql)
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute("PRAGMA user_version = 3")
    db.execute("PRAGMA journal_mode = WAL")  # as the tool leaves it: reading it then writes nothing
    db.execute("INSERT INTO pools VALUES ('eh', 'd1.00', 2000, 100, 2, NULL)")
    db.execute("INSERT INTO sales VALUES ('eh', 'd1.00', 1, 1, '2026-12-02T00:00:00.000Z', 'web', 'p1', "
               "NULL, NULL, NULL, NULL)")
    db.commit()
    db.close()
    ledger.chmod(0o600)


def test_a_ledger_of_version_3_is_read_said_unchained_and_never_written(einstant, tmp_path):
    ledger = tmp_path / "sales.sqlite"
    _version_3(ledger)
    before = ledger.read_bytes()
    result = _reconcile(einstant, ledger)
    rest, heads = split_heads(result.output)
    assert (result.exit_code, rest.splitlines()) == (0, [
        f"note: {ledger}: a sales ledger of version 3: its sales, voids and closings carry no chain (a hand "
        "edit of one is not shown); only its payments are chained",
        "0 paid share(s), $0.00: the ledger reconciles with the run, whose manifest's signature was NOT "
        "checked (give --public-key)"])
    assert heads == {str(ledger): f"0:{'00' * 32}"}
    sell = invoke("sales", "sell", einstant["folder"], "--pool", "d1.00", "--channel", "web", "--player",
                  "p1", "--public-key", einstant["public"], "--ledger", ledger)
    assert (sell.exit_code, sell.stderr) == (2, (
        f"poolgen: error: {ledger}: a sales ledger of version 3 (sales, voids and closings in no chain): "
        "read, never written; convert it into a new ledger of version 5 (`poolgen sales upgrade`)\n"))
    assert ledger.read_bytes() == before


def test_both_sales_reports_say_in_json_whether_the_ledgers_sales_are_chained(einstant, tmp_path):
    """Section 5: `sales report` says a version 3 ledger's sales carry no chain on stderr and in its JSON's
    `sales_chained`, with or without `--closing`. Before, the closing report's JSON had no
    `sales_chained`: read alone, it did not say its sales were in no chain."""
    old, new = tmp_path / "v3.sqlite", tmp_path / "v5.sqlite"
    _version_3(old)
    _sell(einstant, new, 1)
    note = (f"note: {old}: a sales ledger of version 3: its sales, voids and closings carry no chain (a hand "
            "edit of one is not shown); only its payments are chained\n")
    for ledger, chained in ((old, False), (new, True)):
        for closing in ([], ["--closing"]):
            result = invoke("sales", "report", einstant["folder"], "--ledger", ledger, "--json", *closing)
            assert result.exit_code == 0, result.output
            said = (json.loads(result.stdout)["sales_chained"], result.stderr)
            assert said == (chained, "" if chained else note)


def test_a_ledger_of_version_3_in_rollback_mode_is_refused_by_every_recording_command_unwritten(
        einstant, tmp_path):
    """The doc: a command that records refuses a version 3 ledger before writing anything. Before: opening
    it to record switched it to WAL mode (its header rewritten) before the refusal."""
    from poolgen.backoffice.sales_schema import SALES_3  # noqa: PLC0415  # only these tests build a version 3 ledger

    ledger = tmp_path / "sales.sqlite"
    db = sqlite3.connect(ledger)
    for sql in SALES_3.schema:
        db.execute(sql)
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute("PRAGMA user_version = 3")
    db.commit()
    db.close()
    ledger.chmod(0o600)
    before = ledger.read_bytes()
    for args in (("sell", "--pool", "d1.00", "--channel", "web", "--player", "p1"),
                 ("close", "--pool", "d1.00"), ("void", "d1.00-0000001", "--reason", "R1"),
                 ("claim", "d1.00-0000001")):
        result = invoke("sales", args[0], einstant["folder"], *args[1:], "--public-key", einstant["public"],
                        "--ledger", ledger)
        refused = result.stderr.endswith("ledger of version 5 (`poolgen sales upgrade`)\n")
        assert (result.exit_code, refused) == (2, True), result.output
    assert ledger.read_bytes() == before


def test_the_docs_example_sale_chain_is_the_value_the_ledger_stores(einstant, tmp_path):
    """docs/back-office.md section 5 gives a first sale's chain for an auditor to check: the rule computed
    from the doc (hashlib alone) gives it, and the tool stores it for that sale."""
    from datetime import UTC, datetime  # noqa: PLC0415
    from pathlib import Path  # noqa: PLC0415  # only this test reads the doc

    from poolgen.backoffice.sales import SalesLedger  # noqa: PLC0415  # the library, to fix the sale's time
    from poolgen.backoffice.vouched import open_signed  # noqa: PLC0415

    documented = "faff73b42b5e0417cd7cc75a86fdb66012b00a26c467b1b22d60dc6950d8d9e5"
    doc = " ".join((Path(__file__).parents[3] / "docs" / "back-office.md").read_text().split())
    assert f"and stores `{documented}`" in doc
    assert link("00" * 32, [1, "eh", "d1.00", 1, "2026-12-02T00:00:00.000Z", "web", "p1"]) == documented
    ledger = tmp_path / "sales.sqlite"
    book = SalesLedger(ledger, open_signed(einstant["folder"], einstant["public"], "test"))
    try:
        book.sell("d1.00", "web", "p1", now=datetime(2026, 12, 2, tzinfo=UTC))
    finally:
        book.close()
    db = sqlite3.connect(ledger)
    try:
        assert db.execute("SELECT chain FROM sales").fetchall() == [(documented,)]
    finally:
        db.close()
