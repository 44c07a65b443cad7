"""Steps 4 and 5 of an eInstant run (audit/steps/layouts.py, audit/steps/figures.py), message by
message: the style's engine over the table, the figures recounted, and the run against its spec (the
spec's hash, every game field, every pool, and the play entry an area_match engine derives from the spec:
docs/styles/area_match.md section 1). Called directly on one small real pool, so each case costs an
edit of a dict or a table."""

from __future__ import annotations

import hashlib
import json
import shutil
from datetime import UTC, datetime

import numpy as np
import polars as pl
import pytest

from audit.errors import VerificationError
from audit.read.manifest import Manifest
from audit.read.spec import read_spec
from audit.steps.figures import check_against_spec, check_figures
from audit.steps.identity import check_complete
from audit.steps.layouts import check_layouts
from audit.verify import pool_outcomes
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from tests.support import SEED_A, spec_path

PP = spec_path("primetime_payout")
PP_SHA = hashlib.sha256(PP.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def pp_folder(tmp_path_factory):
    """An unsigned run of Primetime Payout's pool d1.00x1."""
    return generate(GenerateRequest(load_spec(PP), SEED_A, now=datetime(2026, 1, 2, tzinfo=UTC),
                                    out=tmp_path_factory.mktemp("pp5"), run_id="r",
                                    pool_ids=["d1.00x1"])).folder


@pytest.fixture(scope="module")
def pp_run(pp_folder) -> dict:
    """Its manifest, as JSON."""
    return json.loads((pp_folder / "manifest.json").read_bytes())


def _step5(doc: dict) -> str:
    return check_against_spec(Manifest.parse(json.dumps(doc).encode()), read_spec(PP))


def _fails(doc: dict, change) -> str:
    doc = json.loads(json.dumps(doc))
    change(doc)
    with pytest.raises(VerificationError) as info:
        _step5(doc)
    assert info.value.step == 5
    return info.value.reason


def test_step5_passes_the_specs_run(pp_run):
    assert _step5(pp_run) == (f"spec primetime_payout.toml (SHA-256 {PP_SHA[:16]}...) matches the manifest; "
                              "every pool is as it says")


def test_step5_names_the_file_whose_hash_differs(pp_run):
    def change(doc):
        doc["spec"]["sha256"] = "0" * 64
        doc["spec"]["file"] = "old.toml"
    assert _fails(pp_run, change) == (f"spec primetime_payout.toml has SHA-256 {PP_SHA}, the manifest says "
                                      f"{'0' * 64} (file old.toml)")


@pytest.mark.parametrize(("key", "value"), [("name", "Prime Time"), ("number", 1),
                                            ("regulation", "K.A.R. 111-23-99"), ("rules", "primetime")])
def test_step5_names_a_game_field_that_is_not_the_specs(pp_run, key, value):
    was = pp_run["game"][key]
    assert _fails(pp_run, lambda doc: doc["game"].update({key: value})) == (
        f"game.{key}: manifest {value!r}, spec {was!r}")


def test_step5_names_a_play_parameter_that_is_not_the_specs(pp_run):
    spots = pp_run["play"]["spots"]
    assert _fails(pp_run, lambda doc: doc["play"].update(spots=spots + 1)) == (
        f"play.spots: manifest {spots + 1}, spec {spots}")


def test_step5_names_a_play_parameter_the_spec_does_not_have(pp_run):
    assert _fails(pp_run, lambda doc: doc["play"].update(extra=1)) == "play.extra: manifest 1, spec None"


def test_step5_names_a_play_parameter_the_manifest_leaves_out(pp_run):
    wild = pp_run["play"]["wild"]
    assert _fails(pp_run, lambda doc: doc["play"].pop("wild")) == f"play.wild: manifest None, spec {wild!r}"


# ---- the pool's figures, recounted from its table ------------------------------------------------

def _figures(pp_folder, edit) -> str:
    pool = Manifest.parse((pp_folder / "manifest.json").read_bytes()).pools[0]
    table = edit(pl.read_parquet(pp_folder / pool.file))
    with pytest.raises(VerificationError) as info:
        check_figures(table, pool)
    assert info.value.step == 5
    return info.value.reason


def test_step5_names_a_tier_whose_one_ticket_is_missing(pp_folder):
    gone = pl.col("tier") == "m1000"  # the pool's one $1,000 share
    assert _figures(pp_folder, lambda t: t.filter(~gone)) == (
        "tier 'm1000': 0 tickets, the manifest says 1; tickets: recounted 999999, the manifest says "
        "1000000; winners: recounted 330942, the manifest says 330943; prize cost (cents): recounted "
        "87900000, the manifest says 88000000; payout %: recounted 87.9001, the manifest says 88.0000")


def test_step5_counts_every_tier_after_one_it_does_not_know(pp_folder):
    """A share of a tier the manifest does not list, first in the table: the tiers after it are still
    counted, so only that share's tier and its own tier's count are named."""
    first = pl.int_range(pl.len()) == 0
    edit = lambda t: t.with_columns(tier=pl.when(first).then(pl.lit("t99")).otherwise("tier"))  # noqa: E731
    reason = _figures(pp_folder, edit)
    assert reason.startswith("1 ticket(s) of tier 't99', which the manifest does not list; tier ")
    assert reason.count("tickets, the manifest says") == 1


# ---- step 4 ---------------------------------------------------------------------------------------

def _step4(pp_folder, edit=lambda doc: None, edit_table=lambda table: table) -> str:
    doc = json.loads((pp_folder / "manifest.json").read_bytes())
    edit(doc)
    manifest = Manifest.parse(json.dumps(doc).encode())
    pool = manifest.pools[0]
    return check_layouts(edit_table(pl.read_parquet(pp_folder / pool.file)), pool,
                         manifest.doc["game"]["rules"], manifest.doc["play"])


def test_step4_evaluates_every_share_with_the_styles_engine(pp_folder):
    assert _step4(pp_folder) == ("1,000,000 layouts evaluated by audit.styles.area_match: each pays its "
                                 "stored prize (330,943 winners), none illegal")


def test_step4_fails_on_a_play_entry_the_engine_cannot_read(pp_folder):
    with pytest.raises(VerificationError) as info:
        _step4(pp_folder, lambda doc: doc["play"].update(spots="five"))
    assert (info.value.step, info.value.reason) == (
        4, "manifest play entry (area_match): spots must be a whole number 1..16, not 'five'")


def test_step4_names_every_problem_of_a_changed_layout(pp_folder):
    """Share 2 (row 1) wins 50 cents by a bonus; shown as four 13s it also matches, and pays 100."""
    def four_alike(table):
        row = pl.int_range(pl.len()) == 1
        return table.with_columns(**{f"a0_s{j}": pl.when(row).then(13).otherwise(f"a0_s{j}").cast(pl.UInt8)
                                     for j in range(4)})
    with pytest.raises(VerificationError) as info:
        _step4(pp_folder, edit_table=four_alike)
    assert (info.value.step, info.value.reason) == (
        4, "1 layout(s) do not pay the stored prize: d1.00x1-0000002 (row 1) pays 100 cents, stores 50; "
           "1 illegal layout(s): d1.00x1-0000002 (row 1): area 0: a0_bonus is 2 but its symbols trigger no "
           "bonus (0); areas pay 100 = 100 cents, prize_cents is 50")


class _WrongShape:  # an engine that answers for another number of rows
    @staticmethod
    def evaluate(table, pool, play):
        from audit.styles.interface import Evaluation
        return Evaluation(np.zeros(2, dtype=np.int64), np.zeros(2, dtype=np.int64), [])


def test_step4_refuses_an_engine_answer_of_another_length(pp_folder, monkeypatch):
    import audit.styles
    monkeypatch.setitem(audit.styles.TICKET_ENGINES, "area_match", _WrongShape)
    with pytest.raises(VerificationError) as info:
        _step4(pp_folder)
    assert (info.value.step, info.value.reason) == (
        4, "the rules engine returned (2,) prizes and (2,) wins for 1,000,000 rows")


def test_steps_3_to_6_of_a_pool_file_that_is_not_parquet(pp_folder, tmp_path):
    folder = tmp_path / "run"
    shutil.copytree(pp_folder, folder)
    manifest = Manifest.parse((folder / "manifest.json").read_bytes())
    pool = manifest.pools[0]
    (folder / pool.file).write_bytes(b"not parquet")
    out = pool_outcomes(folder, pool, manifest.doc["game"]["rules"], manifest.kind, None, None,
                        manifest.doc["play"])
    assert out[2][0] == "fail" and out[3][0] == "fail"
    assert out[3][1].startswith("pool-d1.00x1.parquet cannot be read as Parquet: ")
    assert {s: out[s] for s in (4, 5, 6)} == {
        s: ("skip", "needs step 3: pool-d1.00x1.parquet cannot be read") for s in (4, 5, 6)}


def test_step3_names_columns_out_of_the_manifests_order(pp_folder):
    pool = Manifest.parse((pp_folder / "manifest.json").read_bytes()).pools[0]
    table = pl.read_parquet(pp_folder / pool.file)
    swapped = table.select(["ticket", "position", *table.columns[2:]])
    with pytest.raises(VerificationError) as info:
        check_complete(swapped, pool, "einstant", None)
    assert (info.value.step, info.value.reason) == (
        3, f"columns {swapped.columns} are not the manifest's {list(pool.columns)}")
