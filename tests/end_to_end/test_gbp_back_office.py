"""The back office of a game in pounds speaks pounds and never dollars (docs/new-game.md section 1, the
manifest's `game.currency`): a printed game's prizes remaining, closing report and reconciliation
(specs/examples/uk_scrabble_0493.toml cut to one pool of 6,000 tickets), and an eInstant's sales claim,
prizes remaining, closing report and reconciliation (Hand to Hand Tactics cut to 2,000 shares, its
amounts written in pounds), in text, JSON and PDF; and verify's whole output, step 8's test names
included, on the printed run."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
from pathlib import Path

import polars as pl
import pytest

from tests.support import small_example, spec_path
from tests.support.cli import invoke, one_line
from tests.support.ledger_heads import ledger_head
from tests.support.pdf import pages


def _ok(*args: object) -> str:
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    return result.output


def _pounds_only(text: str, *shown: str) -> None:
    """`text` shows each of `shown` and no dollar sign."""
    assert "$" not in text, [line for line in text.splitlines() if "$" in line]
    for s in shown:
        assert s in text, (s, text[:2000])


@pytest.fixture(scope="module")
def printed(tmp_path_factory) -> dict[str, Path]:
    """The GBP printed run, signed, with validation files, and a claims ledger paying three low-tier £4
    prizes and one £2."""
    root = tmp_path_factory.mktemp("gbp-office")
    spec = small_example(root, "uk_scrabble_0493", 6000)
    _ok("keys", "new", root / "keys")
    for tier in ("low", "high"):
        _ok("keys", "validation", "new", root / f"{tier}.key")
    _ok("generate", spec, "--out", root / "runs", "--run-id", "gbp", "--workers", "1",
        "--key", root / "keys" / "signing-key.pem", "--validation-key", root / "low.key",
        "--high-validation-key", root / "high.key")
    made = {"root": root, "spec": spec, "run": root / "runs" / "gbp", "ledger": root / "claims.sqlite",
            "public": root / "keys" / "signing-key.pub.pem"}
    im = pl.read_parquet(made["run"] / "imaging-p1.parquet", columns=["barcode", "virn"])
    prize = pl.read_parquet(made["run"] / "pool-p1.parquet", columns=["prize_cents"])["prize_cents"].to_list()
    paid = [i for i, c in enumerate(prize) if c == 400][:3] + [prize.index(200)]
    for at in paid:
        _ok("validate", made["run"], im["barcode"][at], im["virn"][at], "--validation-key", root / "low.key",
            "--high-validation-key", root / "high.key", "--public-key", made["public"], "--ledger",
            made["ledger"])
    return made


def test_verify_prints_every_amount_in_pounds_statistics_included(printed):
    result = invoke("verify", printed["run"], "--public-key", printed["public"], "--spec", printed["spec"],
                    "--workers", "1")
    assert result.exit_code == 0, result.output
    _pounds_only(result.output, "prize cost £7,120.00", "positions of prize level £4 (tier",
                 "run: top prize of each pool (£1,000)")


def test_the_prizes_remaining_table_in_text_json_and_pdf_shows_pounds(printed):
    run, ledger = printed["run"], printed["ledger"]
    text = _ok("claims", "report", run, "--ledger", ledger)
    _pounds_only(text, "£1,000.00", "£4.00")
    four = next(line for line in text.splitlines() if line.startswith("£4.00 "))
    assert four.split()[2] == "3"  # claimed
    doc = json.loads(_ok("claims", "report", run, "--ledger", ledger, "--json"))
    assert [lv["prize"] for lv in doc["levels"]][-2:] == ["£4.00", "£2.00"]
    _pounds_only(json.dumps(doc, ensure_ascii=False), "£1,000.00")
    pdf = printed["root"] / "remaining.pdf"
    _ok("claims", "report", run, "--ledger", ledger, "--pdf", pdf)
    _pounds_only(" ".join(pages(pdf)), "£1,000.00", "£4.00")


def test_the_closing_report_in_text_json_and_pdf_shows_pounds(printed):
    run, ledger = printed["run"], printed["ledger"]
    text = _ok("claims", "close", run, "--ledger", ledger)
    _pounds_only(text, "sales £12,000.00; prizes designed £7,120.00", "paid £14.00",
                 "unclaimed £7,106.00")
    doc = json.loads(_ok("claims", "close", run, "--ledger", ledger, "--json"))
    assert doc["sales"] == "£12,000.00" and doc["paid_cents"] == 1400
    _pounds_only(json.dumps(doc, ensure_ascii=False), "£4.00")
    pdf = printed["root"] / "closing.pdf"
    _ok("claims", "close", run, "--ledger", ledger, "--pdf", pdf)
    _pounds_only(" ".join(pages(pdf)), "sales £12,000.00", "£7,106.00")


def test_the_reconciliation_totals_and_problems_show_pounds(printed):
    keys = ("--validation-key", printed["root"] / "low.key", "--high-validation-key",
            printed["root"] / "high.key")
    args = ("claims", "reconcile", printed["run"], "--ledger", printed["ledger"], *keys)
    _pounds_only(_ok(*args), "4 payment(s), £14.00: they reconcile")
    doc = json.loads(_ok(*args, "--json"))
    assert doc["paid"] == "£14.00"
    forged = printed["root"] / "forged.sqlite"
    shutil.copy(printed["ledger"], forged)
    db = sqlite3.connect(forged)
    db.execute("UPDATE paid SET prize_cents = 777 WHERE claim_no = 1")
    db.commit()
    db.close()
    result = invoke("claims", "reconcile", printed["run"], "--ledger", forged, *keys)
    assert result.exit_code == 1
    _pounds_only(result.output, "paid £7.77, but its prize is £4.00")


def test_a_payment_the_game_cannot_hold_is_refused_in_pounds(printed):
    forged = printed["root"] / "unheld.sqlite"
    shutil.copy(printed["ledger"], forged)
    db = sqlite3.connect(forged)
    db.execute("UPDATE paid SET prize_cents = 777 WHERE claim_no = 4")
    db.commit()
    db.close()
    _, chain = ledger_head(forged).split(":")  # the last claim re-chained, as the clerk who edits can
    db = sqlite3.connect(forged)
    db.execute("UPDATE attempts SET chain = ? WHERE claim_no = 4", (chain,))
    db.commit()
    db.close()
    result = invoke("claims", "close", printed["run"], "--ledger", forged)
    one_line(result, "poolgen", "the ledgers hold 1 payment of £7.77, a prize the game does not hold")


@pytest.fixture(scope="module")
def shares(tmp_path_factory) -> dict[str, Path]:
    """Hand to Hand Tactics in pounds, one pool (d1.00) of 2,000 shares, signed; a sales ledger that sold
    shares up to and past the first winner."""
    root = tmp_path_factory.mktemp("gbp-shares")
    text = spec_path("hand_to_hand_tactics").read_text().replace("$", "£")
    text = text.replace("[game]\n", '[game]\ncurrency = "GBP"\n', 1)
    text = text.replace("pool_shares = 1000000", "pool_shares = 2000").replace(
        "order_shares = 6000000", "order_shares = 12000")
    text = re.sub(r"^count = (\d+)", lambda m: f"count = {max(1, int(m.group(1)) // 500)}", text, flags=re.M)
    (root / "h2h.toml").write_text(text)
    _ok("keys", "new", root / "keys")
    _ok("generate", root / "h2h.toml", "--pool", "d1.00", "--out", root / "runs", "--run-id", "gs",
        "--workers", "1", "--key", root / "keys" / "signing-key.pem")
    run, public = root / "runs" / "gs", root / "keys" / "signing-key.pub.pem"
    prize = pl.read_parquet(run / "pool-d1.00.parquet", columns=["prize_cents"])["prize_cents"].to_list()
    winner = next(i for i, p in enumerate(prize, start=1) if p > 0)
    ledger = root / "sales.sqlite"
    for _ in range(winner + 3):
        _ok("sales", "sell", run, "--public-key", public, "--ledger", ledger, "--pool", "d1.00",
            "--channel", "web", "--player", "p-1")
    return {"root": root, "run": run, "public": public, "ledger": ledger, "winner": winner,
            "prize": prize[winner - 1]}


def test_an_einstant_claim_reports_and_reconciliation_show_pounds(shares):
    run, ledger, public = shares["run"], shares["ledger"], shares["public"]
    p = shares["prize"]
    share = f"d1.00-{shares['winner']:07d}"
    paid = _ok("sales", "claim", run, share, "--public-key", public, "--ledger", ledger)
    _pounds_only(paid, f"prize £{p // 100:,}.{p % 100:02d} to player p-1")
    sold = f"£{shares['winner'] + 3:,}.00"  # shares of £1.00
    remaining = _ok("sales", "report", run, "--ledger", ledger, "--public-key", public)
    _pounds_only(remaining, f"sales {sold}", "d1.00 £")
    closing = _ok("sales", "report", run, "--ledger", ledger, "--public-key", public, "--closing")
    _pounds_only(closing, f"sales {sold}; prizes designed £")
    doc = json.loads(_ok("sales", "report", run, "--ledger", ledger, "--closing", "--json"))
    assert doc["sales"] == sold
    _pounds_only(json.dumps(doc, ensure_ascii=False), "£")
    for flag in ((), ("--closing",)):
        pdf = shares["root"] / f"sales{len(flag)}.pdf"
        _ok("sales", "report", run, "--ledger", ledger, *flag, "--pdf", pdf)
        _pounds_only(" ".join(pages(pdf)), "£")
    rec = _ok("sales", "reconcile", run, "--ledger", ledger, "--public-key", public)
    _pounds_only(rec, f"1 paid share(s), £{p // 100:,}.{p % 100:02d}: the ledger reconciles")


def test_a_tickets_merkle_proof_and_audits_check_of_it_name_its_prize_in_pounds(printed):
    from typer.testing import CliRunner  # noqa: PLC0415  # only this test runs audit's own command line

    from audit.cli import app as audit_app  # noqa: PLC0415

    run = printed["run"]
    im = pl.read_parquet(run / "imaging-p1.parquet", columns=["barcode", "virn"])
    at = pl.read_parquet(run / "pool-p1.parquet", columns=["prize_cents"])["prize_cents"].to_list().index(400)
    text = _ok("merkle-proof", run, im["barcode"][at], im["virn"][at], "--public-key", printed["public"])
    assert "$" not in text
    made = invoke("merkle-proof", run, im["barcode"][at], im["virn"][at], "--json")
    assert made.exit_code == 0, made.output
    path = printed["root"] / "proof.json"
    path.write_text(made.stdout)
    checked = CliRunner().invoke(audit_app, ["check-proof", str(path), str(run / "manifest.json"),
                                             "--public-key", str(printed["public"])])
    assert checked.exit_code == 0, checked.output
    _pounds_only(checked.output, ", prize £4.00) belongs to the pool signed by key ")
