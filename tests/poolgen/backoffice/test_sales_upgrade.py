"""`poolgen sales upgrade` (docs/back-office.md, section 5): a sales ledger of version 3 converted into a
NEW ledger of version 5 that continues its pools (before, a new ledger restarted at share 1 and sold
shares already sold). Real SQLite files built as version 3 wrote them; the chains recomputed from the doc
with hashlib alone (tests/support/ledger_heads.py). The run is the conftest's `einstant` (run `eh`, one
pool d1.00 of 2,000 shares)."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

from poolgen.backoffice.owned import APPLICATION_ID
from tests.support.cli import invoke
from tests.support.ledger_heads import link, printed_heads, sales_heads, split_heads

_T = "2026-12-02T00:00:{:02d}.000Z"


def _v3(einstant, ledger, *, broken=False):
    """A version 3 ledger: shares 1 to w2 + 1 sold (w1, w2 the first two winners), w2 + 1 voided, w1
    paid; (w1, w2). `broken`: the payment's chain not the one its row gives."""
    from poolgen.backoffice.sales_schema import SALES_3  # noqa: PLC0415  # only these tests build version 3 ledgers

    w1, w2 = [i for i, p in enumerate(einstant["prizes"], start=1) if p > 0][:2]
    db = sqlite3.connect(ledger)
    for sql in SALES_3.schema:
        db.execute(sql)
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute("PRAGMA user_version = 3")
    db.execute("INSERT INTO pools VALUES ('eh', 'd1.00', 2000, 100, ?, NULL)", (w2 + 2,))
    for n in range(1, w2 + 2):
        void = (_T.format(58), "R1") if n == w2 + 1 else (None, None)
        paid = (_T.format(59), einstant["prizes"][w1 - 1]) if n == w1 else (None, None)
        db.execute("INSERT INTO sales VALUES ('eh', 'd1.00', ?, ?, ?, 'web', ?, ?, ?, ?, ?)",
                   (n, n, _T.format(n % 50), f"p{n}", *void, *paid))
    row = (1, "eh", "d1.00", w1, _T.format(59), einstant["prizes"][w1 - 1])
    db.execute("INSERT INTO payments VALUES (?, ?, ?, ?, ?, ?, ?)",
               (*row, "ab" * 32 if broken else link("00" * 32, list(row))))
    db.commit()
    db.close()
    ledger.chmod(0o600)
    return w1, w2


def _upgrade(einstant, old, new, *more):
    return invoke("sales", "upgrade", old, new, "--run", einstant["folder"], "--public-key",
                  einstant["public"], *more)


def _do(einstant, ledger, *args):
    result = invoke("sales", *args[:1], einstant["folder"], *args[1:], "--public-key", einstant["public"],
                    "--ledger", ledger)
    assert result.exit_code == 0, result.output
    return result


def test_a_version_3_ledger_converted_is_continued_where_it_stood_and_reconciles(einstant, tmp_path):
    old, new = tmp_path / "v3.sqlite", tmp_path / "v5.sqlite"
    w1, w2 = _v3(einstant, old)
    before = old.read_bytes()
    result = _upgrade(einstant, old, new)
    assert result.exit_code == 0, result.output
    rest, printed = split_heads(result.output)
    heads = sales_heads(new)  # recomputed from the doc
    assert printed == printed_heads(new)
    payment = [1, "eh", "d1.00", w1, _T.format(59), einstant["prizes"][w1 - 1]]
    assert heads["payments"] == f"1:{link('00' * 32, payment)}"  # the old ledger's payments chain, kept
    assert [h.split(":")[0] for h in heads.values()] == [str(w2 + 1), "1", "0", "1", "1"]
    at = rest.split(" at ", 1)[1].split(": ", 1)[0]
    assert rest == (f"converted {old} (version 3, SHA-256 {hashlib.sha256(before).hexdigest()}) into {new} "
                    f"(version 5) at {at}: {w2 + 1:,} sale(s), 1 void(s), 0 closing(s), 1 payment(s); "
                    f"sales 1 to {w2 + 1} and voids 1 to 1 were chained at the conversion, not as they were "
                    "written\n")
    assert old.read_bytes() == before
    assert os.stat(new).st_mode & 0o777 == 0o600
    db = sqlite3.connect(new)
    record = [1, at, 3, hashlib.sha256(before).hexdigest(), w2 + 1, 1, 0, 1]
    assert db.execute("SELECT * FROM conversions").fetchall() == [(*record, link("00" * 32, record))]
    assert db.execute("SELECT void_no, serial, at, reason FROM voids").fetchall() == [
        (1, w2 + 1, _T.format(58), "R1")]
    db.close()
    sold = _do(einstant, new, "sell", "--pool", "d1.00", "--channel", "web", "--player", "p9")
    assert sold.output.startswith(f"sold d1.00-{w2 + 2:07d}: sale no. {w2 + 2} at ")
    paid = _do(einstant, new, "claim", f"d1.00-{w2:07d}")
    assert f"d1.00-{w2:07d}: prize " in paid.output
    heads = sales_heads(new)
    again = invoke("sales", "reconcile", einstant["folder"], "--ledger", new, "--public-key",
                   einstant["public"], *(x for k, h in heads.items() for x in ("--head", f"{k}={h}")))
    rest, printed = split_heads(again.output)
    assert (again.exit_code, rest.splitlines()[0], rest.splitlines()[-1].startswith("2 paid share(s), ")) == (
        0, f"note: {new}: converted at {at} from a sales ledger of version 3 (SHA-256 "
           f"{hashlib.sha256(before).hexdigest()}): sales 1 to {w2 + 1} and voids 1 to 1 were chained at the "
           "conversion, not as they were written", True)
    assert printed == printed_heads(new)
    report = invoke("sales", "report", "--ledger", new, "--run", einstant["folder"])
    assert (report.exit_code, report.stderr) == (0, rest.splitlines()[0] + "\n")
    assert old.read_bytes() == before


def test_a_version_3_ledger_whose_payments_chain_breaks_is_not_converted(einstant, tmp_path):
    old, new = tmp_path / "v3.sqlite", tmp_path / "v5.sqlite"
    _v3(einstant, old, broken=True)
    before = old.read_bytes()
    result = _upgrade(einstant, old, new)
    assert (result.exit_code, result.stderr) == (2, (
        f"poolgen: error: {old}: payment no. 1: its chain is not the one its rows give (a row edited, "
        "inserted or removed by hand); not converting a ledger that does not reconcile (1 problem(s): "
        "`poolgen sales reconcile` names each)\n"))
    assert (old.read_bytes() == before, sorted(p.name for p in tmp_path.iterdir())) == (True, ["v3.sqlite"])


def test_a_version_3_ledger_that_does_not_reconcile_otherwise_is_not_converted(einstant, tmp_path):
    """A pool closed before a sale it holds: `sales reconcile` names it; the conversion would chain it."""
    old, new = tmp_path / "v3.sqlite", tmp_path / "v5.sqlite"
    _v3(einstant, old)
    db = sqlite3.connect(old)
    db.execute("UPDATE pools SET closed_at = ?", (_T.format(0),))
    db.commit()
    db.close()
    result = _upgrade(einstant, old, new)
    assert (result.exit_code, result.stderr, new.exists()) == (2, (
        f"poolgen: error: {old}: pool d1.00: a sale after the pool was closed at {_T.format(0)}; not "
        "converting a ledger that does not reconcile (1 problem(s): `poolgen sales reconcile` names each)\n"),
        False)


def test_a_ledger_holding_rows_of_a_run_not_given_is_not_converted(einstant, tmp_path):
    """The conversion reconciles the run it is given and converted every run's rows: a sale (and its pool)
    under another run id, never checked, was carried into NEW and chained there. Refused now, nothing
    written (docs/back-office.md, section 5)."""
    old, new = tmp_path / "v3.sqlite", tmp_path / "v5.sqlite"
    _v3(einstant, old)
    db = sqlite3.connect(old)
    db.execute("INSERT INTO pools VALUES ('ez', 'd9.99', 10, 999, 2, NULL)")
    db.execute("INSERT INTO sales VALUES ('ez', 'd9.99', 1, 900, ?, 'web', 'p1', NULL, NULL, NULL, NULL)",
               (_T.format(1),))
    db.commit()
    db.close()
    before = old.read_bytes()
    result = _upgrade(einstant, old, new)
    assert (result.exit_code, result.stderr) == (2, (
        f"poolgen: error: {old}: 2 row(s) under run(s) ez, not run eh: the conversion reconciles the one run "
        "it is given (--run) and converts no row it has not checked; not converting it\n"))
    assert (old.read_bytes() == before, sorted(p.name for p in tmp_path.iterdir())) == (True, ["v3.sqlite"])


def test_a_conversion_writes_over_no_file_and_converts_no_version_5_ledger(einstant, tmp_path):
    old, new = tmp_path / "v3.sqlite", tmp_path / "v5.sqlite"
    _v3(einstant, old)
    new.write_bytes(b"mine")
    result = _upgrade(einstant, old, new)
    assert (result.exit_code, result.stderr, new.read_bytes()) == (2, (
        f"poolgen: error: {new}: a file is there; the conversion writes a new ledger, never over a file\n"),
        b"mine")
    new.unlink()
    done = _upgrade(einstant, old, new, "--json")
    data = json.loads(done.stdout)
    assert (done.exit_code, data["outcome"], data["from_sha256"], data["heads"]) == (
        0, "converted", hashlib.sha256(old.read_bytes()).hexdigest(), sales_heads(new))
    again = _upgrade(einstant, new, tmp_path / "v6.sqlite")
    assert (again.exit_code, again.stderr) == (2, (
        f"poolgen: error: {new}: a sales ledger of version 5 already; nothing to convert\n"))


def test_an_interrupted_conversion_leaves_no_new_ledger(einstant, tmp_path):
    old, new, mark = tmp_path / "v3.sqlite", tmp_path / "v5.sqlite", tmp_path.parent / f"{tmp_path.name}.mark"
    _v3(einstant, old)
    before = old.read_bytes()
    proc = subprocess.Popen(
        [sys.executable, "-m", "poolgen", "sales", "upgrade", str(old), str(new), "--run",
         str(einstant["folder"]), "--public-key", str(einstant["public"])],
        env={**os.environ, "POOLGEN_TEST_PAUSE": f"sales-upgrade-written:60:{mark}"},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    end = time.monotonic() + 60
    while not mark.exists() and proc.poll() is None and time.monotonic() < end:
        time.sleep(0.05)
    assert mark.exists()
    [tmp] = [p.name for p in tmp_path.iterdir() if ".tmp-" in p.name]  # written, not yet renamed
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert (proc.returncode, out) == (130, "")
    assert err.splitlines()[-1] == ("poolgen: error: interrupted by SIGINT; nothing was left under a final "
                                    "name")
    assert (sorted(p.name for p in tmp_path.iterdir()), old.read_bytes() == before) == (["v3.sqlite"], True)
    assert tmp.startswith(".v5.sqlite.tmp-")
    mark.unlink(missing_ok=True)


def test_a_version_3_ledger_with_changes_still_in_its_wal_file_is_not_converted(einstant, tmp_path):
    """The SHA-256 the conversion records is of OLD's bytes: rows still in its -wal file are not in them."""
    old, new = tmp_path / "v3.sqlite", tmp_path / "v5.sqlite"
    _v3(einstant, old)
    writer = sqlite3.connect(old, isolation_level=None)  # a writer still open, its change not merged
    try:
        writer.execute("PRAGMA journal_mode = WAL")
        writer.execute("PRAGMA wal_autocheckpoint = 0")
        writer.execute("UPDATE sales SET channel = 'shop' WHERE sale_no = 1")
        result = _upgrade(einstant, old, new)
    finally:
        writer.close()
    assert (result.exit_code, result.stderr, new.exists()) == (2, (
        f"poolgen: error: {old}: SQLite's v3.sqlite-wal file beside it holds changes not yet in it; open it "
        "with the writer that made them (or sqlite3) to merge them, then convert\n"), False)
    assert _upgrade(einstant, old, new).exit_code == 0  # merged as the writer closed
