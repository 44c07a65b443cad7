"""What a format-2 spec says a run's `play` entry holds (audit/read/specs/printed.py), against a real
re-signed run of a small Happy Holidays (tests/support/reseal.py `resign`): with --spec, step 5
refuses a manifest whose rules of play are not the spec's, `max_wins` included (step 4 judges every
layout by the manifest's, so a raised one would publish, and pass, tickets the game forbids)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from audit.checklist import Step
from audit.verify import VerifyRequest, verify_run
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from poolgen.run.signing import Signer, new_key_pair
from tests.support import SEED_A, small_happy_holidays
from tests.support.reseal import resign


@pytest.fixture
def signed(tmp_path) -> dict:
    files = new_key_pair(tmp_path / "keys", None)
    signer = Signer.from_file(files.private)
    spec = small_happy_holidays(tmp_path, 3000)
    run = generate(GenerateRequest(load_spec(spec), SEED_A, now=datetime(2026, 12, 1, tzinfo=UTC),
                                   out=tmp_path / "runs", run_id="hh", signature=signer.manifest_entry()),
                   finish=signer.sign_run).folder
    return {"run": run, "public": files.public, "signer": signer, "spec": spec}


def test_a_resigned_play_entry_that_raises_max_wins_fails_step_5_with_the_spec(signed):
    run = signed["run"]
    resign(run, lambda doc: doc["play"].update(max_wins=2), signed["signer"])
    report = verify_run(VerifyRequest(run=run, public_key=signed["public"], spec=signed["spec"]))
    assert report.step(Step.SIGNATURE).status == "pass"
    assert report.step(Step.LAYOUTS).status == "pass"  # no layout of this run has two wins
    assert report.failed == [Step.FIGURES]
    assert report.step(Step.FIGURES).reasons == ["play.max_wins 2, spec 1"]
