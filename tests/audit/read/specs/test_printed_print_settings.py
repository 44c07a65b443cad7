"""What a format-2 spec says of a run's `print` settings (audit/read/specs/printed.py, `PrintSettings`),
against an insider holding the signing key and the validation keys: a manifest whose
`print.free_ticket_tiers` or `print.virn_digits` is not the spec's, with imaging and validation files
made to agree with it and signed again, passes every other step (step 9 takes both from the manifest,
and step 7 regenerates pool and imaging files, not the manifest's `print`), so step 5 with --spec is
what holds them to the game. A small signed Happy Holidays run with both real validation keys (its
tier `free` pays a free ticket, its tier `1` $1 cash); each case works on a copy."""

from __future__ import annotations

import shutil
from pathlib import Path

import polars as pl
import pytest

from audit.checklist import Step
from audit.verify import VerifyRequest, verify_run
from tests.support.reseal import rebuild_validation, resign, signed_small_run


@pytest.fixture(scope="module")
def signed(tmp_path_factory) -> dict:
    return signed_small_run(tmp_path_factory.mktemp("settings"), 6000, validation_keys=True)


@pytest.fixture
def run(signed, tmp_path) -> Path:
    dst = tmp_path / "run"
    shutil.copytree(signed["run"], dst)
    return dst


def _verify(signed, run: Path, spec: bool = True):
    return verify_run(VerifyRequest(run=run, public_key=signed["public"],
                                    spec=signed["spec"] if spec else None,
                                    validation_key=signed["root"] / "low.key",
                                    high_validation_key=signed["root"] / "high.key"))


@pytest.mark.parametrize(("tiers", "reason"), [
    (["free", "1"], "print.free_ticket_tiers ['free', '1'], spec ['free']"),  # $1 cash paid as a ticket
    ([], "print.free_ticket_tiers [], spec ['free']"),  # a free ticket paid as $1 cash
])
def test_a_resigned_free_ticket_tier_list_not_the_specs_fails_step_5(signed, run, tiers, reason):
    rebuild_validation(run, signed["root"], tiers)
    resign(run, lambda doc: doc["print"].update(free_ticket_tiers=tiers), signed["signer"])
    without = _verify(signed, run, spec=False)
    assert without.failed == [], without.to_json()  # the files agree with the manifest: only the spec tells
    report = _verify(signed, run)
    assert report.failed == [Step.FIGURES], report.to_json()
    assert report.step(Step.FIGURES).reasons == [reason]


def test_a_resigned_virn_length_not_the_specs_fails_step_5(signed, run):
    """Nine-digit validation numbers (the spec's are 12): a thousand times less work to find a
    ticket's record from its barcode alone."""
    for name in ("imaging-p1.parquet", "imaging-p2.parquet"):
        table = pl.read_parquet(run / name)
        table.with_columns(pl.col("virn").str.slice(3)).write_parquet(run / name)
    resign(run, lambda doc: doc["print"].update(virn_digits=9), signed["signer"])
    rebuild_validation(run, signed["root"])
    resign(run, lambda doc: None, signed["signer"])
    assert _verify(signed, run, spec=False).failed == []
    report = _verify(signed, run)
    assert report.failed == [Step.FIGURES], report.to_json()
    assert report.step(Step.FIGURES).reasons == ["print.virn_digits 9, spec 12"]
