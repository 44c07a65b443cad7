"""Happy Holidays, a format-2 spec of the match_n style, end to end from the command line as an operator
runs it: check (every published figure reconciles, as before the game became a spec of the style),
generate a full signed pool, verify every step with the spec and the seed, prove a ticket and check
the proof with audit alone, draw the proof PDF and write the report. And the same for the probe
variants of issue 13, sold at $2 and with nine spots, on the game cut to pools of 3,000."""

from __future__ import annotations

import io
import json

import polars as pl
import pytest
from pypdf import PdfReader

from audit.cli import app as audit_app
from tests.support import SEED_A, small_happy_holidays, spec_path
from tests.support.cli import invoke
from tests.support.virns import virn_of

# variant -> (edit of the spec, spots, winners of p1). The probes generate and verify on the game cut
# to pools of 3,000 (small_happy_holidays: counts per pool); the game as it is runs at full size.
VARIANTS = {"hh": (None, 6, 87_900), "hh_2": (('price = "1.00"', 'price = "2.00"'), 6, 878),
            "hh_9": (("spots = 6\n", "spots = 9\n"), 9, 878)}
TICKETS = {"hh": 300_000, "hh_2": 3_000, "hh_9": 3_000}


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> dict:
    root = tmp_path_factory.mktemp("hh")
    (root / "run.seed").write_text(SEED_A.hex() + "\n")
    (root / "run.seed").chmod(0o600)
    assert invoke("keys", "new", root / "keys").exit_code == 0
    specs, runs = {}, {}
    for name, (edit, _, _) in VARIANTS.items():
        text = spec_path("happy_holidays").read_text()
        if edit:
            assert text.count(edit[0]) == 1
            text = text.replace(*edit)
        specs[name] = root / name / "happy_holidays.toml"
        specs[name].parent.mkdir()
        specs[name].write_text(text)
        if edit:
            (root / name / "cut").mkdir()
            specs[name] = small_happy_holidays(root / name / "cut", 18_000, text)
        made = invoke("generate", specs[name], "--out", root / "runs", "--seed-file", root / "run.seed",
                      "--pool", "p1", "--run-id", name, "--workers", "1",
                      "--key", root / "keys" / "signing-key.pem")
        assert made.exit_code == 0, made.output
        runs[name] = root / "runs" / name
    return {"root": root, "specs": specs, "runs": runs, "public": root / "keys" / "signing-key.pub.pem"}


def test_check_reconciles_every_published_figure():
    result = invoke("check", spec_path("happy_holidays"), "--json")
    assert result.exit_code == 0, result.output
    game = json.loads(result.stdout)["games"][0]
    assert game["problems"] == []
    figures = [(p["id"], p["tickets"], p["winners"], p["prize_cost_cents"], p["odds_1_in"])
               for p in game["pools"]]
    assert figures == [(f"p{i}", 300_000, 87_900, 18_185_000, "3.4130") for i in range(1, 7)]
    assert [(t["id"], t["prize_cents"], t["count"]) for t in game["pools"][0]["tiers"]] == [
        ("lose", 0, 212_100), ("free", 100, 20_000), ("1", 100, 39_350), ("2", 200, 23_500),
        ("5", 500, 4_100), ("20", 2000, 500), ("100", 10_000, 450)]
    order = game["order"]
    assert (order["tickets"], order["winners"], order["prize_cost_cents"], order["odds_1_in"]) == \
        (1_800_000, 527_400, 109_110_000, "3.4130")


def test_a_wrong_published_figure_is_still_reported(tmp_path):
    text = spec_path("happy_holidays").read_text().replace('published_cost = "$60,000"',
                                                           'published_cost = "$66,000"')
    (tmp_path / "hh.toml").write_text(text.replace("winners = 527400", "winners = 527401"))
    result = invoke("check", tmp_path / "hh.toml", "--json")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["games"][0]["problems"] == [
        "Happy Holidays: (i): row 5 ($20) prize cost: published $66,000.00, computed 3,000 x $20.00 = "
        "$60,000.00",
        "Happy Holidays: (i): total winners: published 527,401, computed 527,400"]


@pytest.mark.parametrize("name", VARIANTS)
def test_verify_every_step_with_signature_spec_and_seed(base, name):
    _, spots, winners = VARIANTS[name]
    result = invoke("verify", base["runs"][name], "--public-key", base["public"], "--spec",
                    base["specs"][name], "--seed-file", base["root"] / "run.seed", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert [s["status"] for s in report["steps"]] == ["pass"] * 9
    assert report["steps"][3]["details"] == [
        f"pool p1: {TICKETS[name]:,} layouts evaluated by audit.styles (match_n): each pays its stored prize "
        f"({winners:,} winners), none illegal",
        f"pool p1: no two consecutive tickets of a pack show identical play data ({spots} layout columns "
        "compared)"]
    step8 = " | ".join(report["steps"][7]["details"])
    if spots == 9:  # winners show $1.00 more often than two layers of a loser can: no promise, said so
        assert ("not tested: layout: play_spot_0: winners show 1 2.006 times in 9 spots, more than a ticket "
                "without a win may (2): no promise (match_n.md section 8)") in step8
        assert "against win/lose (chi-square" not in step8
    else:
        assert "play_spot_0 (one scratched spot) against win/lose (chi-square" in step8
        assert "win/lose predicted from play_spot_0 (logistic regression (6 one-hot features)" in step8
    manifest = json.loads((base["runs"][name] / "manifest.json").read_text())
    assert manifest["game"]["rules"] == "happy_holidays"
    assert manifest["play"]["areas"][0]["spots"] == spots
    assert "poolgen/v1/happy_holidays/p1/layout" in manifest["drbg"]["streams"]
    free = manifest["play"]["tiers"][1]
    assert free["id"] == "free" and free["wins"][0]["prize_cents"] == (200 if name == "hh_2" else 100)
    imaging = pl.read_parquet(base["runs"][name] / "imaging-p1.parquet")
    assert [c for c in imaging.columns if c.startswith("play_spot_") and c[-1].isdigit()] == \
        [f"play_spot_{j}" for j in range(spots)]


@pytest.mark.parametrize("name", VARIANTS)
def test_prove_and_check_proof_with_audit_alone(base, name, tmp_path):
    ticket = pl.read_parquet(base["runs"][name] / "pool-p1.parquet", columns=["ticket"])["ticket"][7]
    proved = invoke("prove", base["runs"][name], ticket, virn_of(base["runs"][name], ticket), "--json")
    assert proved.exit_code == 0, proved.output
    (tmp_path / "claim.json").write_text(proved.stdout)
    checked = invoke("check-proof", tmp_path / "claim.json", base["runs"][name] / "manifest.json",
                     "--public-key", base["public"], application=audit_app)
    assert checked.exit_code == 0, checked.output
    assert f"valid proof: ticket {ticket}" in checked.stdout


@pytest.mark.parametrize("name", VARIANTS)
def test_proof_and_report(base, name, tmp_path):
    _, spots, _ = VARIANTS[name]
    made = invoke("proof", base["runs"][name], "--spec", base["specs"][name], "--out", tmp_path / "proof.pdf")
    assert made.exit_code == 0, made.output
    pages = PdfReader(io.BytesIO((tmp_path / "proof.pdf").read_bytes())).pages
    assert len(pages) == 2 + 7  # cover, one index page, one ticket of every tier (the losers' too)
    text = [p.extract_text() for p in pages[2:]]
    assert all("- agrees" in t for t in text) and not any("ILLEGAL" in t for t in text)
    assert sum("No area shows a win: no prize." in t for t in text) == 1
    assert all("MATCH 3 LIKE AMOUNTS" in t for t in text)
    free = next(t for t in text if "3 x FREE" in t)
    assert ("wins $2.00" if name == "hh_2" else "wins $1.00") in free
    report = invoke("report", base["runs"][name], "--spec", base["specs"][name], "--public-key",
                    base["public"], "--out", tmp_path / "report.pdf")
    assert report.exit_code == 0, report.output
    assert "verification passes" in report.stdout
