"""A game in pounds (specs/examples/uk_scrabble_0493.toml, `currency = "GBP"`, cut to one pool of
6,000 tickets), from the command line: `check`, the run's manifest and imaging files, both proofs, the
report, the press's fixed-width records, the validation desk and check-proof speak pounds
(docs/new-game.md section 1, docs/proofs.md, docs/validation.md section 4), and verify passes with its
spec, naming step 8's amounts in pounds."""

from __future__ import annotations

import json
import re
from pathlib import Path

import polars as pl
import pytest

from tests.support import small_example
from tests.support.cli import invoke
from tests.support.fixed_width import parse
from tests.support.pdf import pages


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("gbp")
    spec = small_example(root, "uk_scrabble_0493", 6000)
    _ok("keys", "new", root / "keys")
    for tier in ("low", "high"):
        _ok("keys", "validation", "new", root / f"{tier}.key")
    _ok("generate", spec, "--out", root / "runs", "--run-id", "gbp", "--workers", "1",
        "--key", root / "keys" / "signing-key.pem", "--validation-key", root / "low.key",
        "--high-validation-key", root / "high.key")
    return {"root": root, "spec": spec, "run": root / "runs" / "gbp",
            "public": root / "keys" / "signing-key.pub.pem"}


def _ok(*args: object) -> str:
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    return result.stdout


def test_check_prints_the_pool_figures_in_pounds(made):
    rows = [line for line in _ok("check", made["spec"]).splitlines() if line.startswith("│")]
    assert [" ".join(r.replace("│", " ").split()) for r in rows] == [
        "p1 £2.00 6,000 1,339 4,661 4.48 £7,120.00 59.33 £1,000.00",
        "order £2.00 6,000 1,339 4,661 4.48 £7,120.00 59.33 £1,000.00"]


def test_the_manifest_records_the_currency_and_the_imaging_files_show_the_cards_pounds(made):
    doc = json.loads((made["run"] / "manifest.json").read_bytes())
    assert doc["game"]["currency"] == "GBP"
    assert doc["pools"][0]["price_cents"] == 200  # pence
    im = pl.read_parquet(made["run"] / "imaging-p1.parquet")
    shown = im.select("tiles_prize_0", "tiles_prize_0_text", "tiles_prize_0_caption").unique().sort(
        "tiles_prize_0_text").rows()
    assert ("2", "£2", "TWO") in shown and ("500", "£500", "FIVE HUN") in shown
    assert not [r for r in shown if "$" in r[1] + r[2]]


def test_every_proof_page_prints_its_prize_in_pounds_and_never_a_dollar(made):
    prize = {t["id"]: t["prize_cents"] for t in json.loads((made["run"] / "manifest.json").read_bytes())
             ["pools"][0]["tiers"]}
    for flag, kind in (((), "SPECIMEN ticket"), (("--real",), "ticket")):
        out = made["root"] / f"proof{len(flag)}.pdf"
        _ok("proof", made["run"], "--spec", made["spec"], "--out", out, *flag)
        texts = pages(out)
        assert not [t for t in texts if "$" in t]
        tickets = texts[2:]
        assert len(tickets) == 15  # the losing tier and 14 prize tiers
        for text in tickets:
            title = re.match(rf"Scrabble \(game 493\), £2\.00 {kind} (493-\S+) page \d+ of 17 ", text)
            assert title, text[:120]
            tier = re.search(r", (?:losing tier|tier (\w+))", text)
            assert tier
            cents = prize[tier.group(1) or "lose"]
            paid = f"£{cents // 100:,}.{cents % 100:02d}"
            assert "GAME 493 £2.00" in text
            assert f"THIS LAYOUT PAYS {paid}" in text and f"prize {paid} - agrees" in text
            won = re.findall(r"wins (?:the prize shown, )?£([0-9,]+)\.([0-9]{2})\.", text)  # styles' words
            assert sum(int(p.replace(",", "")) * 100 + int(c) for p, c in won) == cents, text


def test_the_report_speaks_pounds_statistics_pages_and_checklist_too(made):
    out = made["root"] / "report.pdf"
    _ok("report", made["run"], "--spec", made["spec"], "--out", out, "--internal")
    text = " ".join(pages(out))
    assert "6,000 tickets at £2.00" in text
    assert "sales £12,000.00" in text
    assert "positions of prize level £1,000 (tier" in text  # step 8's names (were "$1,000")
    assert "$" not in text


def test_the_press_records_carry_the_pound_sign_as_one_byte(made):
    out = made["root"] / "fixed.txt"
    _ok("imaging", "export", made["run"], "--spec", made["spec"], "--format", "fixed", "--out", out)
    data, layout = out.read_bytes(), (made["root"] / "fixed.layout.csv").read_bytes()
    length = int(layout.decode().splitlines()[-1].split(",")[2])
    assert len(data) == 6000 * (length + 1)
    assert b"\xa32 " in data and "£".encode() not in data  # 0xA3 (ISO 8859-15), never UTF-8's C2 A3
    _ok("imaging", "export", made["run"], "--out", made["root"] / "imaging.csv")
    csv = pl.read_csv(made["root"] / "imaging.csv", infer_schema=False)
    assert parse(data, layout).equals(csv)


def test_the_desk_answers_a_winner_in_pounds(made):
    im = pl.read_parquet(made["run"] / "imaging-p1.parquet", columns=["barcode", "virn"])
    pool = pl.read_parquet(made["run"] / "pool-p1.parquet", columns=["prize_cents", "tier"])
    at = pool["prize_cents"].to_list().index(400)
    args = ("validate", made["run"], im["barcode"][at], im["virn"][at], "--validation-key",
            made["root"] / "low.key", "--high-validation-key", made["root"] / "high.key",
            "--public-key", made["public"])
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    assert result.stdout.strip().endswith(f": prize £4.00 ({'low'} tier)")
    answer = json.loads(_ok(*args, "--json"))
    assert answer["prize"] == "£4.00" and answer["prize_cents"] == 400 and "currency" not in answer


def test_verify_with_the_spec_passes(made):
    result = invoke("verify", made["run"], "--public-key", made["public"], "--spec", made["spec"])
    assert result.exit_code == 0, result.output
    assert "prize cost £7,120.00" in result.stdout
    assert "top prizes (£1,000 to £" in result.stdout  # step 8's tests name amounts in pounds
    assert "$" not in result.stdout
    figures = json.loads(invoke("verify", made["run"], "--public-key", made["public"], "--json").stdout)
    assert "$" not in json.dumps(figures, ensure_ascii=False)


def test_a_winners_merkle_proof_is_checked_in_pounds(made, tmp_path):
    from audit.cli import app as audit_app
    im = pl.read_parquet(made["run"] / "imaging-p1.parquet", columns=["virn"])
    pool = pl.read_parquet(made["run"] / "pool-p1.parquet", columns=["ticket", "prize_cents"])
    at = pool["prize_cents"].to_list().index(400)
    claim = tmp_path / "claim.json"
    claim.write_text(_ok("merkle-proof", made["run"], pool["ticket"][at], im["virn"][at], "--json",
                         "--public-key", made["public"]))
    result = invoke("check-proof", claim, made["run"] / "manifest.json", "--public-key", made["public"],
                    application=audit_app)
    assert result.exit_code == 0, result.output
    shown = f"ticket {pool['ticket'][at]} (pool p1, position {at:,} of 6,000, prize £4.00) belongs to the"
    assert result.stdout.startswith(f"valid proof: {shown}")  # was "prize $4.00"
