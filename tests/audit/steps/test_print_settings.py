"""With --spec, step 5 holds the manifest's `print.free_ticket_tiers` and `print.virn_digits` to the spec
(audit/read/specs/printed.py `PrintSettings`). Step 9 derives every validation record from the
manifest's list of free-ticket tiers, so an insider who re-signed a run listing the top tier there
passed every step with the spec (validation files written to that list, whose records say FREE for the
jackpot, would agree with step 9: the desk tells its holder "a free ticket"); so did a manifest stating
9-digit VIRNs where the spec says 12. A small signed Happy Holidays run re-signed by
tests/support/reseal.py `resign`."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from audit.checklist import Step
from audit.verify import VerifyRequest, verify_run
from tests.support.reseal import resign, signed_small_run


@pytest.fixture(scope="module")
def signed(tmp_path_factory) -> dict[str, Any]:
    return signed_small_run(tmp_path_factory.mktemp("print-settings"))


@pytest.fixture
def run(signed, tmp_path) -> Path:
    shutil.copytree(signed["run"], tmp_path / "run")
    return tmp_path / "run"


def _top(doc: dict[str, Any]) -> str:
    return str(max(doc["pools"][0]["tiers"], key=lambda t: t["prize_cents"])["id"])


def test_the_untouched_run_states_the_specs_print_settings(signed, run):
    report = verify_run(VerifyRequest(run=run, public_key=signed["public"], spec=signed["spec"]))
    assert report.ok, report.to_json()


def test_a_cash_tier_listed_as_a_free_ticket_fails_step_5_with_the_spec(signed, run):
    top: list[str] = []
    resign(run, lambda doc: (top.append(_top(doc)), doc["print"]["free_ticket_tiers"].append(top[0])),
           signed["signer"])
    report = verify_run(VerifyRequest(run=run, public_key=signed["public"], spec=signed["spec"]))
    assert report.failed == [Step.FIGURES]
    assert report.step(Step.FIGURES).reasons == [
        f"print.free_ticket_tiers ['free', '{top[0]}'], spec ['free']"]


def test_fewer_validation_digits_than_the_spec_fail_step_5_with_the_spec(signed, run):
    resign(run, lambda doc: doc["print"].update(virn_digits=9), signed["signer"])
    report = verify_run(VerifyRequest(run=run, public_key=signed["public"], spec=signed["spec"]))
    assert Step.FIGURES in report.failed
    assert report.step(Step.FIGURES).reasons == ["print.virn_digits 9, spec 12"]
