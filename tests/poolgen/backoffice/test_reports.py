"""Reports from claims ledgers (`poolgen claims`, poolgen/backoffice/reports.py): prizes remaining in the
published form, the reconciliation refusing a forged amount, a ticket paid twice and a ticket the run
does not hold, and the closing report. The run is the conftest's `office`."""

from __future__ import annotations

import json
import shutil
import sqlite3

import polars as pl

from tests.support.cli import invoke
from tests.support.ledger_heads import chained_row, ledger_head, split_heads


def _pay(office, ledger, tier, nth=0, desk="d1"):
    b, v, *_ = office["rows"].filter(pl.col("tier") == tier).row(nth)
    result = invoke("validate", office["folder"],
                    "--public-key", office["public"], b, v, "--validation-key", office["root"] / "low.key",
                    "--high-validation-key", office["root"] / "high.key", "--index-dir", office["index"],
                    "--ledger", ledger, "--desk", desk)
    assert result.exit_code == 0, result.output
    return b


def _reconcile(office, *ledgers, extra=()):
    more = [x for path in ledgers for x in ("--ledger", path)]
    root = office["root"]
    keys = ("--validation-key", root / "low.key", "--high-validation-key", root / "high.key")
    return invoke("claims", "reconcile", office["folder"], *more, *keys, *extra)


def test_prizes_remaining_in_the_published_form(office, tmp_path):
    ledger = tmp_path / "claims.sqlite"
    for tier, n in (("100", 2), ("free", 3), ("1", 1)):
        for i in range(n):
            _pay(office, ledger, tier, i)
    out = tmp_path / "remaining.pdf"
    text = invoke("claims", "report", office["folder"], "--ledger", ledger, "--pdf", out)
    assert text.exit_code == 0
    lines = text.output.splitlines()
    assert lines[0].startswith("Happy Holidays (465): prizes remaining at ") and lines[0].endswith("(run hh)")
    assert lines[1].split() == ["Prize", "Total", "prizes", "Claimed", "Remaining"]
    counts = office["rows"].group_by("tier").len()
    n = dict(zip(counts["tier"].to_list(), counts["len"].to_list(), strict=True))
    assert lines[2].split() == ["$100.00", str(n["100"]), "2", str(n["100"] - 2)]
    assert f"free ticket ($1.00) {n['free']:,} 3 {n['free'] - 3:,}" in [" ".join(x.split()) for x in lines]
    assert f"$1.00 {n['1']:,} 1 {n['1'] - 1:,}" in [" ".join(x.split()) for x in lines]
    assert not any(word in text.output for word in ("p1", "p2", "pool", "book", "pack"))
    assert out.read_bytes().startswith(b"%PDF-")
    data = json.loads(invoke("claims", "report", office["folder"], "--ledger", ledger, "--json").output)
    assert sum(lv["total"] for lv in data["levels"]) == sum(v for k, v in n.items() if k != "lose")
    assert sum(lv["paid"] for lv in data["levels"]) == 6
    assert all(set(lv) == {"prize", "prize_cents", "free_ticket", "total", "paid", "remaining"}
               for lv in data["levels"])


def test_reconciliation_passes_honest_ledgers_and_names_every_forgery(office, tmp_path):
    a, b = tmp_path / "a.sqlite", tmp_path / "b.sqlite"
    five = _pay(office, a, "5")
    twenty = _pay(office, a, "20")
    _pay(office, b, "2", desk="d2")
    honest = _reconcile(office, a, b)
    assert (honest.exit_code, split_heads(honest.output)) == (
        0, ("3 payment(s), $27.00: they reconcile with the validation files and the manifest, whose "
            "signature was NOT checked (give --public-key)\n",
            {str(a): ledger_head(a), str(b): ledger_head(b)}))
    forged = tmp_path / "forged.sqlite"
    shutil.copy(a, forged)
    db = sqlite3.connect(forged)
    db.execute("UPDATE paid SET prize_cents = 99999900 WHERE barcode = ?", (five,))
    db.commit()
    db.close()
    result = _reconcile(office, forged)
    assert result.exit_code == 1
    assert result.output.splitlines()[:2] == [
        f"problem: {forged}: claim no. 1: its chain is not the one its rows give (a row edited, inserted or "
        "removed by hand)",
        f"problem: {forged}: claim no. 1 ({five}): paid $999,999.00, but its prize is $5.00"]
    twice = tmp_path / "twice.sqlite"
    _pay(office, twice, "20", desk="d3")  # a desk with its own ledger pays the ticket a second time
    result = _reconcile(office, a, twice)
    assert result.exit_code == 1
    assert result.output.splitlines()[0].startswith(f"problem: {twice}: claim no. 1 ({twenty}): paid twice "
                                                     f"(also {a}: claim no. 2 at ")
    stranger = "465" + "9999999" + "000"
    stranger += f"{98 - int(stranger + '00') % 97:02d}"
    alien = tmp_path / "alien.sqlite"
    shutil.copy(b, alien)
    db = sqlite3.connect(alien)
    row = (2, "2026-12-02T00:00:00Z", "hh", stranger, "d9", "c9", "paid", "")
    chain = chained_row(alien, row, ("123456789012", "low", 500, 0))  # re-chained: the chain has no key
    db.execute("INSERT INTO attempts VALUES (2, '2026-12-02T00:00:00Z', 'hh', ?, 'd9', 'c9', 'paid', '', ?)",
               (stranger, chain))  # the next claim number: a number skipped is a problem of its own
    db.execute("INSERT INTO paid VALUES ('hh', ?, '123456789012', 2, '2026-12-02T00:00:00Z', 'd9', 'c9', "
               "'low', 500, 0)", (stranger,))
    db.commit()
    db.close()
    result = _reconcile(office, alien)
    assert result.exit_code == 1
    assert split_heads(result.output)[0].splitlines() == [
        f"problem: {alien}: claim no. 2 ({stranger}): not a ticket of run hh",
        "2 payment(s), $7.00: 1 problem(s); the ledgers do not reconcile"]


def test_the_closing_report(office, tmp_path):
    ledger = tmp_path / "claims.sqlite"
    _pay(office, ledger, "100")
    _pay(office, ledger, "free")
    report = json.loads(invoke("claims", "close", office["folder"], "--ledger", ledger, "--json").output)
    manifest = json.loads((office["folder"] / "manifest.json").read_bytes())
    assert report["sales_cents"] == manifest["totals"]["sales_cents"] == 1_800_000
    assert report["designed_prizes_cents"] == manifest["totals"]["prize_cost_cents"]
    assert report["paid_cents"] == 10100
    assert report["unclaimed_cents"] == report["designed_prizes_cents"] - 10100
    assert report["actual_payout_pct"] == "0.5611"
    assert report["designed_payout_pct"] == manifest["totals"]["payout_pct"]
    text = invoke("claims", "close", office["folder"], "--ledger", ledger, "--pdf", tmp_path / "close.pdf")
    assert text.exit_code == 0
    assert text.output.splitlines()[0] == "Happy Holidays (465): closing report (run hh)"
    assert (tmp_path / "close.pdf").read_bytes().startswith(b"%PDF-")


def test_a_reconciliation_without_the_public_key_says_the_signature_was_not_checked(office, tmp_path):
    ledger = tmp_path / "claims.sqlite"
    _pay(office, ledger, "5")
    unchecked = _reconcile(office, ledger)
    assert (unchecked.exit_code, split_heads(unchecked.output)[0]) == (
        0, "1 payment(s), $5.00: they reconcile with the validation files and the manifest, whose signature "
           "was NOT checked (give --public-key)\n")
    assert json.loads(_reconcile(office, ledger, extra=["--json"]).output)["signature_checked"] is False
    checked = _reconcile(office, ledger, extra=["--public-key", office["public"]])
    assert (checked.exit_code, split_heads(checked.output)[0]) == (
        0, "1 payment(s), $5.00: they reconcile with the validation files and the manifest, its signature "
           "verified\n")
    assert json.loads(_reconcile(office, ledger, extra=["--json", "--public-key", office["public"]]).output)[
        "signature_checked"] is True


def test_closing_payout_percentages_round_half_up_as_the_manifest_does():
    """$1.00 paid over 128 shares of $1.00 sold is 0.78125%: the closing report wrote 0.7812 (a Decimal's
    format rounds half to even), where the manifest's rule (docs/manifest.md: 4 places, half up) and
    every other figure of the project write 0.7813."""
    from poolgen.backoffice.reports import payout_pct  # noqa: PLC0415  # the function under test alone

    assert payout_pct(100, 12_800) == "0.7813"
    assert payout_pct(32_400, 1_200_000) == "2.7000"
    assert payout_pct(1, 3) == "33.3333" and payout_pct(2, 3) == "66.6667"
    assert payout_pct(5, 0) == "n/a"
