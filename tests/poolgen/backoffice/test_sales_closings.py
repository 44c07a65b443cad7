"""The sales ledger's closings and conversions chained (docs/back-office.md, section 5, schema version 5).
In version 4 a pool's closing was only `pools.closed_at`, in no chain: an insider with write access to the
ledger cleared it, sold after the closing and set it again later, or moved it, and `sales reconcile`
(with every head) and the reports passed; and the `conversions` row a conversion wrote was in no chain
(removed, the ledger read as chained as it was written). The chains are recomputed here from the doc with
hashlib alone (tests/support/ledger_heads.py). The run is the conftest's `einstant` (run `eh`, one pool
d1.00 of 2,000 shares)."""

from __future__ import annotations

import hashlib
import sqlite3

from poolgen.backoffice.sales_schema import CONVERTED_4
from tests.support.cli import invoke
from tests.support.ledger_heads import link, printed_heads, rechain_sales, sales_heads, split_heads

_LATER = "2099-01-01T00:00:00.000Z"


def _do(einstant, ledger, *args, code=0):
    result = invoke("sales", *args[:1], einstant["folder"], *args[1:], "--public-key", einstant["public"],
                    "--ledger", ledger)
    assert result.exit_code == code, result.output
    return result


def _sell(einstant, ledger, n):
    for _ in range(n):
        _do(einstant, ledger, "sell", "--pool", "d1.00", "--channel", "web", "--player", "p1")


def _edit(ledger, *sql):
    db = sqlite3.connect(ledger)
    for s in sql:
        db.execute(s)
    db.commit()
    db.close()


def _problems(einstant, ledger, *more):
    result = invoke("sales", "reconcile", einstant["folder"], "--ledger", ledger, *more)
    return result.exit_code, [x.removeprefix("problem: ") for x in split_heads(result.output)[0].splitlines()
                              if x.startswith("problem: ")]


def _closed(einstant, ledger):
    _sell(einstant, ledger, 2)
    _do(einstant, ledger, "close", "--pool", "d1.00")
    return _edit_at(ledger)


def _edit_at(ledger):
    db = sqlite3.connect(ledger)
    try:
        return db.execute("SELECT closed_at FROM pools").fetchone()[0]
    finally:
        db.close()


def test_a_closing_is_a_chained_row_whose_head_close_prints_and_reconcile_checks(einstant, tmp_path):
    ledger = tmp_path / "sales.sqlite"
    _sell(einstant, ledger, 2)
    closed = _do(einstant, ledger, "close", "--pool", "d1.00")
    at = _edit_at(ledger)
    db = sqlite3.connect(ledger)
    row = db.execute("SELECT * FROM closings").fetchall()
    db.close()
    assert row == [(1, "eh", "d1.00", at, link("00" * 32, [1, "eh", "d1.00", at]))]
    assert closed.stderr == f"ledger {ledger}: closings head 1:{row[0][4]}\n"
    result = invoke("sales", "reconcile", einstant["folder"], "--ledger", ledger, "--head",
                    f"closings=1:{row[0][4]}")
    assert (result.exit_code, split_heads(result.output)[1]) == (0, printed_heads(ledger))


def test_a_closing_cleared_by_hand_still_refuses_a_sale_and_is_named(einstant, tmp_path):
    """Before: `pools.closed_at` set to NULL reopened the pool: a sale after the closing, its closing then
    set again at a later time, passed every check."""
    ledger = tmp_path / "sales.sqlite"
    at = _closed(einstant, ledger)
    _edit(ledger, "UPDATE pools SET closed_at = NULL")
    refused = _do(einstant, ledger, "sell", "--pool", "d1.00", "--channel", "web", "--player", "p1", code=1)
    assert refused.output == f"refused: pool d1.00: closed at {at}; no sale after close\n"
    assert _problems(einstant, ledger) == (1, [
        "pool d1.00: closing no. 1 is recorded, but its pools row shows no closing (cleared by hand)"])


def test_a_closing_moved_later_by_hand_breaks_the_closings_chain_and_the_reports_refuse_it(
        einstant, tmp_path):
    """Before: `pools.closed_at` moved after a sale made once the pool had closed passed reconcile."""
    ledger = tmp_path / "sales.sqlite"
    at = _closed(einstant, ledger)
    _edit(ledger, f"UPDATE pools SET closed_at = '{_LATER}'")
    assert _problems(einstant, ledger) == (1, [
        f"pool d1.00: its pools row records a closing at {_LATER}, its closing no. 1 at {at}"])
    _edit(ledger, f"UPDATE closings SET at = '{_LATER}'")
    broken = (f"{ledger}: closing no. 1: its chain is not the one its rows give (a row edited, inserted or "
              "removed by hand)")
    assert _problems(einstant, ledger) == (1, [broken])
    report = invoke("sales", "report", "--ledger", ledger, "--run", einstant["folder"], "--closing")
    assert (report.exit_code, report.stderr) == (2, (
        f"poolgen: error: {broken}; the back office reports from no ledger whose chain breaks (`poolgen "
        "sales reconcile` names each problem)\n"))


def test_a_closing_removed_and_the_pool_sold_again_is_refused_against_a_closings_head(einstant, tmp_path):
    ledger = tmp_path / "sales.sqlite"
    _closed(einstant, ledger)
    head = sales_heads(ledger)["closings"]
    _edit(ledger, "DELETE FROM closings", "UPDATE pools SET closed_at = NULL")
    _sell(einstant, ledger, 1)  # reopened: the rows alone show nothing
    assert _problems(einstant, ledger) == (0, [])
    assert _problems(einstant, ledger, "--head", f"closings={head}") == (1, [
        f"{ledger}: closing no. 1 is missing (1 row removed from its end): the ledger no longer extends its "
        f"closings head {head}; a pool whose closing was removed sells again, and a sale after it passes"])


def test_a_closing_moved_and_rechained_is_refused_against_a_closings_head(einstant, tmp_path):
    ledger = tmp_path / "sales.sqlite"
    _closed(einstant, ledger)
    head = sales_heads(ledger)["closings"]
    _edit(ledger, f"UPDATE closings SET at = '{_LATER}'", f"UPDATE pools SET closed_at = '{_LATER}'")
    rechain_sales(ledger)  # the chains have no key
    assert _problems(einstant, ledger) == (0, [])
    assert _problems(einstant, ledger, "--head", f"closings={head}") == (1, [
        f"{ledger}: its closing no. 1 is not the row its closings head {head} named (rows removed from its "
        "end and closings recorded since, or rows edited): the ledger no longer extends that head"])


def _upgrade(einstant, old, new):
    return invoke("sales", "upgrade", old, new, "--run", einstant["folder"], "--public-key",
                  einstant["public"])


def _v4(einstant, ledger, *, converted=False):
    """A version 4 ledger as the tool wrote it: sales, a void, a payment and a closing made by this tool,
    then its closings and conversions tables dropped and its version set to 4 (the version 4 schema is
    version 5's without them); `converted`: with version 4's record of a conversion from version 3."""
    winner = next(i for i, p in enumerate(einstant["prizes"], start=1) if p > 0)
    _sell(einstant, ledger, winner + 1)
    _do(einstant, ledger, "void", f"d1.00-{winner + 1:07d}", "--reason", "R1")
    _do(einstant, ledger, "claim", f"d1.00-{winner:07d}")
    _do(einstant, ledger, "close", "--pool", "d1.00")
    sql = ["DROP TABLE closings", "DROP TABLE conversions", "PRAGMA user_version = 4"]
    if converted:
        sql += [CONVERTED_4.schema[-1], f"INSERT INTO conversions VALUES ('2026-11-30T00:00:00.000Z', 3, "
                                        f"'{'ab' * 32}', {winner + 1}, 1, 1)"]
    _edit(ledger, *sql)
    return winner


def test_a_version_4_ledger_is_read_said_unchained_never_written_and_converted_to_version_5(
        einstant, tmp_path):
    old, new = tmp_path / "v4.sqlite", tmp_path / "v5.sqlite"
    winner = _v4(einstant, old)
    at = _edit_at(old)
    kept = sales_heads(old)
    result = invoke("sales", "reconcile", einstant["folder"], "--ledger", old)
    assert (result.exit_code, split_heads(result.output)[0].splitlines()[0]) == (0, (
        f"note: {old}: a sales ledger of version 4: its closings and conversions carry no chain (a hand edit "
        "of one is not shown)"))
    sold = _do(einstant, old, "sell", "--pool", "d1.00", "--channel", "web", "--player", "p1", code=2)
    assert sold.stderr == (f"poolgen: error: {old}: a sales ledger of version 4 (closings and conversions in "
                           "no chain): read, never written; convert it into a new ledger of version 5 "
                           "(`poolgen sales upgrade`)\n")
    before = old.read_bytes()
    done = _upgrade(einstant, old, new)
    rest, printed = split_heads(done.output)
    conv_at = rest.split(" at ", 1)[1].split(": ", 1)[0]
    sha = hashlib.sha256(before).hexdigest()
    assert (done.exit_code, rest) == (0, (
        f"converted {old} (version 4, SHA-256 {sha}) into {new} (version 5) at {conv_at}: {winner + 1:,} "
        "sale(s), 1 void(s), 1 closing(s), 1 payment(s); closings 1 to 1 were chained at the conversion, not "
        "as they were written\n"))
    heads = sales_heads(new)
    assert printed == printed_heads(new)
    assert {t: heads[t] for t in ("sales", "voids", "payments")} == {t: kept[t] for t in ("sales", "voids",
                                                                                          "payments")}
    record = [1, conv_at, 4, sha, winner + 1, 1, 1, 1]
    db = sqlite3.connect(new)
    assert db.execute("SELECT * FROM closings").fetchall() == [
        (1, "eh", "d1.00", at, link("00" * 32, [1, "eh", "d1.00", at]))]
    assert db.execute("SELECT * FROM conversions").fetchall() == [(*record, link("00" * 32, record))]
    db.close()
    assert old.read_bytes() == before
    again = invoke("sales", "reconcile", einstant["folder"], "--ledger", new, "--public-key",
                   einstant["public"], *(x for k, h in heads.items() for x in ("--head", f"{k}={h}")))
    assert (again.exit_code, split_heads(again.output)[0].splitlines()[0]) == (0, (
        f"note: {new}: converted at {conv_at} from a sales ledger of version 4 (SHA-256 {sha}): closings 1 "
        "to 1 were chained at the conversion, not as they were written"))


def test_a_conversion_record_edited_or_removed_by_hand_is_named(einstant, tmp_path):
    """Before: the `conversions` row was in no chain: removed by hand, the ledger read as one whose rows
    were all chained as they were written. A version 4 ledger's own record of its conversion from
    version 3 is carried as conversion no. 1, chained."""
    old, new = tmp_path / "v4.sqlite", tmp_path / "v5.sqlite"
    winner = _v4(einstant, old, converted=True)
    done = _upgrade(einstant, old, new)
    assert done.exit_code == 0, done.output
    db = sqlite3.connect(new)
    assert [r[:8] for r in db.execute("SELECT * FROM conversions")][0] == (
        1, "2026-11-30T00:00:00.000Z", 3, "ab" * 32, winner + 1, 1, 0, 1)
    db.close()
    head = sales_heads(new)["conversions"]
    assert head.startswith("2:")
    _edit(new, "UPDATE conversions SET from_version = 5 WHERE conv_no = 1")
    assert _problems(einstant, new) == (1, [
        f"{new}: conversion no. 1: its chain is not the one its rows give (a row edited, inserted or removed "
        "by hand)"])
    _edit(new, "DELETE FROM conversions")
    assert _problems(einstant, new, "--head", f"conversions={head}") == (1, [
        f"{new}: conversions 1 to 2 are missing (2 rows removed from its end): the ledger no longer extends "
        f"its conversions head {head}; a converted ledger whose conversion was removed reads as chained as "
        "written"])


def test_a_ledger_turned_back_to_version_4_by_hand_is_refused_against_its_closings_head(einstant, tmp_path):
    """An insider turns a version 5 ledger back into one of version 4 (its closings and conversions tables
    dropped, its version set back): it reads as version 4, with a note, its closings free to edit. Only
    the heads recorded show it: a closings head given for it is refused."""
    ledger = tmp_path / "sales.sqlite"
    _closed(einstant, ledger)
    head = sales_heads(ledger)["closings"]
    _edit(ledger, "DROP TABLE closings", "DROP TABLE conversions", "PRAGMA user_version = 4",
          f"UPDATE pools SET closed_at = '{_LATER}'")
    result = invoke("sales", "reconcile", einstant["folder"], "--ledger", ledger, "--head",
                    f"closings={head}")
    assert (result.exit_code, result.stderr) == (2, (
        f"poolgen: error: --head: {ledger} is a sales ledger of version 4; its closings carry no chain, so "
        "no head of theirs (a head recorded for them was of a later version: a ledger turned back by hand, "
        "its tables dropped and its version set back, reads as this one)\n"))
