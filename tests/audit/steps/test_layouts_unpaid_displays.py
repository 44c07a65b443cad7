"""`poolgen verify` refuses a signed Primetime Payout run holding one share that shows a win it is not
paid (specs/primetime_payout.md, section 5, rules 10 and 11): the share's layout is edited in place,
keeping its prize, and the run is re-signed as an insider holding the key could, so that only the
audit's rules engine (step 4) can tell."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from poolgen.cli.main import app
from poolgen.files.write import canonical_bytes
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from poolgen.run.signing import Signer, new_key_pair
from tests.support import SEED_A, small_einstant, spec_path
from tests.support.reseal import reseal_pool

POOL_ID = "d2.00x2"
POOL = f"pool-{POOL_ID}.parquet"
BONUS = (9, 10, 11)


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("ptp-displays")
    keys = new_key_pair(tmp / "keys")
    signer = Signer.from_file(keys.private)
    spec = load_spec(spec_path("primetime_payout"))
    run = generate(GenerateRequest(spec, SEED_A, now=datetime(2026, 1, 2, tzinfo=UTC), out=tmp / "runs",
                                   run_id="r", pool_ids=[POOL_ID], signature=signer.manifest_entry()),
                   finish=signer.sign_run)
    return {"run": run.folder, "keys": keys, "signer": signer}


@pytest.fixture(scope="module")
def small(base, tmp_path_factory):
    """The same pool cut to 20,000 shares (tests/support `small_einstant`), signed with the same key: what
    the tampered cases edit, since one share's display is judged alike in a pool of any size (the full
    pool is verified by test_honest_run_verifies)."""
    tmp = tmp_path_factory.mktemp("ptp-displays-small")
    spec = load_spec(small_einstant(tmp, "primetime_payout", 20_000))
    run = generate(GenerateRequest(spec, SEED_A, now=datetime(2026, 1, 2, tzinfo=UTC), out=tmp / "runs",
                                   run_id="r", pool_ids=[POOL_ID], signature=base["signer"].manifest_entry()),
                   finish=base["signer"].sign_run)
    return {**base, "run": run.folder}


@pytest.fixture
def run(base, tmp_path) -> Path:
    copy = tmp_path / "run"
    shutil.copytree(base["run"], copy)
    return copy


@pytest.fixture
def small_run(small, tmp_path) -> Path:
    copy = tmp_path / "run"
    shutil.copytree(small["run"], copy)
    return copy


def verify(base, run: Path) -> tuple[int, dict]:
    result = CliRunner().invoke(app, ["verify", str(run), "--public-key", str(base["keys"].public), "--json"])
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, json.loads(result.stdout)


def no_bonus_symbol(area: int) -> pl.Expr:
    return pl.all_horizontal(~pl.col(f"a{area}_s{j}").is_in(BONUS) for j in range(4))


def edit_and_reseal(base, run: Path, where: pl.Expr, values: dict[str, int]) -> tuple[int, str]:
    """Set `values` in the first row matching `where`; restate the file hash and Merkle root; sign."""
    table = pl.read_parquet(run / POOL)
    row = int(table.with_row_index().filter(where)["index"][0])
    table = table.with_columns(
        pl.when(pl.int_range(pl.len()) == row).then(pl.lit(v)).otherwise(pl.col(c))
        .cast(table.schema[c]).alias(c) for c, v in values.items())
    reseal_pool(run, POOL, table, base["signer"])
    return row, str(table["ticket"][row])


def test_honest_run_verifies(base, run):
    code, report = verify(base, run)
    assert code == 0 and report["failed_steps"] == []
    assert report["steps"][3]["details"] == [
        "pool d2.00x2: 1,000,000 layouts evaluated by audit.styles.area_match: each pays its stored prize "
        "(330,943 winners), none illegal",
        "pool d2.00x2: no two consecutive tickets of the pool (consecutive serials) show identical play data "
        "(16 layout columns compared)"]
    doc = json.loads((run / "manifest.json").read_bytes())
    assert (doc["game"]["rules"], doc["game"]["style"], doc["play"]["style"]) == (
        "primetime_payout", "area_match", "area_match")
    assert doc["drbg"]["streams"][0].startswith("poolgen/v1/primetime_payout/d2.00x2/")


def test_a_play_entry_naming_no_engine_fails_step_4(base, run):
    """The play entry is part of the signed manifest: a style nobody wrote an engine for is refused."""
    doc = json.loads((run / "manifest.json").read_bytes())
    doc["game"]["style"] = doc["play"]["style"] = "area_matches"
    (run / "manifest.json").write_bytes(canonical_bytes(doc))
    base["signer"].sign_run(run)
    code, report = verify(base, run)
    assert code == 1 and report["failed_steps"] == [4]
    assert report["steps"][3]["reasons"] == [
        "pool d2.00x2: manifest play entry: no audit engine for eInstant style 'area_matches'"]


@pytest.mark.parametrize(("where", "values", "reason"), [
    # a loser's area 0 shows three Golden Footballs (it still pays 0)
    (no_bonus_symbol(1) & (pl.col("tier") == "lose"), {"a0_s0": 9, "a0_s1": 9, "a0_s2": 9, "a0_s3": 1},
     "area 0: 3 GFOOT symbols match and win nothing"),
    # a loser shows a Golden Football in area 0 and a Touchdown in area 1
    (no_bonus_symbol(0) & no_bonus_symbol(1) & (pl.col("tier") == "lose"), {"a0_s0": 9, "a1_s0": 10},
     "GFOOT in area 0 and TD in area 1"),
    # area 0 plays a Touchdown bonus; area 1 (losing) gets a lone Golden Football
    ((pl.col("a0_bonus") == 1) & (pl.col("prize_cents") == pl.col("a0_amount") * pl.col("a0_bonus_prizes"))
     & no_bonus_symbol(1), {"a1_s0": 9},
     "GFOOT in area 1 and TD in area 0"),
])
def test_one_unpaid_display_fails_step_4(small, small_run, where, values, reason):
    row, ticket = edit_and_reseal(small, small_run, where, values)
    code, report = verify(small, small_run)
    assert code == 1 and report["failed_steps"] == [4]
    why = " | ".join(report["steps"][3]["reasons"])
    assert f"1 illegal layout(s): {ticket} (row {row}): {reason}" in why, why


def test_a_play_entry_other_than_the_specs_fails_step_5(base, run):
    """With --spec, step 5 derives the play entry from the spec (docs/styles/area_match.md, section 1)."""
    doc = json.loads((run / "manifest.json").read_bytes())
    doc["play"]["bonus_games"][1]["grid"] = [1, 2, 3, 4, 2, 2]
    (run / "manifest.json").write_bytes(canonical_bytes(doc))
    base["signer"].sign_run(run)
    result = CliRunner().invoke(app, ["verify", str(run), "--public-key", str(base["keys"].public),
                                      "--spec", str(spec_path("primetime_payout")), "--json"])
    report = json.loads(result.stdout)
    assert result.exit_code == 1 and 5 in report["failed_steps"]
    assert report["steps"][4]["reasons"] == [
        "play.bonus_games: manifest [{'chances': 4, 'code': 1, 'name': 'Touchdown', 'symbol': 10}, "
        "{'code': 2, 'grid': [1, 2, 3, 4, 2, 2], 'name': 'Field Goal', 'symbol': 11}], spec "
        "[{'code': 1, 'name': 'Touchdown', 'symbol': 10, 'chances': 4}, "
        "{'code': 2, 'name': 'Field Goal', 'symbol': 11, 'grid': [1, 2, 3, 4, 2, 1]}]"]
