"""With --spec, an area's key the spec leaves out must hold the default the style's entry writes for it
(audit/read/specs/printed.py LEFT_OUT): a re-signed entry giving a key_number_match area a special
symbol (a 2X multiplier, a moneybag), decoy weights or another `match_by`, or a match_n area a
multiplier, states rules that are not the spec's, which step 4 would then apply. Made on Happy Holidays
(match_n, no multipliers) and Diamond Life (key_number_match, no specials), each cut to 3,000 tickets."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime

import pytest

from audit.checklist import Step
from audit.verify import VerifyRequest, verify_run
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from poolgen.run.signing import Signer, new_key_pair
from tests.support import SEED_A, small_example
from tests.support.reseal import resign, signed_small_run


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("left_out")
    happy = signed_small_run(root / "hh")
    keys = new_key_pair(root / "keys", None)
    signer = Signer.from_file(keys.private)
    spec = small_example(root, "diamond_life", 3000)
    game = load_spec(spec)
    request = GenerateRequest(game, SEED_A, now=datetime(2026, 12, 1, tzinfo=UTC), out=root / "runs",
                              run_id="dl", pool_ids=[game.pools[0].id], signature=signer.manifest_entry())
    diamond = {"run": generate(request, finish=signer.sign_run).folder, "public": keys.public, "spec": spec,
               "signer": signer}
    return {"match_n": happy, "key_number_match": diamond}


@pytest.mark.parametrize("game", ["match_n", "key_number_match"])
def test_the_honest_runs_pass_step_5_with_their_specs(runs, game):
    made = runs[game]
    report = verify_run(VerifyRequest(run=made["run"], public_key=made["public"], spec=made["spec"]))
    assert report.failed == []


@pytest.mark.parametrize(("game", "key", "value", "reason"), [
    ("match_n", "multipliers", [{"code": "2X", "by": 2}],
     "area play: multipliers [{'by': 2, 'code': '2X'}], spec [] (left out)"),
    ("key_number_match", "specials", [{"code": "2X", "how": "multiplier", "by": 2}],
     "area play: specials [{'by': 2, 'code': '2X', 'how': 'multiplier'}], spec [] (left out)"),
    ("key_number_match", "decoy_weights", [1] * 11,
     "area play: decoy_weights [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], spec none (left out)"),
    ("key_number_match", "winning_from", "play", "area play: winning_from 'play', spec none (left out)"),
])
def test_a_resigned_area_stating_a_key_the_spec_leaves_out_otherwise_fails_step_5(runs, tmp_path, game, key,
                                                                                  value, reason):
    made = runs[game]
    run = tmp_path / "run"
    shutil.copytree(made["run"], run)
    resign(run, lambda doc: doc["play"]["areas"][0].update({key: value}), made["signer"])
    report = verify_run(VerifyRequest(run=run, public_key=made["public"], spec=made["spec"]))
    assert Step.FIGURES in report.failed
    assert reason in report.step(Step.FIGURES).reasons, report.step(Step.FIGURES).reasons
