"""`poolgen report` (poolgen/pdf/report/): the audit report of real runs, read back with pypdf:
every tier tabled with its count, every verification step of a signed run, the steps a tampered run
fails. The runs are tests/poolgen/pdf/conftest.py's `runs`."""

from __future__ import annotations

import hashlib
import json
import shutil
from datetime import UTC, datetime
from decimal import ROUND_HALF_UP, Decimal
from types import SimpleNamespace

import pytest

from poolgen.check.game import check_spec
from poolgen.loader import load_spec
from poolgen.money import fmt_cents
from poolgen.pdf.report.document import _cross_check
from poolgen.run.generate import GenerateRequest, generate
from tests.support import spec_path
from tests.support.cli import invoke
from tests.support.packs import small_packs
from tests.support.pdf import GAMES, manifest, pages
from tests.support.split_run import split_run


@pytest.mark.parametrize("rules", list(GAMES))
def test_report_tables_every_tier_with_its_count(runs, rules, tmp_path):
    run = runs(rules)
    out = tmp_path / "report.pdf"
    result = invoke("report", run, "--out", out)
    assert result.exit_code == 0, result.output
    assert result.stdout == f"report {out}: 1 pool(s), verification not run, public edition (mode 0600)\n"
    texts = pages(out)
    m = manifest(run)
    pool = m["pools"][0]
    stats = next(i for i, t in enumerate(texts) if f"Pool {pool['id']}: statistics (verify step 8)" in t)
    table = " ".join(texts[2:stats - 1])  # the prize table's page(s), then charts, then statistics
    for tier in pool["tiers"]:
        row = f" {tier['id']} {fmt_cents(tier['prize_cents'])} {tier['count']:,} "
        assert table.count(row) == 1, row
    assert f" winners {pool['winners']:,} " in table
    assert f" all tickets {pool['tickets']:,} " in table
    assert "Verification was not run: no --public-key was given" in texts[1]
    assert m["seed_commitment"]["value"] in texts[0] and m["run_id"] in texts[0]
    assert m["game"]["regulation"] in texts[0] and m["created"] in texts[0]
    charts = texts[stats - 1]
    per = "book" if m["game"]["kind"] == "printed" else "block of 10,000 shares"
    assert f"Winners per {per}" in charts and f"Prize value per {per}" in charts
    assert "Top prizes: " in charts and "Positions of the top prizes" not in charts


def test_every_page_of_the_report_is_footed_page_n_of_m(runs, tmp_path):
    """The footer said "page N" alone: a reader of a page could not tell how many there are, nor notice
    the last one missing. Now "page N of M" on every page, after the run's label."""
    out = tmp_path / "report.pdf"
    assert invoke("report", runs("happy_holidays"), "--out", out).exit_code == 0
    texts = pages(out)
    assert len(texts) == 11  # title; verification; prize table; charts; statistics (7 pages)
    for n, text in enumerate(texts, start=1):
        assert text.startswith("Audit report of run ") and text.endswith(f" page {n} of 11"), text[-60:]


def test_signed_run_report_with_every_verification_step(runs, tmp_path):
    run = runs("happy_holidays")
    out = tmp_path / "r.pdf"
    result = invoke("report", run, "--out", out, "--spec", spec_path("happy_holidays"),
                    "--public-key", runs.public_key)
    assert result.exit_code == 0, result.output
    assert result.stdout == f"report {out}: 1 pool(s), verification passes, public edition (mode 0600)\n"
    texts = pages(out)
    assert len(texts) == 11  # title; verification and cross-check; prize table; charts; statistics (7 pages)
    assert runs.fingerprint in texts[0]
    assert "Every step asked for passes" in texts[1]
    for n, title in enumerate(("signature", "files", "completeness", "layouts", "figures",
                               "merkle roots"), start=1):
        assert f"{n} {title} PASS" in texts[1]
    assert "7 reproduction SKIP" in texts[1]
    assert "8 statistics PASS pool p1: 91 tests, none significant" in texts[1]
    assert "run: 4 tests of the top tiers, pools combined, 0 significant" in texts[1]
    assert "PASS: no test significant (91 tests)" in texts[4]
    assert "Every published figure of K.A.R. 111-4-3836 reconciles" in texts[1]
    assert "the spec the run was made from" in texts[1]


def test_report_of_a_tampered_run_says_which_steps_fail(runs, tmp_path):
    run = tmp_path / "tampered"
    shutil.copytree(runs("happy_holidays"), run)
    with open(run / "pool-p1.parquet", "ab") as f:
        f.write(b"x")
    out = tmp_path / "t.pdf"
    result = invoke("report", run, "--out", out, "--public-key", runs.public_key)
    assert result.exit_code == 1
    assert result.stdout == f"report {out}: 1 pool(s), VERIFICATION FAILS, public edition (mode 0600)\n"
    texts = pages(out)
    assert "FAILED: step(s) 2, 3" in texts[1] and "1 signature PASS" in texts[1]
    assert "The pool file cannot be read" in texts[2]


def test_report_statistics_page_holds_a_packed_run_to_its_packs_law_as_verify_does(tmp_path):
    """A run made under a cap of one a book: its statistics page runs step 8's pack tests (the
    manifest's print.packs), not the plain shuffle's winners-per-book tests that a cap changes."""
    spec = load_spec(small_packs(tmp_path, 'caps = [ { tiers = ["5", "20", "100"], at_most = 1 } ]'))
    seed = hashlib.sha256(b"poolgen/tests/report/packs").digest()
    run = generate(GenerateRequest(spec, seed, now=datetime(2026, 1, 2, tzinfo=UTC), out=tmp_path / "runs",
                                   run_id="capped")).folder
    out = tmp_path / "report.pdf"
    result = invoke("report", run, "--out", out)
    assert result.exit_code == 0, result.output
    page = next(t for t in pages(out) if "statistics (verify step 8)" in t)
    assert "capped tickets (packs.caps[0])" in page, page
    assert "PASS: no test significant" in page, page


def test_report_cross_check_does_not_claim_reconciled_when_nothing_published(tmp_path):
    """A regulation table with no published figure in the spec: the report says nothing was compared,
    never that every published figure reconciles."""
    text = spec_path("examples/hit_50").read_text()
    path = tmp_path / "hit_50_regulation.toml"
    path.write_text(text.replace('prize_table = "designed"', 'prize_table = "regulation"'))
    game = load_spec(path)
    run = SimpleNamespace(manifest={"spec": {"sha256": game.sha256}})  # the cross-check reads only this
    said = " ".join(f.getPlainText() for f in _cross_check(game, check_spec(game), run)
                    if hasattr(f, "getPlainText"))
    assert "The spec states no published figure (regulation: K.A.R. 111-4-3663): nothing reconciled; the " \
           "figures below are computed from its 13 tiers." in said
    assert "reconciles" not in said


def test_report_cross_check_of_a_designed_game_reads_as_a_sentence(tmp_path):
    """A designed example's regulation is "none (a designed example)": never quoted as a regulation's
    name ("no published figure of none (a designed example)")."""
    game = load_spec(spec_path("examples/lucky_pairs"))
    assert game.regulation == "none (a designed example)"
    run = SimpleNamespace(manifest={"spec": {"sha256": game.sha256}})  # the cross-check reads only this
    said = " ".join(f.getPlainText() for f in _cross_check(game, check_spec(game), run)
                    if hasattr(f, "getPlainText"))
    assert "The spec states no published figure (regulation: none (a designed example)): nothing " \
           "reconciled; the figures below are computed from its 9 tiers." in said
    assert "figure of none" not in said


def test_report_cross_check_of_a_split_order_shows_each_pools_drawn_counts_not_its_shares_floor(tmp_path):
    """A split order (docs/randomness.md 4b): the cross-check's pool rows are the counts the seed drew,
    the signed manifest's, which add up to the order row; the spec's shares rounded down (what `check`
    shows before any seed) would have every pool of this order 2 to 9 winners short."""
    made = split_run(tmp_path)
    out = tmp_path / "r.pdf"
    result = invoke("report", made.folder, "--out", out, "--spec", made.spec)
    assert result.exit_code == 0, result.output
    page = pages(out)[1]
    m = manifest(made.folder)
    for pool in m["pools"]:
        odds = (Decimal(2000) / pool["winners"]).quantize(Decimal("0.01"), ROUND_HALF_UP)
        payout = (Decimal(pool["prize_cost_cents"]) / 2000).quantize(Decimal("0.01"), ROUND_HALF_UP)
        cost = fmt_cents(pool["prize_cost_cents"])
        row = f" {pool['id']} $1.00 2,000 {pool['winners']} {odds} {cost} {payout}% "
        assert row in page, (row, page)
    assert sum(p["winners"] for p in m["pools"]) == 254
    assert min(p["winners"] for p in m["pools"]) > 40  # every pool's shares rounded down: 40 winners, $48.00
    assert " $1.00 2,000 40 50.00 $48.00 2.40% " not in page
    assert " order $1.00 12,000 254 47.24 $324.00 2.70% " in page
    assert "the pools' rows are the counts this run's seed drew" in page
    assert "the order's row the spec's exact counts, which they add up to" in page
    assert "shares rounded down" not in page


def test_report_cross_check_says_when_a_split_runs_pools_do_not_add_up_to_the_order(tmp_path):
    """A split run whose manifest moves one top prize into p1 (losers one fewer): the report, which
    checks nothing without the key, still says the pools' rows do NOT add up to the order's."""
    made = split_run(tmp_path)
    path = made.folder / "manifest.json"
    m = json.loads(path.read_text())
    tiers = m["pools"][0]["tiers"]
    tiers[-1]["count"] += 1
    tiers[0]["count"] -= 1
    path.write_text(json.dumps(m, indent=1))
    out = tmp_path / "r.pdf"
    result = invoke("report", made.folder, "--out", out, "--spec", made.spec)
    assert result.exit_code == 0, result.output
    assert "the order's row the spec's exact counts, which they do NOT add up to" in pages(out)[1]
