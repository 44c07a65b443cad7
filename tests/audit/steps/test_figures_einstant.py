"""Step 5 of an eInstant run (audit/steps/figures.py), message by message: the figures recounted, and
the run against its spec (the spec's hash, every game field, every pool, and the play entry an area_match
engine derives from the spec: docs/styles/area_match.md section 1). Called directly on one small real pool
(tests/audit/conftest.py's pp_folder), so each case costs an edit of a dict or a table."""

from __future__ import annotations

import hashlib
import json

import polars as pl
import pytest

from audit.errors import VerificationError
from audit.read.manifest import Manifest
from audit.read.specs import read_spec
from audit.steps.figures import check_against_spec, check_figures
from tests.support import spec_path

PP = spec_path("primetime_payout")
PP_SHA = hashlib.sha256(PP.read_bytes()).hexdigest()


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
