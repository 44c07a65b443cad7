"""Step 4 (and, with the spec, step 5) refusing a real signed run of Ohio's Joker Poker (specs/examples/
oh_joker_poker.toml, cut to one pool of 540) whose manifest an insider holding the signing key changed in
the poker_hand entry's two keys of docs/styles/poker_hand.md section 3, and signed again
(tests/support/reseal.py): `joker_multiplier` 3 (every winning JOKER hand then pays three times, not its
tier's twice) and `five_of_a_kind` left out (five of a kind a RANK again: the chart, from the royal flush,
is one the entry cannot have)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from poolgen.cli.main import app
from poolgen.loader import load_spec
from tests.support import small_example
from tests.support.layout_tamper import copied, signed_run
from tests.support.reseal import resign


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("joker")
    spec = load_spec(small_example(folder, "oh_joker_poker", 540))
    return signed_run(folder, spec, spec.pools[0]) | {"spec_file": folder / "oh_joker_poker.toml"}


def _verify(base: dict[str, Any], run: Path, *more: str) -> dict[str, Any]:
    result = CliRunner().invoke(app, ["verify", str(run), "--public-key", str(base["keys"].public), "--json",
                                      *more])
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


def _area(doc: dict[str, Any]) -> dict[str, Any]:
    return doc["play"]["areas"][0]


def test_the_honest_run_states_both_keys_and_verifies_with_its_spec(base, tmp_path):
    run = copied(base, tmp_path)
    area = _area(json.loads((run / "manifest.json").read_bytes()))
    assert (area["five_of_a_kind"], area["joker_multiplier"], area["chart"][-1]["hand"]) == \
        (False, 2, "kings_or_better")
    assert _verify(base, run, "--spec", str(base["spec_file"]))["failed_steps"] == []


def test_a_multiplier_restated_3_fails_step_4_on_every_joker_winner_and_5_against_the_spec(base, tmp_path):
    run = copied(base, tmp_path)
    resign(run, lambda doc: _area(doc).update(joker_multiplier=3), base["signer"])
    joker = sum(t.count for t in base["pool"].tiers if t.id.endswith("_joker"))
    report = _verify(base, run)
    assert report["failed_steps"] == [4] and joker == 38
    (reason,) = report["steps"][3]["reasons"]
    assert reason.startswith(f"pool p1: {joker} layout(s) do not pay the stored prize: ")
    assert f"; {joker} illegal layout(s): " in reason and "_joker''s (1 win(s) paying " in reason
    with_spec = _verify(base, run, "--spec", str(base["spec_file"]))
    assert with_spec["failed_steps"] == [4, 5]
    assert with_spec["steps"][4]["reasons"] == ["area hand: joker_multiplier 3, spec 2"]


def test_five_of_a_kind_left_out_of_the_entry_makes_it_unreadable(base, tmp_path):
    run = copied(base, tmp_path)
    resign(run, lambda doc: _area(doc).pop("five_of_a_kind"), base["signer"])
    report = _verify(base, run)
    assert report["failed_steps"] == [4]
    assert report["steps"][3]["reasons"] == [
        "pool p1: could not be checked: ValueError: manifest play entry: area 'hand': deck, ranking, chart, "
        "prizes, joker, five_of_a_kind or joker_multiplier unreadable"]
    with_spec = _verify(base, run, "--spec", str(base["spec_file"]))
    assert with_spec["steps"][4]["reasons"] == ["area hand: five_of_a_kind None, spec False"]
