"""Step 7 of audit alone (no generator: `python -m audit verify --seed-file`) re-derives every pool's
Merkle salts and, where no pack or block parameter draws it otherwise, its tier order from the seed
(audit/steps/order.py, docs/randomness.md sections 2 to 4). An insider holding the signing and
validation keys who swapped two tickets' whole rows (a winner into another book, imaging and
validation files restated), or chose the salts, passed every step of audit alone, seed, spec and keys
given; only `poolgen verify`'s regeneration caught it. A small signed Happy Holidays run (two pools of
3,000) with both real validation keys, and one eInstant pool of 2,000 shares."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from pathlib import Path

import polars as pl
import pytest

from audit.checklist import Step
from audit.cli import app as audit_app
from audit.read.manifest import Manifest
from audit.steps.order import check_order_and_salts
from poolgen.files.read import file_entry
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from poolgen.run.merkle import root as merkle_root
from tests.support import SEED_A, small_einstant
from tests.support.cli import invoke, one_line
from tests.support.reseal import audit_alone, rebuild_validation, resign, signed_small_run, with_seed_file

IDENTITY = ("position", "ticket", "book", "ticket_no", "serial")


@pytest.fixture(scope="module")
def signed(tmp_path_factory) -> dict:
    return with_seed_file(signed_small_run(tmp_path_factory.mktemp("order"), 6000, validation_keys=True))


def _swap(table: pl.DataFrame, i: int, j: int, columns: list[str]) -> pl.DataFrame:
    index = list(range(len(table)))
    index[i], index[j] = j, i
    return table.with_columns(table.select(columns)[index])


def _insider(signed, run: Path, columns) -> tuple[int, int]:
    """Pool p1's first winner and its first loser in another book trade `columns` (of the pool file,
    and the layout's in the imaging file); pool entry, Merkle root, validation files restated, signed
    again. Returns the two positions."""
    shutil.copytree(signed["run"], run)
    path, image = run / "pool-p1.parquet", run / "imaging-p1.parquet"
    table = pl.read_parquet(path)
    i = int(table["prize_cents"].arg_max() or 0)
    j = int(table.with_row_index().filter((pl.col("prize_cents") == 0) & (pl.col("book") != table["book"][i]))
            ["index"][0])
    layout = [c for c in table.columns if c not in (*IDENTITY, "tier", "prize_cents", "salt")]
    table = _swap(table, i, j, columns(layout))
    table.write_parquet(path, compression="zstd", statistics=True)
    shown = pl.read_parquet(image)
    _swap(shown, i, j, [c for c in shown.columns if c.rsplit("_", 1)[0] in layout or c in layout]) \
        .write_parquet(image)

    def restate(doc: dict) -> None:
        doc["pools"][0]["file"] = file_entry(path)
        doc["pools"][0]["merkle"]["root"] = merkle_root(table).hex()

    rebuild_validation(run, signed["root"])
    resign(run, restate, signed["signer"])
    return i, j


def test_audit_alone_rederives_the_salts_and_tier_order_of_an_honest_run(signed):
    report = audit_alone(signed, signed["run"])
    assert report.failed == [], report.to_json()
    assert report.step(Step.REPRODUCTION).details[0] == (
        "seed matches the commitment; the salts and tier order of 2 pool(s), 6,000 validation numbers and 20 "
        "book numbers re-derived from the seed")


def test_a_winner_moved_to_another_book_with_its_salt_fails_step_7_ofaudit_alone(signed, tmp_path):
    i, j = _insider(signed, tmp_path / "run", lambda layout: ["tier", "prize_cents", "salt", *layout])
    report = audit_alone(signed, tmp_path / "run")
    assert report.failed == [Step.REPRODUCTION], report.to_json()
    first = min(i, j)
    assert report.step(Step.REPRODUCTION).reasons == [
        f"seed matches the commitment; pool-p1.parquet: 2 salt(s) not the seed's, first at position "
        f"{first:,}; pool-p1.parquet: 2 ticket(s) not in the seed's tier order, first at position {first:,} "
        "(docs/randomness.md, section 4: the pool's salt and order streams)"]


def test_a_winner_moved_to_another_book_keeping_the_salts_fails_step_7_ofaudit_alone(signed, tmp_path):
    i, j = _insider(signed, tmp_path / "run", lambda layout: ["tier", "prize_cents", *layout])
    report = audit_alone(signed, tmp_path / "run")
    assert report.failed == [Step.REPRODUCTION], report.to_json()
    first = min(i, j)  # positions only: the tier at a position is an outcome, never quoted
    assert report.step(Step.REPRODUCTION).reasons == [
        f"seed matches the commitment; pool-p1.parquet: 2 ticket(s) not in the seed's tier order, first at "
        f"position {first:,} (docs/randomness.md, section 4: the pool's salt and order streams)"]


def test_salts_chosen_by_an_insider_fail_step_7_ofaudit_alone(signed, tmp_path):
    """Salts an outsider can guess (zeros and the position) let a proof's neighbouring leaves be
    inverted (docs/merkle.md); they are well formed and distinct, so step 3 passes them."""
    run = tmp_path / "run"
    shutil.copytree(signed["run"], run)
    path = run / "pool-p2.parquet"
    table = pl.read_parquet(path).with_columns(
        pl.format("{}{}", pl.lit("0" * 24), pl.col("position").cast(pl.String).str.zfill(8)).alias("salt"))
    table.write_parquet(path, compression="zstd", statistics=True)

    def restate(doc: dict) -> None:
        doc["pools"][1]["file"] = file_entry(path)
        doc["pools"][1]["merkle"]["root"] = merkle_root(table).hex()

    resign(run, restate, signed["signer"])
    report = audit_alone(signed, run)
    assert report.failed == [Step.REPRODUCTION], report.to_json()
    assert report.step(Step.REPRODUCTION).reasons == [
        "seed matches the commitment; pool-p2.parquet: 3,000 salt(s) not the seed's, first at position 0 "
        "(docs/randomness.md, section 4: the pool's salt and order streams)"]


@pytest.fixture(scope="module")
def einstant(tmp_path_factory) -> tuple[Path, Manifest]:
    """An unsigned run of Hand to Hand Tactics' pool d1.00 cut to 2,000 shares."""
    root = tmp_path_factory.mktemp("einstant-order")
    spec = load_spec(small_einstant(root, "hand_to_hand_tactics", 2000))
    run = generate(GenerateRequest(spec, SEED_A, now=datetime(2026, 12, 1, tzinfo=UTC), out=root / "runs",
                                   run_id="e", pool_ids=["d1.00"])).folder
    return run, Manifest.parse((run / "manifest.json").read_bytes())


def test_audits_salts_and_tier_order_are_poolgens_for_an_einstant(einstant):
    run, manifest = einstant
    assert manifest.doc["blocks"] == {"neighbours": "across blocks"}  # the default: leaves the order alone
    assert check_order_and_salts(run, manifest, SEED_A) == ("the salts and tier order of 1 pool(s)", "")


@pytest.mark.parametrize(("blocks", "named"), [
    ({"shares": 100, "neighbours": "off", "min_winners": 1}, "blocks.min_winners"),
    ({"shares": 100, "neighbours": "across blocks", "caps": [{"tiers": ["m1"], "at_most": 1}], "spacing": []},
     "blocks.caps"),
])
def test_a_tier_order_drawn_under_block_parameters_is_said_not_rederived(einstant, blocks, named):
    """Pack and block parameters other than `neighbours` and `shares` draw the order by docs/randomness.md
    section 5, which only regeneration checks: step 7 of audit alone says so, and still checks salts."""
    run, manifest = einstant
    doc = json.loads(manifest.data) | {"blocks": blocks}
    other = Manifest.parse(json.dumps(doc).encode())
    assert check_order_and_salts(run, other, SEED_A) == (
        "the salts of 1 pool(s)", f"tier order not re-derived: {named} draw it otherwise (docs/randomness.md "
        "section 5; `poolgen verify --seed-file` regenerates it)")


@pytest.mark.parametrize("blocks", [
    {"shares": 100, "neighbours": "across blocks", "caps": [], "spacing": []},
    {"neighbours": "across blocks", "min_winners": 1},
], ids=["empty rules", "no blocks"])
def test_block_entries_that_draw_no_order_do_not_turn_the_order_check_off(einstant, blocks):
    """poolgen shuffles plainly unless a rule is given within blocks of `shares`: a manifest adding an
    empty list of caps, or a rule without blocks, is held to the plain shuffle, not excused from it."""
    run, manifest = einstant
    other = Manifest.parse(json.dumps(json.loads(manifest.data) | {"blocks": blocks}).encode())
    assert check_order_and_salts(run, other, SEED_A) == ("the salts and tier order of 1 pool(s)", "")


@pytest.mark.parametrize(("packs", "message"), [
    ({"neighbours": "within packs", "caps": []},
     "manifest.json: print.packs.caps: must be a non-empty list of tables"),
    ({"neighbours": "within packs", "spacing": []},
     "manifest.json: print.packs.spacing: must be a non-empty list of tables"),
    ({"neighbours": "within packs", "min_winners": None},
     "manifest.json: print.packs.min_winners: must be a whole number, not None"),
], ids=["empty caps", "empty spacing", "null min_winners"])
def test_a_print_packs_naming_no_rule_is_refused_before_step_7_in_one_line(signed, tmp_path, packs, message):
    """docs/randomness.md 4: every key of `print.packs` beside `neighbours` is a rule drawing the order,
    because audit refuses, before any step, the entries that would name none: a third engine needs no
    other reading of them."""
    run = tmp_path / "run"
    shutil.copytree(signed["run"], run)
    resign(run, lambda doc: doc["print"].update(packs=packs), signed["signer"])
    one_line(invoke("verify", run, "--public-key", signed["public"], "--seed-file", signed["seed"],
                    application=audit_app), "audit", message)
