"""With --spec, step 5 holds a prize_legend_duel run's `play` entry to the one docs/styles/
prize_legend_duel.md section 2 derives from the spec's [play] and [[symbols]]
(audit/styles/prize_legend_duel.py `play_from_spec`): a re-signed manifest raising
`loser_max_multipliers` would have step 4 pass losers showing more multipliers than the game's rules
allow, and one changing a display parameter would publish rules that are not the spec's. The Hand to
Hand Tactics block example cut to 20,000 shares (tests/support/blocks.py)."""

from __future__ import annotations

import shutil
import tomllib
from datetime import UTC, datetime

import pytest

from audit.styles.prize_legend_duel import play_from_spec
from audit.verify import VerifyRequest, verify_run
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from poolgen.run.signing import Signer, new_key_pair
from tests.support import SEED_A, spec_path
from tests.support.blocks import blocks_variant
from tests.support.reseal import resign


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    root = tmp_path_factory.mktemp("duel")
    keys = new_key_pair(root / "keys", None)
    signer = Signer.from_file(keys.private)
    spec = blocks_variant(root)
    run = generate(GenerateRequest(load_spec(spec), SEED_A, now=datetime(2026, 12, 1, tzinfo=UTC),
                                   out=root / "runs", run_id="d", signature=signer.manifest_entry()),
                   finish=signer.sign_run).folder
    return {"run": run, "public": keys.public, "spec": spec, "signer": signer}


def test_the_entry_derived_from_the_real_games_spec_is_the_one_poolgen_writes():
    path = spec_path("hand_to_hand_tactics")
    assert play_from_spec(tomllib.loads(path.read_text())) == load_spec(path).play.document()


def test_the_honest_runs_play_entry_passes_step_5_with_the_spec(made):
    report = verify_run(VerifyRequest(run=made["run"], public_key=made["public"], spec=made["spec"]))
    assert report.failed == []


@pytest.mark.parametrize(("field", "value", "reason"), [
    ("loser_max_multipliers", 2, "play.loser_max_multipliers: manifest 2, spec 1"),
    ("first_spot_loss", "1/3", "play.first_spot_loss: manifest '1/3', spec '1/4'"),
    ("max_decompositions", 512, "play.max_decompositions: manifest 512, spec 256"),
])
def test_a_resigned_play_entry_that_is_not_the_specs_fails_step_5(made, tmp_path, field, value, reason):
    run = tmp_path / "run"
    shutil.copytree(made["run"], run)
    resign(run, lambda doc: doc["play"].update({field: value}), made["signer"])
    report = verify_run(VerifyRequest(run=run, public_key=made["public"], spec=made["spec"]))
    assert report.failed == [5]
    assert report.step(5).reasons == [reason]
    assert verify_run(VerifyRequest(run=run, public_key=made["public"])).failed == []  # the manifest's rules
