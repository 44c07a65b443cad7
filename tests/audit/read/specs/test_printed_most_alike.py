"""With --spec, an area's `most_alike` the spec leaves out must be the default the style resolves and
writes into the entry (bonus_reveal max(1, S - 1), S its spots; symbol_count max(1, c1 - 1), c1 the
legend's smallest count: docs/styles/bonus_reveal.md, symbol_count.md). `most_alike` is a rule of the
rows (step 4 refuses a ticket showing one picture more often: that many alike read as a match), so a
re-signed entry raising it would have step 4 pass tickets the game's rules forbid. Made on Super Red Hot
Crossword (a bonus_reveal area of 2 spots without most_alike) and Five Alarm Flames (its symbol_count
area's `most_alike = 2`, the default for a legend from 3, taken out), each cut to 3,000 tickets."""

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
from tests.support.reseal import resign


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("most_alike")
    keys = new_key_pair(root / "keys", None)
    signer = Signer.from_file(keys.private)
    out = {}
    for style, name in (("bonus_reveal", "super_red_hot_crossword"), ("symbol_count", "five_alarm_flames")):
        spec = small_example(root, name, 3000)
        text = spec.read_text()
        spec.write_text(text.replace("\nmost_alike = 2 ", "\n# (left out) "))
        assert "\nmost_alike" not in spec.read_text()
        game = load_spec(spec)
        request = GenerateRequest(game, SEED_A, now=datetime(2026, 12, 1, tzinfo=UTC), out=root / "runs",
                                  run_id=name, pool_ids=[game.pools[0].id], signature=signer.manifest_entry())
        out[style] = {"run": generate(request, finish=signer.sign_run).folder, "spec": spec}
    return {"public": keys.public, "signer": signer, **out}


@pytest.mark.parametrize("style", ["bonus_reveal", "symbol_count"])
def test_the_honest_runs_pass_step_5_with_their_specs_leaving_most_alike_out(runs, style):
    made = runs[style]
    report = verify_run(VerifyRequest(run=made["run"], public_key=runs["public"], spec=made["spec"]))
    assert report.failed == []


@pytest.mark.parametrize(("style", "area", "raised", "reason"), [
    ("bonus_reveal", "bonus", 2, "area bonus: most_alike 2, spec 1 (left out)"),
    ("symbol_count", "flames", 3, "area flames: most_alike 3, spec 2 (left out)"),
])
def test_a_resigned_entry_raising_a_most_alike_the_spec_leaves_out_fails_step_5(runs, tmp_path, style, area,
                                                                                raised, reason):
    made = runs[style]
    run = tmp_path / "run"
    shutil.copytree(made["run"], run)

    def raise_it(doc):  # type: ignore[no-untyped-def]
        entry = next(a for a in doc["play"]["areas"] if a["id"] == area)
        assert entry["most_alike"] == raised - 1
        entry["most_alike"] = raised

    resign(run, raise_it, runs["signer"])
    assert verify_run(VerifyRequest(run=run, public_key=runs["public"])).failed == []  # the manifest's rules
    report = verify_run(VerifyRequest(run=run, public_key=runs["public"], spec=made["spec"]))
    assert report.failed == [Step.FIGURES]
    assert report.step(Step.FIGURES).reasons == [reason]
