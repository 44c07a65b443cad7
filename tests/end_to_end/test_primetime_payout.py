"""Primetime Payout, a spec of the area_match eInstant style, end to end from the command line: check,
generate a full pool (signed), verify every step with the spec and the seed, prove a share and check
the proof with audit alone, draw the proof PDF and write the report. And variants of the same style
(issue 13's probes): an added amount, fewer areas with another bonus grid, a game of chances with
other wins; each checks, generates and verifies, or is refused by `check` with one line naming the
field."""

from __future__ import annotations

import io
import json
from pathlib import Path

import polars as pl
import pytest
from pypdf import PdfReader

from audit.cli import app as audit_app
from tests.support import ROOT, SEED_A, small_einstant
from tests.support.cli import invoke

SPEC = ROOT / "specs" / "primetime_payout.toml"
POOL = "d1.00x1"  # the smallest: one area
WINNERS = 330_943


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> dict:
    root = tmp_path_factory.mktemp("area-match")
    (root / "run.seed").write_text(SEED_A.hex() + "\n")
    (root / "run.seed").chmod(0o600)
    assert invoke("keys", "new", root / "keys").exit_code == 0
    return {"root": root, "public": root / "keys" / "signing-key.pub.pem"}


def generate(base, spec: Path, pool: str, run_id: str):
    return invoke("generate", spec, "--out", base["root"] / "runs", "--seed-file", base["root"] / "run.seed",
                  "--pool", pool, "--run-id", run_id, "--workers", "1",
                  "--key", base["root"] / "keys" / "signing-key.pem")


def verify(base, run_id: str, spec: Path) -> dict:
    result = invoke("verify", base["root"] / "runs" / run_id, "--public-key", base["public"], "--spec", spec,
                    "--seed-file", base["root"] / "run.seed", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert [s["status"] for s in report["steps"]] == ["pass"] * 9  # with steps 8 and 9
    return report


@pytest.fixture(scope="module")
def run(base) -> Path:
    made = generate(base, SPEC, POOL, "pp")
    assert made.exit_code == 0, made.output
    return base["root"] / "runs" / "pp"


def test_check_reconciles_every_published_figure():
    result = invoke("check", SPEC)
    assert result.exit_code == 0, result.output
    assert "ok 58 prize tiers and the losing tier, every published figure reconciles" in result.stdout
    assert ("(i) multiplier 2500, $5.00 column: '$1,2500.00' is printed oddly; read as $12,500.00"
            in result.stdout)


def test_verify_every_step_with_signature_spec_and_seed(base, run):
    report = verify(base, "pp", SPEC)
    assert report["steps"][3]["details"] == [
        f"pool {POOL}: 1,000,000 layouts evaluated by audit.styles.area_match: each pays its stored prize "
        f"({WINNERS:,} winners), none illegal",
        f"pool {POOL}: no two consecutive tickets of the pool (consecutive serials) show identical play data "
        "(8 layout columns compared)"]
    step8 = " | ".join(report["steps"][7]["details"])
    assert "a0_s0 (the first spot shown) against win/lose" in step8
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["game"]["rules"] == "primetime_payout" and manifest["game"]["style"] == "area_match"


def test_prove_and_check_proof_with_audit_alone(base, run, tmp_path):
    table = pl.read_parquet(run / f"pool-{POOL}.parquet", columns=["ticket", "prize_cents"])
    ticket = table.filter(pl.col("prize_cents") > 0)["ticket"][0]
    proved = invoke("prove", run, ticket, "--json")
    assert proved.exit_code == 0, proved.output
    (tmp_path / "claim.json").write_text(proved.stdout)
    checked = invoke("check-proof", tmp_path / "claim.json", run / "manifest.json", "--public-key",
                     base["public"], application=audit_app)
    assert checked.exit_code == 0, checked.output
    assert f"valid proof: ticket {ticket}" in checked.stdout


def test_proof_and_report(base, run, tmp_path):
    made = invoke("proof", run, "--spec", SPEC, "--out", tmp_path / "proof.pdf")
    assert made.exit_code == 0, made.output
    pages = PdfReader(io.BytesIO((tmp_path / "proof.pdf").read_bytes())).pages
    tiers = len(json.loads((run / "manifest.json").read_text())["pools"][0]["tiers"])
    assert tiers == 59 and len(pages) == 1 + 2 + tiers  # cover, two index pages, a share of every tier
    cover = pages[0].extract_text()
    assert ("Coin: wild, matches any symbol except Golden Football, Touchdown, Field Goal. Golden Football "
            "with Touchdown: Touchdown bonus game") in " ".join(cover.split())
    text = [p.extract_text() for p in pages[3:]]
    assert all("- agrees" in t for t in text) and not any("ILLEGAL" in t for t in text)
    assert sum("no match of 3, no bonus: no win" in t for t in text) == 1  # the losing tier's share
    report = invoke("report", run, "--spec", SPEC, "--public-key", base["public"], "--out",
                    tmp_path / "report.pdf")
    assert report.exit_code == 0, report.output
    assert "verification passes" in report.stdout


# --- variants of the same style (issue 13's probes) -------------------------------------------------

def variant(tmp_path: Path, *edits: tuple[str, str], shares: int | None = None) -> Path:
    """The spec with `edits`; with `shares`, cut to pools of that many shares first (small_einstant)."""
    if shares is None:
        text = SPEC.read_text()
    else:
        (tmp_path / "cut").mkdir()
        text = small_einstant(tmp_path / "cut", "primetime_payout", shares).read_text()
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    path = tmp_path / ("variant.toml" if shares is None else "variant_cut.toml")
    path.write_text(text)
    return path


# The variants' runs: pools cut to 50,000 shares (every count a twentieth, at least 1). What a variant's
# run guards, that generate lays out and audit's engine pays and verify passes every step of what check
# accepted, does not depend on the pool's size; the full pool of the real game is the run above.
CUT = 50_000
ADDED_AMOUNT = ('"2500", "5000"]', '"2500", "3000", "5000"]')
FEWER_AREAS = ("play_areas = [1, 2, 3, 4]", "play_areas = [1, 2]")
OTHER_GRID = ("grid = [1, 2, 3, 4, 2, 1]", "grid = [4, 1, 3, 1, 2, 1, 4]")


def test_an_added_amount_checks_generates_and_verifies(base, tmp_path):
    """The issue's probe: an added Primetime amount passed check and failed generate (audit's copied
    table of amounts refused it). Now the amounts are the play entry's."""
    spec = variant(tmp_path, ADDED_AMOUNT)
    checked = invoke("check", spec, "--json")
    assert checked.exit_code == 0 and json.loads(checked.stdout)["games"][0]["problems"] == []
    spec = variant(tmp_path, ADDED_AMOUNT, shares=CUT)  # its run: the amounts are the play entry's
    made = generate(base, spec, "d1.00x2", "added")
    assert made.exit_code == 0, made.output
    verify(base, "added", spec)
    play = json.loads((base["root"] / "runs" / "added" / "manifest.json").read_text())["play"]
    assert play["amount_multipliers"][-3:] == ["2500", "3000", "5000"]


def test_fewer_areas_and_another_bonus_grid_check_generate_and_verify(base, tmp_path):
    spec = variant(tmp_path, FEWER_AREAS, OTHER_GRID)
    checked = invoke("check", spec, "--json")
    assert checked.exit_code == 0, checked.output
    game = json.loads(checked.stdout)["games"][0]
    assert [p["id"] for p in game["pools"]] == [f"d{d}x{k}" for d in ("1.00", "2.00", "5.00", "7.50")
                                                for k in (1, 2)]
    spec = variant(tmp_path, FEWER_AREAS, OTHER_GRID, shares=CUT)
    made = generate(base, spec, "d1.00x1", "grid")
    assert made.exit_code == 0, made.output
    verify(base, "grid", spec)
    table = pl.read_parquet(base["root"] / "runs" / "grid" / "pool-d1.00x1.parquet",
                            columns=["a0_bonus", "a0_bonus_result"])
    assert set(table.filter(pl.col("a0_bonus") == 2)["a0_bonus_result"].unique().to_list()) == set(range(7))


@pytest.mark.parametrize(("edits", "line"), [
    # three spots per area: a Coin in spot 0 could never lose
    ([("spots_per_area = 4", "spots_per_area = 3")],
     "variant.toml: play.spots_per_area: must be 4, 5 or 6, not 3"),
    # a Touchdown of three chances cannot win the Field Goal's 4 prizes
    ([("chances = 4", "chances = 3")],
     "variant.toml: layout.bonus_games[1]: wins 1, 2, 3, 4 prizes, bonus_games[0] 1, 2, 3: every bonus "
     "game must win the same numbers of prizes"),
    ([('wild = "COIN"', 'wild = "WILD"')],
     "variant.toml: layout.wild: must be the code of one of the [[symbols]], not 'WILD'"),
    # a match game without a bonus: named as missing, not as "not None"
    ([('bonus_key = "GFOOT"', "# no key")],
     "variant.toml: layout.bonus_key: missing field: the spec code of one of the [[symbols]] (an "
     "area_match game has a bonus key and 1 to 8 bonus games)"),
    ([("max_decompositions = 50000", "max_decompositions = 50000\nfield_goal_grid = [1, 2]")],
     "variant.toml: layout.field_goal_grid: unknown field"),
])
def test_a_variant_the_style_cannot_lay_out_is_refused_with_one_line(base, tmp_path, edits, line):
    spec = variant(tmp_path, *edits)
    checked = invoke("check", spec, "--json")  # the style reads its parameters when the spec loads
    assert checked.exit_code == 2, checked.output
    assert line in checked.output and "Traceback" not in checked.output
    made = generate(base, spec, "d1.00x1", "refused")
    assert made.exit_code == 2
    assert made.output.strip().splitlines()[-1].startswith("error: ") or line in made.output
    assert line in made.output and "Traceback" not in made.output
    assert not (base["root"] / "runs" / "refused").exists()
