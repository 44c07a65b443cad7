"""Step 5 refuses, without the spec, an eInstant style's `play` entry holding a key its contract does not
give it (audit/read/fields.py `play_fields`): docs/styles/area_match.md section 1 and
docs/styles/prize_legend_duel.md section 2 list the entry's keys, and the entry is published with the
manifest. A printed run's entry was held to its keys; an eInstant's could carry anything (the top
prizes' serials) and pass every step without --spec. Small signed runs of Primetime Payout and Hand to
Hand Tactics, re-signed by an insider."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest

from audit.checklist import Step
from audit.verify import VerifyRequest, verify_run
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from poolgen.run.signing import Signer, new_key_pair
from tests.support import SEED_A, small_einstant
from tests.support.reseal import resign

UNLISTED = "manifest field(s) docs/manifest.md does not list: {} (the manifest is published; only the " \
           "listed fields are known to tell no outcome)"


@pytest.fixture(scope="module", params=[("primetime_payout", "d1.00x1"), ("hand_to_hand_tactics", "d1.00")],
                ids=["area_match", "prize_legend_duel"])
def signed(request, tmp_path_factory) -> dict[str, Any]:
    rules, pool = request.param
    root = tmp_path_factory.mktemp(rules)
    keys = new_key_pair(root / "keys")
    signer = Signer.from_file(keys.private)
    spec = small_einstant(root, rules, 1000)
    run = generate(GenerateRequest(load_spec(spec), SEED_A, now=datetime(2026, 1, 2, tzinfo=UTC),
                                   out=root / "runs", run_id="r", pool_ids=[pool],
                                   signature=signer.manifest_entry()),
                   finish=signer.sign_run).folder
    return {"run": run, "public": keys.public, "signer": signer, "style": request.param[0]}


def _edits(style: str) -> list[tuple[Callable[[dict[str, Any]], object], str]]:
    top = (lambda doc: doc["play"].update(top_prizes={"d1.00": [17, 2031]}), "play.top_prizes")
    if style == "primetime_payout":
        return [top, (lambda doc: doc["play"]["bonus_games"][0].update(note="serial 17"),
                      "play.bonus_games[].note"),
                (lambda doc: doc["play"]["match_pays"][0].update(serials=[17]), "play.match_pays[].serials")]
    return [top, (lambda doc: doc["play"]["play_symbols"][0].update(note="serial 17"),
                  "play.play_symbols[].note"),
            (lambda doc: doc["play"]["multiplier_symbol"].update(at=17), "play.multiplier_symbol.at")]


def test_the_untouched_runs_hold_only_their_contracts_keys(signed):
    report = verify_run(VerifyRequest(run=signed["run"], public_key=signed["public"]))
    assert report.ok, report.to_json()


@pytest.mark.parametrize("which", [0, 1, 2])
def test_an_einstant_play_entry_with_a_key_its_contract_does_not_give_fails_step_5(signed, tmp_path, which):
    run = tmp_path / "run"
    shutil.copytree(signed["run"], run)
    edit, field = _edits(signed["style"])[which]
    resign(run, edit, signed["signer"])
    report = verify_run(VerifyRequest(run=run, public_key=signed["public"]))
    assert report.failed == [Step.FIGURES], report.to_json()
    assert report.step(Step.FIGURES).reasons == [UNLISTED.format(field)]
